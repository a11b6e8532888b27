//! Reversed recurrences carried widened (gmm24).
//!
//! C's `int t` reaches the IR as an `i32` phi that the loop reads as `sext t to i64`
//! (an index), with the rows loop's exit value `trunc nsw` of an `i64` induction
//! variable. Rebuilt modulo `2^32`, the reverse steps an `i32` and sign-extends it per
//! column, a second induction variable beside the `i64` ones for the register allocator
//! (GMM's reverse column loop: 2.52 -> 2.48 grad/primal on d20_K100 from this alone).
//! The slot then holds `sext(u)` instead, `sext(t) = sext(u) - D` is computed in `i64`,
//! `sext t` in the loop reads it directly and `t` itself is its `trunc`.
//!
//! That is exact only where `sext(u) = sext(t) + D` over the integers, not just modulo
//! `2^32`, so it is taken only when every step from `t` to `u` keeps the signed value:
//! `add`/`sub` with `nsw` (or in `i64` itself, where modulo `2^64` is all the slot needs),
//! `sext`, `zext nneg`, `trunc nsw` ([`keeps_signed_value`]), a join of two such sides, and
//! a nested `i64` induction variable's exit value (exact modulo `2^64`). Without those
//! flags — an `unsigned` counter that wraps on purpose, a plain `add i32`, a `trunc`
//! without `nsw` — the recurrence stays modulo `2^w`. The flags make the primal's value
//! poison where the signed value would not fit; every `t` rebuilt inside the loop is one
//! the primal read (an index: a poison one would have been undefined behavior there), and
//! the last `u`, read from the tape, is poison only if the source's `int` overflowed,
//! which C leaves undefined. Taken only when the loop reads `sext t` (or `zext nneg t`)
//! as an `i64`: otherwise the `i32` is what the reverse needs anyway.

use ferrozyme_llvm::{Opcode, Value};

use super::{Lin, MAX_NODES, WIDE};
use crate::reverse::{Gen, Key};

