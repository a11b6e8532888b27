//! The function a hook call differentiates: its first operand with casts, aliases and
//! an `sret` pointer looked through, and the refusals of what cannot be differentiated
//! (a closure's trampoline, a data pointer, a body outside the module, a variadic
//! function).

use ferrozyme_llvm::{DiagKind, Diagnostic, Opcode, Value};

use super::ErrFn;

pub(crate) fn strip_casts(mut v: Value) -> Value {
    for _ in 0..4 {
        if let Some(target) = v.aliasee() {
            // `__attribute__((alias("f")))`: the function behind the alias.
            v = target;
        } else if v.strip_const_casts() != v {
            v = v.strip_const_casts();
        } else {
            break;
        }
    }
    v
}

/// The function a trampoline stands for, when `v` is `llvm.adjust.trampoline(t)` of a
/// trampoline `t` set up by `llvm.init.trampoline(t, function, frame)` (how flang passes
/// an internal procedure that uses its host's variables); its name, or `?`.
fn trampoline_target(v: Value) -> Option<String> {
    if !crate::trampolines::is_adjust(v) {
        return None;
    }
    let init = v
        .operand(0)
        .users()
        .into_iter()
        .find(|&u| crate::trampolines::is_init(u));
    Some(
        init.map(|i| strip_casts(i.operand(1)))
            .filter(|f| f.is_function())
            .map_or_else(|| "?".to_string(), |f| f.name()),
    )
}

/// The function behind a Fortran `type(c_funptr)` passed by value (`c_funloc(f)`, as
/// Enzyme's Fortran examples pass the procedure): unoptimized flang stores
/// `ptrtoint (ptr @f to i64)` into the derived type's address component, loads it back
/// and converts it with `inttoptr`. Only that pattern within one block (the store the
/// nearest write before the load, through the same address computation) is followed.
fn funptr_slot_target(v: Value) -> Option<Value> {
    let as_function = |x: Value| {
        if x.is_constant_expr() && x.const_opcode() == Some(Opcode::LLVMPtrToInt) {
            Some(strip_casts(x.operand(0))).filter(|f| f.is_function())
        } else {
            None
        }
    };
    let int = match v.opcode() {
        Some(Opcode::LLVMIntToPtr) => v.operand(0),
        _ if v.is_constant_expr() && v.const_opcode() == Some(Opcode::LLVMIntToPtr) => {
            return as_function(v.operand(0));
        }
        _ => return None,
    };
    if let Some(f) = as_function(int) {
        return Some(f);
    }
    if int.opcode() != Some(Opcode::LLVMLoad) {
        return None;
    }
    let addr = int.operand(0);
    let same_address = |p: Value| {
        p == addr
            || (p.opcode() == Some(Opcode::LLVMGetElementPtr)
                && addr.opcode() == Some(Opcode::LLVMGetElementPtr)
                && p.num_operands() == addr.num_operands()
                && (0..p.num_operands()).all(|k| p.operand(k) == addr.operand(k)))
    };
    let insts = int.parent_block().instructions();
    let at = insts.iter().position(|i| *i == int)?;
    for i in insts[..at].iter().rev() {
        match i.opcode() {
            Some(Opcode::LLVMStore) if same_address(i.operand(1)) => {
                return as_function(i.operand(0));
            }
            Some(Opcode::LLVMGetElementPtr | Opcode::LLVMLoad | Opcode::LLVMAlloca) => {}
            _ => return None,
        }
    }
    None
}

/// The hook's operands after an `sret` pointer, and the function to differentiate.
pub(super) fn hook_function(
    call: Value,
    caller_name: &str,
    err: &ErrFn<'_>,
) -> Result<(Value, Vec<Value>), Diagnostic> {
    let hook = crate::hooks::hook_name(call);
    let ops = call.call_args();
    let sret = call.call_sret_type(0).is_some();
    let ops: Vec<Value> = if sret { ops[1..].to_vec() } else { ops };
    let Some(&first) = ops.first() else {
        return Err(err(
            format!("`{hook}` called without the function to differentiate"),
            "pass the function as the first argument: __enzyme_autodiff((void*)f, args...)",
        ));
    };
    let func = strip_casts(first);
    let func = funptr_slot_target(func).unwrap_or(func);
    if let Some(inner) = trampoline_target(func) {
        return Err(err(
            format!(
                "the first argument of `{hook}` is a closure (`llvm.adjust.trampoline`) of `{inner}`: an internal procedure (after `contains` in a program or procedure) that uses its host's variables reaches them through a run-time trampoline, which cannot be differentiated"
            ),
            "move the procedure into a module (or make it an external procedure) and pass the host variables it uses as arguments (enzyme_dup for those that carry derivatives)",
        ));
    }
    if func.ifunc_resolver().is_some() {
        return Err(err(
            format!(
                "the first argument of `{hook}` is `{}`, an ifunc (`__attribute__((target_clones(...)))` or `ifunc`): which of its versions runs is chosen when the program is loaded, so there is no one function to differentiate",
                func.name()
            ),
            "differentiate a function that calls it (its calls are differentiated, each through the version the loader picked), or drop the attribute from the function you differentiate",
        ));
    }
    if !func.is_function() {
        return Err(err(
            format!("the first argument of `{hook}` is not a function: {first}"),
            "pass the function itself, e.g. __enzyme_autodiff((void*)f, ...), or a variable or `const` table entry that holds one known function; a function chosen at run time (read in a loop, or picked by a branch) is not known when the derivative is generated: call the hook once per candidate, e.g. in a switch",
        ));
    }
    if body_elsewhere(func) {
        return Err(Diagnostic::new(
            DiagKind::MissingDerivative,
            format!("cannot differentiate `{}`: its body is not in this module", func.name()),
        )
        .in_function(caller_name.to_string())
        .at_loc(call.source_loc())
        .with_help("compile the file that defines it together with this one (ferrozyme cc a.c b.c) so its IR is in the module"));
    }
    if func.function_type().is_vararg() {
        return Err(err(
            format!(
                "`{}` is variadic; variadic functions cannot be differentiated",
                func.name()
            ),
            "wrap the call in a function with a fixed argument list",
        ));
    }
    Ok((func, ops[1..].to_vec()))
}

/// Is `func`'s body outside this module (a declaration without a registered derivative)?
/// Such a call cannot be differentiated here; the plugin leaves it to an LTO link.
pub(crate) fn body_elsewhere(func: Value) -> bool {
    func.is_declaration() && !func.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR)
}
