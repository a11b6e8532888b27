//! Reverse mode of parallel code: OpenMP regions, atomics and MPI calls.
//!
//! The core sweeps hand over the calls `ferrozyme_analysis::calls` classifies as
//! [`CallKind::OpenMp`] or [`CallKind::Mpi`] (one hook each in `calls.rs`'s forward and
//! reverse dispatch, one in `check.rs`), `atomicrmw` instructions, and the adjoint
//! accumulation of loads in derivatives that run on several threads. What each call
//! becomes:
//!
//! * `__kmpc_fork_call(loc, n, microtask, args...)`: the forward sweep allocates a tape
//!   per thread and forks the augmented microtask's wrapper; the reverse sweep forks
//!   the reverse microtask's wrapper on as many threads and frees the tapes
//!   (`parallel/openmp.rs`). Each argument the microtask gets through a pointer with a
//!   shadow is passed with its shadow. The microtask is differentiated twice: for a team
//!   of one thread (plain adjoint updates) and for a larger team ([`Request::parallel`]:
//!   atomic updates); the wrappers pick by the forward team's size. A host `teams`
//!   region (`__kmpc_fork_teams`, same arguments) is the same with the league's teams as
//!   the members (`parallel/teams.rs`).
//! * `__kmpc_barrier`: mirrored in the reverse sweep (the shared memory it orders in
//!   the forward sweep is the shadow memory the reverse sweep updates); a critical
//!   section is reversed in the exact reverse order the threads went through it
//!   (tickets, `runtime/openmp.c`); so is the waited-for part of a doacross iteration
//!   (`__kmpc_doacross_wait` ... `__kmpc_doacross_post`).
//! * MPI: the primal call, or a recording helper, in the forward sweep; the adjoint
//!   communication at the mirror position (`parallel/mpi.rs`, `runtime/mpi.c`).
//! * `atomicrmw fadd|fsub p, x` (OpenMP atomics, reductions): `dx ±= *shadow(p)`, read
//!   by every thread; its result (the old value) must be unused.
//! * In a derivative that runs on several threads ([`Request::parallel`], inherited by
//!   the derivatives of the functions it calls), a load from memory the function did not
//!   allocate adds its adjoint with `atomicrmw fadd` (several threads may read the same
//!   element); the adjoints of stores need no atomics, since a race-free program has one
//!   writer per element.
//!
//! [`CallKind::OpenMp`]: ferrozyme_analysis::calls::CallKind::OpenMp
//! [`CallKind::Mpi`]: ferrozyme_analysis::calls::CallKind::Mpi

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{classify, parallel_callee, CallKind};
use ferrozyme_llvm::{AtomicRmwOp, Opcode, Type, TypeKind, Value};
use ferrozyme_rules::mpi::{is_window_operation_impl, MpiRule};
use ferrozyme_rules::openmp::OmpRule;

use super::state::Facts;
use super::{Gen, Key};
use crate::common::{Diags, Problem};
use crate::lanes::Lane;
use crate::parallel::teams::Members;
use crate::parallel::{helper, mpi, openmp, Family};
use crate::services::Support;
use crate::signature::Request;

/// The runtime's `*p += v` of a `long double` under its lock (`runtime/openmp.c`).
const ADD_FP80: &str = "__fz_omp_add_fp80";

// ---------------------------------------------------------------------- checks

