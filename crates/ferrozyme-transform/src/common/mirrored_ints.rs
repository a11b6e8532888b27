//! Integers stored into the header of a shadowed buffer are mirrored into its shadow.
//!
//! A shadow has the primal's layout: a `Duplicated` Rust `Vec<f64>`'s shadow is a second
//! `Vec` header `{cap, ptr, len}` whose pointer is the shadow buffer. When the
//! differentiated function grows the primal vector (`push` past its capacity), the
//! forward sweep reallocates the shadow buffer beside the primal one and stores the new
//! shadow pointer into the shadow header; the capacity and length it stores into the
//! primal header are plain integers, with no derivative. Left out of the shadow header,
//! the caller's shadow `Vec` keeps its old length and capacity while its pointer is the
//! grown buffer, and dropping it hands that buffer to the allocator with the old layout
//! (a size-checking global allocator aborts; alloc40, rust41). Enzyme stores the primal
//! integer into the shadow for every inactive integer stored through an active pointer
//! (its `visitCommonStore`); we do it only where the shadow header must describe the
//! shadow buffer.
//!
//! So an integer store into shadowed memory stores the same integer into the shadow
//! memory (reverse mode's forward sweep) or, in forward mode, stores it instead of the
//! zero tangent an integer would otherwise get, when all of these hold (rust43):
//! * the bytes are known to be an integer: type analysis says `Integer` at the address
//!   (never `Anything`, a float or a pointer: there the shadow bytes may be an adjoint,
//!   which the reverse sweep reads and clears, or a shadow pointer), and the value has no
//!   derivative of its own and is not a pointer moved as an integer (those have their own
//!   shadow stores);
//! * the memory is a buffer's header: the object the argument points to holds a pointer
//!   too (a `Vec`'s `{cap, ptr, len}`, a `RawVec`'s `{cap, ptr}`, a C
//!   `{double *data; int n}`). The integer fields of other records stay the user's
//!   (tests/c/1250: a particle's `id` copied by `ps[i] = q` is not written into the
//!   shadow), and so do integer out-arguments (a Fortran `ierr` or count, whose shadow
//!   in an OpenMP region's argument block may be null: tests/mpi/51, tests/openmp/46);
//! * the memory is one an argument points into (the caller's header, or a callee's `&mut
//!   RawVec`), or one a pointer loaded from such memory points into, up to three loads
//!   deep, the loaded pointer's object holding a pointer too (rust44: a `&mut Vec<f64>`
//!   held in a struct the caller passes, the inner `Vec`s of a `Vec<Vec<f64>>`; before,
//!   their shadow headers kept the old length and capacity over the grown shadow buffer,
//!   and forward mode stored zero tangents there): memory made inside has shadows the
//!   runtime's table releases, whatever their headers say, and a `HashMap` built inside
//!   moves its entries' bytes with `__fz_move_adj_bytes`, which stops where both copies
//!   hold non-zero bits (mirrored keys there did: tests/rust/tests/rustmap_maps.rs). So
//!   the header of a `Vec` pushed into a caller's `Vec<Vec<f64>>` inside, written through
//!   the pointer `realloc` returned, is not mirrored (its shadow reads empty);
//! * at run time, the base's shadow is not null ([`into_real_shadow`]): a caller may
//!   pass a null shadow for memory it has none for, and the store then goes to the sink
//!   slot.
//!
//! Any other integer store writes a zero tangent (forward mode) or clears the adjoint
//! (reverse mode) only where it may overwrite a float's bytes
//! ([`overwrites_float_bits`], one predicate for both modes); elsewhere the shadow's
//! integer stays the user's (a `&mut usize` counter beside a `Dual` buffer: forward mode
//! stored a zero tangent there before rust44, tests/c/1512).

use ferrozyme_analysis::activity::{is_int_carrier_type, Activity};
use ferrozyme_analysis::types::{BaseType, TypeAnalysis};
use ferrozyme_llvm::{Builder, IntPredicate, Opcode, TypeKind, Value};

use crate::common::base_object;
use crate::reverse::memory::{underlying, Obj};

/// At most this many GEPs are followed from a store's address back to a shadowed pointer.
const MAX_GEPS: usize = 4;

/// At most this many loaded pointers lie between an argument and a mirrored header.
const MAX_LOADS: usize = 3;

/// Where the shadow of an integer store's address comes from: the address itself has a
/// shadow, or it is a chain of GEPs off a shadowed pointer that activity gave no shadow
/// (the `len` field at offset 16 of a `Duplicated` `&mut Vec<f64>`: no float is reached
/// through it), whose shadow the synthesizers build by applying the same GEPs to the
/// base's shadow.
pub(crate) struct MirrorAt {
    /// The shadowed pointer.
    pub base: Value,
    /// The GEPs from `base` to the address, outermost last (empty: the address is `base`).
    pub geps: Vec<Value>,
}

