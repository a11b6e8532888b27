//! Shadows of heap allocations, made and released by the primal's allocator family.
//!
//! Memory from `operator new` must go back through `operator delete`, memory from `new[]`
//! through `delete[]`, memory from `malloc` through `free`, memory from Rust's
//! `__rust_alloc` through `__rust_dealloc` (ferrozyme-abi's allocator table,
//! [`ferrozyme_abi::Family`]). A shadow is handed around like its primal: it can reach the
//! program's own deallocator (a shadow `std::vector` buffer released by a destructor in a
//! later call, a shadow `Vec` dropped), and a user-replaced `operator new`/`delete` or a
//! Rust `#[global_allocator]` (a counting or pool allocator, one that checks a header it
//! wrote) must only ever see its own blocks. So, as Enzyme does:
//!
//! * [`allocate`]: the shadow of an allocation whose family asks for it
//!   ([`ferrozyme_abi::AllocFn::shadow_from_same_call`]: `operator new` in every form,
//!   `__rust_alloc`/`__rust_alloc_zeroed`, the aligned C allocators; an
//!   `__enzyme_allocation_like` registration) is a second call of the same function with
//!   the same arguments, zeroed (with the alignment the allocator guarantees,
//!   [`known_alignment`]); `__rust_realloc`'s is `__rust_alloc_zeroed` of the new size; the
//!   C library's plain allocators keep `calloc` (the same family, no memset);
//! * [`release`]: a shadow is released by its family's deallocator with the arguments it
//!   takes besides the pointer ([`release_operands`]: the alignment of an aligned `new`,
//!   Rust's size and alignment, a registration's allocation arguments), `free` for the C
//!   library's;
//! * [`deallocator`] and [`words`]: the same for the runtime's shadow table
//!   (`runtime/ir/shadows.ll`), which releases shadows later, when both their replay and
//!   their primal's free have happened: null for `free`, else an internal thunk
//!   `void(ptr, i64, i64)` (`__rust_dealloc.fz_shadow`) that passes the two words the entry
//!   keeps to the deallocator as its arguments.
//!
//! Forward mode (`tangent/calls.rs`), the reverse mode's forward sweep
//! (`reverse/heap_shadows.rs`) and its replays (`reverse/heap_shadows.rs`,
//! `reverse/adjoint.rs`) all go through these functions; the table says which family a
//! call is.

use ferrozyme_llvm::{Builder, Value};

use crate::services::Support;

/// The deallocator of an `__enzyme_allocation_like` registration when `call` calls its
/// allocator or that deallocator, with where its arguments besides the pointer come from
/// among `call`'s: the allocation's arguments its list names, or the deallocator call's own.
fn registered_deallocator(sup: &Support, call: Value) -> Option<(Value, Vec<usize>)> {
    let f = call.called_function()?;
    if let Some(name) = f.string_fn_attr(ferrozyme_abi::ALLOCATOR_DEALLOC_ATTR) {
        let list = f
            .string_fn_attr(ferrozyme_abi::ALLOCATOR_DEALLOC_ARGS_ATTR)
            .unwrap_or_default();
        // Checked when the registration was read (`custom::read_allocation_like`).
        let extra = list
            .split(',')
            .filter_map(|t| t.trim().parse::<i64>().ok())
            .filter_map(|k| usize::try_from(k).ok())
            .collect();
        return Some((sup.module.function(&name)?, extra));
    }
    let ptr: usize = f
        .string_fn_attr(ferrozyme_abi::DEALLOCATOR_ATTR)?
        .parse()
        .ok()?;
    Some((f, (0..f.params().len()).filter(|&j| j != ptr).collect()))
}

