//! Automatic checkpointing of time loops by budget (`FERROZYME_TAPE_BUDGET`).
//!
//! A reverse-mode gradient of `for (t = 0; t < nsteps; ++t) step(state, ...)` tapes every
//! step: memory proportional to `nsteps`. When the user writes the loop with
//! `__enzyme_checkpoint_for` the lowering (`mod.rs`) runs Revolve instead. This file gives
//! the same to loops written plainly, in the functions a reverse-mode hook call
//! differentiates (`__enzyme_autodiff`, split mode):
//!
//! * **At compile time** each outermost loop of such a function is a *candidate* when it
//!   is a counted loop with one exit (`ranges::counted`: the trip count is known on
//!   entry), carries nothing from one iteration to the next but its counter (the state is
//!   in memory), nothing it computes is used after it, its body is big enough to matter
//!   (an inner loop, in it or in a callee, or at least [`MIN_FLOAT_OPS`] floating-point
//!   instructions), and its state can be identified: the body is outlined into a step
//!   function `void step(t, live-ins...)` (a copy; the loop itself stays), everything the
//!   step writes must be traceable (`writes.rs`: locals, globals, or memory reached from
//!   a live-in pointer) and the bytes written from each live-in pointer must be bounded
//!   by values known before the loop (`ranges.rs`). Those regions (and the globals the
//!   step writes) are the snapshot. Any other loop keeps full taping, with a
//!   `-Rpass=enzyme` remark saying why.
//! * **At run time** the preheader computes the trip count, the regions' sizes and an
//!   estimate of one iteration's tape (`ranges.rs`), and asks the driver
//!   (`__fz_ckpt_auto_use` in `driver.c`): only when `FERROZYME_TAPE_BUDGET` is set and
//!   `trip count x estimate` exceeds it does the function run
//!   `__enzyme_checkpoint_for(step, start, n, enzyme_checkpoint_region, p, bytes, ...,
//!   live-ins...)` without a scheme, which the lowering turns into Revolve with
//!   `budget / snapshot bytes` slots; otherwise it runs the original loop, taped as
//!   before. Both are correct derivatives; the choice is one of memory against time.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{Loop, Loops};
use ferrozyme_llvm::{
    link_ir_for_target, Block, Builder, IntPredicate, Module, Opcode, Remark, RemarkKind, Value,
};

use super::counted::{counted, Counted};
use super::snapshot::{checkpoint_call, describe, snapshot, Snapshot};
use super::writes;
use crate::common::ir_text::quote;

/// A loop body without an inner loop needs at least this many floating-point
/// instructions (in it and its callees) to be worth checkpointing.
pub(crate) const MIN_FLOAT_OPS: usize = 8;

/// Makes the candidate loops of `targets` (the functions reverse-mode hook calls
/// differentiate) checkpointed under a budget; returns one remark per outermost loop.
/// `explained`: the caller shows the remarks, so the reasons quote the IR they name.
/// Otherwise the quotations are left out of reasons nobody reads: printing one
/// instruction numbers the whole module's globals and functions first (LLVM's slot
/// tracker), so quoting a refused loop in each of n functions cost O(n^2) (issue 18:
/// 10% of `ferrozyme opt` on the `wide` program of 2,560 functions).
pub(crate) fn apply(
    module: Module,
    targets: &[(Value, Vec<bool>)],
    explained: bool,
) -> Vec<Remark> {
    let say: Quote = if explained { quote } else { unquoted };
    let mut remarks = Vec::new();
    let mut k = 0;
    while module.function(&format!("__fz_auto_step.{k}")).is_some() {
        k += 1;
    }
    let mut done = HashSet::default();
    for (f, dup) in targets {
        let f = *f;
        if f.is_declaration() || !done.insert(f) {
            continue;
        }
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        let mut outer: Vec<&Loop> = loops
            .loops
            .iter()
            .filter(|l| {
                !loops
                    .loops
                    .iter()
                    .any(|o| o.blocks.len() > l.blocks.len() && o.blocks.contains(&l.header))
            })
            .collect();
        let order: HashMap<Block, usize> = f
            .blocks()
            .into_iter()
            .enumerate()
            .map(|(i, b)| (b, i))
            .collect();
        outer.sort_by_key(|l| order.get(&l.header).copied().unwrap_or(usize::MAX));
        for l in outer {
            let loc = l
                .header
                .instructions()
                .into_iter()
                .chain(l.latches.iter().filter_map(|b| b.terminator()))
                .find_map(|i| i.source_loc());
            let vector = dup.is_empty() && !f.params().is_empty();
            let attempt = if vector {
                Err("a derivative request differentiates the function in vector mode (enzyme_width), which checkpointed loops do not support".to_string())
            } else {
                candidate(module, f, dup, l, &loops, k, say)
            };
            let message = match attempt {
                Ok(what) => {
                    k += 1;
                    format!("the loop is checkpointed automatically (binomial, Revolve) when FERROZYME_TAPE_BUDGET is set and its estimated tape exceeds it: {what}")
                }
                Err(why) => {
                    format!("the loop is taped in full, not checkpointed automatically: {why}")
                }
            };
            remarks.push(Remark {
                kind: RemarkKind::Checkpoint,
                function: f.name(),
                loc,
                message,
            });
        }
    }
    remarks
}

