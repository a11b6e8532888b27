//! flang's runtime calls inside differentiated code.
//!
//! The table in `ferrozyme_rules::fortran` says what each `_FortranA*` routine is. The
//! routines that compute on reals (`SumReal8`, `DotProductReal8`, `MaxvalReal8`,
//! `MatmulReal8Real8`, `Assign`, ...) have C implementations with the same arguments
//! (`runtime/fortran.c`, compiled to IR by `build.rs`): when a function is cloned for
//! differentiation, [`redirect_runtime_calls`] links that IR into the module (once) and
//! points the clone's calls at the implementations. The pass then differentiates them
//! like any function with IR: the derivative of `SUM` is the derivative of a loop that
//! sums, in reverse and forward mode alike. The user's own functions keep calling flang's
//! library; only the derivative code runs the implementations.
//!
//! Invariant: the implementations never call a routine they replace. Their calls back
//! into flang (integer or character assignment and array constructors) go through the
//! aliases of [`ferrozyme_rules::fortran::INACTIVE_ALIASES`], which the table marks
//! inactive and which [`finish`] renames to flang's routines once differentiation is over.

use ferrozyme_llvm::{link_ir_text, Module, Opcode, Value};
use ferrozyme_rules::fortran::{fortran_rule, FortranRule, INACTIVE_ALIASES};

/// The implementations, as IR text without target lines (see `build.rs`).
const FORTRAN_IR: &str = include_str!(concat!(env!("OUT_DIR"), "/fortran.ll"));

/// Prefix of every function the Fortran runtime IR defines.
const IMPL_PREFIX: &str = "__fz_f18_";

/// Points the calls of `f` (a clone about to be differentiated) to flang routines with an
/// implementation at that implementation, linking the implementations in on first need.
pub fn redirect_runtime_calls(m: Module, f: Value) -> Result<(), String> {
    let mut sites: Vec<(Value, &'static str)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            if let Some(FortranRule::Implemented { by }) = fortran_rule(&g.name()) {
                sites.push((i, by));
            }
        }
    }
    if sites.is_empty() {
        return Ok(());
    }
    link_implementations(m)?;
    for (call, by) in sites {
        let imp = m
            .function(by)
            .ok_or_else(|| format!("the Fortran runtime IR does not define `{by}`"))?;
        if call.call_args().len() != imp.params().len() {
            return Err(format!(
                "`{}` is called with {} arguments, its implementation `{by}` takes {}",
                call.called_value().name(),
                call.call_args().len(),
                imp.params().len()
            ));
        }
        call.set_operand(call.num_operands() - 1, imp);
    }
    Ok(())
}

fn link_implementations(m: Module) -> Result<(), String> {
    if m.function("__fz_f18_assign")
        .is_some_and(|g| !g.is_declaration())
    {
        return Ok(());
    }
    let header = format!(
        "target datalayout = \"{}\"\ntarget triple = \"{}\"\n",
        m.data_layout(),
        m.target_triple()
    );
    link_ir_text(m, &(header + FORTRAN_IR), "ferrozyme-fortran-runtime")
        .map_err(|e| e.to_string())?;
    for g in m.functions() {
        if g.name().starts_with(IMPL_PREFIX) && !g.is_declaration() {
            g.set_linkage_internal();
        }
    }
    Ok(())
}

/// After differentiation: the implementations' inactive assignments and array
/// constructors call flang's own.
pub fn finish(m: Module) {
    for (name, flang) in INACTIVE_ALIASES {
        let Some(alias) = m.function(name) else {
            continue;
        };
        let real = m.get_or_declare(flang, alias.function_type());
        alias.replace_all_uses_with(real);
        alias.delete_function();
    }
}
