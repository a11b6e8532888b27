//! Thread-local globals (`_Thread_local`, `thread_local`) in code being differentiated.
//!
//! Clang reads a thread-local global's address through `llvm.threadlocal.address(@g)`,
//! an intrinsic that exists so that coroutines, which may resume on another thread, do
//! not reuse one thread's address on another. Code being differentiated is no coroutine
//! (a derivative runs on the thread that called it, forward and reverse sweeps alike), so
//! in the clone the intrinsic's result is `@g` itself, whose direct use LLVM lowers to
//! the current thread's copy. `@g` then gets a shadow like any mutable global, and that
//! shadow is thread-local too (`Services::shadow_global` copies the mode): each thread's
//! data has its own adjoint, zeroed by that thread's top-level derivative call.
//!
//! Not in modules with OpenMP parallel regions (`__kmpc_fork_call`): there a
//! `threadprivate` variable belongs to worker threads, whose shadow copies no top-level
//! call zeroes and whose reverse sweep may run on another thread than its forward sweep.
//! The intrinsic stays, and the diagnostic for it (`common/diags.rs`) names the cause.

use ferrozyme_llvm::{Module, Opcode, Value};

/// Replaces the clone `f`'s `llvm.threadlocal.address(@g)` calls by `@g`.
pub(crate) fn use_globals_directly(m: Module, f: Value) {
    if m.function("__kmpc_fork_call").is_some() {
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
    for i in calls {
        i.replace_all_uses_with(i.operand(0));
        i.erase();
    }
}
