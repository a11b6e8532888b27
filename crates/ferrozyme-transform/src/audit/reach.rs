//! Where the interprocedural lost-store audit (`call_writes`, `callee_reads`) looks for a
//! callee's writes and reads: memory reached from one of its parameters, or from a
//! global variable (which every function reaches without being given it), either at all
//! or only through a pointer loaded out of it at given field offsets.
//!
//! The second kind is audit32's: a constant pointer (one without a shadow: a scratch
//! buffer an inactive call returned out of `enzyme_const` data) that the differentiated
//! function stores into memory that *has* a shadow, a local struct passed by address
//! (`ctx c; c.s = get_scratch(reg); fill(&c, x); rd(&c)`) or a global pointer variable
//! (`g_s = get_scratch(reg); fill(x); rd()`). Runtime activity makes that pointer its own
//! shadow, so what `fill` writes through it loses its derivative and `rd` reads a
//! constant: both were silently zero at every level. The struct and the global themselves
//! have shadows, so only what is reached through the stored pointer is memory without one.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::Activity;
use ferrozyme_llvm::{Opcode, Value};

use super::call_writes::{root_object, stored_once};
use super::callee_reads::{field_offset, may_overlap};
use crate::common::base_object;
use crate::common::runtime_activity::lacks_shadow;

/// The object a callee's memory is reached from.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Target {
    /// Its parameter (by index).
    Param(usize),
    /// A global variable.
    Global(Value),
}

/// Memory a callee may write or read: reached from `target`, through a pointer loaded
/// out of it at one of the field offsets `slot` when that is given (`None` among them: any
/// field), else anywhere from it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Where {
    pub target: Target,
    pub slot: Option<Vec<Option<i64>>>,
}

impl Where {
    /// Memory reached from parameter `k` of the callee.
    pub(super) fn param(k: usize) -> Where {
        Where {
            target: Target::Param(k),
            slot: None,
        }
    }

    /// The value in function `g` the memory is reached from.
    pub(super) fn target_in(&self, g: Value) -> Option<Value> {
        match self.target {
            Target::Param(k) => g.params().get(k).copied(),
            Target::Global(v) => Some(v),
        }
    }

    /// Does address `p`, in the function where the memory is reached from `target`, point
    /// into it?
    pub(super) fn holds(&self, p: Value, target: Value) -> bool {
        reaches(p, target, self.slot.as_deref())
    }

    /// What a callee given pointer `a` as its parameter `m` receives of this memory (in
    /// the caller, reached from `target`): the memory itself, or the object it is loaded
    /// out of; `None` when `a` leads elsewhere.
    pub(super) fn passed_on(&self, a: Value, target: Value, m: usize) -> Option<Where> {
        if !a.ty().is_pointer() {
            return None;
        }
        let Some(offs) = &self.slot else {
            return (root_object(a) == target).then(|| Where::param(m));
        };
        if reaches(a, target, Some(offs)) {
            return Some(Where::param(m));
        }
        if first_slot(a).is_none() && root_object(a) == target {
            // A field address of the object: the offsets no longer line up.
            let slot = if field_offset(a) == Some(0) {
                offs.clone()
            } else {
                vec![None]
            };
            return Some(Where {
                target: Target::Param(m),
                slot: Some(slot),
            });
        }
        None
    }
}

/// Does address `p` point into memory reached from `target`: through a pointer loaded
/// out of it at one of `slot`'s offsets, or (no `slot`) at all?
pub(super) fn reaches(p: Value, target: Value, slot: Option<&[Option<i64>]>) -> bool {
    match slot {
        None => root_object(p) == target,
        Some(offs) => first_slot(p).is_some_and(|(r, off)| r == target && may_overlap(off, offs)),
    }
}

/// When `p` is reached through a pointer loaded out of another object: that object and the
/// field offset of the outermost such load (`c->s[1]` gives `c` and the offset of `s`);
/// `None` when `p` points into its root object directly. A parameter's -O0 home (a slot
/// stored once) is looked through, as in `root_object`.
pub(super) fn first_slot(p: Value) -> Option<(Value, Option<i64>)> {
    let mut slot = None;
    let mut b = base_object(p);
    for _ in 0..16 {
        if b.opcode() != Some(Opcode::LLVMLoad) {
            return slot.map(|off| (b, off));
        }
        let q = b.operand(0);
        let qb = base_object(q);
        match stored_once(qb) {
            Some(v) if q == qb => b = base_object(v),
            _ => {
                slot = Some(field_offset(q));
                b = qb;
            }
        }
    }
    None
}

/// A constant pointer the function stores into memory with a shadow: the object (a local
/// struct, a global pointer variable, an argument's memory), the store, and the field
/// offset it is stored at.
#[derive(Clone, Copy)]
pub(super) struct ConstantSlot {
    pub root: Value,
    pub store: Value,
    pub offset: Option<i64>,
}

/// The stores of `insts` that put a pointer without a shadow (or one loaded out of memory
/// without a shadow) directly into an object that has one.
pub(super) fn constant_pointer_slots(insts: &[Value], act: &Activity) -> Vec<ConstantSlot> {
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    for &i in insts {
        if i.opcode() != Some(Opcode::LLVMStore) {
            continue;
        }
        let (v, to) = (i.operand(0), i.operand(1));
        if !v.ty().is_pointer() || !(lacks_shadow(act, v) || lacks_shadow(act, root_object(v))) {
            continue;
        }
        if first_slot(to).is_some() {
            continue;
        }
        let root = root_object(to);
        let offset = field_offset(to);
        if act.is_shadowed(root) && seen.insert((root, offset)) {
            out.push(ConstantSlot {
                root,
                store: i,
                offset,
            });
        }
    }
    out
}
