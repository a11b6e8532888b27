//! OpenMP parallel regions: what the pass prepares around a microtask's derivative.
//!
//! # Reductions, before differentiation
//!
//! A `reduction(+:s)` clause makes each thread sum into a private copy, then combine it
//! into the shared `s` through `__kmpc_reduce[_nowait]`, whose result picks how: `1`
//! (under a lock, or after the runtime combined the private copies itself in a tree —
//! data flow the pass cannot see) or `2` (`atomicrmw fadd` by every thread). The clone
//! of a microtask is rewritten so every thread combines atomically ([`rewrite_reductions`]):
//! clang's code already has the atomic branch (it is taken); flang's only has the
//! locked one, whose `s = s + private` is turned into `atomicrmw fadd s, private`. The
//! runtime call goes away; its closing `__kmpc_end_reduce` becomes the barrier it implied.
//! The derivative of `atomicrmw fadd s, p` is `dp += ds`, read by every thread.
//! Other reductions (`max`, `min`, `*` of reals) run their locked combination in every
//! thread inside a critical section on the reduction's lock: critical sections are
//! reversed in the exact reverse order the threads entered them, so the adjoint of a
//! `select` or a product follows the forward order. Other shapes keep their runtime
//! calls and are rejected.
//!
//! # The derivative's microtasks
//!
//! The forward sweep forks [`aug_wrapper`]: each thread runs the augmented microtask and
//! files its tape by thread number (`runtime/openmp.c`). The reverse sweep forks
//! [`rev_wrapper`] with as many threads: thread `t` runs the reverse microtask on tape
//! `t` (and `t + team size`, ... when it got fewer threads). Both take the captured
//! arguments with their shadows, in the order of the split functions' parameters, then
//! the tapes.
//!
//! The microtask has two derivatives: one for a team of one thread, whose adjoint
//! updates are plain, and one for larger teams, whose updates of shared memory are
//! atomic (measured on the 2-D heat stencil: an atomic update costs several plain ones,
//! see `bench/README.md`). The forward wrapper runs the one that fits its team and the
//! tapes record which, so the reverse wrapper runs the matching reverse. A region nested
//! in a parallel derivative always runs the atomic one (the `nested.` wrappers): its
//! team of one shares memory with the other threads of the enclosing team.

use ferrozyme_analysis::calls::parallel_callee;
use ferrozyme_llvm::{AtomicRmwOp, Block, Builder, IntPredicate, Module, Opcode, Type, Value};
use ferrozyme_rules::openmp::{openmp_rule, OmpRule};

use crate::common::Problem;
use crate::signature::{primal_shadow_params, Request};

/// Names of the OpenMP helpers in `runtime/openmp.c`.
pub const TAPES_NEW: &str = "__fz_omp_tapes_new";
pub const TAPES_PUT: &str = "__fz_omp_tapes_put";
pub const TAPES_COUNT: &str = "__fz_omp_tapes_count";
pub const TAPES_GET: &str = "__fz_omp_tapes_get";
pub const TAPES_FREE: &str = "__fz_omp_tapes_free";
pub const CHECK_TEAM: &str = "__fz_omp_check_team";
pub const TAPES_PARALLEL: &str = "__fz_omp_tapes_parallel";
/// A critical section's place in the order threads entered critical sections.
pub const CRITICAL_TICKET: &str = "__fz_omp_critical_ticket";
/// Waits until the sections entered after this one are reversed.
pub const CRITICAL_TURN: &str = "__fz_omp_critical_turn";
/// Ends a reversed section: the one entered before it may go.
pub const CRITICAL_DONE: &str = "__fz_omp_critical_done";
/// A doacross wait: whether it is the first of its iteration (on the tape).
pub const DOACROSS_WAIT_MARK: &str = "__fz_omp_doacross_wait_mark";
/// A doacross post: its ticket, and whether its iteration waited.
pub const DOACROSS_POST_TICKET: &str = "__fz_omp_doacross_post_ticket";
/// The reverse of a post: waits for its turn (ends it at once when nothing was waited).
pub const DOACROSS_TURN: &str = "__fz_omp_doacross_turn";
/// The reverse of a wait: the first wait of the iteration ends the turn.
pub const DOACROSS_UNWAIT: &str = "__fz_omp_doacross_unwait";

