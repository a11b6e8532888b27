//! Mutable globals that a C++ constructor built before `main` and whose bytes hold
//! pointers (`static const std::map<std::string, double> coef = {...}`, a global
//! `std::vector` with an initializer list): their shadow is a zero-filled copy made by
//! the pass, which cannot mirror the nodes and buffers the constructor allocated. The
//! derivative code walked the shadow's null (or, for a list or map header, missing
//! self-) links and crashed (tests/cxx/92_std_map_values.cpp before sweep9). Reported
//! instead, with the ways out: mark the global inactive when it holds only constants, or
//! hand the object to the derivative as an argument.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::{global_needs_shadow, Activity};
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use super::body::Finding;

/// An instruction of `insts` using, with its shadow, a global a constructor built.
pub(crate) fn constructed_globals(insts: &[Value], act: &Activity, out: &mut Vec<Finding>) {
    let mut seen = HashSet::default();
    for &i in insts {
        for o in i.operands() {
            let Some(g) = global_of(o, 0) else { continue };
            if !act.is_shadowed(g)
                || !g.global_value_type().contains_pointer()
                || !global_needs_shadow(g)
                || !built_by_constructor(g)
                || !seen.insert(g)
            {
                continue;
            }
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: format!(
                    "the global `{}` is built at startup by a constructor and holds pointers (to the nodes or buffers it allocated); its shadow would be a zero-filled copy without them, so derivatives through it cannot be tracked",
                    g.name()
                ),
                help: "if it holds only constants, mark it inactive (void *__enzyme_inactive_global[] = {(void *)&name};); otherwise pass the object to the differentiated function as an argument (enzyme_dup with a shadow object built the same way, or enzyme_const)",
            });
        }
    }
}

/// The global variable `v` is or points into (through constant expressions).
fn global_of(v: Value, depth: u32) -> Option<Value> {
    if v.is_global_variable() {
        return Some(v);
    }
    if depth < 4 && v.is_constant_expr() {
        return v
            .operands()
            .into_iter()
            .find_map(|o| global_of(o, depth + 1));
    }
    None
}

/// Is `g` stored to, or handed to a call other than `__cxa_atexit` (which only registers
/// its destructor), by clang's dynamic-initialization functions?
fn built_by_constructor(g: Value) -> bool {
    let mut work = vec![(g, 0u32)];
    while let Some((v, depth)) = work.pop() {
        for u in v.users() {
            if u.is_constant_expr() && depth < 4 {
                work.push((u, depth + 1));
                continue;
            }
            if !u.is_instruction() {
                continue;
            }
            let f = u.parent_function().name();
            if !(f.starts_with("__cxx_global_var_init") || f.starts_with("_GLOBAL__sub_I_")) {
                continue;
            }
            match u.opcode() {
                Some(Opcode::LLVMStore) if u.operand(1) == v => return true,
                Some(Opcode::LLVMGetElementPtr) if depth < 4 => work.push((u, depth + 1)),
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let callee = u.called_function().map(|c| c.name()).unwrap_or_default();
                    if callee != "__cxa_atexit" && u.call_args().contains(&v) {
                        return true;
                    }
                }
                _ => {}
            }
        }
    }
    false
}
