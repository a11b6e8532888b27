//! The `__enzyme_*` hook calls of a module: finding them, what they differentiate, the
//! order they are replaced in (innermost first), their normalisation before planning,
//! and the leftovers (unknown entry points, marker globals, type hints) around them.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_abi::{entry_point, EntryPoint};
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode, Value};

use crate::{
    byref_args, checkpoint, contexts, hook_args, ignore, iter, request, seed_fusion, unmerge,
};

/// All calls to `__enzyme_*` entry points in the module, with their entry point.
pub(crate) fn hook_calls(module: Module) -> Vec<(Value, EntryPoint)> {
    let mut out = Vec::new();
    for f in module.functions() {
        // A defined hook is a fallback body (the `ferrozyme` Rust crate's), never a
        // function to differentiate.
        if !f.is_declaration() && !ferrozyme_abi::is_fallback_hook(&f.name()) {
            continue;
        }
        let Some(ep) = entry_point(&f.name()) else {
            continue;
        };
        for u in f.users() {
            if matches!(
                u.opcode(),
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke)
            ) && u.called_value() == f
            {
                out.push((u, ep));
            }
        }
    }
    out
}

/// Defined functions that contain a hook call, directly or through the functions they
/// call: they cannot be differentiated until their own hook calls have been replaced.
pub(crate) fn functions_with_hooks(
    module: Module,
    calls: &[(Value, EntryPoint)],
) -> HashSet<Value> {
    let mut set: HashSet<Value> = calls.iter().map(|(c, _)| c.parent_function()).collect();
    let callers: Vec<(Value, Vec<Value>)> = module
        .definitions()
        .map(|f| {
            let callees = f.calls().filter_map(|i| i.called_function()).collect();
            (f, callees)
        })
        .collect();
    loop {
        let before = set.len();
        for (f, callees) in &callers {
            if callees.iter().any(|c| set.contains(c)) {
                set.insert(*f);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Every function a hook differentiates, and every function those call (directly).
pub(crate) fn differentiated_closure(module: Module) -> HashSet<Value> {
    let mut set: HashSet<Value> = hook_calls(module)
        .into_iter()
        .filter_map(|(c, _)| hook_target(c))
        .collect();
    let mut work: Vec<Value> = set.iter().copied().collect();
    while let Some(f) = work.pop() {
        for i in f.instructions() {
            if let Some(g) = i.is_call().then(|| i.called_function()).flatten() {
                if !g.is_declaration() && set.insert(g) {
                    work.push(g);
                }
            }
        }
    }
    set
}

/// The function a hook call differentiates (its first argument, casts stripped).
pub(crate) fn hook_target(call: Value) -> Option<Value> {
    let ops = call.call_args();
    let ops = if call.call_sret_type(0).is_some() {
        &ops[1..]
    } else {
        &ops[..]
    };
    let mut v = *ops.first()?;
    for _ in 0..8 {
        if let Some(target) = v.aliasee() {
            v = target;
        } else if v.is_constant_expr() && v.num_operands() == 1 {
            v = v.operand(0);
        } else {
            break;
        }
    }
    v.is_function().then_some(v)
}

/// The first hook call that differentiates a function whose body is not in this module,
/// with that function: an LTO pre-link compile leaves such a module to the link, a
/// ThinLTO back end refuses it (the plugin).
pub fn call_into_other_module(module: Module) -> Option<(Value, Value)> {
    hook_calls(module).into_iter().find_map(|(c, _)| {
        let f = hook_target(c)?;
        request::body_elsewhere(f).then_some((c, f))
    })
}

/// The hook calls of this round: those whose differentiated function contains no hook
/// call (directly or through its callees). Empty when only recursive requests are left.
pub(crate) fn ready_calls(
    module: Module,
    calls: &[(Value, EntryPoint)],
) -> Vec<(Value, EntryPoint)> {
    let blocked = functions_with_hooks(module, calls);
    calls
        .iter()
        .copied()
        .filter(|(c, _)| hook_target(*c).is_none_or(|f| !blocked.contains(&f)))
        .collect()
}

/// The name of the hook `call` calls, as the user wrote it (without the clang plugin's
/// description of its arguments, `ferrozyme_abi::user_hook_name`): what messages show.
pub(crate) fn hook_name(call: Value) -> String {
    ferrozyme_abi::user_hook_name(&call.called_value().name()).to_string()
}

pub(crate) fn recursive_request_error(c: Value) -> Diagnostic {
    Diagnostic::new(
        DiagKind::BadAutodiffCall,
        format!(
            "`{}` differentiates a function that (through its calls) contains this same derivative request; recursive higher-order derivatives are not supported",
            hook_name(c)
        ),
    )
    .at_value(c)
    .with_help("differentiate a function that does not call __enzyme_* on itself")
}

/// The functions reverse-mode hook calls differentiate (combined or split mode), with,
/// per parameter, whether every such call gives it a shadow (`enzyme_dup`); empty when
/// a call differentiates it in vector mode.
pub(crate) fn reverse_targets(module: Module) -> Vec<(Value, Vec<bool>)> {
    let mut out: Vec<(Value, Vec<bool>)> = Vec::new();
    let mut reverse = HashSet::default();
    // A hook call inside differentiated code (a gradient that is itself differentiated:
    // forward over reverse, reverse over reverse) keeps its loops taped: the outer
    // derivative would have to differentiate the checkpoint driver (its snapshots, files
    // and trampolines through function pointers), which it cannot.
    let nested = differentiated_closure(module);
    for (c, e) in hook_calls(module) {
        let mode = match e {
            EntryPoint::Autodiff => request::Mode::Reverse,
            EntryPoint::AugmentFwd => request::Mode::AugmentFwd,
            EntryPoint::Reverse => request::Mode::ReverseSplit,
            // Forward-mode requests of the same function use the same checkpointed loop
            // (its registered forward derivative): their shadows count too.
            EntryPoint::Fwddiff => request::Mode::Forward,
            _ => continue,
        };
        if e != EntryPoint::Fwddiff {
            reverse.insert(hook_target(c));
        }
        let Some(f) = hook_target(c) else { continue };
        let dup: Vec<bool> = match request::parse(c, &c.parent_function().name(), mode) {
            // Vector mode: the checkpointed loop's registered derivative has no lanes
            // (an empty list tells checkpoint::auto to leave the function alone).
            Ok(call) if call.width > 1 => Vec::new(),
            // Nested: left alone too (above).
            Ok(_) if nested.contains(&c.parent_function()) => Vec::new(),
            Ok(call) => call
                .args
                .iter()
                .map(|a| a.activity == ferrozyme_analysis::activity::ArgActivity::Dup)
                .collect(),
            Err(_) => continue,
        };
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some((_, d)) if dup.is_empty() => d.clear(),
            Some((_, d)) => {
                for (x, y) in d.iter_mut().zip(&dup) {
                    *x &= *y;
                }
            }
            None => out.push((f, dup)),
        }
    }
    out.retain(|(f, _)| reverse.contains(&Some(*f)));
    out
}

/// Hook calls in the shapes the planner reads: wrappers around them inlined, arguments
/// passed through stack slots resolved, `invoke`s of hooks made calls, and hook calls
/// merged by the optimizer (a `select` of functions) split again.
pub(crate) fn normalize_hook_calls(module: Module) {
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    hook_args::inline_hook_wrappers(module, &calls);
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    hook_args::resolve_stack_slots(module, &calls);
    byref_args::load_by_reference(module, &hook_calls(module));
    let calls = unmerge::invokes_to_calls(module, calls);
    unmerge::split_selected_calls(module, calls);
    // Reverse calls of one function with the same primal arguments, one per seed row,
    // become one vector-mode call (seed_fusion.rs).
    let calls: Vec<Value> = hook_calls(module).into_iter().map(|(c, _)| c).collect();
    seed_fusion::fuse_seed_calls(module, &calls);
}

/// Calls of declared `__enzyme_*` functions that are neither an entry point the pass
/// implements nor a type hint: an error naming them, never a call left for the linker
/// (or a JIT) to fail on.
pub(crate) fn reject_unknown_entry_points(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for f in module.functions() {
        let name = f.name();
        if !f.is_declaration()
            || !name.contains(ferrozyme_abi::ENZYME_FUNCTION_PREFIX)
            || entry_point(&name).is_some()
            || ferrozyme_abi::type_hint(&name).is_some()
            || checkpoint::is_checkpoint_entry(&name)
            || name.contains(iter::ITER)
            || name.contains(ignore::IGNORE)
            || contexts::is_context_entry(&name)
        {
            continue;
        }
        let name = ferrozyme_abi::user_hook_name(&name);
        let (what, help) = match ferrozyme_abi::unsupported_entry_point(name) {
            Some((ep, why)) => (
                format!("`{name}`: Enzyme's `{ep}` is not supported: {why}"),
                "see the README's ABI table for the entry points Ferrozyme implements".to_string(),
            ),
            None => (
                format!("`{name}` is not an Enzyme entry point Ferrozyme implements"),
                "the entry points are listed in the README's ABI table (__enzyme_autodiff, __enzyme_fwddiff, __enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize, __enzyme_batch, __enzyme_truncate_*, ...)".to_string(),
            ),
        };
        for u in f.users() {
            if u.is_instruction() {
                diags.push(
                    Diagnostic::new(DiagKind::BadAutodiffCall, what.clone())
                        .at_value(u)
                        .with_help(help.clone()),
                );
                break;
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// The `enzyme_*` marker globals are only declared by user code (`extern int enzyme_dup;`):
/// once the hook calls are gone nothing should read them, but instrumentation that ran
/// before the pass (AddressSanitizer's shadow checks of the marker loads, under
/// `-fsanitize=address`) may still take their address, which would fail to link. Such
/// leftovers get a weak, zero-initialised definition (a real definition elsewhere wins).
pub(crate) fn define_leftover_markers(module: Module) {
    for g in module.globals() {
        if g.is_declaration() && ferrozyme_abi::is_marker_name(&g.name()) && !g.users().is_empty() {
            g.set_initializer(g.global_value_type().zero());
            g.set_linkage_weak();
        }
    }
}

/// Removes the calls to `__enzyme_double`-style type hints (they have no body).
pub(crate) fn remove_type_hints(module: Module) {
    for f in module.functions() {
        if f.is_declaration() && ferrozyme_abi::type_hint(&f.name()).is_some() {
            for u in f.users() {
                if u.opcode() == Some(Opcode::LLVMCall) && u.ty().is_void() {
                    u.erase();
                }
            }
            if f.users().is_empty() {
                f.delete_function();
            }
        }
    }
}