/// The deallocator releasing shadows of memory `call` allocates or frees (`None`: `free`)
/// and the positions among `call`'s arguments of the ones it takes besides the pointer.
fn shadow_deallocator(sup: &mut Support, call: Value) -> Option<(Value, Vec<usize>)> {
    if let Some(r) = registered_deallocator(sup, call) {
        return Some(r);
    }
    let row = ferrozyme_analysis::calls::alloc_fn(call)?;
    if let Some(f) = call.called_function().filter(|f| {
        row.kind == ferrozyme_abi::AllocKind::Free
            && f.has_string_fn_attr(ferrozyme_abi::FUNCTION_LIKE_ATTR)
            && f.params().len() <= 3
            && f.params()
                .iter()
                .skip(1)
                .all(|p| p.ty().is_integer() || p.ty().is_pointer())
    }) {
        // A function declared to behave like a deallocator (`__enzyme_function_like`,
        // "free"): the program's own deallocator for that memory (tests/c/502's `release`
        // of a pool block), which releases the shadow too, as Enzyme does.
        let extra: Vec<usize> = (0..f.params().len()).filter(|&j| j != 0).collect();
        return Some((f, extra));
    }
    let d = row.shadow_deallocator()?;
    let ctx = sup.module.context();
    let extra: Vec<usize> = d.extra_args().collect();
    let mut params = vec![ctx.ptr()];
    params.extend(extra.iter().map(|_| ctx.i64()));
    // Rust's entry points are spelled as the call's (`_RNvCs…_7___rustc14___rust_dealloc`).
    let callee = call.called_value().name();
    let name = match ferrozyme_analysis::calls::alloc_fn(call)?.family {
        ferrozyme_abi::Family::Rust => ferrozyme_abi::rust_entry_symbol(&callee, d.name),
        _ => d.name.to_string(),
    };
    Some((sup.libc(&name, ctx.void(), &params), extra))
}

/// Where, among `call`'s arguments, the arguments the deallocator of its shadows takes
/// besides the pointer are (none for `free`): what [`release`] and [`words`] are given.
pub(crate) fn release_operands(sup: &mut Support, call: Value) -> Vec<usize> {
    shadow_deallocator(sup, call).map_or_else(Vec::new, |(_, extra)| extra)
}

/// `f`'s arguments: `s` for the pointer it frees (position `ptr`), `rest` in order for
/// the others, each converted to its parameter's type.
fn dealloc_args(b: &Builder, f: Value, ptr: usize, s: Value, rest: &[Value]) -> Vec<Value> {
    let mut rest = rest.iter();
    f.params()
        .iter()
        .enumerate()
        .map(|(j, p)| {
            if j == ptr {
                return s;
            }
            let v = *rest.next().expect("one value per deallocator argument");
            let ty = p.ty();
            match (v.ty().is_pointer(), ty.is_pointer()) {
                (false, true) => b.inttoptr(v, ty),
                (true, false) => b.ptrtoint(v, ty),
                (true, true) => v,
                (false, false) => b.int_cast(v, ty),
            }
        })
        .collect()
}

/// The position of the pointer deallocator `f` frees.
fn freed_position(f: Value) -> usize {
    f.string_fn_attr(ferrozyme_abi::DEALLOCATOR_ATTR)
        .and_then(|k| k.parse().ok())
        .unwrap_or(0)
}

/// The size operands `(n, m)` of allocation `orig` as `i64`s, its shadow's size `n * m`,
/// read from `args` (the call's arguments in the generated code) by the allocator's table
/// entry (`malloc(n)`, `calloc(k, n)`, `realloc(p, n)`, `aligned_alloc(a, n)`,
/// `__rust_alloc(n, align)` ...); `m` is 1 for a one-operand size.
pub(crate) fn size_operands(b: &Builder, orig: Value, args: &[Value]) -> (Value, Value) {
    let i64t = b.context().i64();
    let (n, m) = ferrozyme_analysis::calls::alloc_size_operands(orig, args)
        .expect("classified as an allocator with a size");
    let n = b.int_cast(n, i64t);
    (
        n,
        m.map_or_else(|| i64t.const_int(1), |m| b.int_cast(m, i64t)),
    )
}

/// `n * m`, the bytes of an allocation of size operands `(n, m)` ([`size_operands`]),
/// without a multiplication by a constant 1.
pub(crate) fn bytes(b: &Builder, (n, m): (Value, Value)) -> Value {
    if m.const_int_value() == Some(1) {
        n
    } else {
        b.mul(n, m)
    }
}