/// How a refusal's reason quotes an instruction ([`quote`], or [`unquoted`]).
pub(super) type Quote = fn(Value) -> String;

/// The quotation of a reason nobody reads (see [`apply`]).
fn unquoted(_: Value) -> String {
    String::new()
}

fn is_fp_op(i: Value) -> bool {
    i.ty().is_fp()
}

/// Floating-point instructions of `blocks` and of the functions they call; whether any
/// of those functions has a loop.
fn body_size(blocks: &[Block]) -> (usize, bool) {
    let mut floats = 0;
    let mut has_loop = false;
    let mut seen = HashSet::default();
    let mut work: Vec<Value> = Vec::new();
    let scan = |insts: Vec<Value>, work: &mut Vec<Value>, floats: &mut usize| {
        for i in insts {
            if is_fp_op(i) {
                *floats += 1;
            }
            if let Some(g) = i.is_call().then(|| i.called_function()).flatten() {
                if !g.is_declaration() {
                    work.push(g);
                }
            }
        }
    };
    for b in blocks {
        scan(b.instructions(), &mut work, &mut floats);
    }
    while let Some(g) = work.pop() {
        if !seen.insert(g) || seen.len() > 64 {
            continue;
        }
        if !Loops::new(&Cfg::new(g)).loops.is_empty() {
            has_loop = true;
        }
        let insts = g.instructions().collect();
        scan(insts, &mut work, &mut floats);
    }
    (floats, has_loop)
}

/// Checks the loop, and when it qualifies, outlines its body and adds the run-time
/// choice. `Ok` describes the state, `Err` says why the loop stays as it is.
fn candidate(
    module: Module,
    f: Value,
    dup: &[bool],
    l: &Loop,
    loops: &Loops,
    k: usize,
    say: Quote,
) -> Result<String, String> {
    let Prepared {
        c,
        pre,
        blocks,
        live,
    } = prepare(module, f, l, &HashMap::default(), say)?;
    let (floats, callee_loop) = body_size(&blocks);
    let inner = loops
        .loops
        .iter()
        .any(|o| o.header != l.header && l.blocks.contains(&o.header));
    if !inner && !callee_loop && floats < MIN_FLOAT_OPS {
        return Err(format!("its body is small ({floats} floating-point instructions, no inner loop): taping it costs little"));
    }
    let step = outline(module, f, l, &c, &blocks, &live, k);
    let state = shadows_known(f, dup, step, &live)
        .and_then(|()| snapshot(module, f, pre, &c, step, &live, &|_| None, true));
    match state {
        Ok(s) => choice(module, f, pre, &c, step, &live, s),
        Err(why) => {
            step.delete_function();
            Err(why)
        }
    }
}

