//! Thread-local globals (`_Thread_local`, `thread_local`, and `#pragma omp threadprivate`
//! under clang's default lowering) in code being differentiated.
//!
//! Clang reads a thread-local global's address through `llvm.threadlocal.address(@g)`,
//! an intrinsic that exists so that coroutines, which may resume on another thread, do
//! not reuse one thread's address on another. Code being differentiated is no coroutine,
//! so in the clone the intrinsic's result is `@g` itself, whose direct use LLVM lowers to
//! the current thread's copy. `@g` then gets a shadow like any mutable global, and that
//! shadow is thread-local too (`Services::shadow_global` copies the mode).
//!
//! Without OpenMP parallel regions a derivative runs on the thread that called it,
//! forward and reverse sweeps alike: the intrinsic becomes `@g`, and each thread's data
//! has its own adjoint, zeroed by that thread's top-level derivative call.
//!
//! In a module with parallel regions (`__kmpc_fork_call`, or `__kmpc_fork_teams` alone:
//! a host `teams` league runs on one thread per team) a `threadprivate` variable
//! belongs to worker threads too, whose shadow copies no top-level call zeroes and whose
//! region may be reversed by another thread than the one that ran it forward. There the
//! intrinsic becomes `__fz_omp_tls_copy(@g, size)`, an identity call whose rule
//! (`custom/threadprivate.rs`) hands out the calling thread's shadow copy, zeroed on the
//! thread's first use in each top-level call, as libomp's copies are under
//! `-fnoopenmp-use-tls`; the call's results (primal and shadow copy) are taped like any
//! call's, so the reverse sweep adds into the copies the forward sweep used. Should the
//! rule be missing, the intrinsic stays and its diagnostic (`common/diags.rs`) says why.

use ferrozyme_llvm::{Builder, Module, Opcode, Value};

use crate::custom::threadprivate::TLS_COPY;

/// Replaces the clone `f`'s `llvm.threadlocal.address(@g)` calls by `@g`, or by
/// `__fz_omp_tls_copy(@g, size)` in a module with parallel regions.
pub(crate) fn use_globals_directly(m: Module, f: Value) {
    let in_parallel_module = crate::parallel::forks_regions(m);
    let tls_copy = m.function(TLS_COPY).filter(|c| !c.is_declaration());
    if in_parallel_module && tls_copy.is_none() {
        return;
    }
    let mut calls = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            if g.is_intrinsic("llvm.threadlocal.address") && i.operand(0).is_global_variable() {
                calls.push(i);
            }
        }
    }
    let b = Builder::new(m.context());
    for i in calls {
        let g = i.operand(0);
        let copy = match tls_copy.filter(|_| in_parallel_module) {
            Some(copy) => {
                b.position_before(i);
                let size = m.alloc_size(g.global_value_type());
                b.call_fn(copy, &[g, m.context().i64().const_int(size)])
            }
            None => g,
        };
        i.replace_all_uses_with(copy);
        i.erase();
    }
}
