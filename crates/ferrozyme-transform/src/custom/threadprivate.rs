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
//!
//! clang's default lowering of `#pragma omp threadprivate` is the platform's thread-local
//! storage: `llvm.threadlocal.address(@var)` with `@var` a `thread_local` global. In a
//! module with parallel regions, `thread_locals.rs` writes each such call of a clone as
//! `__fz_omp_tls_copy(@var, size)`, an identity function whose rule (the second one here)
//! is the same as above: the primal is the calling thread's copy (the direct use of a
//! thread-local global is the calling thread's copy), the shadow is the calling thread's
//! copy of the thread-local shadow global (`Services::shadow_global` copies the mode),
//! zeroed when the thread first reaches it in an epoch (`__fz_omp_tls_shadow`), and both
//! addresses are taped like any call result, so a region reversed by another thread adds
//! into the copies the forward sweep used.

use ferrozyme_llvm::{link_ir_for_target, Module, Value};

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

/// The identity function standing for `llvm.threadlocal.address(@var)` in the clones of a
/// module with parallel regions (`thread_locals.rs`), and its rule.
pub(crate) const TLS_COPY: &str = "__fz_omp_tls_copy";

/// Is `f` one of the functions these rules are for? Their calls only look up a thread's
/// copy (running one twice is running it once: `wrappers.rs` `updates_in_place`).
pub(crate) fn is_copy_lookup(f: Value) -> bool {
    let name = f.name();
    name == NAME || name == TLS_COPY
}
const TLS_RULES_IR: &str = r#"
declare ptr @__fz_omp_tls_shadow(ptr, i64)

define ptr @__fz_omp_tls_copy(ptr %copy, i64 %size) {
  ret ptr %copy
}

define { ptr, ptr, ptr } @__fz_aug.__fz_omp_tls_copy(i64 %mask, ptr %copy, ptr %dcopy, i64 %size) {
  %d = call ptr @__fz_omp_tls_shadow(ptr %dcopy, i64 %size)
  %r0 = insertvalue { ptr, ptr, ptr } poison, ptr null, 0
  %r1 = insertvalue { ptr, ptr, ptr } %r0, ptr %copy, 1
  %r = insertvalue { ptr, ptr, ptr } %r1, ptr %d, 2
  ret { ptr, ptr, ptr } %r
}

define void @__fz_rev.__fz_omp_tls_copy(i64 %mask, ptr %copy, ptr %dcopy, i64 %size, ptr %tape) {
  ret void
}

define { ptr, ptr } @__fz_fwd.__fz_omp_tls_copy(i64 %mask, ptr %copy, ptr %dcopy, i64 %size) {
  %d = call ptr @__fz_omp_tls_shadow(ptr %dcopy, i64 %size)
  %r0 = insertvalue { ptr, ptr } poison, ptr %copy, 0
  %r = insertvalue { ptr, ptr } %r0, ptr %d, 1
  ret { ptr, ptr } %r
}
"#;

/// The helper that starts a new epoch of the threadprivate shadows, when the rule is in
/// the module (`contexts::zero_all` calls it in every top-level derivative call).
pub(crate) const NEW_EPOCH: &str = "__fz_omp_tp_new_epoch";

/// Links the rules of threadprivate data the module has: `__kmpc_threadprivate_cached`
/// called as libomp declares it, thread-local globals in a module with parallel regions.
/// Both rules' texts are linked before the OpenMP runtime, whose definitions resolve
/// their declarations of the shadow helpers (a declaration linked after the runtime,
/// whose functions are internal by then, would stay unresolved).
pub(crate) fn link(module: Module) -> Result<Vec<(ReverseRule, ForwardRule)>, String> {
    let mut wanted = Vec::new();
    if cached_declared(module) {
        wanted.push((NAME, RULES_IR, "__fz_omp_tp_shadow"));
    }
    // Decided before anything is linked: the runtime has thread-local data of its own.
    if has_thread_local_data(module) {
        wanted.push((TLS_COPY, TLS_RULES_IR, "__fz_omp_tls_shadow"));
    }
    let get = |name: &str, n: &str| module.function(&format!("__fz_{n}.{name}"));
    let mut fresh = Vec::new();
    for &(name, rules_ir, shadow_helper) in &wanted {
        if get(name, "aug").is_some() {
            continue;
        }
        link_ir_for_target(module, rules_ir, "ferrozyme-threadprivate-rule")
            .map_err(|e| e.to_string())?;
        let defined = [name.to_string()]
            .into_iter()
            .chain(["aug", "rev", "fwd"].map(|n| format!("__fz_{n}.{name}")))
            .filter_map(|n| module.function(&n))
            .filter(|f| !f.is_declaration());
        for f in defined {
            f.set_linkage_internal();
            crate::generated::mark(f);
        }
        fresh.push(shadow_helper);
    }
    // The shadow helpers and the epoch, from the OpenMP runtime.
    for shadow_helper in fresh {
        helper(module, Family::OpenMp, shadow_helper)?;
        helper(module, Family::OpenMp, NEW_EPOCH)?;
    }
    let mut rules = Vec::new();
    for (name, _, _) in wanted {
        if let (Some(func), Some(aug), Some(rev), Some(fwd)) = (
            module.function(name),
            get(name, "aug"),
            get(name, "rev"),
            get(name, "fwd"),
        ) {
            rules.push(super::library_rules(func, aug, rev, fwd));
        }
    }
    Ok(rules)
}

/// Does `module` call `__kmpc_threadprivate_cached`, declared as libomp declares it?
fn cached_declared(module: Module) -> bool {
    let Some(func) = module.function(NAME) else {
        return false;
    };
    func.is_declaration() && !func.users().is_empty() && {
        let ty = func.function_type();
        let params: Vec<String> = ty.param_types().iter().map(|t| t.to_string()).collect();
        format!(
            "declare {} @{NAME}({})",
            ty.return_type(),
            params.join(", ")
        ) == DECLARATION
    }
}

/// Does `module` fork parallel regions (or host `teams` leagues) and use a thread-local global outside the pass's
/// runtimes (the OpenMP runtime's own `__thread` table is no program data, and it may be
/// linked already when a module is differentiated twice, as in LTO)?
fn has_thread_local_data(module: Module) -> bool {
    let in_program = |u: Value| {
        !u.is_instruction()
            || !u
                .parent_function()
                .name()
                .starts_with(crate::runtime::RUNTIME_PREFIX)
    };
    crate::parallel::forks_regions(module)
        && module
            .globals()
            .iter()
            .any(|g| g.is_thread_local() && g.users().into_iter().any(in_program))
}