/// A loop ready to be outlined: its counter, preheader, blocks (in function order) and
/// the values from before it that the body uses.
pub(super) struct Prepared {
    pub c: Counted,
    pub pre: Block,
    pub blocks: Vec<Block>,
    pub live: Vec<Value>,
}

/// Checks that `l` can become a step function (counted, nothing carried in registers or
/// used after it, only branches) and gives it a preheader. `exit_slots`: loop values the
/// phis after the loop may use (kept in those slots, `demote.rs`). `say` quotes the
/// instructions a refusal names.
pub(super) fn prepare(
    module: Module,
    f: Value,
    l: &Loop,
    exit_slots: &HashMap<Value, Value>,
    say: Quote,
) -> Result<Prepared, String> {
    let c = counted(l).ok_or(
        "its trip count is not known on entry (a counted loop `for (i = start; i < n; i++)` with one exit is needed; at -O0 the counter lives in memory)",
    )?;
    let mut c = c;
    for phi in l.header.phis() {
        if phi != c.phi {
            return Err(format!("it carries `{}` from one iteration to the next in a register; only state in memory is checkpointed", say(phi)));
        }
    }
    let blocks: Vec<Block> = l.blocks_in(&f.blocks());
    let mut live = Vec::new();
    let mut seen = HashSet::default();
    for b in &blocks {
        for i in b.instructions() {
            for u in i.users() {
                let slotted = exit_slots.contains_key(&i) && u.opcode() == Some(Opcode::LLVMPHI);
                if u.is_instruction() && !l.blocks.contains(&u.parent_block()) && !slotted {
                    return Err(format!(
                        "`{}`, computed in the loop, is used after it",
                        say(i)
                    ));
                }
            }
            match i.opcode() {
                Some(Opcode::LLVMInvoke)
                | Some(Opcode::LLVMLandingPad)
                | Some(Opcode::LLVMCallBr)
                | Some(Opcode::LLVMIndirectBr)
                | Some(Opcode::LLVMSwitch) => {
                    return Err(format!(
                        "it contains `{}` (only branches are outlined)",
                        say(i)
                    ))
                }
                _ => {}
            }
            if let Some(g) = i.is_call().then(|| i.called_function()).flatten() {
                if g.name().starts_with("__enzyme_") {
                    return Err("it contains a call of an `__enzyme_*` entry point".into());
                }
            }
            if b == &c.exiting && c.exiting == l.header && !c.post {
                let effects =
                    matches!(i.opcode(), Some(Opcode::LLVMStore) | Some(Opcode::LLVMCall))
                        || is_fp_op(i);
                if effects {
                    return Err("its exit test comes after work in the loop header".into());
                }
            }
            if i == c.phi {
                continue;
            }
            for op in i.operands() {
                let outside = (op.is_instruction() && !l.blocks.contains(&op.parent_block()))
                    || op.is_argument();
                if outside && seen.insert(op) {
                    let t = op.ty();
                    if !(t.is_pointer() || t.is_integer() || t.is_fp_scalar()) {
                        return Err(format!("it uses `{}`, of type {t}, from before the loop (pointers, integers and float scalars can be passed to a step)", say(op)));
                    }
                    live.push(op);
                }
            }
        }
    }
    let pre = match l.preheader {
        Some(p) => p,
        None => {
            let entry = l.entry.ok_or("the loop is entered from several places")?;
            give_preheader(module, f, l.header, entry, &mut c)?
        }
    };
    Ok(Prepared {
        c,
        pre,
        blocks,
        live,
    })
}

/// A block of its own between `entry` and the loop's header (clang leaves rotated loops
/// entered straight from their guard); the counter's phi is rebuilt for the new edge.
fn give_preheader(
    module: Module,
    f: Value,
    header: Block,
    entry: Block,
    c: &mut Counted,
) -> Result<Block, String> {
    let b = Builder::new(module.context());
    let pre = b.append_block(f, "fz.auto.preheader");
    b.position_at_end(pre);
    b.br(header);
    let term = entry.terminator().ok_or("a block without a terminator")?;
    for s in 0..term.num_successors() {
        if term.successor(s) == header {
            term.set_successor(s, pre);
        }
    }
    c.phi = rebuild_phi(&b, header, c.phi, entry, pre)?;
    Ok(pre)
}

