//! Registrations that only work while their functions are still *called*.
//!
//! `__enzyme_function_like`, `__enzyme_allocation_like` and `__enzyme_inactivefn` say
//! something about the calls of a function: "this call behaves like `log1p`", "this call
//! allocates like `malloc`", "this call carries no derivative". When an optimization
//! pipeline runs before the AD pass (clang's `-O1` and above in `ferrozyme cc`, the
//! plugin's pipeline start) the inliner may dissolve those calls into their callers, and
//! the pass then differentiates the body the user asked it not to look at: a silently
//! wrong derivative (`2` instead of `1/(1+x)` for a function registered like `log1p`,
//! `2` instead of `0` for an inactive one), or a crash for an allocator whose inlined body
//! hands out memory without a shadow.
//!
//! [`inline_barriers`] lists these functions; [`keep_calls`] marks them `noinline` (and
//! drops `alwaysinline`) before the pipeline runs. Unlike functions with registered
//! derivatives (`prepare_module`) they get no rule attribute here: `Registry::scan` sets
//! their attributes from the registration globals when the pass runs.

use ferrozyme_abi::{registration, Registration};
use ferrozyme_llvm::{Module, Value};

use super::entries;

/// The names of the functions named by `__enzyme_function_like`,
/// `__enzyme_allocation_like` (allocator and deallocator) and `__enzyme_inactivefn`
/// registrations in `module`.
pub fn inline_barriers(module: Module) -> Vec<String> {
    let mut names = Vec::new();
    for g in module.globals() {
        let picked: Vec<Value> = match (registration(&g.name()), entries(g)) {
            (Some(Registration::FunctionLike), Some(e)) => e.into_iter().take(1).collect(),
            (Some(Registration::AllocationLike), Some(e)) => [e.first(), e.get(3)]
                .into_iter()
                .flatten()
                .copied()
                .collect(),
            (Some(Registration::InactiveFn), Some(e)) => e,
            _ => continue,
        };
        for f in picked.into_iter().filter(|f| f.is_function()) {
            let n = f.name();
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    // `__attribute__((enzyme_inactive))`, through `ferrozyme cc`'s annotate mapping.
    for f in super::annotations::annotated(module, super::annotations::INACTIVE_ANNOTATION)
        .into_iter()
        .filter(|v| v.is_function())
    {
        let n = f.name();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// Marks the functions of `module` named in `names` `noinline`, so their calls survive an
/// optimization pipeline that runs before the AD pass.
pub fn keep_calls(module: Module, names: &[String]) {
    for n in names {
        if let Some(f) = module.function(n) {
            f.remove_fn_attr("alwaysinline");
            f.add_fn_attr("noinline");
        }
    }
}
