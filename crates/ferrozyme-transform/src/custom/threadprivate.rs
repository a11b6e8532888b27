//! OpenMP `threadprivate` variables reached through libomp: a built-in registered rule
//! for `__kmpc_threadprivate_cached`.
//!
//! flang lowers `!$omp threadprivate` (module variables, common blocks) and clang lowers
//! `#pragma omp threadprivate` under `-fnoopenmp-use-tls` to
//!
//! ```llvm
//! %copy = call ptr @__kmpc_threadprivate_cached(ptr @loc, i32 %gtid, ptr @var, i64 size, ptr @var.cache)
//! ```
//!
//! which returns the calling thread's copy of `@var` (the initial thread's is `@var`
//! itself; libomp makes the others, initialised from `@var`'s first value). A mutable
//! global has a shadow global, and so does the cache (it holds a pointer), so the shadow
//! of the copy is the same call on the shadows: each thread's shadow copy of the
//! variable, made and cached by libomp under the rules of the primal copy, so a thread's
//! copies persist between parallel regions exactly when the primal's do. The rule (in
//! the library convention of `blas.rs`: the activity mask first, a null shadow for a
//! variable without one, such as an integer counter) is IR text linked into a module
//! that calls the function; the shadow comes from `__fz_omp_tp_shadow`
//! (`runtime/openmp.c`), which also zeroes a thread's shadow copy the first time the
//! thread reaches it in a top-level derivative call (shadow globals start from zero in
//! every top-level call; `contexts::zero_all` starts the epoch). The call has no
//! adjoint of its own: the reverse rule does nothing, the adjoints flow through the
//! shadow copies.
//!
//! The reverse sweep reads the shadow copies the forward sweep reached (their addresses
//! are on the tape), so a region reversed by a thread other than the one that ran it
//! (a smaller reverse team, `parallel/openmp.rs`) still adds into the right copies.
//! `_Thread_local` data and clang's default TLS lowering of threadprivate variables are
//! refused (`common/diags.rs` names the flag).

use ferrozyme_llvm::{link_ir_text, Module};

use super::{ForwardRule, ReverseRule};
use crate::parallel::{helper, Family};

/// The libomp entry point and its declaration in the rules' text (the one flang and
/// clang emit; a module declaring it otherwise keeps the missing-derivative error).
const NAME: &str = "__kmpc_threadprivate_cached";
const DECLARATION: &str = "declare ptr @__kmpc_threadprivate_cached(ptr, i32, ptr, i64, ptr)";

/// The rule functions: every pointer argument followed by its shadow (`loc` is its own:
/// a constant table without reals), after the activity mask.
const RULES_IR: &str = r#"
declare ptr @__kmpc_threadprivate_cached(ptr, i32, ptr, i64, ptr)
declare ptr @__fz_omp_tp_shadow(ptr, i32, ptr, i64, ptr)

define { ptr, ptr, ptr } @__fz_aug.__kmpc_threadprivate_cached(i64 %mask, ptr %loc, ptr %dloc, i32 %gtid, ptr %var, ptr %dvar, i64 %size, ptr %cache, ptr %dcache) {
  %copy = call ptr @__kmpc_threadprivate_cached(ptr %loc, i32 %gtid, ptr %var, i64 %size, ptr %cache)
  %dcopy = call ptr @__fz_omp_tp_shadow(ptr %loc, i32 %gtid, ptr %dvar, i64 %size, ptr %dcache)
  %r0 = insertvalue { ptr, ptr, ptr } poison, ptr null, 0
  %r1 = insertvalue { ptr, ptr, ptr } %r0, ptr %copy, 1
  %r = insertvalue { ptr, ptr, ptr } %r1, ptr %dcopy, 2
  ret { ptr, ptr, ptr } %r
}

define void @__fz_rev.__kmpc_threadprivate_cached(i64 %mask, ptr %loc, ptr %dloc, i32 %gtid, ptr %var, ptr %dvar, i64 %size, ptr %cache, ptr %dcache, ptr %tape) {
  ret void
}

define { ptr, ptr } @__fz_fwd.__kmpc_threadprivate_cached(i64 %mask, ptr %loc, ptr %dloc, i32 %gtid, ptr %var, ptr %dvar, i64 %size, ptr %cache, ptr %dcache) {
  %copy = call ptr @__kmpc_threadprivate_cached(ptr %loc, i32 %gtid, ptr %var, i64 %size, ptr %cache)
  %dcopy = call ptr @__fz_omp_tp_shadow(ptr %loc, i32 %gtid, ptr %dvar, i64 %size, ptr %dcache)
  %r0 = insertvalue { ptr, ptr } poison, ptr %copy, 0
  %r = insertvalue { ptr, ptr } %r0, ptr %dcopy, 1
  ret { ptr, ptr } %r
}
"#;

/// The helper that starts a new epoch of the threadprivate shadows, when the rule is in
/// the module (`contexts::zero_all` calls it in every top-level derivative call).
pub(crate) const NEW_EPOCH: &str = "__fz_omp_tp_new_epoch";

/// Links the rule when `module` calls `__kmpc_threadprivate_cached` as libomp declares
/// it; returns it.
pub(crate) fn link(module: Module) -> Result<Vec<(ReverseRule, ForwardRule)>, String> {
    let Some(func) = module.function(NAME) else {
        return Ok(Vec::new());
    };
    let declared = func.is_declaration() && !func.users().is_empty() && {
        let ty = func.function_type();
        let params: Vec<String> = ty.param_types().iter().map(|t| t.to_string()).collect();
        format!(
            "declare {} @{NAME}({})",
            ty.return_type(),
            params.join(", ")
        ) == DECLARATION
    };
    if !declared {
        return Ok(Vec::new());
    }
    let get = |n: &str| module.function(&format!("__fz_{n}.{NAME}"));
    if get("aug").is_none() {
        let header = format!(
            "target datalayout = \"{}\"\ntarget triple = \"{}\"\n",
            module.data_layout(),
            module.target_triple()
        );
        link_ir_text(module, &(header + RULES_IR), "ferrozyme-threadprivate-rule")
            .map_err(|e| e.to_string())?;
        for n in ["aug", "rev", "fwd"] {
            let f = get(n).expect("invariant: the threadprivate rule defines its functions");
            f.set_linkage_internal();
            crate::generated::mark(f);
        }
        // The shadow helper and the epoch, from the OpenMP runtime (linked now, after the
        // rule's declaration of the helper, which the runtime's definition resolves).
        helper(module, Family::OpenMp, "__fz_omp_tp_shadow")?;
        helper(module, Family::OpenMp, NEW_EPOCH)?;
    }
    let (Some(aug), Some(rev), Some(fwd)) = (get("aug"), get("rev"), get("fwd")) else {
        return Ok(Vec::new());
    };
    Ok(vec![(
        ReverseRule {
            func,
            aug,
            rev,
            library: true,
        },
        ForwardRule {
            func,
            fwd,
            library: true,
        },
    )])
}
