//! What Enzyme's honoured `-enzyme-*` options do to one run of the pass
//! (`ferrozyme_abi::options`: the table says which options these are and why).
//!
//! Each is a step before or after synthesis, never a change inside it:
//! * before: `-enzyme-strict-aliasing=0` drops TBAA metadata (clang's
//!   `-fno-strict-aliasing` output), `-enzyme-emptyfn-inactive` marks functions without IR
//!   and without a rule `enzyme_inactive`;
//! * on each clone: `-enzyme-inline` inlines the clone's calls before it is canonicalised;
//! * after: `-enzyme-always-inline`, `-enzyme-postopt`, and the `-enzyme-print` printout.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_abi::options::EnzymeSettings;
use ferrozyme_abi::{CUSTOM_RULE_ATTR, INACTIVE_ATTR};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{run_function_passes, run_module_passes, Module, Value};

/// The steps before any hook call is processed.
pub(crate) fn before(module: Module, s: &EnzymeSettings) {
    if !s.strict_aliasing {
        let ctx = module.context();
        let kinds = [ctx.md_kind("tbaa"), ctx.md_kind("tbaa.struct")];
        for f in module.functions() {
            for i in f.instructions() {
                for k in kinds {
                    if i.metadata(k).is_some() {
                        i.set_metadata(k, None);
                    }
                }
            }
        }
    }
    if s.emptyfn_inactive {
        let mut unknown = HashSet::default();
        for f in module.functions() {
            for i in f.instructions() {
                if i.is_call() {
                    if let (CallKind::UnknownExternal, Some(g)) = (classify(i), i.called_function())
                    {
                        unknown.insert(g);
                    }
                }
            }
        }
        for g in unknown {
            g.add_string_fn_attr(INACTIVE_ATTR, "");
        }
    }
}

/// `-enzyme-inline`: inlines the calls of `clone` to functions with IR (no registered
/// derivative, not recursive into `original`), level by level, at most `limit` calls.
/// Only the clone changes: the module's own `alwaysinline` functions keep their
/// attribute but are not inlined by this step.
pub(crate) fn inline_calls(
    module: Module,
    clone: Value,
    original: Value,
    limit: u32,
) -> Result<(), String> {
    let mut budget = limit;
    let mut result = Ok(());
    while budget > 0 {
        let calls: Vec<Value> = clone
            .calls()
            .filter(|i| {
                i.called_function().is_some_and(|g| {
                    !g.is_declaration()
                        && g != original
                        && g != clone
                        && !g.has_string_fn_attr(CUSTOM_RULE_ATTR)
                        && !crate::generated::is_generated(g)
                        && !g.function_type().is_vararg()
                })
            })
            .take(budget as usize)
            .collect();
        if calls.is_empty() {
            break;
        }
        budget -= calls.len() as u32;
        if let Err(e) = inline_call_sites(module, &calls) {
            result = Err(e);
            break;
        }
    }
    result
}

/// Inlines the calls `calls` (of functions with IR), and only them: the module's own
/// `alwaysinline` functions keep their attribute but are not inlined by this step.
pub(crate) fn inline_call_sites(module: Module, calls: &[Value]) -> Result<(), String> {
    let held: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| f.has_fn_attr("alwaysinline"))
        .collect();
    for f in &held {
        f.remove_fn_attr("alwaysinline");
    }
    for c in calls {
        c.remove_call_site_fn_attr("noinline");
        c.add_call_site_fn_attr("alwaysinline");
    }
    let result = run_module_passes(module, "always-inline");
    for f in held {
        f.add_fn_attr("alwaysinline");
    }
    result
}

/// The steps after synthesis, over the functions generated in this run.
pub(crate) fn after(generated: &[Value], s: &EnzymeSettings) -> Result<(), String> {
    for &f in generated {
        if s.always_inline {
            f.remove_fn_attr("noinline");
            f.add_fn_attr("alwaysinline");
        }
        if s.postopt {
            run_function_passes(f, "sroa,early-cse,instcombine,simplifycfg")?;
        }
    }
    Ok(())
}

/// `-enzyme-print`: the function about to be differentiated, as the pass sees it.
pub(crate) fn print_before(f: Value) -> String {
    format!("; ferrozyme: differentiating `{}`:\n{}\n", f.name(), f)
}

/// `-enzyme-print`: every function the run generated.
pub(crate) fn print_after(generated: &[Value]) -> String {
    generated
        .iter()
        .map(|f| format!("; ferrozyme: generated `{}`:\n{}\n", f.name(), f))
        .collect()
}