impl Gen<'_> {
    /// The loop's `i64` extensions of `t` when `t` can be carried widened (module essay):
    /// empty when it cannot or nothing reads one.
    pub(super) fn widening(&self, t: Value, next: Value, w: u32, idx: usize) -> Vec<Value> {
        if w >= WIDE {
            return Vec::new();
        }
        let l = &self.fx.loops.loops[idx];
        let exts: Vec<Value> = t
            .users()
            .into_iter()
            .filter(|u| {
                u.is_instruction()
                    && l.blocks.contains(&u.parent_block())
                    && u.ty().int_width() == Some(WIDE)
                    && matches!(u.opcode(), Some(Opcode::LLVMSExt | Opcode::LLVMZExt))
                    && keeps_signed_value(*u)
            })
            .collect();
        if exts.is_empty() {
            return exts;
        }
        let mut nodes = 0;
        if self.wide_lin(next, t, w, idx, &mut nodes) != Some(Lin::Affine) {
            return Vec::new();
        }
        exts
    }

    /// Whether `sext(v) = sext(t) + D` modulo `2^64` (`Lin::Affine`), over values `lin`
    /// found affine modulo `2^w`: each step from `t` keeps the signed value (module essay,
    /// "Widened"). `Lin::Free` for `D`-free values, `None` when not provable.
    fn wide_lin(&self, v: Value, t: Value, w: u32, idx: usize, nodes: &mut u32) -> Option<Lin> {
        if v == t {
            return Some(Lin::Affine);
        }
        *nodes += 1;
        if *nodes > MAX_NODES {
            return None;
        }
        let mut n = 0;
        if self.lin(v, t, w, idx, &mut n)? == Lin::Free {
            return Some(Lin::Free);
        }
        let vw = v.ty().int_width()?;
        if vw > WIDE {
            return None;
        }
        let affine =
            |x: Value, nodes: &mut u32| self.wide_lin(x, t, w, idx, nodes) == Some(Lin::Affine);
        if self.fx.loops.innermost_index(v.parent_block()) != Some(idx) {
            // A nested `i64` induction variable's exit value: `start + steps` modulo
            // `2^64`, which is all an `i64` needs.
            let e = self.exit_shape(v, idx)?;
            let ok = vw == WIDE
                && match e.j_start {
                    Some(_) => affine(e.start, nodes),
                    None => affine(e.bound, nodes),
                };
            return ok.then_some(Lin::Affine);
        }
        use Opcode::*;
        let ok = match v.opcode()? {
            LLVMAdd | LLVMSub => {
                let mut n = 0;
                let first = self.lin(v.operand(0), t, w, idx, &mut n) == Some(Lin::Affine);
                let x = if first { v.operand(0) } else { v.operand(1) };
                keeps_signed_value(v) && affine(x, nodes)
            }
            LLVMSExt | LLVMZExt | LLVMTrunc => keeps_signed_value(v) && affine(v.operand(0), nodes),
            LLVMPHI => {
                let (_, sides) = self.join_sides(v)?;
                affine(sides[0], nodes) && affine(sides[1], nodes)
            }
            _ => false,
        };
        ok.then_some(Lin::Affine)
    }

    /// `D` in `i64` for a value `wide_lin` found affine: `sext(v) - sext(t)`, at the
    /// reverse builder's position, without reading the tape inside the loop.
    fn emit_wide(&mut self, v: Value, t: Value, idx: usize) -> Value {
        let i64t = self.fx.ctx.i64();
        if v == t {
            return i64t.zero();
        }
        let w = t.ty().int_width().unwrap_or(WIDE);
        // A `D`-free operand of a signed-exact step, as the signed value it adds.
        let free = |g: &mut Self, f: Value| {
            let x = g.emit_lin(f, t, idx);
            if x.ty() == i64t {
                x
            } else {
                g.b.sext(x, i64t)
            }
        };
        if self.fx.loops.innermost_index(v.parent_block()) != Some(idx) {
            let e = self.exit_shape(v, idx).expect("checked by wide_lin");
            return match e.j_start {
                Some(j) => {
                    let s = self.emit_wide(e.start, t, idx);
                    let b = self.emit_lin(e.bound, t, idx);
                    let bd = self.b.sub(b, i64t.const_i64(e.delta));
                    let js = self.emit_lin(j, t, idx);
                    let steps = self.b.sub(bd, js);
                    self.b.add(s, steps)
                }
                None => {
                    let b = self.emit_wide(e.bound, t, idx);
                    self.b.sub(b, i64t.const_i64(e.delta))
                }
            };
        }
        use Opcode::*;
        match v.opcode() {
            Some(LLVMPHI) => {
                let (cond, sides) = self.join_sides(v).expect("checked by wide_lin");
                let c = self.emit_lin(cond, t, idx);
                let a = self.emit_wide(sides[0], t, idx);
                let b = self.emit_wide(sides[1], t, idx);
                self.b.select(c, a, b)
            }
            Some(LLVMAdd | LLVMSub) => {
                let (x, y) = (v.operand(0), v.operand(1));
                let mut nodes = 0;
                let x_affine = self.lin(x, t, w, idx, &mut nodes) == Some(Lin::Affine);
                let (a, f) = if x_affine { (x, y) } else { (y, x) };
                let ra = self.emit_wide(a, t, idx);
                let fv = free(self, f);
                if v.opcode() == Some(LLVMAdd) {
                    self.b.add(ra, fv)
                } else {
                    self.b.sub(ra, fv)
                }
            }
            Some(LLVMSExt | LLVMZExt | LLVMTrunc) => self.emit_wide(v.operand(0), t, idx),
            _ => unreachable!("checked by wide_lin"),
        }
    }

    /// `sext(t)` of a widened recurrence `t` in its loop: the slot's `sext(u)` minus `D`
    /// in `i64`, remembered in this block as the value of each of `t`'s extensions.
    pub(super) fn wide_value(&mut self, t: Value) -> Value {
        let blk = self.b.insert_block();
        let r = &self.flow.recurrences[&t];
        let (slot, next, idx, exts) = (r.slot, r.next, r.idx, r.exts.clone());
        if let Some(&x) = exts
            .iter()
            .find_map(|e| self.caches.memo.get(&(blk, Key::Primal(*e))))
        {
            return x;
        }
        let i64t = self.fx.ctx.i64();
        let u = self.b.load(i64t, slot, &format!("{}.rec", t.name()));
        let d = self.emit_wide(next, t, idx);
        let x = self.b.sub(u, d);
        for e in exts {
            self.caches.memo.insert((blk, Key::Primal(e)), x);
        }
        x
    }

    /// Is `v` an `i64` extension of a widened recurrence (read from the slot)?
    pub(in crate::reverse) fn is_widened_ext(&self, v: Value) -> bool {
        !self.flow.recurrences.is_empty()
            && matches!(v.opcode(), Some(Opcode::LLVMSExt | Opcode::LLVMZExt))
            && self
                .flow
                .recurrences
                .get(&v.operand(0))
                .is_some_and(|r| r.exts.contains(&v))
    }

    /// An `i64` extension of a widened recurrence inside its loop: `sext(t)`.
    pub(in crate::reverse) fn widened_ext_value(&mut self, v: Value) -> Option<Value> {
        if !self.is_widened_ext(v) {
            return None;
        }
        let t = v.operand(0);
        let r = &self.flow.recurrences[&t];
        let here = self.flow.rev_ctx?;
        if !r.blocks.contains(&here) {
            return None;
        }
        Some(self.wide_value(t))
    }
}

