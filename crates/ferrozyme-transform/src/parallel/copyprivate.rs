//! OpenMP `single copyprivate(...)`, written out before differentiation.
//!
//! clang ends a `single copyprivate(a, b)` block with
//!
//! ```text
//! store ptr %a, ptr %list ; store ptr %b, ptr %list+8      ; this thread's private copies
//! call void @__kmpc_copyprivate(loc, gtid, i64 size, ptr %list, ptr @copy_func, i32 %didit)
//! ```
//!
//! where `%didit` is 1 on the thread that ran the block and `@copy_func(dst, src)` copies
//! each variable from `src`'s list to `dst`'s. libomp publishes the executing thread's
//! list, waits at a barrier, lets every other thread copy, and waits again. The pass
//! cannot follow the list through libomp, so in a clone the call becomes a call of a
//! function of the module doing the same (one per copy function):
//!
//! ```text
//! if (didit) slot = list;   barrier;   if (!didit) copy_func(list, slot);   barrier;
//! ```
//!
//! with `slot` a global of the module (one per copy function), which the pass shadows: the other threads' copy
//! is then a load through a pointer read from shared memory, whose adjoint (each
//! copying thread's adjoint added to the executing thread's variable) the pass adds
//! atomically in a team, and the barriers are mirrored in the reverse sweep, so the
//! executing thread reads its adjoints once every thread has added its own. The
//! primal program keeps libomp's call.

use ferrozyme_llvm::{Builder, IntPredicate, Module, Value};

const COPYPRIVATE: &str = "__kmpc_copyprivate";
const BARRIER: &str = "__kmpc_barrier";

/// The module's implementation of `copyprivate` with `copy` (created on first need).
fn implementation(m: Module, copy: Value) -> Value {
    let name = format!("fz.copyprivate.{}", copy.name());
    if let Some(f) = m.function(&name) {
        return f;
    }
    let ctx = m.context();
    let (ptr, i32t) = (ctx.ptr(), ctx.i32());
    // A slot per copy function: the lists of different constructs hold different
    // things (clang: pointers to the variables; flang: an array's descriptor), which
    // one slot would merge for type analysis.
    let slot = m.add_global(&format!("fz.copyprivate.slot.{}", copy.name()), ptr);
    slot.set_initializer(ptr.zero());
    slot.set_linkage_internal();
    let barrier = m.get_or_declare(BARRIER, ctx.function_type(ctx.void(), &[ptr, i32t], false));
    let f = m.add_function(
        &name,
        ctx.function_type(ctx.void(), &[ptr, i32t, ptr, i32t], false),
    );
    f.set_linkage_internal();
    let p = f.params();
    let (loc, gtid, list, didit) = (p[0], p[1], p[2], p[3]);
    let b = Builder::new(ctx);
    let entry = b.append_block(f, "entry");
    let publish = b.append_block(f, "publish");
    let wait = b.append_block(f, "wait");
    let take = b.append_block(f, "copy");
    let done = b.append_block(f, "done");
    b.position_at_end(entry);
    let ran = b.icmp(IntPredicate::LLVMIntNE, didit, i32t.zero());
    b.cond_br(ran, publish, wait);
    b.position_at_end(publish);
    b.store(list, slot);
    b.br(wait);
    b.position_at_end(wait);
    b.call_fn(barrier, &[loc, gtid]);
    b.cond_br(ran, done, take);
    b.position_at_end(take);
    let from = b.load(ptr, slot, "from");
    b.call_fn(copy, &[list, from]);
    b.br(done);
    b.position_at_end(done);
    b.call_fn(barrier, &[loc, gtid]);
    b.ret_void();
    f
}

/// Rewrites the `__kmpc_copyprivate` calls of `f` (a clone) whose copy function is known.
pub fn rewrite(m: Module, f: Value) {
    for call in super::calls_to(f, COPYPRIVATE) {
        let args = call.call_args();
        let Some(copy) = args.get(4).copied().filter(|c| c.is_function()) else {
            continue;
        };
        let imp = implementation(m, copy);
        let b = Builder::new(m.context());
        b.position_before(call);
        b.call_fn(imp, &[args[0], args[1], args[3], args[5]]);
        call.erase();
    }
}