/// The alignment the memory allocation `orig` returns is known to have, for the memset
/// zeroing its shadow: the alignment argument when it is a constant power of two (Rust's
/// layouts, `aligned_alloc`, an aligned `new`), else what the allocator documents for every
/// block (`operator new`: `__STDCPP_DEFAULT_NEW_ALIGNMENT__`, 16 on the 64-bit targets
/// Ferrozyme compiles for), else 1 (an `__enzyme_allocation_like` registration, a run-time
/// alignment).
pub(crate) fn known_alignment(orig: Value, args: &[Value]) -> u32 {
    let Some(a) = ferrozyme_analysis::calls::alloc_fn(orig) else {
        return 1;
    };
    let given = a
        .align
        .and_then(|k| args.get(k))
        .and_then(|v| v.const_int_value())
        .and_then(|k| u32::try_from(k).ok())
        .filter(|k| k.is_power_of_two());
    match (given, a.family) {
        (Some(k), _) => k,
        (None, ferrozyme_abi::Family::New | ferrozyme_abi::Family::NewArray)
            if a.align.is_none() =>
        {
            16
        }
        _ => 1,
    }
}

/// The zeroed shadow, `n * m` bytes, of the allocation `orig` (the original call), whose
/// copy in the generated code is `copy`.
pub(crate) fn allocate(
    b: &Builder,
    sup: &mut Support,
    orig: Value,
    copy: Value,
    (n, m): (Value, Value),
) -> Value {
    let ctx = b.context();
    let i64t = ctx.i64();
    let row = ferrozyme_analysis::calls::alloc_fn(orig);
    let args = copy.call_args();
    if row.is_some_and(|a| a.shadow_from_same_call()) || registered_deallocator(sup, orig).is_some()
    {
        // A call, also where the primal is an `invoke` (a failing `new` throws from the
        // shadow's call as it would have from the primal's).
        let s = b.call(copy.called_function_type(), copy.called_value(), &args);
        // `__rust_alloc_zeroed`'s block is zeroed already.
        if !row.is_some_and(|a| a.kind == ferrozyme_abi::AllocKind::Calloc) {
            let bytes = b.mul(n, m);
            b.memset(
                s,
                ctx.i8().const_int(0),
                bytes,
                known_alignment(orig, &args),
            );
        }
        return s;
    }
    if let Some(a) = row.filter(|a| {
        a.family == ferrozyme_abi::Family::Rust && a.kind == ferrozyme_abi::AllocKind::Realloc
    }) {
        // `__rust_realloc(p, old, align, new)`: a zeroed block of the new layout from the
        // same global allocator, `__rust_alloc_zeroed(new, align)`.
        let name =
            ferrozyme_abi::rust_entry_symbol(&copy.called_value().name(), "__rust_alloc_zeroed");
        let f = sup.libc(&name, ctx.ptr(), &[i64t, i64t]);
        let align = args[a.align.expect("__rust_realloc takes an alignment")];
        return b.call_fn(f, &[b.mul(n, m), b.int_cast(align, i64t)]);
    }
    let calloc = sup.libc("calloc", ctx.ptr(), &[i64t, i64t]);
    b.call_fn(calloc, &[n, m])
}

/// The old block's size a reallocation passes the runtime's realloc helpers as an `i64`:
/// `given`, the generated value of the size the call is told (`AllocFn::old_size`:
/// `__rust_realloc`), else -1: the helpers then ask `malloc_usable_size`
/// (`runtime/ir/realloc_bytes.ll`), which only the C library's blocks answer.
pub(crate) fn old_size(b: &Builder, given: Option<Value>) -> Value {
    let i64t = b.context().i64();
    given.map_or_else(|| i64t.const_int(u64::MAX), |v| b.int_cast(v, i64t))
}