fn callee_name(i: Value) -> Option<String> {
    (i.opcode() == Some(Opcode::LLVMCall))
        .then(|| i.called_function())
        .flatten()
        .map(|f| f.name())
}

fn is_reduce_call(i: Value) -> bool {
    callee_name(i).is_some_and(|n| n == "__kmpc_reduce" || n == "__kmpc_reduce_nowait")
}

/// Rewrites every reduction of `f` (a clone) to combine in every thread, with
/// `atomicrmw fadd` or in a critical section; see the module essay. Reductions of
/// another shape are left alone (and rejected when active).
pub fn rewrite_reductions(m: Module, f: Value) {
    let calls: Vec<Value> = f.instructions().filter(|i| is_reduce_call(*i)).collect();
    for call in calls {
        rewrite_one(m, call);
    }
}

fn rewrite_one(m: Module, call: Value) {
    let users = call.users();
    let [user] = users.as_slice() else { return };
    let i32t = m.context().i32();
    // clang: `switch %r [1 -> locked, 2 -> atomic]`.
    if user.opcode() == Some(Opcode::LLVMSwitch) {
        let cases = user.switch_cases();
        // flang at -O0 has a case 2 too, but `unreachable`: only a real atomic branch.
        let done = user.successor(0);
        let ends = end_calls(cases.iter().map(|(_, b)| *b), done);
        if cases
            .iter()
            .any(|(v, b)| v.const_int_value() == Some(2) && updates_atomically(*b, done))
        {
            finish(m, call, i32t.const_int(2), false, &ends);
            return;
        }
        let locked = cases
            .iter()
            .find(|(v, _)| v.const_int_value() == Some(1))
            .map(|(_, b)| *b);
        if let Some(b) = locked {
            combine_locked(m, call, b, done, &ends);
        }
        return;
    }
    // flang: `%c = icmp eq %r, 1; br %c, locked, done`.
    if user.opcode() == Some(Opcode::LLVMICmp)
        && user.icmp_predicate() == IntPredicate::LLVMIntEQ
        && user.operand(1).const_int_value() == Some(1)
    {
        let br = user.users();
        let locked = br
            .iter()
            .find(|b| b.opcode() == Some(Opcode::LLVMBr) && b.num_operands() == 3)
            .map(|b| (b.successor(0), b.successor(1)));
        if let Some((b, done)) = locked {
            let ends = end_calls([b], done);
            combine_locked(m, call, b, done, &ends);
        }
    }
}

/// Every thread runs the locked combination entered at `b`: with `atomicrmw fadd` for
/// sums of reals, else (max, min, products, ...) inside a critical section on the
/// reduction's lock, whose reverse follows the exact reverse order of the threads
/// (`reverse/parallel/forks.rs`), so a `select` or a product is differentiated right.
fn combine_locked(m: Module, call: Value, b: Block, done: Block, ends: &[Value]) {
    let one = m.context().i32().const_int(1);
    if make_atomic(b, done) {
        finish(m, call, one, false, ends);
    } else if let (Some(at), false) = (b.first_non_phi(), ends.is_empty()) {
        let args = call.call_args();
        let (loc, gtid, lock) = (args[0], args[1], args[args.len() - 1]);
        let ctx = m.context();
        let ty = ctx.function_type(ctx.void(), &[ctx.ptr(), ctx.i32(), ctx.ptr()], false);
        let enter = m.get_or_declare("__kmpc_critical", ty);
        let bld = Builder::new(ctx);
        bld.position_before(at);
        bld.call_fn(enter, &[loc, gtid, lock]);
        finish(m, call, one, true, ends);
    }
}

/// The closing calls (`__kmpc_end_reduce[_nowait]`) of one reduction: those in the
/// branches entered at `entries` before they rejoin at `done` (a region with several
/// reductions has one pair of calls per reduction, on the same lock).
fn end_calls(entries: impl IntoIterator<Item = Block>, done: Block) -> Vec<Value> {
    let mut ends = Vec::new();
    for e in entries {
        for i in branch_blocks(e, done)
            .unwrap_or_default()
            .iter()
            .flat_map(|b| b.instructions())
        {
            let closing = matches!(
                callee_name(i).as_deref(),
                Some("__kmpc_end_reduce" | "__kmpc_end_reduce_nowait")
            );
            if closing && !ends.contains(&i) {
                ends.push(i);
            }
        }
    }
    ends
}

