//! Shadows of heap allocations, made and released by the primal's allocator family.
//!
//! Memory from `operator new` must go back through `operator delete`, memory from `new[]`
//! through `delete[]`, memory from `malloc` through `free` (ferrozyme-abi's allocator
//! table, [`ferrozyme_abi::Family`]). A shadow is handed around like its primal: it can
//! reach the program's own deallocator (a shadow `std::vector` buffer released by a
//! destructor in a later call), and a user-replaced `operator new`/`delete` (a counting
//! or pool allocator, one that checks a header it wrote) must only ever see its own
//! blocks. So, as Enzyme does:
//!
//! * [`allocate`]: the shadow of an allocation whose family asks for it
//!   ([`ferrozyme_abi::AllocFn::shadow_from_same_call`]: `operator new` in every form, the
//!   aligned C allocators; an `__enzyme_allocation_like` registration whose deallocator
//!   takes the pointer alone) is a second call of the same function with the same
//!   arguments, zeroed; the C library's plain allocators keep `calloc` (the same family,
//!   no memset);
//! * [`release`]: a shadow is released by its family's deallocator taking the pointer
//!   (`_ZdlPv`, `_ZdaPv`, or the aligned forms with the primal's alignment; a
//!   registration's deallocator), `free` for the C library's and Rust's;
//! * [`deallocator`]: the same as a `void(ptr)` function for the runtime's shadow table
//!   (`runtime/ir/shadows.ll`), which releases shadows later, when both their replay and
//!   their primal's free have happened: null for `free`, the deallocator itself, or a
//!   small internal thunk passing a constant alignment (`_ZdlPvSt11align_val_t.fz_shadow.64`).
//!
//! Forward mode (`tangent/calls.rs`), the reverse mode's forward sweep
//! (`reverse/calls.rs`) and its replays (`reverse/calls.rs`, `reverse/adjoint.rs`) all
//! go through these three functions; the table says which family a call is.

use ferrozyme_llvm::{Builder, Value};

use crate::services::Support;

/// The deallocator of an `__enzyme_allocation_like` registration that takes the pointer
/// alone, when `call` calls its allocator or that deallocator: shadows of the allocator's
/// memory are its own blocks.
fn registered_deallocator(sup: &Support, call: Value) -> Option<Value> {
    let f = call.called_function()?;
    if let Some(name) = f.string_fn_attr(ferrozyme_abi::ALLOCATOR_DEALLOC_ATTR) {
        return sup.module.function(&name);
    }
    (f.has_string_fn_attr(ferrozyme_abi::DEALLOCATOR_ATTR) && f.params().len() == 1).then_some(f)
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
    if ferrozyme_analysis::calls::alloc_fn(orig).is_some_and(|a| a.shadow_from_same_call())
        || registered_deallocator(sup, orig).is_some()
    {
        // A call, also where the primal is an `invoke` (a failing `new` throws from the
        // shadow's call as it would have from the primal's).
        let s = b.call(
            copy.called_function_type(),
            copy.called_value(),
            &copy.call_args(),
        );
        let bytes = b.mul(n, m);
        b.memset(s, ctx.i8().const_int(0), bytes, 1);
        return s;
    }
    let calloc = sup.libc("calloc", ctx.ptr(), &[i64t, i64t]);
    b.call_fn(calloc, &[n, m])
}

/// The zeroed shadow, `n` bytes aligned to `align`, of `posix_memalign`'s memory (released
/// by `free`, as the primal is): `aligned_alloc(align, n)`, as aligned as the primal (a
/// `calloc`'d shadow is only 16-byte aligned, where the code may use aligned vector moves).
pub(crate) fn allocate_aligned(b: &Builder, sup: &mut Support, align: Value, n: Value) -> Value {
    let ctx = b.context();
    let i64t = ctx.i64();
    let aligned_alloc = sup.libc("aligned_alloc", ctx.ptr(), &[i64t, i64t]);
    let s = b.call_fn(aligned_alloc, &[b.int_cast(align, i64t), n]);
    b.memset(s, ctx.i8().const_int(0), n, 1);
    s
}

/// Where the alignment argument of allocation or deallocation `call` is, when its shadow's
/// deallocator takes one (aligned `operator new`/`delete`).
pub(crate) fn align_arg(call: Value) -> Option<usize> {
    let a = ferrozyme_analysis::calls::alloc_fn(call)?;
    a.shadow_deallocator().filter(|d| d.aligned).and(a.align)
}

/// Releases `s`, a shadow of memory `call` allocates or frees, now. `align`: the
/// alignment argument's value in the generated code (see [`align_arg`]).
pub(crate) fn release(
    b: &Builder,
    sup: &mut Support,
    call: Value,
    s: Value,
    align: Option<Value>,
) -> Value {
    let ctx = b.context();
    let (void, ptr) = (ctx.void(), ctx.ptr());
    if let Some(f) = registered_deallocator(sup, call) {
        return b.call_fn(f, &[s]);
    }
    let dealloc = ferrozyme_analysis::calls::alloc_fn(call).and_then(|a| a.shadow_deallocator());
    match (dealloc, align) {
        (Some(d), Some(a)) if d.aligned => {
            let f = sup.libc(d.name, void, &[ptr, ctx.i64()]);
            let a = b.int_cast(a, ctx.i64());
            b.call_fn(f, &[s, a])
        }
        (Some(d), _) if !d.aligned => {
            let f = sup.libc(d.name, void, &[ptr]);
            b.call_fn(f, &[s])
        }
        _ => {
            let free = sup.libc("free", void, &[ptr]);
            b.call_fn(free, &[s])
        }
    }
}

/// An aligned deallocator's alignment that is not a constant: the runtime's table cannot
/// hold it.
#[derive(Debug)]
pub(crate) struct DynamicAlignment;

/// The `void(ptr)` function that releases shadows of memory `call` allocates or frees,
/// for the runtime's shadow table: null for `free`. `align`: as for [`release`]; it must
/// be a constant for an aligned deallocator.
pub(crate) fn deallocator(
    sup: &mut Support,
    call: Value,
    align: Option<Value>,
) -> Result<Value, DynamicAlignment> {
    let m = sup.module;
    let ctx = m.context();
    let (void, ptr) = (ctx.void(), ctx.ptr());
    if let Some(f) = registered_deallocator(sup, call) {
        return Ok(f);
    }
    let Some(d) = ferrozyme_analysis::calls::alloc_fn(call).and_then(|a| a.shadow_deallocator())
    else {
        return Ok(ptr.zero());
    };
    if !d.aligned {
        return Ok(sup.libc(d.name, void, &[ptr]));
    }
    let Some(k) = align.and_then(|a| a.const_int_value()) else {
        return Err(DynamicAlignment);
    };
    let name = format!("{}.fz_shadow.{k}", d.name);
    if let Some(t) = m.function(&name) {
        return Ok(t);
    }
    let f = sup.libc(d.name, void, &[ptr, ctx.i64()]);
    let t = m.add_function(&name, ctx.function_type(void, &[ptr], false));
    t.set_linkage_internal();
    crate::generated::mark(t);
    let b = Builder::new(ctx);
    b.position_at_end(b.append_block(t, "entry"));
    b.call_fn(f, &[t.params()[0], ctx.i64().const_int(k as u64)]);
    b.ret_void();
    Ok(t)
}
