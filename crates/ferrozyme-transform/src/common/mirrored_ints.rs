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
//!   hold non-zero bits (mirrored keys there did: tests/rust/tests/rustmap_maps.rs).
//!   A block allocated inside counts when its pointer is stored into the caller's
//!   memory: the caller's `Vec<Vec<f64>>` grown by `realloc` inside, the headers of the
//!   rows pushed into it written through the pointer `realloc` returned (rust45: before,
//!   the caller's shadow rows read empty, their shadow buffers leaked);
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
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::{BaseType, TypeAnalysis};
use ferrozyme_llvm::{Builder, IntPredicate, Opcode, TypeKind, Value};

use crate::reverse::memory::pointer_bases;

/// At most this many GEPs are followed from a store's address back to a shadowed pointer.
const MAX_GEPS: usize = 4;

/// At most this many loaded pointers (or stores of an allocated block's pointer) lie
/// between an argument and a mirrored header.
const MAX_LOADS: usize = 3;

/// At most this many values (the allocation, phis and selects) are followed forward to
/// find the store of an allocated block's pointer into the caller's memory.
const MAX_FORWARD_WALK: usize = 16;

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
    if at == BaseType::Unknown && mirrored_integer(act, types, v, addr).is_some() {
        // A header's integer the shadow mirrors: the reverse sweep leaves it there.
        return false;
    }
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
        && integer_bytes(types, v, addr);
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

/// Are the bytes at `addr` an integer's: type analysis says so, or it knows nothing of
/// them, `v` is a constant and `addr` is the start of a record whose first field is an
/// integer of `v`'s type (a `Vec` header `{cap, ptr, len}` written into a slot of its
/// outer buffer: rust45's rows pushed into a `Vec<Vec<f64>>`, whose `cap` nothing reads
/// inside)? The record's type is the IR's, trusted only there: a constant integer
/// written at the start of a header the caller can reach ([`mirrored_integer`]).
fn integer_bytes(types: &TypeAnalysis, v: Value, addr: Value) -> bool {
    match types.pointee_tree(addr).get(0) {
        BaseType::Integer => true,
        BaseType::Unknown => v.is_constant() && record_starts_with(addr, v.ty()),
        _ => false,
    }
}

/// Is `addr` a one-index GEP (a step over whole records) whose record type's first
/// scalar, through nested records and arrays, is `t`?
fn record_starts_with(addr: Value, t: ferrozyme_llvm::Type) -> bool {
    if !(addr.is_instruction()
        && addr.opcode() == Some(Opcode::LLVMGetElementPtr)
        && addr.num_operands() == 2)
    {
        return false;
    }
    let mut r = addr.gep_source_type();
    for _ in 0..8 {
        match r.kind() {
            TypeKind::Struct => match r.struct_fields().first() {
                Some(f) => r = *f,
                None => return false,
            },
            TypeKind::Array => r = r.element_type(),
            _ => return r == t,
        }
    }
    false
}

/// Does `addr` lie in a buffer's header the caller can reach: the object an argument
/// points to, or one a pointer loaded from such memory points to (a `&mut Vec<f64>` held
/// in a struct the caller passes, the inner `Vec`s of a `Vec<Vec<f64>>`), or a block
/// allocated inside whose pointer is stored into such memory (the caller's outer `Vec`
/// grown by `realloc`: the rows pushed into it), up to [`MAX_LOADS`] such steps, where
/// each object holds a pointer too (module doc)? Every pointer the address may be based
/// on (through phis and selects: the buffer pointer reloaded, or the one `realloc`
/// returned) must be.
fn in_callers_header(types: &TypeAnalysis, addr: Value) -> bool {
    in_callers_object(types, addr, MAX_LOADS)
}

/// [`in_callers_header`] with `steps` loads or stores left between `p` and an argument.
fn in_callers_object(types: &TypeAnalysis, p: Value, steps: usize) -> bool {
    let Some(bases) = pointer_bases(p) else {
        return false;
    };
    !bases.is_empty()
        && bases.into_iter().all(|b| {
            if !types.pointee_tree(b).contains(BaseType::Pointer) {
                return false;
            }
            if b.is_argument() {
                return true;
            }
            match b.opcode() {
                // The header is the loaded pointer's object; where the pointer was read
                // from must itself be the caller's memory.
                Some(Opcode::LLVMLoad) => {
                    steps > 0 && in_callers_object(types, b.operand(0), steps - 1)
                }
                Some(Opcode::LLVMCall) if is_allocation(b) => {
                    steps > 0 && stored_into_callers(types, b, steps - 1)
                }
                _ => false,
            }
        })
}

/// Is the pointer allocation `a` returns stored (as it is, or through phis and selects)
/// into memory the caller can reach ([`in_callers_object`] with `steps` left)? Then the
/// block is the caller's after the call (a `Vec`'s grown buffer in the caller's header).
fn stored_into_callers(types: &TypeAnalysis, a: Value, steps: usize) -> bool {
    let mut work = vec![a];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > MAX_FORWARD_WALK {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMPHI | Opcode::LLVMSelect) => work.push(u),
                Some(Opcode::LLVMStore)
                    if u.operand(0) == v && in_callers_object(types, u.operand(1), steps) =>
                {
                    return true;
                }
                _ => {}
            }
        }
    }
    false
}

/// Does `c` allocate a block (`malloc`, `calloc`, `realloc` and their Rust and C++
/// relatives)?
fn is_allocation(c: Value) -> bool {
    matches!(
        classify(c),
        CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
    )
}

/// At most this many bytes of a `memcpy` into a header are looked at for integers to
/// mirror ([`mirrored_copy_words`]).
const MAX_COPY: i64 = 64;

/// The offsets (from `dst`) of the 4-byte integer words a `memcpy` of `len` bytes into a
/// header the caller can reach writes ([`in_callers_header`]; type analysis says
/// `Integer` there): their shadow mirrors the primal's after the shadow copy. The copy's
/// source is often memory made inside (rust45: a `Vec` built in a local and moved into the
/// caller's `Vec`, its `{cap, ptr, len}` copied whole), whose shadow integers nothing
/// mirrors: the shadow copy alone left the caller's shadow `Vec` with length and
/// capacity 0 over its shadow buffer.
pub(crate) fn mirrored_copy_words(types: &TypeAnalysis, dst: Value, len: Value) -> Vec<i64> {
    let Some(n) = len.const_int_value() else {
        return Vec::new();
    };
    if !(0..=MAX_COPY).contains(&n) || !in_callers_header(types, dst) {
        return Vec::new();
    }
    let t = types.pointee_tree(dst);
    (0..n / 4 * 4)
        .step_by(4)
        .filter(|&o| t.get(o) == BaseType::Integer)
        .collect()
}

/// After the shadow copy of a `memcpy` into `pd` (primal) / `sd` (its shadow): each word
/// of `words` ([`mirrored_copy_words`]) read from the primal destination and stored at
/// the same offset of the shadow (into `sink` where `sd` is null at run time).
pub(crate) fn mirror_copied_words(b: &Builder, pd: Value, sd: Value, words: &[i64], sink: Value) {
    let ctx = pd.ty().context();
    let (i32t, i64t) = (ctx.i32(), ctx.i64());
    for &o in words {
        let p = b.byte_gep(pd, i64t.const_int(o as u64));
        let v = b.load(i32t, p, "mirrored");
        let s = b.byte_gep(sd, i64t.const_int(o as u64));
        let s = into_real_shadow(b, sd, s, sink);
        b.store(v, s);
    }
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
