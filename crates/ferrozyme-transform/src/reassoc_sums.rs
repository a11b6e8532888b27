//! The parameter adjoints' sums of an exact reverse stencil loop as ordinary reductions
//! (issue 14, bruss14: the Brusselator's `dA`, `dB`, `dalpha` without fast-math).
//!
//! A reverse stencil loop also sums the adjoints of its loop-invariant inputs (the
//! parameters) in registers: `acc = acc + t1; acc = acc + t2` per iteration, without
//! `reassoc` when the user's code has none. LoopVectorize keeps such a sum in order: with
//! two adds per iteration (the Brusselator's `dalpha`) it does not vectorize the loop at
//! all, with one it emits an ordered reduction, a chain of dependent scalar adds per
//! vector iteration. bruss13 moved the chains after the loop, same order (bit-identical
//! sums), and the loop vectorized, but the 1,920 dependent fused multiply-adds per call
//! then ran alone after each row: fewer instructions, more time (bench/README.md
//! "bruss13", "bruss14").
//!
//! Here, in a loop that carried an exact (value) stream (`streams/values.rs`), the adds of
//! such a sum get `reassoc`, so LoopVectorize makes them an ordinary vector reduction
//! (partial sums per lane, added once after the loop). Why rounding is the only
//! difference, and why the grouping is ours to choose: the adjoint of a parameter is the
//! sum of the contributions of every use of it; in which order and grouping the chain
//! rule's terms are added is how the AD tool evaluates the derivative, not an expression
//! of the user's program (`adjoint_split.rs` splits such sums in two, `adjoint_chain.rs`
//! regroups products, on the same argument). Every contribution is still added once.
//! Only adjoint arithmetic is touched: each add must carry the reverse sweep's adjoint
//! mark (`ferrozyme_llvm::builder::ADJOINT_MD`), so the primal's sums and the value
//! stream (the cells' adjoints, which keep their order) are never regrouped.
//!
//! Taken for a phi of the loop when: it is a floating-point scalar with one incoming
//! value from the loop's entry and one from the loop; from the phi to that latch value
//! runs a chain of `fadd`s in the loop, each marked, each the only user of the previous
//! (the phi's only user is the first) and adding a value that is not the chain; the last
//! add is used in the loop by the phi alone (a partial sum read elsewhere would make the
//! grouping visible in other values). The multiplications feeding the adds are not
//! touched: they keep `contract`, so the vector loop fuses them into the reduction's
//! multiply-adds.

use ferrozyme_llvm::builder::ADJOINT_MD;
use ferrozyme_llvm::fastmath::REASSOC;
use ferrozyme_llvm::{Block, Context, Opcode, Value};

/// Longest chain (adds per iteration) considered.
const MAX_STEPS: usize = 16;

/// Marks `reassoc` the adds of every parameter-adjoint sum carried by a phi of the
/// single-block loop `b` entered from `entry` (see the module docs); returns how many
/// sums.
pub(crate) fn mark_sums(ctx: Context, b: Block, entry: Block) -> usize {
    let mark = ctx.md_kind(ADJOINT_MD);
    let mut done = 0;
    for phi in b.phis() {
        if let Some(adds) = chain(b, entry, phi, mark) {
            for a in adds {
                a.set_fast_math_flags(a.fast_math_flags() | REASSOC);
            }
            done += 1;
        }
    }
    done
}

/// The adds of the sum `phi` carries through `b`, if it has the shape of the module docs.
fn chain(b: Block, entry: Block, phi: Value, mark: u32) -> Option<Vec<Value>> {
    if !phi.ty().is_fp_scalar() {
        return None;
    }
    let inc = phi.incoming();
    if inc.len() != 2 {
        return None;
    }
    inc.iter().find(|(_, x)| *x == entry)?;
    let last = inc.iter().find(|(_, x)| *x == b)?.0;
    let mut adds = Vec::new();
    let mut cur = phi;
    while cur != last {
        let users = cur.users();
        let [add] = users.as_slice() else {
            return None;
        };
        let add = *add;
        if add.opcode() != Some(Opcode::LLVMFAdd)
            || add.parent_block() != b
            || add.metadata(mark).is_none()
            || adds.len() >= MAX_STEPS
        {
            return None;
        }
        let acc_at = if add.operand(0) == cur { 0 } else { 1 };
        if add.operand(acc_at) != cur || add.operand(1 - acc_at) == cur {
            return None;
        }
        adds.push(add);
        cur = add;
    }
    // The last add: the phi's back edge and uses after the loop only.
    if last
        .users()
        .iter()
        .any(|u| u.parent_block() == b && *u != phi)
    {
        return None;
    }
    (!adds.is_empty()).then_some(adds)
}