/// The blocks of the branch entered at `b` up to where it rejoins at `done` (None when
/// there are more than [`MAX_BRANCH_BLOCKS`]). A scalar's combination is `b` itself; an
/// array's (`reduction(+:a[:n])` in clang at -O0, `reduction(+:a)` of a Fortran array in
/// flang at -O0) is a loop over the elements after it.
fn branch_blocks(b: Block, done: Block) -> Option<Vec<Block>> {
    let mut seen = vec![done];
    let mut work = vec![b];
    while let Some(x) = work.pop() {
        if seen.contains(&x) {
            continue;
        }
        if seen.len() > MAX_BRANCH_BLOCKS {
            return None;
        }
        seen.push(x);
        work.extend(x.successors());
    }
    Some(seen.split_off(1))
}

/// Does the branch entered at `b` combine with `atomicrmw fadd`/`fsub` before it rejoins
/// at `done`, and with nothing else atomic on reals? A clause mixing `+` with `max` of a real
/// (`reduction(+:s) reduction(max:m)`) has clang's compare-and-swap loop for the maximum
/// beside the `fadd` in that branch: such a region takes the locked branch instead, in a
/// critical section.
fn updates_atomically(b: Block, done: Block) -> bool {
    branch_blocks(b, done).is_some_and(|bs| {
        let mut fadd = false;
        for i in bs.iter().flat_map(|x| x.instructions()) {
            match i.opcode() {
                Some(Opcode::LLVMAtomicRMW)
                    if matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub) =>
                {
                    fadd = true
                }
                // Integer updates (`reduction(+:count)`) carry no derivative.
                Some(Opcode::LLVMAtomicRMW) if !i.ty().is_fp_scalar() => {}
                Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => return false,
                _ => {}
            }
        }
        fadd
    })
}

/// How many blocks [`branch_blocks`] follows (a combination has at most a loop header,
/// body and exit per reduced array).
const MAX_BRANCH_BLOCKS: usize = 64;

/// Turns the locked combination `store (fadd (load s), x), s` of each variable (or array
/// element) in the branch entered at `b`, up to `done`, into `atomicrmw fadd s, x`. False
/// (and nothing changed) when some store of the branch is not of that form.
fn make_atomic(b: Block, done: Block) -> bool {
    let Some(blocks) = branch_blocks(b, done) else {
        return false;
    };
    let stores: Vec<Value> = blocks
        .iter()
        .flat_map(|x| x.instructions())
        .filter(|i| i.opcode() == Some(Opcode::LLVMStore))
        .collect();
    let mut plan = Vec::new();
    for st in &stores {
        let (v, s) = (st.operand(0), st.operand(1));
        if v.opcode() != Some(Opcode::LLVMFAdd) || !v.ty().is_fp_scalar() {
            return false;
        }
        let (a, x) = (v.operand(0), v.operand(1));
        let (old, x) = if a.opcode() == Some(Opcode::LLVMLoad) && a.operand(0) == s {
            (a, x)
        } else if x.opcode() == Some(Opcode::LLVMLoad) && x.operand(0) == s {
            (x, a)
        } else {
            return false;
        };
        if old.users().len() != 1 || v.users().len() != 1 {
            return false;
        }
        plan.push((*st, v, old, x, s));
    }
    if plan.is_empty() {
        return false;
    }
    let bld = Builder::new(b.as_value().ty().context());
    for (st, v, old, x, s) in plan {
        bld.position_before(st);
        bld.atomic_fadd(s, x);
        st.erase();
        v.erase();
        old.erase();
    }
    true
}

