//! The reverse sweep's loops stay rolled where the forward sweep's copies of the
//! primal's loops are unrolled as the user's `-O3` unrolls the primal.
//!
//! `ferrozyme cc` holds partial and run-time unrolling back in its first compile and
//! runs the user's loop options after AD (`deferred.rs`); generated code was not unrolled
//! there at all (`pipeline::derivative_loops`). At `-O3` the target's tuning unrolls
//! short loops with run-time trip counts: GMM's packed-triangle row loop in the primal
//! twice (10.5 instructions per entry at `-march=x86-64-v3`), while the forward sweep's
//! copy of the same loop stayed rolled (16 per entry), which alone took gmm-fused's
//! gradient/primal from about 2.5 to 2.73 there. The loops the reverse sweep builds are
//! another matter: their bodies carry read-modify-writes of adjoints and split partial
//! sums (`adjoint_split.rs`), and run-time unrolling of them was measured to cost
//! instructions (GMM's reverse column loop at `-O3 -march=x86-64-v3`: 15.2M -> 17.9M per
//! call, unrolled four times with a remainder on columns of 1-9 entries); full unrolling
//! of reverse loops whose trip count a hook's constant reveals doubled the reverse code
//! of `bench/compile_scaling`'s chain for no run-time gain (issue 18).
//!
//! Two phases, because only the driver knows the optimization level:
//! 1. At the end of a reverse synthesis ([`mark_reverse_loops`]) every natural loop of
//!    the reverse function that contains a block of the reverse sweep gets a loop ID
//!    with `llvm.loop.unroll.disable`, attached to its latches under the inert kind
//!    [`MARK`] (the primal's loop IDs are dropped when it is cloned, `clone.rs`, so the
//!    forward sweep's loops carry none).
//! 2. Before a post-AD pipeline that unrolls ([`keep_reverse_loops_rolled`], `ferrozyme
//!    cc` at `-O3`) the marks become `!llvm.loop` (and the tape runtime's loops, never
//!    unrolled before either, get the same property). A latch that leaves the reverse block
//!    of a loop header dispatches on the taped predecessor with a one-case `switch`;
//!    LLVM's `simplifycfg` rewrites such a switch into a `br` and drops its
//!    `!llvm.loop` on the way, so the latch is given that `br` here, with the loop ID
//!    on it. Otherwise ([`drop_marks`]) the marks are removed and nothing changes.
//!
//! Generated code differentiated once more loses the marks with its loop IDs when it
//! is cloned (the same `clone.rs` rule drops `!llvm.loop`; [`MARK`] is dropped there
//! too).

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::Loops;
use ferrozyme_llvm::{Block, Builder, Context, IntPredicate, Module, Opcode, Value};

/// The metadata kind that holds a reverse loop's ID until [`keep_reverse_loops_rolled`].
pub const MARK: &str = "ferrozyme.rolled";

/// The property that keeps a loop rolled (LLVM's `LoopUnrollPass` and
/// `LoopFullUnrollPass` both honour it).
const UNROLL_DISABLE: &str = "llvm.loop.unroll.disable";

/// Phase 1: marks the latches of every loop of `f` that holds one of `reverse_blocks`.
pub(crate) fn mark_reverse_loops(ctx: Context, f: Value, reverse_blocks: &HashSet<Block>) {
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let kind = ctx.md_kind(MARK);
    let disable = ctx.md_node(&[ctx.md_string(UNROLL_DISABLE)]);
    for l in &loops.loops {
        if !l.blocks.iter().any(|b| reverse_blocks.contains(b)) {
            continue;
        }
        let id = ctx.loop_id(&[disable]);
        for latch in &l.latches {
            if let Some(t) = latch.terminator() {
                t.set_metadata(kind, Some(id));
            }
        }
    }
}