/// A new shadow for `realloc`-like `copy` (the generated copy of `orig`) in forward mode:
/// the same reallocation of the old shadow `old` (`realloc`, `__rust_realloc` with the same
/// sizes and alignment), so each family reallocates its own blocks.
pub(crate) fn reallocate(b: &Builder, orig: Value, copy: Value, old: Value) -> Value {
    let a = ferrozyme_analysis::calls::alloc_fn(orig).expect("classified as a realloc");
    let mut args = copy.call_args();
    args[a.ptr.expect("realloc takes a pointer")] = old;
    b.call(copy.called_function_type(), copy.called_value(), &args)
}

/// The zeroed shadow, `n` bytes aligned to `align`, of `posix_memalign`'s memory (released
/// by `free`, as the primal is): `aligned_alloc(align, n)`, as aligned as the primal (a
/// `calloc`'d shadow is only 16-byte aligned, where the code may use aligned vector moves).
pub(crate) fn allocate_aligned(b: &Builder, sup: &mut Support, align: Value, n: Value) -> Value {
    let ctx = b.context();
    let i64t = ctx.i64();
    let aligned_alloc = sup.libc("aligned_alloc", ctx.ptr(), &[i64t, i64t]);
    let s = b.call_fn(aligned_alloc, &[b.int_cast(align, i64t), n]);
    let known = align
        .const_int_value()
        .and_then(|k| u32::try_from(k).ok())
        .filter(|k| k.is_power_of_two())
        .unwrap_or(1);
    b.memset(s, ctx.i8().const_int(0), n, known);
    s
}

/// Releases `s`, a shadow of memory `call` allocates or frees, now. `operands`: the values
/// in the generated code of `call`'s arguments at [`release_operands`].
pub(crate) fn release(
    b: &Builder,
    sup: &mut Support,
    call: Value,
    s: Value,
    operands: &[Value],
) -> Value {
    let ctx = b.context();
    match shadow_deallocator(sup, call) {
        Some((f, _)) => {
            let args = dealloc_args(b, f, freed_position(f), s, operands);
            b.call_fn(f, &args)
        }
        None => {
            let free = sup.libc("free", ctx.void(), &[ctx.ptr()]);
            b.call_fn(free, &[s])
        }
    }
}

/// The two words the runtime's shadow table keeps for the deallocator of a shadow of
/// memory `call` allocates or frees: `operands` (see [`release`]) as `i64`s, zeros for the
/// ones it does not take.
pub(crate) fn words(b: &Builder, operands: &[Value]) -> [Value; 2] {
    let i64t = b.context().i64();
    let word = |k: usize| match operands.get(k) {
        Some(&v) if v.ty().is_pointer() => b.ptrtoint(v, i64t),
        // Zero-extended: the thunk truncates back to the argument's type.
        Some(&v) if v.ty().int_width().is_some_and(|w| w < 64) => b.zext(v, i64t),
        Some(&v) => v,
        None => i64t.const_int(0),
    };
    [word(0), word(1)]
}

/// The `void(ptr, i64, i64)` function that releases shadows of memory `call` allocates or
/// frees, for the runtime's shadow table, given the entry's two [`words`]: null for
/// `free`, else `<deallocator>.fz_shadow`, an internal thunk calling the deallocator with
/// the shadow and as many words as it takes besides.
pub(crate) fn deallocator(sup: &mut Support, call: Value) -> Value {
    let m = sup.module;
    let ctx = m.context();
    let (void, ptr, i64t) = (ctx.void(), ctx.ptr(), ctx.i64());
    let Some((f, _)) = shadow_deallocator(sup, call) else {
        return ptr.zero();
    };
    let name = format!("{}.fz_shadow", f.name());
    if let Some(t) = m.function(&name) {
        return t;
    }
    let t = m.add_function(&name, ctx.function_type(void, &[ptr, i64t, i64t], false));
    t.set_linkage_internal();
    crate::generated::mark(t);
    let b = Builder::new(ctx);
    b.position_at_end(b.append_block(t, "entry"));
    let p = t.params();
    let args = dealloc_args(&b, f, freed_position(f), p[0], &p[1..]);
    b.call_fn(f, &args[..]);
    b.ret_void();
    t
}