/// The reduction call's result becomes `choice`; the call goes; its closing calls `ends`
/// become the barrier they imply (`__kmpc_end_reduce`) or nothing (`_nowait`), after the
/// end of the critical section the combination runs in (`critical`).
fn finish(m: Module, call: Value, choice: Value, critical: bool, ends: &[Value]) {
    call.replace_all_uses_with(choice);
    call.erase();
    let ctx = m.context();
    let barrier_ty = ctx.function_type(ctx.void(), &[ctx.ptr(), ctx.i32()], false);
    let end_critical_ty = ctx.function_type(ctx.void(), &[ctx.ptr(), ctx.i32(), ctx.ptr()], false);
    for &i in ends {
        let args = i.call_args();
        let b = Builder::new(ctx);
        b.position_before(i);
        if critical {
            let exit = m.get_or_declare("__kmpc_end_critical", end_critical_ty);
            b.call_fn(exit, &args);
        }
        if callee_name(i).as_deref() == Some("__kmpc_end_reduce") {
            let barrier = m.get_or_declare("__kmpc_barrier", barrier_ty);
            b.call_fn(barrier, &[args[0], args[1]]);
        }
        i.erase();
    }
}

/// An OpenMP runtime call that is not differentiated but hands outlined code to the
/// runtime (a task, a taskloop, a teams region): the data flowing into that code through
/// runtime-allocated memory is invisible to activity analysis, so the call is rejected
/// whether or not its arguments look active.
/// Returns the routine's name, for [`outlining_problem`].
pub fn unsupported_outlining(call: Value) -> Option<String> {
    let f = call.called_function()?;
    let Some(OmpRule::Unsupported { .. }) = openmp_rule(&f.name()) else {
        return None;
    };
    call.call_args()
        .iter()
        .any(|a| a.is_function() && !a.is_declaration())
        .then(|| f.name())
}

/// The problem an [`unsupported_outlining`] call of `name` is.
pub fn outlining_problem(name: &str) -> Problem<'_> {
    crate::libcalls::missing_derivative(name)
}

/// Does the microtask (or a function it calls) synchronise with barriers or critical
/// sections (doacross dependences among them) (or atomic compare-and-swap loops, which may become critical sections)? Then its reverse needs the forward team: a thread reversing two tapes would
/// wait at a barrier for itself, or for its own later critical section's turn.
pub fn needs_forward_team(f: Value) -> bool {
    let mut seen = ferrozyme_analysis::hash::HashSet::from_iter([f]);
    let mut work = vec![f];
    while let Some(g) = work.pop() {
        for i in g.instructions() {
            // A compare-and-swap loop of a product becomes a critical section in the
            // clone (`atomic_cas.rs`); this looks at the original.
            if i.opcode() == Some(Opcode::LLVMAtomicCmpXchg) {
                return true;
            }
            // So do a captured atomic update and an atomic extremum (hpc37).
            if i.opcode() == Some(Opcode::LLVMAtomicRMW)
                && i.ty().is_fp_scalar()
                && (i.atomic_float_extremum().is_some() || !i.users().is_empty())
            {
                return true;
            }
            let Some(c) = i.is_call().then(|| i.called_function()).flatten() else {
                continue;
            };
            match openmp_rule(&c.name()) {
                Some(
                    OmpRule::Barrier
                    | OmpRule::CriticalBegin
                    | OmpRule::CriticalEnd
                    | OmpRule::DoacrossWait
                    | OmpRule::DoacrossPost,
                ) => return true,
                Some(OmpRule::Reduce) if c.name() == "__kmpc_reduce" => return true,
                _ => {}
            }
            if !c.is_declaration() && seen.insert(c) {
                work.push(c);
            }
        }
    }
    false
}

/// The parameter types of both wrappers: the split functions' (captured arguments with
/// their shadows), then the tapes.
fn wrapper_type(m: Module, req: &Request) -> Type {
    let ctx = m.context();
    let mut params = primal_shadow_params(req);
    params.push(ctx.ptr());
    ctx.function_type(ctx.void(), &params, false)
}