/// Rejects, before any code is emitted, parallel constructs that cannot be
/// differentiated: atomics other than `fadd`/`fsub` on differentiated memory (or whose
/// old value is used), reductions the rewrite left alone, captured values passed by
/// value, vector mode through parallel calls, nonblocking MPI calls whose request has no
/// shadow, and runtime calls that outline code (tasks).
pub(super) fn check_parallel(fx: &Facts, sup: &Support, diags: &mut Diags, i: Value) {
    match i.opcode() {
        Some(Opcode::LLVMAtomicRMW) => check_atomic_rmw(fx, diags, i),
        Some(Opcode::LLVMCall) => {
            if let Some(name) = openmp::unsupported_outlining(i) {
                diags.report(Some(i), openmp::outlining_problem(&name));
                return;
            }
            if let Some((routine, op)) = mpi::refused_onesided_op(i) {
                if fx.act.call_is_active(i, &sup.touchers) {
                    diags.report(Some(i), Problem::OnesidedOperation { routine, op });
                    return;
                }
            }
            if let Some((routine, op)) = mpi::refused_reduction_op(i) {
                if fx.act.call_is_active(i, &sup.touchers) {
                    diags.report(Some(i), Problem::ReductionOperation { routine, op });
                    return;
                }
            }
            match classify(i) {
                CallKind::OpenMp(OmpRule::Reduce) => {
                    diags.report(Some(i), Problem::OpenMpReduction)
                }
                CallKind::OpenMp(OmpRule::Fork) if fx.act.call_is_active(i, &sup.touchers) => {
                    if fx.width() > 1 {
                        diags.report(Some(i), Problem::ParallelVectorMode);
                    }
                    match parallel_callee(i).map(|m| fork_request(fx, i, m, false)) {
                        Some(Ok(_)) => {}
                        Some(Err(p)) => diags.report(Some(i), p),
                        None => diags.report(
                            Some(i),
                            Problem::Internal {
                                msg: "a __kmpc_fork_call without its microtask".to_string(),
                            },
                        ),
                    }
                }
                CallKind::Mpi(rule) if mpi_active(fx, sup, i, rule) => {
                    if fx.width() > 1 {
                        diags.report(Some(i), Problem::ParallelVectorMode);
                    }
                    let args = i.call_args();
                    let req = match rule {
                        MpiRule::Isend | MpiRule::Irecv | MpiRule::SendInit | MpiRule::RecvInit => {
                            args.get(6).copied()
                        }
                        MpiRule::Wait | MpiRule::Start | MpiRule::RequestFree => {
                            args.first().copied()
                        }
                        MpiRule::Waitall | MpiRule::Startall => args.get(1).copied(),
                        _ => None,
                    };
                    if req.is_some_and(|r| !fx.act.is_shadowed(r)) {
                        let in_window = is_window_operation_impl(diags.function_name());
                        diags.report(
                            Some(i),
                            if in_window {
                                Problem::WindowWithoutShadow
                            } else {
                                Problem::RequestWithoutShadow
                            },
                        );
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

fn check_atomic_rmw(fx: &Facts, diags: &mut Diags, i: Value) {
    let (p, x) = (i.operand(0), i.operand(1));
    let touches = fx.act.is_shadowed(p) || fx.act.is_active(x) || fx.act.is_active(i);
    if !touches || !x.ty().is_fp() {
        return;
    }
    if !matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub) {
        diags.report(Some(i), Problem::UnsupportedAtomic);
    } else if fx.act.is_active(i) {
        diags.report(Some(i), Problem::AtomicOldValue);
    }
}

/// Is this MPI call part of the derivative (it moves differentiated data, or is a
/// barrier, which is mirrored whatever it synchronises)?
fn mpi_active(fx: &Facts, sup: &Support, i: Value, rule: MpiRule) -> bool {
    rule == MpiRule::Barrier || fx.act.call_is_active(i, &sup.touchers)
}

/// The request for differentiating the microtask of a fork: the thread ids are
/// constant, captured pointers with shadows are duplicated; `parallel` chooses the
/// variant with atomic adjoint updates.
fn fork_request<'a>(
    fx: &Facts,
    i: Value,
    micro: Value,
    parallel: bool,
) -> Result<Request, Problem<'a>> {
    let args = i.call_args();
    let params = micro.params();
    if params.len() + 1 != args.len() {
        return Err(Problem::Internal {
            msg: "the arguments of this __kmpc_fork_call do not match its microtask".to_string(),
        });
    }
    let mut acts = vec![ArgActivity::Const; params.len()];
    for (k, a) in args.iter().enumerate().skip(3) {
        if params[k - 1].ty().is_pointer() && fx.act.is_shadowed(*a) {
            acts[k - 1] = ArgActivity::Dup;
        } else if fx.act.is_active(*a) {
            return Err(Problem::CapturedByValue);
        }
    }
    Ok(Request {
        func: micro,
        args: acts,
        noneed: Vec::new(),
        placeholder: Vec::new(),
        ret_active: false,
        width: 1,
        parallel,
        runtime: fx.rt.call_runtime(i),
    })
}

impl Gen<'_> {
    /// Must the adjoint of a load through `addr` be added atomically? In a derivative
    /// that runs on several threads, unless the memory was allocated by this function (a
    /// thread's own).
    pub(super) fn atomic_adjoint(&self, addr: Value) -> bool {
        self.fx.req.parallel
            && !matches!(
                super::memory::underlying(addr),
                super::memory::Obj::Local(_)
            )
    }

    /// `*p += d`, atomically, for the floating leaves of `ty` (one `atomicrmw fadd` per
    /// scalar, per lane of a vector; a `long double` through the runtime's lock).
    pub(super) fn mem_add_atomic(&mut self, p: Value, ty: Type, d: Value) {
        let (i32t, i64t) = (self.fx.ctx.i32(), self.fx.ctx.i64());
        match ty.kind() {
            TypeKind::Float | TypeKind::Double => {
                self.b.atomic_fadd(p, d);
            }
            // No atomic 80-bit add on x86-64: the runtime's lock (`runtime/openmp.c`).
            // Skipped before hpc43: a silently wrong gradient at 2+ threads (openmp/98).
            TypeKind::X86Fp80 => match helper(self.fx.m, Family::OpenMp, ADD_FP80) {
                Ok(f) => {
                    self.b.call(f.function_type(), f, &[p, d]);
                }
                Err(msg) => self.report(None, Problem::Internal { msg }),
            },
            TypeKind::Half | TypeKind::OtherFloat => self.report(
                None,
                Problem::UnsupportedOpcode {
                    opcode: "load",
                    why: "the adjoint of a half-precision or 128-bit float that several threads read would need an atomic addition of that type, which is not implemented; read it as float or double",
                },
            ),
            TypeKind::Vector if ty.is_fp() => {
                let size = self.fx.m.alloc_size(ty.element_type());
                for k in 0..ty.vector_len() as u64 {
                    let x = self.b.extract_element(d, i32t.const_int(k));
                    let q = self.b.byte_gep(p, i64t.const_int(k * size));
                    self.b.atomic_fadd(q, x);
                }
            }
            TypeKind::Struct | TypeKind::Array => {
                let is_struct = ty.kind() == TypeKind::Struct;
                let n = if is_struct {
                    ty.struct_fields().len() as u32
                } else {
                    ty.array_len() as u32
                };
                for k in 0..n {
                    let fty = if is_struct {
                        ty.struct_fields()[k as usize]
                    } else {
                        ty.element_type()
                    };
                    if !fty.contains_fp() {
                        continue;
                    }
                    let q = if is_struct {
                        self.b.struct_gep(ty, p, k)
                    } else {
                        self.b
                            .gep(ty, p, &[i32t.const_int(0), i32t.const_int(k as u64)])
                    };
                    let x = self.b.extract_value(d, k);
                    self.mem_add_atomic(q, fty, x);
                }
            }
            _ => {}
        }
    }

    fn helper_or_report(&mut self, i: Value, family: Family, name: &str) -> Option<Value> {
        match helper(self.fx.m, family, name) {
            Ok(f) => Some(f),
            Err(msg) => {
                self.report(Some(i), Problem::Internal { msg });
                None
            }
        }
    }

    // ------------------------------------------------------------------ forward sweep

    /// The forward sweep of a call of a library family: true when handled here.
    pub(super) fn fwd_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork)
                if self.fx.act.call_is_active(i, &self.sup.touchers) =>
            {
                self.fwd_fork(i);
                true
            }
            CallKind::Mpi(rule) if mpi_active(&self.fx, self.sup, i, rule) => self.fwd_mpi(i, rule),
            CallKind::OpenMp(OmpRule::CriticalEnd) => self.fwd_ticketed(i, openmp::CRITICAL_TICKET),
            CallKind::OpenMp(OmpRule::DoacrossPost) => {
                self.fwd_ticketed(i, openmp::DOACROSS_POST_TICKET)
            }
            CallKind::OpenMp(OmpRule::DoacrossWait) => {
                self.fwd_ticketed(i, openmp::DOACROSS_WAIT_MARK)
            }
            _ => false,
        }
    }

    /// The end of a critical section in the forward sweep: a ticket (the section's place
    /// in the order the threads went through critical sections; on the tape), then the
    /// call. The reverse of the section waits for its turn (`rev_sync`). A doacross post
    /// takes its ticket the same way, and a doacross wait its mark (`helper`).
    fn fwd_ticketed(&mut self, i: Value, helper: &str) -> bool {
        let (Some(h), Some(end)) = (
            self.helper_or_report(i, Family::OpenMp, helper),
            i.called_function(),
        ) else {
            return false;
        };
        let ticket = self.b.call_fn(h, &[]);
        let args: Vec<Value> = i.call_args().iter().map(|a| self.fwd_operand(*a)).collect();
        let c = self.b.call_fn(end, &args);
        self.vals.fwd.insert(i, c);
        self.vals.call_tape.insert(i, ticket);
        true
    }

    /// The requests of a fork's microtask: `(team of one, larger team)`. Nested in a
    /// parallel derivative, even a team of one shares memory with the enclosing team's
    /// other threads: then both are the atomic variant.
    fn fork_requests(&self, i: Value) -> Option<(Value, Request, Request)> {
        let micro = parallel_callee(i)?;
        let par = fork_request(&self.fx, i, micro, true).ok()?;
        let one = if self.fx.req.parallel {
            par.clone()
        } else {
            fork_request(&self.fx, i, micro, false).ok()?
        };
        Some((micro, one, par))
    }

    /// What a `num_threads` clause asks for (the `__kmpc_push_num_threads` before the
    /// fork), or 0; for a teams region, `num_teams` and `thread_limit`
    /// (`__kmpc_push_num_teams`), or 0s. With an `if` clause too, the push is in the block
    /// that branches to the fork and to the serialized region: the search goes on through
    /// a few blocks that are the only predecessor of the one before.
    fn pushed_sizes(&self, i: Value, members: Members) -> Vec<Value> {
        let pushes = members.push_calls();
        let mut p = i.prev_instruction();
        let mut block = i.parent_block();
        'search: for _ in 0..4 {
            while let Some(x) = p {
                if x.is_call() {
                    let name = x.called_function().map(|f| f.name());
                    if let Some((_, at)) = pushes.iter().find(|(n, _)| Some(*n) == name.as_deref())
                    {
                        let args = x.call_args();
                        return at.iter().map(|k| self.fwd_operand(args[*k])).collect();
                    }
                    if matches!(classify(x), CallKind::OpenMp(OmpRule::Fork)) {
                        break 'search;
                    }
                }
                p = x.prev_instruction();
            }
            let preds: Vec<_> = block
                .parent()
                .blocks()
                .into_iter()
                .filter(|b| b.successors().contains(&block))
                .collect();
            let [pred] = preds[..] else {
                break;
            };
            block = pred;
            p = pred.terminator();
        }
        vec![self.fx.ctx.i32().zero(); members.new_arity()]
    }

    /// The captured arguments of a fork with their shadows, as `get` and `shadow` give
    /// them (forward copies, or values fetched in the reverse sweep), then `tapes`.
    fn fork_args(
        &mut self,
        i: Value,
        req: &Request,
        tapes: Value,
        get: fn(&mut Self, Value) -> Value,
        shadow: fn(&mut Self, Value) -> Value,
    ) -> Vec<Value> {
        let mut out = Vec::new();
        for (a, act) in i.call_args()[3..].iter().zip(&req.args[2..]) {
            out.push(get(self, *a));
            if *act == ArgActivity::Dup {
                out.push(shadow(self, *a));
            }
        }
        out.push(tapes);
        out
    }

    fn fwd_fork(&mut self, i: Value) {
        let (Some((_, one, par)), Some(fork)) = (self.fork_requests(i), i.called_function()) else {
            return;
        };
        let members = Members::of(i);
        let (aug_one, _) = self.callees.split(&one);
        let (aug_par, _) = self.callees.split(&par);
        let (Some(new), Some(put)) = (
            self.helper_or_report(i, Family::OpenMp, members.tapes_new()),
            self.helper_or_report(i, Family::OpenMp, members.tapes_put()),
        ) else {
            return;
        };
        let count = self.sup.libc(members.queries()[1], self.fx.ctx.i32(), &[]);
        let wrapper = openmp::aug_wrapper(self.fx.m, &par, [aug_one, aug_par], put, count);
        let pushed = self.pushed_sizes(i, members);
        let tapes = self.b.call_fn(new, &pushed);
        let captured = self.fork_args(
            i,
            &par,
            tapes,
            |g, a| g.fwd_operand(a),
            |g, a| g.fwd_shadow(a),
        );
        let loc = self.fwd_operand(i.call_args()[0]);
        let mut fa = vec![
            loc,
            self.fx.ctx.i32().const_int(captured.len() as u64),
            wrapper,
        ];
        fa.extend(captured);
        let c = self.b.call(fork.function_type(), fork, &fa);
        self.vals.fwd.insert(i, c);
        self.vals.call_tape.insert(i, tapes);
    }

    /// An `alloca` of `ty` in the forward function's entry block.
    fn fwd_slot(&mut self, ty: Type, name: &str) -> Value {
        self.out.fb_entry.alloca(ty, name)
    }

    /// The forward sweep of an MPI call: a recording helper in place of the primal call
    /// (what it returns goes on the tape), or the primal call copied (false).
    fn fwd_mpi(&mut self, i: Value, rule: MpiRule) -> bool {
        let Some(name) = mpi::helpers(rule).fwd else {
            return false;
        };
        let Some(h) = self.helper_or_report(i, Family::Mpi, name) else {
            return true;
        };
        let orig = i.call_args();
        let args: Vec<Value> = orig.iter().map(|a| self.fwd_operand(*a)).collect();
        let (ptr, i32t, i64t) = (self.fx.ctx.ptr(), self.fx.ctx.i32(), self.fx.ctx.i64());
        let (result, recorded) = match rule {
            MpiRule::Recv | MpiRule::Sendrecv => {
                let who = self.fwd_slot(i64t, "fz.mpi.who");
                let mut a = args.clone();
                a.push(who);
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(i64t, who, "fz.mpi.who"))
            }
            MpiRule::Isend | MpiRule::Irecv | MpiRule::SendInit | MpiRule::RecvInit => {
                let sbuf = self.fwd_shadow(orig[0]);
                let sreq = self.fwd_shadow(orig[6]);
                let a = [
                    args[0], sbuf, args[1], args[2], args[3], args[4], args[5], args[6], sreq,
                ];
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(ptr, sreq, "fz.mpi.rec"))
            }
            MpiRule::Wait => {
                let sreq = self.fwd_shadow(orig[0]);
                let rec = self.b.load(ptr, sreq, "fz.mpi.rec");
                let Some(started) = self.helper_or_report(i, Family::Mpi, mpi::STARTED) else {
                    return true;
                };
                let rec = self.b.call_fn(started, &[rec]);
                let r = self.b.call_fn(h, &[args[0], args[1], rec]);
                (r, rec)
            }
            // (request, record, err) -> the record of this start
            MpiRule::Start => {
                let sreq = self.fwd_shadow(orig[0]);
                let p = self.b.load(ptr, sreq, "fz.mpi.rec");
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let rec = self.b.call_fn(h, &[args[0], p, err]);
                (self.b.load(i32t, err, "fz.mpi.err"), rec)
            }
            MpiRule::Startall => {
                let sreqs = self.fwd_shadow(orig[1]);
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let recs = self.b.call_fn(h, &[args[0], args[1], sreqs, err]);
                (self.b.load(i32t, err, "fz.mpi.err"), recs)
            }
            // Nothing for the reverse sweep.
            MpiRule::RequestFree => {
                let sreq = self.fwd_shadow(orig[0]);
                let r = self.b.call_fn(h, &[args[0], sreq]);
                self.vals.fwd.insert(i, r);
                return true;
            }
            MpiRule::Waitall => {
                let sreqs = self.fwd_shadow(orig[1]);
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let recs = self.b.call_fn(h, &[args[0], args[1], sreqs, args[2], err]);
                (self.b.load(i32t, err, "fz.mpi.err"), recs)
            }
            // (base, dbase, size, disp_unit, comm, &rwin, err) -> the shadow window
            MpiRule::RmaWindow => {
                let d = if self.fx.act.is_shadowed(orig[0]) {
                    self.fwd_shadow(orig[0])
                } else {
                    ptr.zero()
                };
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let mut a = vec![args[0], d];
                a.extend(args[1..].iter().copied());
                a.push(err);
                let swin = self.b.call_fn(h, &a);
                (self.b.load(i32t, err, "fz.mpi.err"), swin)
            }
            // (the primal arguments, err) -> the record of a one-sided operation
            MpiRule::Reduce
            | MpiRule::Allreduce
            | MpiRule::RmaPut
            | MpiRule::RmaGet
            | MpiRule::RmaAccumulate => {
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let mut a = args.clone();
                a.push(err);
                let win = self.b.call_fn(h, &a);
                (self.b.load(i32t, err, "fz.mpi.err"), win)
            }
            _ => return false,
        };
        self.vals.fwd.insert(i, result);
        self.vals.call_tape.insert(i, recorded);
        true
    }

    // ------------------------------------------------------------------ reverse sweep

    /// The reverse of a call of a library family: true when handled here.
    pub(super) fn rev_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork) => {
                if self.fx.act.call_is_active(i, &self.sup.touchers) {
                    self.rev_fork(i);
                }
                true
            }
            CallKind::OpenMp(
                rule @ (OmpRule::Barrier
                | OmpRule::CriticalBegin
                | OmpRule::CriticalEnd
                | OmpRule::DoacrossWait
                | OmpRule::DoacrossPost
                | OmpRule::SerializedBegin
                | OmpRule::SerializedEnd),
            ) => {
                if self.lane == Lane::FIRST {
                    self.rev_sync(i, rule);
                }
                true
            }
            CallKind::Mpi(rule) => {
                if mpi_active(&self.fx, self.sup, i, rule) && self.lane == Lane::FIRST {
                    self.rev_mpi(i, rule);
                }
                true
            }
            _ => false,
        }
    }

    fn rev_fork(&mut self, i: Value) {
        let (Some((micro, one, par)), Some(fork)) = (self.fork_requests(i), i.called_function())
        else {
            return;
        };
        let members = Members::of(i);
        let (_, rev_one) = self.callees.split(&one);
        let (_, rev_par) = self.callees.split(&par);
        let mut hs = Vec::new();
        for n in [
            openmp::TAPES_COUNT,
            openmp::TAPES_GET,
            members.check(),
            openmp::TAPES_PARALLEL,
            openmp::TAPES_FREE,
        ] {
            match self.helper_or_report(i, Family::OpenMp, n) {
                Some(h) => hs.push(h),
                None => return,
            }
        }
        let (i32t, ptr, void) = (self.fx.ctx.i32(), self.fx.ctx.ptr(), self.fx.ctx.void());
        let [num, count] = members.queries();
        let thread_num = self.sup.libc(num, i32t, &[]);
        let num_threads = self.sup.libc(count, i32t, &[]);
        let wrapper = openmp::rev_wrapper(
            self.fx.m,
            &par,
            [rev_one, rev_par],
            [hs[0], hs[1], hs[2], hs[3]],
            openmp::needs_forward_team(micro),
            [thread_num, num_threads],
        );
        let tapes = self.fetch_key(Key::Tape(i));
        let loc = self.fetch(i.call_args()[0]);
        let captured = self.fork_args(i, &par, tapes, |g, a| g.fetch(a), |g, a| g.fetch_shadow(a));
        if members == Members::Teams {
            let Some(push) = self.helper_or_report(i, Family::OpenMp, Members::TEAMS_PUSH) else {
                return;
            };
            self.b.call_fn(push, &[loc, tapes]);
        } else {
            let gtid_fn = self.sup.libc("__kmpc_global_thread_num", i32t, &[ptr]);
            let push = self
                .sup
                .libc("__kmpc_push_num_threads", void, &[ptr, i32t, i32t]);
            let n = self.b.call_fn(hs[0], &[tapes]);
            let gtid = self.b.call_fn(gtid_fn, &[loc]);
            self.b.call_fn(push, &[loc, gtid, n]);
        }
        let mut fa = vec![loc, i32t.const_int(captured.len() as u64), wrapper];
        fa.extend(captured);
        self.b.call(fork.function_type(), fork, &fa);
        self.b.call_fn(hs[4], &[tapes]);
    }

    /// Barriers stay barriers; a serialized region's end and start swap; a critical
    /// section's reverse opens where the forward one
    /// closed, when every section entered after it has been reversed (its ticket's turn:
    /// the order matters when the update does not commute, `p = p * f`), and closes by
    /// giving the turn to the one before; the turns exclude each other like the lock.
    /// The thread id is asked again (the reverse runs in another team).
    fn rev_sync(&mut self, i: Value, rule: OmpRule) {
        let (i32t, ptr, void) = (self.fx.ctx.i32(), self.fx.ctx.ptr(), self.fx.ctx.void());
        match rule {
            // A serialized region's reverse runs between the mirrored pair (its own team
            // of one); the thread id is asked again.
            OmpRule::Barrier | OmpRule::SerializedBegin | OmpRule::SerializedEnd => {
                let name = match rule {
                    OmpRule::Barrier => "__kmpc_barrier",
                    OmpRule::SerializedEnd => "__kmpc_serialized_parallel",
                    _ => "__kmpc_end_serialized_parallel",
                };
                let loc = self.fetch(i.call_args()[0]);
                let gtid_fn = self.sup.libc("__kmpc_global_thread_num", i32t, &[ptr]);
                let gtid = self.b.call_fn(gtid_fn, &[loc]);
                let f = self.sup.libc(name, void, &[ptr, i32t]);
                self.b.call_fn(f, &[loc, gtid]);
            }
            // A doacross iteration's reverse takes its turn where it posted and gives it
            // back at its first wait (or at once when it waited for nothing).
            OmpRule::CriticalEnd | OmpRule::DoacrossPost | OmpRule::DoacrossWait => {
                let name = match rule {
                    OmpRule::CriticalEnd => openmp::CRITICAL_TURN,
                    OmpRule::DoacrossPost => openmp::DOACROSS_TURN,
                    _ => openmp::DOACROSS_UNWAIT,
                };
                let ticket = self.fetch_key(Key::Tape(i));
                if let Some(f) = self.helper_or_report(i, Family::OpenMp, name) {
                    self.b.call_fn(f, &[ticket]);
                }
            }
            OmpRule::CriticalBegin => {
                if let Some(f) = self.helper_or_report(i, Family::OpenMp, openmp::CRITICAL_DONE) {
                    self.b.call_fn(f, &[]);
                }
            }
            _ => {}
        }
    }

    fn rev_mpi(&mut self, i: Value, rule: MpiRule) {
        let args = i.call_args();
        if rule == MpiRule::Barrier {
            let comm = self.fetch(args[0]);
            if let Some(f) = i.called_function() {
                self.b.call_fn(f, &[comm]);
            }
            return;
        }
        let Some(name) = mpi::helpers(rule).rev else {
            return;
        };
        let Some(h) = self.helper_or_report(i, Family::Mpi, name) else {
            return;
        };
        let a: Vec<Value> = match rule {
            // (dbuf, count, type, peer, tag, comm)
            MpiRule::Send => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..6].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
            // (dbuf, count, type, who, comm)
            MpiRule::Recv => {
                let s = self.fetch_shadow(args[0]);
                let (n, t, comm) = (
                    self.fetch(args[1]),
                    self.fetch(args[2]),
                    self.fetch(args[5]),
                );
                let who = self.fetch_key(Key::Tape(i));
                vec![s, n, t, who, comm]
            }
            MpiRule::Isend
            | MpiRule::Irecv
            | MpiRule::Wait
            | MpiRule::SendInit
            | MpiRule::RecvInit
            | MpiRule::Start => vec![self.fetch_key(Key::Tape(i))],
            MpiRule::Waitall | MpiRule::Startall => {
                let n = self.fetch(args[0]);
                vec![n, self.fetch_key(Key::Tape(i))]
            }
            // (dbuf, count, type, root, comm)
            MpiRule::Bcast => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..5].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
            // (send, dsend, drecv, count, type, op, comm, winners): the operation says
            // how a MAXLOC/MINLOC pair type lies.
            MpiRule::Allreduce => {
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let dr = self.fetch_shadow(args[1]);
                let rest: Vec<Value> = args[2..6].iter().map(|x| self.fetch(*x)).collect();
                let win = self.fetch_key(Key::Tape(i));
                [vec![send, ds, dr], rest, vec![win]].concat()
            }
            // (send, dsend, drecv, count, type, op, root, comm, winners)
            MpiRule::Reduce => {
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let dr = self.fetch_shadow(args[1]);
                let rest: Vec<Value> = args[2..7].iter().map(|x| self.fetch(*x)).collect();
                let win = self.fetch_key(Key::Tape(i));
                [vec![send, ds, dr], rest, vec![win]].concat()
            }
            // (dsend, scount, stype, dest, stag, drecv, rcount, rtype, who, comm)
            MpiRule::Sendrecv => {
                let ds = self.fetch_shadow(args[0]);
                let send: Vec<Value> = args[1..5].iter().map(|x| self.fetch(*x)).collect();
                let dr = self.fetch_shadow(args[5]);
                let (rn, rt) = (self.fetch(args[6]), self.fetch(args[7]));
                let who = self.fetch_key(Key::Tape(i));
                let comm = self.fetch(args[10]);
                let mut a = vec![ds];
                a.extend(send);
                a.extend([dr, rn, rt, who, comm]);
                a
            }
            // Gather, Allgather: (send, dsend, scount, stype, drecv, rcount, rtype, [root,] comm)
            MpiRule::Gather | MpiRule::Allgather => {
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let (sn, st) = (self.fetch(args[1]), self.fetch(args[2]));
                let dr = self.fetch_shadow(args[3]);
                let rest: Vec<Value> = args[4..].iter().map(|x| self.fetch(*x)).collect();
                let mut a = vec![send, ds, sn, st, dr];
                a.extend(rest);
                a
            }
            MpiRule::RmaWindow => vec![self.fetch_key(Key::Tape(i))],
            // (dorigin, record): the record holds the counts, target, displacement,
            // datatypes and shadow window, as the forward sweep saw them (a Fortran
            // caller may reuse the variables they were read from).
            MpiRule::RmaPut | MpiRule::RmaGet | MpiRule::RmaAccumulate => {
                let d = if self.fx.act.is_shadowed(args[0]) {
                    self.fetch_shadow(args[0])
                } else {
                    self.fx.ctx.ptr().zero()
                };
                vec![d, self.fetch_key(Key::Tape(i))]
            }
            // (dsend, scount, stype, recv, drecv, rcount, rtype, root, comm)
            MpiRule::Scatter => {
                let ds = self.fetch_shadow(args[0]);
                let (sn, st) = (self.fetch(args[1]), self.fetch(args[2]));
                let recv = self.fetch(args[3]);
                let dr = self.fetch_shadow(args[3]);
                let rest: Vec<Value> = args[4..8].iter().map(|x| self.fetch(*x)).collect();
                let mut a = vec![ds, sn, st, recv, dr];
                a.extend(rest);
                a
            }
            _ => return,
        };
        self.b.call_fn(h, &a);
    }

    /// `atomicrmw fadd|fsub p, x` (result unused, see `check_atomic_rmw`): `x` received
    /// `*p`'s adjoint, which stays in place (the location keeps accumulating).
    pub(super) fn rev_atomic_rmw(&mut self, i: Value) {
        let (p, x) = (i.operand(0), i.operand(1));
        if !x.ty().is_fp() || !self.fx.act.is_active(x) || !self.fx.act.is_shadowed(p) {
            return;
        }
        let sp = self.fetch_shadow(p);
        let t = self.adj_ty(x);
        let d = self.b.load(t, sp, "sh");
        // Run-time activity: no adjoint where the shadow is the primal (constant memory).
        let d = match self.rt_valid_rev(p) {
            Some(ok) => self.b.select(ok, d, t.zero()),
            None => d,
        };
        let d = if i.atomic_rmw_op() == AtomicRmwOp::FSub {
            self.b.fneg(d)
        } else {
            d
        };
        self.add_adj(x, d);
    }
}
