//! Rules for scalars, aggregates and vectors: integer addition and subtraction of
//! pointers and offsets, and the parts of structs, arrays and vectors that
//! `extractvalue`/`insertvalue`/`extractelement`/`insertelement` move.

use ferrozyme_llvm::{Opcode, TypeKind, Value};

use super::super::layout;
use super::super::{BaseType, TypeTree};
use super::Engine;

impl Engine {
    /// Does one scalar of kind `b` occupy exactly `size` bytes?
    pub(super) fn scalar_fills(&self, b: BaseType, size: u64) -> bool {
        match b {
            BaseType::Double => size == 8,
            BaseType::Float => size == 4,
            BaseType::Half => size == 2,
            BaseType::LongDouble => size == 10 || size == 16,
            BaseType::Pointer | BaseType::IntOrPointer => size == self.ptr_size,
            BaseType::Integer => size <= 8,
            _ => false,
        }
    }

    pub(super) fn add_sub(&mut self, i: Value, op: Opcode) {
        let ty = i.ty();
        let vector = ty.kind() == TypeKind::Vector && ty.element_type().is_integer();
        if !ty.is_integer() && !vector {
            return;
        }
        let (a, b) = (i.operand(0), i.operand(1));
        let (ta, tb) = (self.value_tree(a).get(0), self.value_tree(b).get(0));
        // A vector's facts are lane 0's (as a scalar's), its constants every lane's:
        // `add <8 x i64> %ind, splat (i64 8)` steps an induction vector.
        let konst = |v: Value| {
            v.const_int_value().is_some()
                || (vector
                    && v.is_constant()
                    && (0..ty.vector_len()).all(|k| {
                        v.const_element(k)
                            .is_some_and(|e| e.const_int_value().is_some())
                    }))
        };
        if ta == BaseType::Pointer && tb == BaseType::Pointer && op == Opcode::LLVMSub {
            self.integer(i);
        } else if ta == BaseType::Pointer || (tb == BaseType::Pointer && op == Opcode::LLVMAdd) {
            self.learn_val_at(i, 0, BaseType::Pointer);
        } else if (ta == BaseType::Integer || konst(a)) && (tb == BaseType::Integer || konst(b)) {
            self.integer(i);
        } else if self.value_tree(i).get(0) == BaseType::Integer {
            // Backwards: an integer result of an integer and something else (a pointer
            // plus an offset would be a pointer): the something else is an integer too.
            if tb == BaseType::Integer || konst(b) {
                self.integer(a);
            }
            if ta == BaseType::Integer || konst(a) {
                self.integer(b);
            }
        }
    }

    /// Byte offset of an extractvalue/insertvalue index path into `agg`'s type.
    pub(super) fn aggregate_offset(&self, agg: Value, indices: &[u32]) -> Option<i64> {
        let mut ty = agg.ty();
        let mut off: i64 = 0;
        for &ix in indices {
            match ty.kind() {
                TypeKind::Struct => {
                    let fields = ty.struct_fields();
                    let f = *fields.get(ix as usize)?;
                    off += self.m.field_offset(ty, ix) as i64;
                    ty = f;
                }
                TypeKind::Array => {
                    ty = ty.element_type();
                    off += ix as i64 * layout::alloc_size_of(self.m, ty)? as i64;
                }
                _ => return None,
            }
        }
        Some(off)
    }

    /// `part` lives at byte `off` of `whole`: the two trees agree there.
    pub(super) fn part_of(&mut self, whole: Value, part: Value, off: i64) {
        let Some(size) = layout::size_of(self.m, part.ty()) else {
            return;
        };
        let w = self.value_tree(whole);
        let mut to_part = TypeTree::new();
        for (k, b) in w
            .iter()
            .filter(|(k, _)| (off..off + size as i64).contains(k))
        {
            to_part.insert(k - off, b);
        }
        self.learn_val(part, &to_part);
        let p = self.value_tree(part);
        let mut to_whole = TypeTree::new();
        for (k, b) in p.iter().filter(|(k, _)| *k >= 0) {
            to_whole.insert(k + off, b);
        }
        self.learn_val(whole, &to_whole);
    }

    pub(super) fn extract_value(&mut self, i: Value) {
        let agg = i.operand(0);
        if let Some(off) = self.aggregate_offset(agg, &i.aggregate_indices()) {
            self.part_of(agg, i, off);
        }
    }

    pub(super) fn insert_value(&mut self, i: Value) {
        let (agg, val) = (i.operand(0), i.operand(1));
        if let Some(off) = self.aggregate_offset(agg, &i.aggregate_indices()) {
            let t = self.value_tree(agg);
            self.learn_val(i, &t);
            self.part_of(i, val, off);
        }
    }

    pub(super) fn element_offset(&self, vec: Value, idx: Value) -> Option<i64> {
        let ty = vec.ty();
        if ty.kind() != TypeKind::Vector || !layout::is_sized(ty) {
            return None;
        }
        let c = idx.const_int_value()?;
        let stride = layout::alloc_size_of(self.m, ty.element_type())? as i64;
        (c >= 0).then(|| c * stride)
    }

    pub(super) fn extract_element(&mut self, i: Value) {
        let (vec, idx) = (i.operand(0), i.operand(1));
        self.integer(idx);
        if let Some(off) = self.element_offset(vec, idx) {
            self.part_of(vec, i, off);
        }
    }

    pub(super) fn insert_element(&mut self, i: Value) {
        let (vec, val, idx) = (i.operand(0), i.operand(1), i.operand(2));
        self.integer(idx);
        if let Some(off) = self.element_offset(vec, idx) {
            let t = self.value_tree(vec);
            self.learn_val(i, &t);
            self.part_of(i, val, off);
        }
    }
}