/// Replaces `phi` (in `header`) by one whose incoming edge from `from` comes from `to`.
pub(super) fn rebuild_phi(
    b: &Builder,
    header: Block,
    phi: Value,
    from: Block,
    to: Block,
) -> Result<Value, String> {
    let first = header.first_instruction().ok_or("an empty loop header")?;
    b.position_before(first);
    let iv = b.phi(phi.ty(), &phi.name());
    for (v, blk) in phi.incoming() {
        iv.add_incoming(v, if blk == from { to } else { blk });
    }
    phi.replace_all_uses_with(iv);
    phi.erase();
    Ok(iv)
}

/// The step's gradient takes a shadow for every pointer it is given: each live-in
/// pointer must have one in every derivative of `f`. Known before differentiation for
/// `f`'s own arguments (the hook calls' markers) and for memory the step writes (the
/// loop's state, which holds what the derivative flows through); a pointer the step only
/// reads and that is not an argument (a local table, a pointer loaded from a structure)
/// may be constant memory without a shadow, so such a loop is left alone.
pub(super) fn shadows_known(
    f: Value,
    dup: &[bool],
    step: Value,
    live: &[Value],
) -> Result<(), String> {
    let written = writes::written(step).map(|w| w.params).unwrap_or_default();
    for (j, v) in live.iter().enumerate() {
        if !v.ty().is_pointer() {
            continue;
        }
        let base = crate::common::base_object(writes::resolve(*v));
        if base.is_argument() {
            let k = f.params().iter().position(|p| *p == base);
            if k.is_some_and(|k| !dup.get(k).copied().unwrap_or(false)) {
                return Err(format!("it uses {}, which a derivative request passes without a shadow (enzyme_const): the checkpointed step's gradient needs one", live_name(base)));
            }
        } else if !written.contains(&j) && !base.is_global_variable() {
            return Err(format!("it reads memory through `{}`, which it does not write and whose activity is only known when differentiating (constant memory has no shadow to give the checkpointed step)", quote(*v)));
        }
    }
    Ok(())
}

/// `void __fz_auto_step.k(iv t, live-ins...)`: a copy of the loop's body for one value
/// of the counter (back edges and exits return).
pub(super) fn outline(
    module: Module,
    f: Value,
    l: &Loop,
    c: &Counted,
    blocks: &[Block],
    live: &[Value],
    k: usize,
) -> Value {
    let ctx = module.context();
    let mut params = vec![c.phi.ty()];
    params.extend(live.iter().map(|v| v.ty()));
    let fty = ctx.function_type(ctx.void(), &params, false);
    let step = module.add_function(&format!("__fz_auto_step.{k}"), fty);
    step.set_linkage_internal();
    step.add_fn_attr("noinline");
    step.mark_origin(f);
    if let Some(p) = f.personality() {
        step.set_personality(p);
    }
    let b = Builder::new(ctx);
    let mut map: HashMap<Value, Value> = HashMap::default();
    let ps = step.params();
    map.insert(c.phi, ps[0]);
    for (v, p) in live.iter().zip(&ps[1..]) {
        map.insert(*v, *p);
    }
    let entry = b.append_block(step, "entry");
    let mut bmap: HashMap<Block, Block> = HashMap::default();
    for blk in blocks {
        bmap.insert(*blk, b.append_block(step, &blk.name()));
    }
    let ret = b.append_block(step, "step.done");
    b.position_at_end(ret);
    b.ret_void();
    b.position_at_end(entry);
    b.br(bmap[&l.header]);
    let mut phis = Vec::new();
    let mut clones = Vec::new();
    for blk in blocks {
        b.position_at_end(bmap[blk]);
        for i in blk.instructions() {
            if i == c.phi {
                continue;
            }
            if i.is_lifetime_or_debug_marker() {
                continue;
            }
            if i.opcode() == Some(Opcode::LLVMPHI) {
                let p = b.phi(i.ty(), &i.name());
                map.insert(i, p);
                phis.push((i, p));
            } else {
                let n = i.clone_instruction();
                b.insert(n);
                n.set_name(&i.name());
                map.insert(i, n);
                clones.push((i, n));
            }
        }
    }
    for (old, n) in &clones {
        for j in 0..n.num_operands() {
            let op = n.operand(j);
            if let Some(&m) = map.get(&op) {
                n.set_operand(j, m);
            }
        }
        if old.is_terminator() {
            for s in 0..old.num_successors() {
                let t = old.successor(s);
                let to = if t == l.header || !l.blocks.contains(&t) {
                    ret
                } else {
                    bmap[&t]
                };
                n.set_successor(s, to);
            }
        }
    }
    for (old, p) in phis {
        for (v, blk) in old.incoming() {
            let v = map.get(&v).copied().unwrap_or(v);
            p.add_incoming(v, bmap[&blk]);
        }
    }
    step
}

