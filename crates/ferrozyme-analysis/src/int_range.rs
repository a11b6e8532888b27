//! Bounds of integers and of the byte offsets GEPs add, from constants and the induction
//! variables of counted loops. Exact, not estimates: what a value can be, for rules that
//! must hold on every execution (the byte extents of a callee's accesses, the bytes a
//! GEP with a bounded index reaches in type analysis).
//!
//! A GEP's index is also bounded by the bounds check the only way into the GEP's block
//! passes ([`guarded_range`]): rustc indexes `s.vals[s.len]` of a `struct { vals: [f64;
//! 4], len: usize }` as `getelementptr double, ptr %s, i64 %len` (no array in the type)
//! behind `icmp ult i64 %len, 4`; unbounded, type analysis spread the doubles over every
//! offset of the struct, `len`'s among them (front46). The same check bounds the trip
//! count of a counted loop whose end is not a constant (`for v in &s.vals[..s.len]`).

use ferrozyme_llvm::{Block, IntPredicate, Module, Opcode, TypeKind, Value};

/// How many blocks, each with one predecessor, [`guarded_range`] walks up from a block to
/// find the bounds check.
const GUARD_STEPS: usize = 4;

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
        let (a, b) = int_range(idx, 0).or_else(|| {
            gep.is_instruction()
                .then(|| guarded_range(idx, gep.parent_block()))
                .flatten()
        })?;
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
    let (start, entry, next, latch) = match (inc[0].0.const_int_value(), inc[1].0.const_int_value())
    {
        (Some(c), None) => (c, inc[0].1, inc[1].0, inc[1].1),
        (None, Some(c)) => (c, inc[1].1, inc[0].0, inc[0].1),
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
    // The end: a constant, or a value bounded by the check on the way into the loop (its
    // largest value is the end's bound: the variable stays below it).
    let end = test.operand(1);
    let n = match end.const_int_value() {
        Some(n) => n,
        None => guarded_range(end, entry)?.1,
    };
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

/// Bounds of `v` where block `at` runs, from an unsigned bounds check of `v` against a
/// constant (`icmp ult %v, C` taken, `icmp uge %v, C` not taken, or the same with the
/// operands swapped) on the only way into `at`: `at`'s sole predecessor ends in that
/// branch, or one at most [`GUARD_STEPS`] sole predecessors up.
pub fn guarded_range(v: Value, at: Block) -> Option<(i64, i64)> {
    let mut blk = at;
    for _ in 0..GUARD_STEPS {
        let br = sole_predecessor_branch(blk)?;
        if let Some(c) = br.branch_icmp() {
            let taken = br.successor(0) == blk;
            if let Some(r) = checked_below(c, v, taken) {
                return Some(r);
            }
        }
        blk = br.parent_block();
    }
    None
}

/// The terminator of `blk`'s only predecessor, when that predecessor enters `blk` by one
/// edge of a two-way branch.
fn sole_predecessor_branch(blk: Block) -> Option<Value> {
    let users = blk.as_value().users();
    let [br] = users.as_slice() else {
        return None;
    };
    (br.is_conditional_branch() && br.successor(0) != br.successor(1)).then_some(*br)
}

/// `[0, hi]` when `cmp`, on its `taken` side, says `v <u hi + 1`.
fn checked_below(cmp: Value, v: Value, taken: bool) -> Option<(i64, i64)> {
    use IntPredicate::*;
    let (a, b) = (cmp.operand(0), cmp.operand(1));
    // The predicate as `v ? C`, and `C`.
    let (pred, c) = if a == v {
        (cmp.icmp_predicate(), b.const_int_value()?)
    } else if b == v {
        let swapped = match cmp.icmp_predicate() {
            LLVMIntULT => LLVMIntUGT,
            LLVMIntULE => LLVMIntUGE,
            LLVMIntUGT => LLVMIntULT,
            LLVMIntUGE => LLVMIntULE,
            _ => return None,
        };
        (swapped, a.const_int_value()?)
    } else {
        return None;
    };
    let hi = match (pred, taken) {
        (LLVMIntULT, true) | (LLVMIntUGE, false) => c.checked_sub(1)?,
        (LLVMIntULE, true) | (LLVMIntUGT, false) => c,
        _ => return None,
    };
    (c > 0 && hi >= 0).then_some((0, hi))
}

#[cfg(test)]
mod tests {
    use ferrozyme_llvm::{Module, Value};
    use inkwell::context::Context;

    // rustc's `s.vals[s.len] = a` in a push loop behind the bounds check, and the sum over
    // `vals[..len]` behind the slice check (front46); and an index with no check.
    const IR: &str = r#"
define double @f(ptr %s, i64 %k, i64 %u) {
entry:
  %lenp = getelementptr inbounds nuw i8, ptr %s, i64 32
  %len = load i64, ptr %lenp
  %ok = icmp ult i64 %len, 4
  br i1 %ok, label %push, label %out

push:
  %slot = getelementptr inbounds nuw double, ptr %s, i64 %len
  store double 1.0, ptr %slot
  %fits = icmp ugt i64 5, %k
  br i1 %fits, label %pre, label %out

pre:
  %none = icmp eq i64 %k, 0
  br i1 %none, label %out, label %sum

sum:
  %i = phi i64 [ %i1, %sum ], [ 0, %pre ]
  %vp = getelementptr inbounds nuw double, ptr %s, i64 %i
  %free = getelementptr inbounds nuw double, ptr %s, i64 %u
  %i1 = add nuw nsw i64 %i, 1
  %last = icmp eq i64 %i1, %k
  br i1 %last, label %out, label %sum

out:
  ret double 0.0
}
"#;

    fn named(f: Value, name: &str) -> Value {
        f.instructions()
            .find(|i| i.name() == name)
            .expect("the instruction is in the test IR")
    }

    #[test]
    fn indices_bounded_by_the_check_on_the_only_way_in() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = m.function("f").expect("defined");
        // `len < 4` on the edge into `push`: the store reaches bytes 0..=24 only.
        assert_eq!(super::gep_range(m, named(f, "slot")), Some((0, 24)));
        // `5 > k` (operands swapped) two blocks up bounds the counted loop's end: i <= 3.
        assert_eq!(super::gep_range(m, named(f, "vp")), Some((0, 24)));
        // No check of `u` anywhere: unbounded.
        assert_eq!(super::gep_range(m, named(f, "free")), None);
    }
}
