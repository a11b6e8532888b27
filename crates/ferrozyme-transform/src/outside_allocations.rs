//! Memory the program allocates outside the differentiated code and stores into a
//! mutable global (`a = aligned_alloc(64, n * sizeof(double))` in an `init` no derivative
//! runs) gets a zeroed shadow of the same size in the global's shadow, as Enzyme gives
//! such globals an implicit shadow: derivatives read and accumulate through it, and the
//! program reads the gradient through `*(double **)__enzyme_shadow(ctx, &a, 0)`. Before,
//! the global's shadow stayed null and a derivative reading through it stopped the
//! program (`global_args.rs`).
//!
//! Phases, after every derivative is made (`session.rs`), so that every shadow global the
//! derivatives use exists:
//! 1. find the stores, in the program's own functions (not generated ones), of an
//!    allocator's result (the allocator table: `malloc`, `calloc`, `aligned_alloc`,
//!    `new` ...) into a pointer field of a global that has a shadow, at a constant offset;
//! 2. after each, allocate the zeroed shadow (`shadow_memory::allocate`), store it into
//!    the shadow global at the same offset, and record it, its size and the primal
//!    pointer in a global `{ptr shadow, i64 bytes, ptr primal}`;
//! 3. fill `__fz_outside.<shadow>(i1 zero)`, called where a top-level derivative starts:
//!    with `zero` where global shadows are zeroed (every top-level call without a
//!    context, `__enzyme_context`, `__enzyme_zero_shadows`: `contexts::zero_all`),
//!    without it for a call given a context (`contexts::revalidate`); made empty by
//!    [`outside_fn`]. For each record whose shadow is still the shadow global's pointer
//!    there: if the global no longer holds the recorded primal (code the pass cannot see,
//!    a callee given the global's address, stored another pointer), the shadow pointer is
//!    cleared, so a derivative reading through it stops with the message of
//!    `global_args.rs` instead of using a shadow of another size; otherwise, with `zero`,
//!    the shadow memory is zeroed. A shadow a derivative stored there since (of a size no
//!    record knows) is left alone.
//!
//! 4. where derivatives record their shadows (the runtime's `kept.ll` is linked), fill
//!    `__fz_kept.zero()`, called next to them at every top-level derivative: the walk of
//!    `runtime/ir/kept.ll` from the constant table `__fz_kept.roots` of these globals,
//!    zeroing the floats of the shadows derivatives left where the globals reach them.
//!
//! A pointer stored there from anything else (the address of an array, memory from an
//! allocator without IR, a whole descriptor copied in) keeps a null shadow and the
//! run-time stop, and so does a thread-local global. The shadow memory is not released
//! when the program frees the primal (it lives as long as the program, as the global
//! does).

use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Builder, IntPredicate, Module, Opcode, Through, Value};

use crate::services::Support;

/// The name prefix of the function that checks and zeroes the recorded outside
/// allocations of a shadow global.
const FN_PREFIX: &str = "__fz_outside.";

/// The function walking the shadows derivatives leave where globals reach them
/// (`runtime/ir/kept.ll`), called where a top-level derivative zeroes the shadow globals.
const KEPT_FN: &str = "__fz_kept.zero";
/// The constant table of its roots.
const KEPT_ROOTS: &str = "__fz_kept.roots";

/// `__fz_outside.<sg>(i1 zero)`, made with an empty body if it does not exist yet
/// (`instrument` fills it once the program's stores are known).
pub(crate) fn outside_fn(m: Module, sg: Value) -> Value {
    let ctx = m.context();
    empty_fn(m, &format!("{FN_PREFIX}{}", sg.name()), &[ctx.i1()])
}

/// `__fz_kept.zero()`, made with an empty body if it does not exist yet (`instrument`
/// fills it where derivatives record shadows a global can reach).
pub(crate) fn kept_fn(m: Module) -> Value {
    empty_fn(m, KEPT_FN, &[])
}

/// The internal function `name` returning nothing, made with an empty body if it does not
/// exist yet.
fn empty_fn(m: Module, name: &str, params: &[ferrozyme_llvm::Type]) -> Value {
    if let Some(f) = m.function(name) {
        return f;
    }
    let ctx = m.context();
    let f = m.add_function(name, ctx.function_type(ctx.void(), params, false));
    f.set_linkage_internal();
    let b = Builder::new(ctx);
    let entry = b.append_block(f, "entry");
    b.position_at_end(entry);
    b.ret_void();
    f
}

/// One outside allocation: the primal global and its shadow, the record, the offset.
struct Record {
    g: Value,
    sg: Value,
    rec: Value,
    off: u64,
}

