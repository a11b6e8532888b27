//! Rounding by a magic constant: `(a + M) - M` with `M = 2^52` (or `1.5 * 2^52`; `2^23`,
//! `1.5 * 2^23` in single precision) rounds `a` to an integer in the current rounding
//! mode, because the sum has no bits below its units. musl's `rint` and Eigen's SSE2
//! `pround`/`print` (with an empty `asm` barrier on the stack slot holding `a + M`, so the
//! compiler cannot fold it) compute it so, and Eigen's vectorized `exp` rounds `x log2 e`
//! that way before the polynomial. Differentiated as written, the two additions give the
//! rounding a derivative of 1 instead of 0 (the rounded value is piecewise constant), and
//! `exp`'s reduced argument `x - n ln 2` then has a zero derivative: a silently wrong
//! gradient. The second addition is therefore no active value.

use ferrozyme_llvm::{Opcode, Value};

/// The magic constants, positive.
const MAGIC: [f64; 4] = [
    4503599627370496.0, // 2^52
    6755399441055744.0, // 1.5 * 2^52
    8388608.0,          // 2^23
    12582912.0,         // 1.5 * 2^23
];

/// The value of a floating constant or of a vector constant with all lanes equal.
fn uniform_fp(c: Value) -> Option<f64> {
    if let Some(x) = c.const_fp_value() {
        return Some(x);
    }
    let first = c.const_element(0)?.const_fp_value()?;
    let n = c.ty().vector_len();
    (1..n)
        .all(|k| c.const_element(k).and_then(|e| e.const_fp_value()) == Some(first))
        .then_some(first)
}

/// `v + M` (or `v - (-M)`) for a magic constant `M`, with the sign of `M` (its value).
fn plus_magic(i: Value) -> Option<f64> {
    let (a, b) = (i.operand(0), i.operand(1));
    match i.opcode()? {
        Opcode::LLVMFAdd => uniform_fp(b).or_else(|| uniform_fp(a)),
        Opcode::LLVMFSub => uniform_fp(b).map(|x| -x),
        _ => None,
    }
    .filter(|m| MAGIC.contains(&m.abs()))
}

/// The value `v` holds: itself, or for a load from a stack slot, the value stored into
/// the slot last before it in its block (through an optimization barrier, an `asm` that
/// rewrites the slot in place, and markers that write no memory, such as lifetimes).
fn through_slot(v: Value) -> Value {
    if v.opcode() != Some(Opcode::LLVMLoad) || v.operand(0).opcode() != Some(Opcode::LLVMAlloca) {
        return v;
    }
    let slot = v.operand(0);
    let mut at = v.prev_instruction();
    while let Some(i) = at {
        match i.opcode() {
            Some(Opcode::LLVMStore) if i.operand(1) == slot => return i.operand(0),
            // The barrier itself, and markers that write no memory.
            Some(Opcode::LLVMCall)
                if i.is_inline_asm_call()
                    || i.called_function().is_some_and(|f| {
                        f.intrinsic_id() != 0
                            && ferrozyme_rules::zero_derivative_intrinsic(&f.name())
                    }) => {}
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => return v,
            _ => {}
        }
        at = i.prev_instruction();
    }
    v
}

/// Is `i` the second half of a rounding by a magic constant, `(a + M) - M`?
pub fn is_magic_rounding(i: Value) -> bool {
    let Some(m) = plus_magic(i) else {
        return false;
    };
    let (a, b) = (i.operand(0), i.operand(1));
    // The non-constant operand of `i`.
    let other = if uniform_fp(b).is_some() { a } else { b };
    let first = through_slot(other);
    first.is_instruction() && plus_magic(first).is_some_and(|m0| m0 == -m)
}