/// Does the integer instruction `v` keep its operand's signed value exactly (given the
/// operand's), so that `sext` of the result is `sext` of the operand (plus the other
/// operand's signed value for `add`/`sub`), modulo `2^64`? `add`/`sub` with `nsw` or in
/// `i64`, `sext`, `zext nneg`, `trunc nsw`: the primal's own no-wrap facts (module essay,
/// "Widened").
fn keeps_signed_value(v: Value) -> bool {
    use Opcode::*;
    match v.opcode() {
        Some(LLVMAdd | LLVMSub) => v.ty().int_width() == Some(WIDE) || v.has_nsw(),
        Some(LLVMSExt) => v.ty().int_width().is_some_and(|w| w <= WIDE),
        Some(LLVMZExt) => v.has_nneg() && v.ty().int_width().is_some_and(|w| w <= WIDE),
        Some(LLVMTrunc) => v.has_nsw(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use ferrozyme_llvm::Module;

    use crate::test_ir::parse;

    /// Which steps from `t` keep its signed value (the facts widening needs): every
    /// instruction named `%yes*` does, every `%no*` does not.
    #[test]
    fn widening_needs_the_primals_no_wrap_facts() {
        let ir = r#"
define void @f(i32 %t, i64 %w, i16 %h) {
  %yes.add.nsw = add nsw i32 %t, 5
  %yes.sub.nsw = sub nsw i32 %t, 5
  %yes.add.i64 = add i64 %w, 5
  %yes.sext = sext i32 %t to i64
  %yes.sext.i32 = sext i16 %h to i32
  %yes.zext.nneg = zext nneg i32 %t to i64
  %yes.trunc.nsw = trunc nsw i64 %w to i32
  %no.add = add i32 %t, 5
  %no.add.nuw = add nuw i32 %t, 5
  %no.sub = sub i32 %t, 5
  %no.zext = zext i32 %t to i64
  %no.trunc = trunc i64 %w to i32
  %no.trunc.nuw = trunc nuw i64 %w to i32
  %no.mul.nsw = mul nsw i32 %t, 3
  %no.sext.i128 = sext i32 %t to i128
  ret void
}
"#;
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        let mut seen = 0;
        for b in f.blocks() {
            for i in b.instructions() {
                let name = i.name();
                if let Some(what) = name.strip_prefix("yes.") {
                    assert!(keeps_signed_value(i), "{what} keeps the signed value");
                    seen += 1;
                } else if let Some(what) = name.strip_prefix("no.") {
                    assert!(!keeps_signed_value(i), "{what} may wrap: must not widen");
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 15);
    }
}