/// Phases 1-3 of the module essay; `generated`: the functions the pass made.
pub(crate) fn instrument(sup: &mut Support, generated: &[Value]) {
    let m = sup.module;
    let shadows: Vec<(Value, Value)> = sup
        .shadow_globals_with_primals()
        .into_iter()
        // A thread-local global's shadow is per thread, and the records are not.
        .filter(|(g, _)| g.global_value_type().contains_pointer() && !g.is_thread_local())
        .collect();
    if shadows.is_empty() {
        return;
    }
    let generated: HashSet<Value> = generated.iter().copied().collect();
    let stores = allocations_stored(
        m,
        &shadows,
        |f| !generated.contains(&f) && !f.name().starts_with("__fz_"),
        false,
    );
    // Shadows a derivative allocated and stored into a shadow global (a function-local
    // `static std::vector` first built inside the gradient): recorded the same way, so
    // that the next top-level derivative zeroes what the last one left there (adjoints of
    // a reverse sweep, read back as tangents by a forward derivative: tests/cxx/500).
    let made = allocations_stored(m, &shadows, |f| generated.contains(&f), true);
    let b = Builder::new(m.context());
    let ctx = m.context();
    let mut records = Vec::new();
    for (store, g, sg, off) in stores {
        let call = allocation(store.operand(0)).expect("filtered above");
        b.position_after(store);
        let size = crate::shadow_memory::size_operands(&b, call, &call.call_args());
        let bytes = b.mul(size.0, size.1);
        let shadow = crate::shadow_memory::allocate(&b, sup, call, call, size);
        b.store(shadow, place(&b, sg, off));
        let rec = new_record(m, sg, records.len());
        b.store(shadow, rec);
        b.store(bytes, place(&b, rec, 8));
        b.store(store.operand(0), place(&b, rec, 16));
        records.push(Record { g, sg, rec, off });
    }
    for (store, g, sg, off) in made {
        let call = allocation(store.operand(0)).expect("filtered above");
        b.position_after(store);
        let size = crate::shadow_memory::size_operands(&b, call, &call.call_args());
        let bytes = b.mul(size.0, size.1);
        let rec = new_record(m, sg, records.len());
        b.store(store.operand(0), rec);
        b.store(bytes, place(&b, rec, 8));
        // The derivative stored the primal pointer at the same place just before.
        let primal = b.load(ctx.ptr(), place(&b, g, off), "fz.outside.primal");
        b.store(primal, place(&b, rec, 16));
        records.push(Record { g, sg, rec, off });
    }
    for &(_, sg) in &shadows {
        if let Some(f) = m.function(&format!("{FN_PREFIX}{}", sg.name())) {
            fill(
                &b,
                f,
                &records.iter().filter(|r| r.sg == sg).collect::<Vec<_>>(),
            );
        }
    }
    // Derivatives record the shadows they allocate (`runtime/ir/kept.ll` is there), and
    // those whose primal outlives a derivative can be reached from these globals.
    if let Some(f) = m
        .function(KEPT_FN)
        .filter(|_| crate::runtime::Piece::Kept.is_linked(m))
    {
        fill_kept(sup, &b, f, &shadows);
    }
}

/// `__fz_kept.zero`'s body: the walk of `runtime/ir/kept.ll` from the globals `roots`
/// (`(global, shadow global)`, each holding pointers), which also turns the runtime's
/// keeping of candidates on.
fn fill_kept(sup: &mut Support, b: &Builder, f: Value, roots: &[(Value, Value)]) {
    let m = sup.module;
    let ctx = m.context();
    let i64t = ctx.i64();
    let rec_ty = ctx.struct_type(&[ctx.ptr(), ctx.ptr(), i64t]);
    let elems: Vec<Value> = roots
        .iter()
        .map(|&(g, sg)| {
            let bytes = i64t.const_int(m.alloc_size(g.global_value_type()));
            Value::const_struct(ctx, &[g, sg, bytes])
        })
        .collect();
    let table_ty = ctx.array_type(rec_ty, elems.len() as u64);
    let table = m.add_global(KEPT_ROOTS, table_ty);
    table.set_initializer(Value::const_aggregate(table_ty, &elems));
    table.set_linkage_internal();
    table.set_global_constant();
    let walk = sup.rt(crate::runtime::RtFn::KeptWalk);
    if let Some(on) = m.global("__fz_shadows_kept_on") {
        on.set_initializer(ctx.i8().const_int(1));
    }
    let ret = f.blocks()[0]
        .terminator()
        .expect("kept_fn made a body ending in a terminator");
    b.position_before(ret);
    b.call_fn(walk, &[table, i64t.const_int(roots.len() as u64)]);
}