/// Builds the run-time choice in `f` (see the module docs); the description of the state.
fn choice(
    module: Module,
    f: Value,
    pre: Block,
    c: &Counted,
    step: Value,
    live: &[Value],
    s: Snapshot,
) -> Result<String, String> {
    let ctx = module.context();
    let b = Builder::new(ctx);
    let term = pre.terminator().ok_or("a preheader without a terminator")?;
    link_driver(module)?;
    let usef = module
        .function("__fz_ckpt_auto_use")
        .ok_or("the checkpoint driver lacks __fz_ckpt_auto_use")?;
    b.position_before(term);
    let r = b.call_fn(usef, &[s.trips, s.facts.tape]);
    let go = b.icmp(IntPredicate::LLVMIntNE, r, ctx.i32().const_i64(0));
    let header = term.successor(0);
    let ck = b.append_block(f, "fz.auto.ckpt");
    // The taped loop keeps a preheader of its own: the reverse sweep reserves the loop's
    // tape there, which the checkpointed path must not pay for.
    let taped = b.append_block(f, "fz.auto.taped");
    b.position_at_end(taped);
    let mark = module
        .function("__fz_ckpt_auto_taped")
        .ok_or("the checkpoint driver lacks __fz_ckpt_auto_taped")?;
    b.call_fn(mark, &[]);
    b.br(header);
    term.erase();
    b.position_at_end(pre);
    b.cond_br(go, ck, taped);
    rebuild_phi(&b, header, c.phi, pre, taped)?;
    checkpoint_call(module, ck, c, step, live, &s, None, &HashMap::default());
    Ok(describe(live, &s))
}

pub(super) fn live_name(v: Value) -> String {
    if v.is_argument() {
        let f = v.parent_function();
        if let Some(k) = f.params().iter().position(|p| *p == v) {
            return format!("argument {} of `{}`", k + 1, f.name());
        }
    }
    format!("`{}`", quote(v))
}

/// Links the checkpoint driver (`driver.ll`) unless the module has it.
pub(super) fn link_driver(module: Module) -> Result<(), String> {
    if module
        .function("__fz_ckpt_auto_use")
        .is_some_and(|f| !f.is_declaration())
    {
        return Ok(());
    }
    link_ir_for_target(module, super::DRIVER_IR, "ferrozyme checkpoint driver")
        .map_err(|e| format!("linking the checkpoint driver failed: {e}"))?;
    for name in ["__fz_ckpt_auto_use", "__fz_ckpt_auto_taped"] {
        if let Some(u) = module.function(name) {
            u.set_linkage_internal();
            u.add_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR, "");
        }
    }
    // The counters stay visible, weak (one per program however many files link the
    // driver), so tests can see which path ran.
    for name in [
        "__fz_ckpt_auto_taped_loops",
        "__fz_ckpt_auto_checkpointed_loops",
    ] {
        if let Some(g) = module.global(name) {
            g.set_linkage_weak();
        }
    }
    Ok(())
}