/// The forward sweep's microtask: the augmented microtask for its team (`aug[0]` for
/// one thread, `aug[1]` for more), then its tape filed under the thread's number in the
/// tapes (last parameter), which also note the team's size.
pub fn aug_wrapper(
    m: Module,
    req: &Request,
    aug: [Value; 2],
    put: Value,
    num_threads: Value,
) -> Value {
    let nested = if aug[0] == aug[1] { "nested." } else { "" };
    let name = format!("fz_omp_aug.{nested}{}", req.func.name());
    if let Some(w) = m.function(&name) {
        return w;
    }
    let ctx = m.context();
    let w = m.add_function(&name, wrapper_type(m, req));
    w.set_linkage_internal();
    let b = Builder::new(ctx);
    let entry = b.append_block(w, "entry");
    let one = b.append_block(w, "one");
    let team = b.append_block(w, "team");
    let done = b.append_block(w, "done");
    let params = w.params();
    let (args, tapes) = params.split_at(params.len() - 1);
    b.position_at_end(entry);
    let nt = b.call_fn(num_threads, &[]);
    let many = b.icmp(IntPredicate::LLVMIntSGT, nt, ctx.i32().const_int(1));
    b.cond_br(many, team, one);
    let tape_of = |blk, f: Value| {
        b.position_at_end(blk);
        let r = b.call_fn(f, args);
        let fields = f.function_type().return_type().struct_fields().len() as u32;
        let t = b.extract_value(r, fields - 1);
        b.br(done);
        t
    };
    let t1 = tape_of(one, aug[0]);
    let tn = tape_of(team, aug[1]);
    b.position_at_end(done);
    let tape = b.phi(ctx.ptr(), "tape");
    tape.add_incoming(t1, one);
    tape.add_incoming(tn, team);
    b.call_fn(put, &[tapes[0], tape]);
    b.ret_void();
    w
}

/// The reverse sweep's microtask: thread `t` of `nt` reverses tapes `t, t + nt, ...`,
/// with the reverse microtask that matches the forward team (`rev[0]` for one thread,
/// `rev[1]` for more).
pub fn rev_wrapper(
    m: Module,
    req: &Request,
    rev: [Value; 2],
    helpers: [Value; 4],
    same_team: bool,
    omp_api: [Value; 2],
) -> Value {
    let nested = if rev[0] == rev[1] { "nested." } else { "" };
    let name = format!("fz_omp_rev.{nested}{}", req.func.name());
    if let Some(w) = m.function(&name) {
        return w;
    }
    let [count, get, check, parallel] = helpers;
    let [thread_num, num_threads] = omp_api;
    let ctx = m.context();
    let i32t = ctx.i32();
    let w = m.add_function(&name, wrapper_type(m, req));
    w.set_linkage_internal();
    let b = Builder::new(ctx);
    let entry = b.append_block(w, "entry");
    let head = b.append_block(w, "loop");
    let body = b.append_block(w, "body");
    let exit = b.append_block(w, "exit");
    let params = w.params();
    let (args, tapes) = params.split_at(params.len() - 1);
    let tapes = tapes[0];
    b.position_at_end(entry);
    let tid = b.call_fn(thread_num, &[]);
    let nt = b.call_fn(num_threads, &[]);
    let n = b.call_fn(count, &[tapes]);
    b.call_fn(check, &[tapes, i32t.const_int(same_team as u64)]);
    let par = b.call_fn(parallel, &[tapes]);
    let par = b.icmp(IntPredicate::LLVMIntNE, par, i32t.zero());
    b.br(head);
    b.position_at_end(head);
    let k = b.phi(i32t, "k");
    let more = b.icmp(IntPredicate::LLVMIntSLT, k, n);
    b.cond_br(more, body, exit);
    b.position_at_end(body);
    let tape = b.call_fn(get, &[tapes, k]);
    let mut rargs = args.to_vec();
    rargs.push(tape);
    let one = b.append_block(w, "one");
    let team = b.append_block(w, "team");
    let next_blk = b.append_block(w, "next");
    b.cond_br(par, team, one);
    for (blk, f) in [(one, rev[0]), (team, rev[1])] {
        b.position_at_end(blk);
        b.call_fn(f, &rargs);
        b.br(next_blk);
    }
    b.position_at_end(next_blk);
    let next = b.binop(Opcode::LLVMAdd, k, nt);
    b.br(head);
    k.add_incoming(tid, entry);
    k.add_incoming(next, next_blk);
    b.position_at_end(exit);
    b.ret_void();
    w
}

// ------------------------------------------------------------ flang's captures

