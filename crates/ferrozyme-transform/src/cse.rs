//! Recomputed primal math in derivative code, merged back into the primal computation.
//!
//! Derivative rules evaluate functions of primal values (`cos(x)` for the adjoint of
//! `sin(x)`, `sin(x)` for that of `cos(x)`). When the primal code already computed the
//! same function of the same operands (a rotation computing both `sin θ` and `cos θ`),
//! the derivative's call is a duplicate. LLVM would merge them, but the two calls carry
//! different fast-math flags (derivative code never gets `nnan`/`ninf`, see
//! `ferrozyme_llvm::fastmath`), and instructions that differ in their flags are not
//! merged; and when the primal value sits in a branch, the reverse sweep recomputes the
//! operand chain (`θ = sqrt(...)`) instead of reusing it. The primal instructions compute
//! the same values and dominate the duplicates, so the duplicates are replaced by them
//! here.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{Opcode, Type, Value};

/// What makes two instructions compute the same value: the operation (opcode, or the
/// callee of a math call), the result type (casts) and the operands.
type Key = (u32, Option<Value>, Type, Vec<Value>);

fn key(i: Value) -> Option<Key> {
    use Opcode::*;
    let op = i.opcode()?;
    let callee = match op {
        LLVMCall => {
            // frexp's, remquo's and lgamma_r's output pointer: a write, not pure.
            if !matches!(classify(i), CallKind::Math(_))
                || i.call_args().iter().any(|a| a.ty().is_pointer())
            {
                return None;
            }
            Some(i.called_function()?)
        }
        LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFNeg | LLVMAdd | LLVMSub | LLVMMul
        | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMSIToFP | LLVMUIToFP
        | LLVMFPExt | LLVMFPTrunc | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMSelect => None,
        _ => return None,
    };
    let operands = if callee.is_some() {
        i.call_args()
    } else {
        i.operands()
    };
    Some((op as u32, callee, i.ty(), operands))
}

/// Replaces each pure instruction of `f` (math call, arithmetic, cast, select) by an
/// earlier identical one that dominates it; duplicates made by recomputing primal
/// values in the reverse sweep are found too, since their operands are merged first.
/// Returns how many were replaced.
pub fn merge_duplicates(f: Value) -> usize {
    let cfg = Cfg::new(f);
    let mut seen: HashMap<Key, Vec<Value>> = HashMap::default();
    let mut dead = Vec::new();
    for b in cfg.rpo() {
        for i in b.instructions() {
            let Some(k) = key(i) else {
                continue;
            };
            let found = seen.get(&k).and_then(|earlier| {
                // In the same block, `e` comes first (blocks are walked in order).
                earlier
                    .iter()
                    .copied()
                    .find(|e| cfg.dominates(e.parent_block(), i.parent_block()))
            });
            match found {
                Some(e) => {
                    i.replace_all_uses_with(e);
                    dead.push(i);
                }
                None => seen.entry(k).or_default().push(i),
            }
        }
    }
    let n = dead.len();
    for i in dead {
        i.erase();
    }
    n
}
