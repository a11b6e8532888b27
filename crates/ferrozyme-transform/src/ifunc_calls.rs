//! Calls of an ifunc in the clone being differentiated (`clone::preprocess`), made calls
//! through the pointer its resolver returns.
//!
//! clang's `__attribute__((target_clones("avx2", "default")))` (and a user's
//! `__attribute__((ifunc("resolve_f")))`) turns `f` into an ifunc: `@f = ifunc ..., ptr
//! @f.resolver`, whose implementation the dynamic loader picks once by calling the
//! resolver. A call `call @f(args)` has no function for a callee, so the transform treats
//! it as a call through a pointer (`common/dispatch.rs`): the candidates are the clones
//! (`f.avx2.0`, `f.default.1`, whose addresses the resolver takes), but the pointer compared
//! with them is `@f`'s address, which is the loader's PLT entry in an executable and
//! equals none of them, so the derivative stopped at run time saying no derivative exists.
//!
//! In the clone the call becomes `%impl = call ptr @f.resolver()` then `call %impl(args)`:
//! the resolver returns exactly the implementation the loader chose (it reads the CPU's
//! features, nothing else; calling it again gives the same answer), which is one of the
//! candidates, so the dispatch calls its derivative. The user's primal keeps the ifunc
//! call. An ifunc whose resolver is only declared here keeps the call as it was.

use ferrozyme_llvm::{Builder, Module, Value};

pub fn call_resolved(m: Module, f: Value) {
    let calls: Vec<(Value, Value)> = f
        .calls()
        .filter_map(|i| {
            let resolver = i.called_value().ifunc_resolver()?;
            (!resolver.is_declaration()).then_some((i, resolver))
        })
        .collect();
    if calls.is_empty() {
        return;
    }
    let b = Builder::new(m.context());
    for (call, resolver) in calls {
        b.position_before(call);
        let implementation = b.call_fn(resolver, &[]);
        call.set_operand(call.num_operands() - 1, implementation);
    }
}
