//! Which lanes of a loaded vector the program uses.
//!
//! The SLP vectorizer loads neighbouring fields as one vector even when some lanes are
//! overwritten before anything reads them: `load <2 x double>` over `{double v; int
//! tag;}` followed by `insertelement ..., i64 1` keeps only `v`. The IR type of the
//! dead lane (a `double` over the `int` and its padding) is no evidence about that
//! memory, so type analysis takes its facts from the demanded lanes only.

use ferrozyme_llvm::{Opcode, Value};

/// How deep chains of `insertelement` are followed.
const DEPTH: u32 = 8;

/// The lanes of vector `v` some use may read (`None`: all of them, or not a vector).
pub(super) fn demanded_lanes(v: Value) -> Option<Vec<bool>> {
    let ty = v.ty();
    if ty.kind() != ferrozyme_llvm::TypeKind::Vector {
        return None;
    }
    let n = ty.vector_len() as usize;
    let d = demanded(v, n, DEPTH);
    (!d.iter().all(|x| *x)).then_some(d)
}

fn demanded(v: Value, n: usize, depth: u32) -> Vec<bool> {
    let mut out = vec![false; n];
    for u in v.users() {
        let lanes: Vec<bool> = match u.opcode() {
            // Lane k is replaced: the rest is demanded as the result's lanes are.
            Some(Opcode::LLVMInsertElement) if u.operand(0) == v && depth > 0 => {
                match u.operand(2).const_int_value() {
                    Some(k) if (0..n as i64).contains(&k) => {
                        let mut d = demanded(u, n, depth - 1);
                        d[k as usize] = false;
                        d
                    }
                    _ => vec![true; n],
                }
            }
            Some(Opcode::LLVMExtractElement) => match u.operand(1).const_int_value() {
                Some(k) if (0..n as i64).contains(&k) => {
                    let mut d = vec![false; n];
                    d[k as usize] = true;
                    d
                }
                _ => vec![true; n],
            },
            Some(Opcode::LLVMShuffleVector) => {
                let mut d = vec![false; n];
                let first = u.operand(0) == v;
                let second = u.operand(1) == v;
                for m in u.shuffle_mask().into_iter().flatten() {
                    let m = m as usize;
                    if first && m < n {
                        d[m] = true;
                    } else if second && m >= n && m - n < n {
                        d[m - n] = true;
                    }
                }
                d
            }
            _ => vec![true; n],
        };
        for (o, l) in out.iter_mut().zip(lanes) {
            *o |= l;
        }
    }
    out
}
