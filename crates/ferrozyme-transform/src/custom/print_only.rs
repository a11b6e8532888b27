//! User-defined variadic functions that only print: inactive without a registration.
//!
//! Research codes log from inside the model with their own `log_msg(level, fmt, ...)`
//! that starts a `va_list` and hands it to `vfprintf`. Values read through `va_arg`
//! carry no derivative, so a variadic body cannot be differentiated (the pass refuses
//! `llvm.va_start`); yet a body whose every effect is printing cannot carry one either,
//! and refusing it made users register the logger with `__enzyme_inactivefn` by hand.
//!
//! [`mark`] gives the `enzyme_inactive` attribute (what `__enzyme_inactivefn` sets) to
//! each defined function that starts a `va_list` and whose body, instruction by
//! instruction, can reach nothing a derivative could flow through:
//!
//! * its result holds no float and no pointer (`void` or an integer status);
//! * it stores only into its own stack slots (`alloca`s, through GEPs): the `va_list`,
//!   copies of its arguments at -O0;
//! * it calls only functions that are inactive already (the printing and formatting
//!   externals of `ferrozyme_abi::INACTIVE_EXTERNALS` and the library table, functions
//!   marked `enzyme_inactive`, including loggers found earlier in this scan), the
//!   `va_*` and lifetime intrinsics, and intrinsics that write no memory; no call through a pointer;
//! * it has no other instruction that writes memory (atomics, fences).
//!
//! Loads, arithmetic, `va_arg` and branches are free: they only shape what is printed or
//! the integer returned. The scan repeats until nothing changes, so a logger calling
//! another logger qualifies. Anything else keeps the variadic refusal, whose help names
//! `__enzyme_inactivefn`.

use ferrozyme_abi::INACTIVE_ATTR;
use ferrozyme_llvm::{Module, Opcode, Value};

/// Marks the print-only variadic functions of `module` inactive; returns their names.
pub fn mark(module: Module) -> Vec<String> {
    let mut marked = Vec::new();
    loop {
        let found: Vec<Value> = module
            .functions()
            .into_iter()
            .filter(|&f| {
                !f.is_declaration()
                    && !f.has_string_fn_attr(INACTIVE_ATTR)
                    && starts_va_list(f)
                    && only_prints(f)
            })
            .collect();
        if found.is_empty() {
            return marked;
        }
        for f in found {
            f.add_string_fn_attr(INACTIVE_ATTR, "");
            marked.push(f.name());
        }
    }
}

/// Does `f`'s body call `llvm.va_start` (the construct the variadic refusal is about)?
fn starts_va_list(f: Value) -> bool {
    instructions(f).any(|i| {
        i.is_call()
            && i.called_function()
                .is_some_and(|c| c.is_intrinsic("llvm.va_start"))
    })
}

/// The criterion of the module docs, for one function.
fn only_prints(f: Value) -> bool {
    let ret = f.function_type().return_type();
    if ret.contains_fp() || ret.contains_pointer() {
        return false;
    }
    instructions(f).all(|i| match i.opcode() {
        Some(Opcode::LLVMStore) => into_own_stack(i.operand(1)),
        Some(Opcode::LLVMCall) => i.called_function().is_some_and(inactive_callee),
        Some(
            Opcode::LLVMInvoke
            | Opcode::LLVMCallBr
            | Opcode::LLVMAtomicRMW
            | Opcode::LLVMAtomicCmpXchg
            | Opcode::LLVMFence,
        ) => false,
        _ => true,
    })
}

/// Is `callee` one the derivative never looks into: printing, an inactive function, a
/// `va_*` or memory-free intrinsic?
fn inactive_callee(callee: Value) -> bool {
    if callee.intrinsic_id() != 0 {
        return [
            "llvm.va_start",
            "llvm.va_end",
            "llvm.va_copy",
            "llvm.lifetime.start",
            "llvm.lifetime.end",
        ]
        .iter()
        .any(|&n| callee.is_intrinsic(n))
            || callee.memory_effects().is_some_and(|m| m.only_reads());
    }
    let name = callee.name();
    callee.has_string_fn_attr(INACTIVE_ATTR)
        || ferrozyme_abi::INACTIVE_EXTERNALS.contains(&name.as_str())
        || ferrozyme_abi::inactive_library(&name).is_some()
}

/// Is `ptr` an `alloca` of the function, or an address inside one?
fn into_own_stack(mut ptr: Value) -> bool {
    while ptr.opcode() == Some(Opcode::LLVMGetElementPtr) {
        ptr = ptr.operand(0);
    }
    ptr.opcode() == Some(Opcode::LLVMAlloca)
}

fn instructions(f: Value) -> impl Iterator<Item = Value> {
    f.instructions()
}
