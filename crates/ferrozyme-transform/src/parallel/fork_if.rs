//! OpenMP parallel regions with an `if` clause as flang starts them, written out before
//! differentiation.
//!
//! clang branches itself between `__kmpc_fork_call` and a serialized call of the
//! microtask; flang (through OpenMPIRBuilder) calls
//!
//! ```text
//! call void @__kmpc_fork_call_if(loc, i32 argc, ptr @microtask, i32 %cond, ptr %args)
//! ```
//!
//! which libomp forks as `__kmpc_fork_call(loc, argc, microtask, args)` when `%cond` is
//! non-zero and otherwise runs as a team of one on the calling thread:
//! `__kmpc_serialized_parallel(loc, gtid)`, `microtask(&gtid, &zero, args)`,
//! `__kmpc_end_serialized_parallel(loc, gtid)`. In a clone the call becomes exactly that
//! branch, clang's shape, which the sweeps differentiate (the fork as any fork, the
//! serialized call as an ordinary call). The primal program keeps libomp's call.

use ferrozyme_llvm::{Builder, IntPredicate, Module, Value};

const FORK_IF: &str = "__kmpc_fork_call_if";

/// Rewrites every `__kmpc_fork_call_if` of `f` whose microtask is a function of the
/// module (`argc` 0 or 1, as libomp takes it); others stay and are rejected by the rule
/// table.
pub fn rewrite(m: Module, f: Value) {
    for call in super::calls_to(f, FORK_IF) {
        let args = call.call_args();
        let [loc, argc, micro, cond, rest @ ..] = &args[..] else {
            continue;
        };
        let n = argc.const_int_value();
        if !micro.is_function() || n.is_none_or(|n| n as usize != rest.len()) || rest.len() > 1 {
            continue;
        }
        write_out(m, f, call, (*loc, *argc, *micro, *cond), rest);
    }
}

fn write_out(
    m: Module,
    f: Value,
    call: Value,
    (loc, argc, micro, cond): (Value, Value, Value, Value),
    rest: &[Value],
) {
    let ctx = m.context();
    let (ptr, i32t) = (ctx.ptr(), ctx.i32());
    let void_ptr_i32 = ctx.function_type(ctx.void(), &[ptr, i32t], false);
    let fork = m.get_or_declare(
        "__kmpc_fork_call",
        ctx.function_type(ctx.void(), &[ptr, i32t, ptr], true),
    );
    let gtid_fn = m.get_or_declare(
        "__kmpc_global_thread_num",
        ctx.function_type(i32t, &[ptr], false),
    );
    let serial = m.get_or_declare("__kmpc_serialized_parallel", void_ptr_i32);
    let end_serial = m.get_or_declare("__kmpc_end_serialized_parallel", void_ptr_i32);

    // The thread-id and bound-id slots the serialized microtask reads, in the entry
    // (before the split below, which may move the entry's head).
    let b = Builder::new(ctx);
    let entry = f
        .entry_block()
        .expect("invariant: a function with calls has a body");
    match entry.first_non_phi() {
        Some(i) => b.position_before(i),
        None => b.position_at_end(entry),
    }
    let tid = b.alloca(i32t, "fz.forkif.tid");
    let zero = b.alloca(i32t, "fz.forkif.zero");

    // Everything before the call moves to a head block that chooses; the call's block
    // (the join) keeps the rest.
    let join = call.parent_block();
    let head = crate::unmerge::split_before(m, call, "fz.forkif");
    let par = join.insert_before(ctx, "fz.forkif.fork");
    let ser = join.insert_before(ctx, "fz.forkif.serial");
    b.position_at_end(head);
    let taken = b.icmp(IntPredicate::LLVMIntNE, cond, cond.ty().zero());
    b.cond_br(taken, par, ser);

    b.position_at_end(par);
    let mut fork_args = vec![loc, argc, micro];
    fork_args.extend_from_slice(rest);
    b.call_fn(fork, &fork_args);
    b.br(join);

    b.position_at_end(ser);
    let gtid = b.call_fn(gtid_fn, &[loc]);
    b.store(gtid, tid);
    b.store(i32t.zero(), zero);
    b.call_fn(serial, &[loc, gtid]);
    let mut micro_args = vec![tid, zero];
    micro_args.extend_from_slice(rest);
    b.call_fn(micro, &micro_args);
    b.call_fn(end_serial, &[loc, gtid]);
    b.br(join);

    call.erase();
}