/// The stores, in the functions `pick` chooses, of an allocator's result into a pointer
/// field of a global that has a shadow (of its shadow, with `into_shadow`) at a constant
/// offset: `(store, global, shadow global, offset)`.
fn allocations_stored(
    m: Module,
    shadows: &[(Value, Value)],
    pick: impl Fn(Value) -> bool,
    into_shadow: bool,
) -> Vec<(Value, Value, Value, u64)> {
    m.functions()
        .into_iter()
        .filter(|f| !f.is_declaration() && pick(*f))
        .flat_map(|f| f.blocks())
        .flat_map(|bb| bb.instructions())
        .filter(|i| i.opcode() == Some(Opcode::LLVMStore))
        .filter_map(|s| {
            let (base, off) =
                m.strip_const_geps_through(s.operand(1), Through::GepsCastsAndConstants);
            let off = u64::try_from(off?).ok()?;
            let &(g, sg) = shadows
                .iter()
                .find(|&&(g, sg)| base == if into_shadow { sg } else { g })?;
            Some((s, g, sg, off))
        })
        .filter(|(s, ..)| allocation(s.operand(0)).is_some())
        .collect()
}

/// The `k`-th record `{ptr shadow, i64 bytes, ptr primal}` of shadow global `sg`.
fn new_record(m: Module, sg: Value, k: usize) -> Value {
    let ctx = m.context();
    let rec_ty = ctx.struct_type(&[ctx.ptr(), ctx.i64(), ctx.ptr()]);
    let rec = m.add_global(&format!("{FN_PREFIX}{}.{k}", sg.name()), rec_ty);
    rec.set_initializer(rec_ty.zero());
    rec.set_linkage_internal();
    rec
}

/// The allocator call whose result `v` is (casts stripped), if it is one with a size.
fn allocation(v: Value) -> Option<Value> {
    let v = v.strip_const_casts();
    (v.is_call() && ferrozyme_analysis::calls::alloc_size_operands(v, &v.call_args()).is_some())
        .then_some(v)
}

/// `p + off` at the builder.
fn place(b: &Builder, p: Value, off: u64) -> Value {
    if off == 0 {
        p
    } else {
        b.byte_gep(p, b.context().i64().const_int(off))
    }
}

/// Phase 3 in `f` (an empty body so far): per record, the staleness test, then the
/// clearing or the zeroing, the `ret` moving to the last block.
fn fill(b: &Builder, f: Value, records: &[&Record]) {
    let ctx = f.ty().context();
    let (ptr, i64t) = (ctx.ptr(), ctx.i64());
    let zero_wanted = f.params()[0];
    for r in records {
        let last = *f.blocks().last().expect("outside_fn made a body");
        let ret = last
            .terminator()
            .expect("outside_fn's blocks end in a terminator");
        b.position_before(ret);
        let mine = b.load(ptr, r.rec, "fz.outside");
        let bytes = b.load(i64t, place(b, r.rec, 8), "fz.outside.n");
        let primal = b.load(ptr, place(b, r.rec, 16), "fz.outside.primal");
        let cur = b.load(ptr, place(b, r.sg, r.off), "fz.outside.cur");
        let now = b.load(ptr, place(b, r.g, r.off), "fz.outside.now");
        let ours = b.and(
            b.icmp(IntPredicate::LLVMIntEQ, cur, mine),
            b.icmp(IntPredicate::LLVMIntNE, mine, ptr.zero()),
        );
        let stale = b.icmp(IntPredicate::LLVMIntNE, now, primal);
        ret.erase();
        // Appended in this order, so that `next`, holding the `ret`, is the last block.
        let (check, clear, z, zero, next) = (
            b.append_block(f, "fz.ours"),
            b.append_block(f, "fz.stale"),
            b.append_block(f, "fz.want_zero"),
            b.append_block(f, "fz.zero"),
            b.append_block(f, "fz.next"),
        );
        b.position_at_end(last);
        b.cond_br(ours, check, next);
        b.position_at_end(check);
        b.cond_br(stale, clear, z);
        b.position_at_end(clear);
        b.store(ptr.zero(), place(b, r.sg, r.off));
        b.br(next);
        b.position_at_end(z);
        b.cond_br(zero_wanted, zero, next);
        b.position_at_end(zero);
        b.memset(mine, ctx.i8().const_int(0), bytes, 1);
        b.br(next);
        b.position_at_end(next);
        b.ret_void();
    }
}
