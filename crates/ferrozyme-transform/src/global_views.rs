//! Shadows of global views that the program points elsewhere.
//!
//! A mutable global initialised with the address of another shadowed global (`static
//! struct { double *p; int n; } view = {storage, 4}`) has a shadow whose initializer
//! points at that global's shadow (`common/shadows.rs`, [`initializer_shadow`]).
//! Derivatives that store a new pointer into the view store its shadow beside it; code
//! the pass does not see (the program's `main`, between two derivative calls) does not.
//! Where a top-level derivative starts (`contexts::zero_all`, `contexts::revalidate`),
//! each such pointer field is checked against its initial value:
//!
//! * the view holds its initial pointer again: its shadow is the initial shadow;
//! * the view holds another pointer and its shadow is still the initial shadow (the
//!   program pointed it elsewhere outside the derivatives): the shadow is cleared, so a
//!   derivative reading through it stops with `global_args.rs`'s message instead of
//!   adding adjoints into the shadow of the array the view no longer shows;
//! * otherwise (a derivative stored a pointer with its shadow, or the program stored an
//!   allocation whose shadow `outside_allocations.rs` made) it is left alone.
//!
//! Thread-local globals are left out (each thread's copy would need its own check).
//!
//! [`initializer_shadow`]: crate::common::shadows::initializer_shadow

use ferrozyme_llvm::{Builder, IntPredicate, Module, Type, TypeKind, Value};

use crate::services::Support;

/// Emits at `b` the checks above for every shadow global whose initializer points at
/// another global's shadow.
pub(crate) fn revalidate_views(sup: &Support, b: &Builder) {
    let m = sup.module;
    for (g, sg) in sup.shadow_globals_with_primals() {
        if g.is_thread_local() || !sg.global_value_type().contains_pointer() {
            continue;
        }
        let (Some(init), Some(sinit)) = (g.initializer(), sg.initializer()) else {
            continue;
        };
        let mut fields = Vec::new();
        shadowed_pointers(m, init, sinit, 0, &mut fields);
        for (off, p0, s0) in fields {
            check_field(b, m, g, sg, off, p0, s0);
        }
    }
}

/// The pointer leaves of `init` (at byte offset `base`) whose shadow in `sinit` is
/// another pointer (not null, not the leaf itself): (offset, initial pointer, initial
/// shadow).
fn shadowed_pointers(
    m: Module,
    init: Value,
    sinit: Value,
    base: u64,
    out: &mut Vec<(u64, Value, Value)>,
) {
    let ty: Type = init.ty();
    if ty.is_pointer() {
        if !sinit.is_null() && sinit != init {
            out.push((base, init, sinit));
        }
        return;
    }
    if !ty.contains_pointer() {
        return;
    }
    let n = match ty.kind() {
        TypeKind::Struct => ty.struct_fields().len() as u32,
        TypeKind::Array => ty.array_len() as u32,
        _ => return,
    };
    for k in 0..n {
        let (Some(e), Some(se)) = (init.const_element(k), sinit.const_element(k)) else {
            return;
        };
        let off = match ty.kind() {
            TypeKind::Struct => m.field_offset(ty, k),
            _ => u64::from(k) * m.alloc_size(ty.element_type()),
        };
        shadowed_pointers(m, e, se, base + off, out);
    }
}

/// `shadow = view == p0 ? s0 : (shadow == s0 ? null : shadow)` for the pointer field at
/// byte `off` of global `g` and its shadow `sg`.
fn check_field(b: &Builder, m: Module, g: Value, sg: Value, off: u64, p0: Value, s0: Value) {
    let ctx = m.context();
    let ptr = p0.ty();
    let at = |base: Value| b.byte_gep(base, ctx.i64().const_int(off));
    let (pa, sa) = (at(g), at(sg));
    let p = b.load(ptr, pa, "view");
    let s = b.load(ptr, sa, "view.shadow");
    let same = b.icmp(IntPredicate::LLVMIntEQ, p, p0);
    let stale = b.icmp(IntPredicate::LLVMIntEQ, s, s0);
    let moved = b.select(stale, ptr.zero(), s);
    b.store(b.select(same, s0, moved), sa);
}
