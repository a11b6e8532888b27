//! Bounds of integers and of the byte offsets GEPs add, from constants and the induction
//! variables of counted loops. Exact, not estimates: what a value can be, for rules that
//! must hold on every execution (the byte extents of a callee's accesses, the bytes a
//! GEP with a bounded index reaches in type analysis).

use ferrozyme_llvm::{Module, Opcode, TypeKind, Value};

/// The smallest and largest byte offset a GEP can add: constant indices, or indices
/// over a bounded range (`int_range`) into the pointer or an array.
pub fn gep_range(m: Module, gep: Value) -> Option<(i64, i64)> {
    if let Some(c) = m.const_gep_offset(gep) {
        return Some((c, c));
    }
    let mut ty = gep.gep_source_type();
    let (mut lo, mut hi) = (0i64, 0i64);
    for k in 1..gep.num_operands() {
        let idx = gep.operand(k);
        let size = if k == 1 {
            m.alloc_size(ty) as i64
        } else {
            match ty.kind() {
                TypeKind::Struct => {
                    let c = idx.const_int_value()?;
                    let field = *ty.struct_fields().get(usize::try_from(c).ok()?)?;
                    let off = m.field_offset(ty, c as u32) as i64;
                    lo += off;
                    hi += off;
                    ty = field;
                    continue;
                }
                TypeKind::Array => {
                    ty = ty.element_type();
                    m.alloc_size(ty) as i64
                }
                _ => return None,
            }
        };
        let (a, b) = int_range(idx, 0)?;
        let (x, y) = (a.checked_mul(size)?, b.checked_mul(size)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// Bounds of an integer: constants, casts and `+ - * <<` by constants of bounded
/// values, and the induction variable of a counted loop (`phi [c, pre], [i + 1, latch]`
/// whose latch goes back only while `i + 1 != n` / `< n`): `[c, n - 1]`.
pub fn int_range(v: Value, depth: u32) -> Option<(i64, i64)> {
    if let Some(c) = v.const_int_value() {
        return Some((c, c));
    }
    if depth > 8 || !v.is_instruction() {
        return None;
    }
    let op = v.opcode()?;
    match op {
        Opcode::LLVMSExt | Opcode::LLVMZExt | Opcode::LLVMTrunc => {
            let (a, b) = int_range(v.operand(0), depth + 1)?;
            (a >= 0 && b < (1 << 31)).then_some((a, b))
        }
        Opcode::LLVMAdd | Opcode::LLVMSub | Opcode::LLVMMul | Opcode::LLVMShl => {
            let (a, b) = int_range(v.operand(0), depth + 1)?;
            let c = v.operand(1).const_int_value()?;
            let (x, y) = match op {
                Opcode::LLVMAdd => (a.checked_add(c)?, b.checked_add(c)?),
                Opcode::LLVMSub => (a.checked_sub(c)?, b.checked_sub(c)?),
                Opcode::LLVMMul => (a.checked_mul(c)?, b.checked_mul(c)?),
                _ if (0..32).contains(&c) => (a.checked_mul(1 << c)?, b.checked_mul(1 << c)?),
                _ => return None,
            };
            Some((x.min(y), x.max(y)))
        }
        Opcode::LLVMPHI => counted_phi(v),
        _ => None,
    }
}

fn counted_phi(phi: Value) -> Option<(i64, i64)> {
    let inc = phi.incoming();
    if inc.len() != 2 {
        return None;
    }
    let header = phi.parent_block();
    let (start, next, latch) = match (inc[0].0.const_int_value(), inc[1].0.const_int_value()) {
        (Some(c), None) => (c, inc[1].0, inc[1].1),
        (None, Some(c)) => (c, inc[0].0, inc[0].1),
        _ => return None,
    };
    if next.opcode() != Some(Opcode::LLVMAdd)
        || next.operand(0) != phi
        || next.operand(1).const_int_value() != Some(1)
    {
        return None;
    }
    let term = latch.terminator()?;
    if term.opcode() != Some(Opcode::LLVMBr) || term.num_successors() != 2 {
        return None;
    }
    let test = term.operand(0);
    if test.opcode() != Some(Opcode::LLVMICmp) || test.operand(0) != next {
        return None;
    }
    let n = test.operand(1).const_int_value()?;
    let back_on_true = match (term.successor(0) == header, term.successor(1) == header) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    use ferrozyme_llvm::IntPredicate::*;
    let ok = match test.icmp_predicate() {
        LLVMIntEQ => !back_on_true,
        LLVMIntNE | LLVMIntULT | LLVMIntSLT => back_on_true,
        _ => false,
    };
    (ok && start < n && start >= 0).then_some((start, n - 1))
}
