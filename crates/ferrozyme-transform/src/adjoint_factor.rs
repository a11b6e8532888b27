//! Two adjoint products with a common factor, added or subtracted, as one product:
//! `p * q - p * s` becomes `(q - s) * p` (issue 14, perf39: the periodic Brusselator).
//!
//! Where it comes from: a primal value used by two operations whose adjoints meet in it.
//! The Brusselator computes `w = u * u` once and uses it in both fields' right-hand sides,
//! `fmuladd(w, v, ..)` for `du` and `fmuladd(-w, v, ..)` for `dv`; the reverse sweep adds
//! `gu * v` (the adjoint of `du` times the partial) and `-(gv * v)` into `w`'s adjoint,
//! and instcombine turns the pair into `gu * v - v * gv`: two multiplications and a
//! subtraction. The same happens to `v`'s adjoint (`gu * w - w * gv`). Factored, each is
//! `(gu - gv) * v` and `(gu - gv) * w`, and the two differences are one after
//! `cse::merge_duplicates`: three operations where there were six, per cell of the
//! stencil (after the backend's contraction into fused multiply-subtracts, three where
//! there were four; bench/README.md "perf39").
//!
//! Why the value may change by rounding only, and why that is the pass's choice: the
//! expression is the sum of two chain-rule terms of one adjoint; how the AD tool groups
//! the terms of the chain rule is how it evaluates the derivative, not an expression of
//! the user's program (`adjoint_chain.rs`, `reassoc_sums.rs` and `adjoint_split.rs`
//! regroup on the same argument). Only adjoint arithmetic is rewritten: the `fadd`/`fsub`
//! or one of its two products must carry the reverse sweep's adjoint mark
//! (`ferrozyme_llvm::builder::ADJOINT_MD`); primal values never depend on adjoints, so an
//! operation reading a marked value computes an adjoint, and the products are rewritten
//! only when that operation is their one use. Signed zeros: the rewrite needs `nsz` on
//! the sum (the adjoint accumulations carry it, `Builder::fadd_adjoint`), since
//! `p*q - p*s` is `+0` where `(q - s) * p` may be `-0`. Infinities and NaNs: wherever
//! one form is NaN or infinite the other is too, up to the sign of an infinity formed
//! by overflow, which an adjoint holding one is meaningless anyway.
//!
//! Taken for an `fadd`/`fsub` with `nsz` whose two operands are distinct `fmul`s, each used
//! only by it, sharing one operand (in either position) and differing in the other, with
//! the mark on one of the three. The new difference gets the sum's flags and the mark, the new product the flags
//! both products had.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::builder::ADJOINT_MD;
use ferrozyme_llvm::fastmath::NSZ;
use ferrozyme_llvm::{Builder, Opcode, Value};

/// Rewrites every sum of two products of the module docs in the function `f`; returns
/// how many.
pub fn factor_function(f: Value) -> usize {
    let ctx = f.ty().context();
    let mark = ctx.md_kind(ADJOINT_MD);
    let b = Builder::new(ctx);
    let mut done = 0;
    for block in f.blocks() {
        // The differences built in this block, by operation, operands and flags: the
        // second pair of `gu`, `gv` reuses the first's (the rewrite after the pipeline
        // has no CSE behind it).
        let mut built: HashMap<(bool, Value, Value, u32), Value> = HashMap::default();
        for i in block.instructions() {
            let Some((x, y, p, q, s)) = shape(i, mark) else {
                continue;
            };
            b.position_before(i);
            let flags = i.fast_math_flags();
            let prev = b.set_fast_math(flags);
            let was = b.set_adjoint_mark(true);
            let sub = i.opcode() == Some(Opcode::LLVMFSub);
            let d = *built.entry((sub, q, s, flags)).or_insert_with(|| {
                if sub {
                    b.fsub(q, s)
                } else {
                    b.fadd(q, s)
                }
            });
            b.set_fast_math(x.fast_math_flags() & y.fast_math_flags());
            let r = b.fmul(d, p);
            b.set_fast_math(prev);
            b.set_adjoint_mark(was);
            i.replace_all_uses_with(r);
            i.erase();
            x.erase();
            y.erase();
            done += 1;
        }
    }
    done
}

/// For a sum `i` of the module docs' shape: its two products `x`, `y`, their common
/// factor `p` and the other factors `q` (of `x`) and `s` (of `y`).
fn shape(i: Value, mark: u32) -> Option<(Value, Value, Value, Value, Value)> {
    if !matches!(i.opcode(), Some(Opcode::LLVMFAdd | Opcode::LLVMFSub))
        || !i.ty().is_fp()
        || i.fast_math_flags() & NSZ == 0
    {
        return None;
    }
    let (x, y) = (i.operand(0), i.operand(1));
    if x == y {
        return None;
    }
    let product = |v: Value| {
        v.is_instruction()
            && v.opcode() == Some(Opcode::LLVMFMul)
            && v.users().as_slice() == [i]
            && v.parent_block() == i.parent_block()
    };
    if !product(x) || !product(y) {
        return None;
    }
    if [i, x, y].iter().all(|v| v.metadata(mark).is_none()) {
        return None;
    }
    let (x0, x1, y0, y1) = (x.operand(0), x.operand(1), y.operand(0), y.operand(1));
    let (p, q, s) = if x0 == y0 {
        (x0, x1, y1)
    } else if x0 == y1 {
        (x0, x1, y0)
    } else if x1 == y0 {
        (x1, x0, y1)
    } else if x1 == y1 {
        (x1, x0, y0)
    } else {
        return None;
    };
    // Two equal products (`g * x + g * x`, the adjoint of `x * x` before CSE) gain
    // nothing: one product added to itself is as short.
    if q == s {
        return None;
    }
    Some((x, y, p, q, s))
}