/// The constant byte offset of the address `p` from the object it is computed from
/// through getelementptrs with constant indices: `(object, offset)`, or `None` when some
/// index is not constant.
pub fn constant_offset(p: Value) -> Option<(Value, u64)> {
    if p.opcode() != Some(Opcode::LLVMGetElementPtr) {
        return Some((p, 0));
    }
    let (v, off) = p.parent_function().parent_module().strip_const_geps(p);
    if v.opcode() == Some(Opcode::LLVMGetElementPtr) {
        return None;
    }
    u64::try_from(off).ok().map(|off| (v, off))
}

/// Is `slot` flang's `structArg`: a stack struct of pointers that the function only
/// fills (stores into it and into its fields) and hands to parallel regions, never
/// reading it back? Its first field is the slot's own address, so a constant pointer
/// stored there is a field like the others (`n` captured first: the region reads only
/// the integer, tests/fortran/85), not a captured variable the caller reads back.
pub fn is_capture_struct(slot: Value) -> bool {
    use ferrozyme_llvm::TypeKind;
    let ty = slot.allocated_type();
    if ty.kind() != TypeKind::Struct
        || ty
            .struct_fields()
            .iter()
            .any(|f| f.kind() != TypeKind::Pointer)
    {
        return false;
    }
    let stored_into = |u: Value, addr: Value| {
        u.opcode() == Some(Opcode::LLVMStore) && u.operand(1) == addr && u.operand(0) != addr
    };
    slot.users().into_iter().all(|u| match u.opcode() {
        Some(Opcode::LLVMStore) => stored_into(u, slot),
        Some(Opcode::LLVMGetElementPtr) => {
            u.operand(0) == slot && u.users().into_iter().all(|s| stored_into(s, u))
        }
        Some(Opcode::LLVMCall) => {
            ferrozyme_analysis::captures::is_marker(u) || parallel_callee(u).is_some()
        }
        _ => false,
    })
}

/// A struct of captured addresses handed to parallel regions (flang's `structArg`): does
/// every microtask only read integers through the address stored at byte `offset` of it?
/// Then a constant pointer stored there keeps a null shadow that the region's derivative
/// never uses (tests/openmp/06: `n`). Reading floats there would add adjoints through
/// it (a segfault), so the audit refuses that (unless runtime activity takes it over).
pub fn field_reads_integers_only(slot: Value, offset: u64) -> bool {
    captured_field_loads(slot, offset)
        .is_some_and(|loads| loads.into_iter().all(reads_integers_only))
}

/// The loads, in every microtask `slot` (a struct of captured addresses) is handed to, of
/// the address stored at byte `offset` of it: what the regions see of that captured
/// variable. `None` when a use of the struct there is not a load of a field at a
/// constant offset.
pub fn captured_field_loads(slot: Value, offset: u64) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    for u in slot.users() {
        let Some(micro) = (u.opcode() == Some(Opcode::LLVMCall))
            .then(|| parallel_callee(u))
            .flatten()
        else {
            continue;
        };
        let params = micro.params();
        for (k, x) in u.call_args().iter().enumerate().skip(3) {
            if *x == slot {
                field_loads_of_param(*params.get(k - 1)?, offset, &mut out)?;
            }
        }
    }
    Some(out)
}

fn field_loads_of_param(p: Value, offset: u64, out: &mut Vec<Value>) -> Option<()> {
    for u in p.users() {
        let at = match u.opcode() {
            Some(Opcode::LLVMGetElementPtr) => constant_offset(u)?.1,
            Some(Opcode::LLVMLoad) => 0,
            Some(Opcode::LLVMCall) if ferrozyme_analysis::captures::is_marker(u) => continue,
            _ => return None,
        };
        if at != offset {
            continue;
        }
        if u.opcode() == Some(Opcode::LLVMLoad) {
            out.push(u);
        } else {
            let users = u.users();
            if users.iter().any(|l| l.opcode() != Some(Opcode::LLVMLoad)) {
                return None;
            }
            out.extend(users);
        }
    }
    Some(())
}

/// Does the code only load integers through the pointer `q` (and addresses computed from
/// it), storing nothing, calling nothing with it?
fn reads_integers_only(q: Value) -> bool {
    let mut work = vec![q];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > 64 {
            return false;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) if u.ty().is_integer() => {}
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == v => work.push(u),
                Some(Opcode::LLVMCall) if ferrozyme_analysis::captures::is_marker(u) => {}
                _ => return false,
            }
        }
    }
    true
}
