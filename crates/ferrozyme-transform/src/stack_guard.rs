//! A message, not a bare SIGSEGV, when the derivative of a recursive function runs out
//! of stack.
//!
//! A derivative recurses exactly as deep as the function it differentiates, but each
//! level's frame is larger (the augmented forward keeps its tape block and the values it
//! tapes live across the recursive call, the reverse sweep its incoming adjoint and its
//! tape pointer): a recursion the primal survives can overflow the stack in the gradient
//! (err35: `f(x, n) = sin(f(x, n - 1)) * 0.5 + x` at -O2 runs 400 000 levels deep in 8 MiB,
//! its gradient died at 200 000 with exit status 139 and no word).
//!
//! After the last drain, every call that enters a recursive derivative (a generated
//! function on a cycle of direct calls) from outside its cycle is bracketed by the
//! name of the derivative, stored into the thread's record that the runtime's
//! `__fz_stack_guard()` returns (`runtime/ir/guard.ll`), and the previous name stored back
//! after it: the first guard installs an alternate-stack SIGSEGV handler, which names
//! the differentiated function and the thread's stack size when a fault lies at the
//! stack's end while a guard is active, and leaves every other fault to the program's
//! previous handler. Programs without recursive derivatives get nothing; the calls inside
//! the cycle, where the depth is, run no extra code.

use ferrozyme_analysis::hash::HashMap;
use ferrozyme_analysis::scc::CallCycles;
use ferrozyme_llvm::{Builder, Value};

use crate::runtime::RtFn;
use crate::services::Support;

/// Brackets the calls entering recursive derivatives; `primals` maps each derivative
/// function to the function it differentiates (`Driver::primals_of_derivatives`).
pub(crate) fn guard_recursive_entries(sup: &mut Support, primals: &HashMap<Value, Value>) {
    let module = sup.module;
    if primals.is_empty() || !signals_like_linux(&module.target_triple()) {
        return;
    }
    let cycles = CallCycles::new(module);
    let recursive = |g: &Value| primals.contains_key(g) && cycles.same_cycle(*g, *g);
    // In module order, so the generated IR does not depend on the hash map's.
    let mut entries: Vec<(Value, Value)> = Vec::new();
    for f in module.functions() {
        for block in f.blocks() {
            for inst in block.instructions() {
                let Some(g) = inst.is_call().then(|| inst.called_function()).flatten() else {
                    continue;
                };
                if recursive(&g) && !cycles.same_cycle(f, g) {
                    entries.push((inst, primals[&g]));
                }
            }
        }
    }
    if entries.is_empty() {
        return;
    }
    let guard = sup.rt(RtFn::StackGuard);
    let ptr = module.context().ptr();
    let b = Builder::new(module.context());
    let mut names: HashMap<Value, Value> = HashMap::default();
    for (call, primal) in entries {
        let name = *names.entry(primal).or_insert_with(|| {
            let shown =
                ferrozyme_llvm::demangle_cxx(&primal.name()).unwrap_or_else(|| primal.name());
            module.add_string("fz.guard.name", &shown)
        });
        // The record's first field names the derivative running on this thread; the
        // name it held before (an outer guard's, or none) comes back after the call.
        // Volatile: only the signal handler reads the name, so a derivative that touches
        // no memory LLVM cannot see would otherwise let the first store be removed.
        b.position_before(call);
        let record = b.call_fn(guard, &[]);
        let prev = b.load(ptr, record, "fz.guard.prev");
        b.store(name, record).set_volatile(true);
        b.position_after(call);
        b.store(prev, record).set_volatile(true);
    }
}

/// The runtime piece uses Linux's signal and thread interfaces (glibc's
/// `pthread_getattr_np`); modules for other targets (GPU code, a triple that names
/// another system) are left alone. A module without a triple is the host's.
fn signals_like_linux(triple: &str) -> bool {
    triple.is_empty() || triple.contains("linux")
}