/// Phase 2, before a pipeline that unrolls: every marked latch gets its loop ID as
/// `!llvm.loop` (a one-case `switch` first becomes a `br`), and so do the loops of the
/// tape runtime the pass linked in, which were never unrolled either (`__fz_pool_put`'s
/// search, unrolled, took fft's gradient at `-O3 -march=x86-64-v3` from 1.32M to 1.84M
/// instructions per call there). Returns the number of latches.
pub fn keep_reverse_loops_rolled(module: Module) -> usize {
    let ctx = module.context();
    let (mark, loop_kind) = (ctx.md_kind(MARK), ctx.md_kind("llvm.loop"));
    let disable = ctx.md_node(&[ctx.md_string(UNROLL_DISABLE)]);
    let mut n = 0;
    for f in module.functions() {
        if f.is_declaration() || !crate::runtime::is_runtime_symbol(&f.name()) {
            continue;
        }
        for l in Loops::new(&Cfg::new(f)).loops {
            let id = ctx.loop_id(&[disable]);
            for t in l.latches.iter().filter_map(|b| b.terminator()) {
                if t.metadata(loop_kind).is_none() {
                    t.set_metadata(loop_kind, Some(id));
                    n += 1;
                }
            }
        }
    }
    for t in marked_latches(module, mark) {
        let id = t.metadata(mark);
        t.set_metadata(mark, None);
        branch_of_one_case_switch(ctx, t).set_metadata(loop_kind, id);
        n += 1;
    }
    n
}

/// Phase 2, before a pipeline that does not unroll: the marks go, nothing else changes.
pub fn drop_marks(module: Module) {
    let mark = module.context().md_kind(MARK);
    for t in marked_latches(module, mark) {
        t.set_metadata(mark, None);
    }
}

fn marked_latches(module: Module, mark: u32) -> Vec<Value> {
    module
        .functions()
        .into_iter()
        .flat_map(|f| f.blocks())
        .filter_map(|b| b.terminator())
        .filter(|t| t.metadata(mark).is_some())
        .collect()
}

/// `switch %v, label %d [c, label %s]` with `%d != %s` as the conditional branch
/// LLVM's `simplifycfg` makes of it: on a select of two constants (the taped path tag
/// read back, `select %x, 0, 1`) `br %x` to the constants' destinations
/// (`SimplifySwitchOnSelect`), otherwise `br (icmp eq %v, c), %s, %d`
/// (`ConstantFoldTerminator`). The edges, and so the successors' phis, are unchanged;
/// any other terminator is returned as it is.
fn branch_of_one_case_switch(ctx: Context, t: Value) -> Value {
    if t.opcode() != Some(Opcode::LLVMSwitch) || t.num_successors() != 2 {
        return t;
    }
    let [(case, to)] = t.switch_cases()[..] else {
        return t;
    };
    let default = t.successor(0);
    if to == default {
        return t;
    }
    let v = t.operand(0);
    let dest = |k: Value| match (k.const_int_value(), case.const_int_value()) {
        (Some(a), Some(b)) if a == b => to,
        _ => default,
    };
    let b = Builder::new(ctx);
    b.position_before(t);
    let (cond, on_true, on_false) = match select_of_constants(v) {
        Some((x, k_true, k_false)) if dest(k_true) != dest(k_false) => {
            (x, dest(k_true), dest(k_false))
        }
        Some(_) => return t,
        None => (b.icmp(IntPredicate::LLVMIntEQ, v, case), to, default),
    };
    let br = b.cond_br(cond, on_true, on_false);
    t.erase();
    br
}

/// `select %x, C1, C2` with integer constants: `(%x, C1, C2)`.
fn select_of_constants(v: Value) -> Option<(Value, Value, Value)> {
    if v.opcode() != Some(Opcode::LLVMSelect) {
        return None;
    }
    let (x, a, b) = (v.operand(0), v.operand(1), v.operand(2));
    (a.const_int_value().is_some() && b.const_int_value().is_some()).then_some((x, a, b))
}