impl MirrorAt {
    /// The shadow of the address: the generated copies of the GEPs (`copy_of` maps an
    /// original GEP to its copy in the generated code) applied to `base_shadow`, at `b`'s
    /// position.
    pub(crate) fn shadow_address(
        &self,
        b: &Builder,
        base_shadow: Value,
        copy_of: impl Fn(Value) -> Value,
    ) -> Value {
        let mut sa = base_shadow;
        for g in &self.geps {
            let s = copy_of(*g).clone_instruction();
            b.insert(s);
            s.set_operand(0, sa);
            sa = s;
        }
        sa
    }
}

/// Does an integer store of `v` to `addr` overwrite float memory (reverse mode: its
/// adjoint must be cleared; forward mode: the shadow gets the value's tangent, zero when it
/// has none)? Not where type analysis knows the bytes hold an integer or a pointer, or
/// knows nothing of them and the value is computed: there the shadow holds no derivative,
/// and reverse mode clears nothing (the shadow's integer stays the user's: tests/c/1475).
pub(crate) fn overwrites_float_bits(
    act: &Activity,
    types: &TypeAnalysis,
    v: Value,
    addr: Value,
) -> bool {
    if super::shadows::pointer_as_integer(v).is_some() && !act.is_active(v) {
        // rustmap: `store i64 (ptrtoint p)` writes a pointer (the forward sweep stored
        // its shadow pointer in the shadow memory: `hashbrown`'s `resize` putting the
        // new table in the map's header), not a float, whatever else type analysis
        // merged into those bytes; clearing them would lose that shadow pointer.
        return false;
    }
    let at = types.pointee_tree(addr).get(0);
    is_int_carrier_type(v.ty())
        && (act.is_active(v)
            || types.int_carries_fp(v).is_some()
            || at.is_float()
            || at == BaseType::Anything
            || ((v.is_constant() || crate::reverse::check::is_constant_bytes_load(v))
                && !matches!(at, BaseType::Pointer | BaseType::Integer)))
}

/// Forward mode: does the store of `v` to `addr` leave the shadow memory alone (an
/// integer that is no float's bits and no pointer's: a `&mut usize` counter beside a
/// `Dual` buffer keeps the user's shadow, as in reverse mode, where it got a zero tangent
/// before rust44)? Not a mirrored header integer ([`mirrored_integer`]).
pub(crate) fn keeps_users_integer(
    act: &Activity,
    types: &TypeAnalysis,
    v: Value,
    addr: Value,
) -> bool {
    matches!(v.ty().kind(), TypeKind::Int(_))
        && super::shadows::pointer_as_integer(v).is_none()
        && !act.is_shadowed(v)
        && !overwrites_float_bits(act, types, v, addr)
}

/// Does the store of `v` to `addr` write an integer the shadow memory mirrors (the same
/// integer stored at the shadow address)? Where the shadow address comes from when it
/// does.
pub(crate) fn mirrored_integer(
    act: &Activity,
    types: &TypeAnalysis,
    v: Value,
    addr: Value,
) -> Option<MirrorAt> {
    let wanted = matches!(v.ty().kind(), TypeKind::Int(_))
        && !act.is_active(v)
        && !act.is_shadowed(v)
        && super::shadows::pointer_as_integer(v).is_none()
        && types.int_carries_fp(v).is_none()
        && types.pointee_tree(addr).get(0) == BaseType::Integer;
    if !wanted {
        return None;
    }
    if !in_callers_header(types, addr) {
        return None;
    }
    let mut geps = Vec::new();
    let mut p = addr;
    while !act.is_shadowed(p) {
        let gep = p.is_instruction() && p.opcode() == Some(Opcode::LLVMGetElementPtr);
        if !gep || geps.len() == MAX_GEPS {
            return None;
        }
        geps.push(p);
        p = p.operand(0);
    }
    geps.reverse();
    Some(MirrorAt { base: p, geps })
}

/// Does `addr` lie in a buffer's header the caller can reach: the object an argument
/// points to, or one a pointer loaded from such memory points to (a `&mut Vec<f64>` held
/// in a struct the caller passes, the inner `Vec`s of a `Vec<Vec<f64>>`), up to
/// [`MAX_LOADS`] loads deep, where that object holds a pointer too (module doc)?
fn in_callers_header(types: &TypeAnalysis, addr: Value) -> bool {
    let mut p = addr;
    for _ in 0..=MAX_LOADS {
        let holder = match underlying(p) {
            Obj::Arg(arg) => return types.pointee_tree(arg).contains(BaseType::Pointer),
            Obj::Unknown => base_object(p),
            _ => return false,
        };
        if holder.opcode() != Some(Opcode::LLVMLoad)
            || !types.pointee_tree(holder).contains(BaseType::Pointer)
        {
            return false;
        }
        // The header is the loaded pointer's object; where the pointer was read from
        // must itself be the caller's memory.
        p = holder.operand(0);
    }
    false
}

/// The address a mirrored integer goes to: the shadow address `sa`, or the sink slot
/// `sink` when the base's shadow `base_shadow` is null at run time (no shadow memory).
pub(crate) fn into_real_shadow(b: &Builder, base_shadow: Value, sa: Value, sink: Value) -> Value {
    let real = b.icmp(
        IntPredicate::LLVMIntNE,
        base_shadow,
        base_shadow.ty().zero(),
    );
    b.select(real, sa, sink)
}
