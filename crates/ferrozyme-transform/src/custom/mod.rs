//! Derivatives the user registers instead of letting the pass differentiate a function,
//! and the other registrations Enzyme's users write as globals.
//!
//! ```c
//! void *__enzyme_register_gradient_f[]   = {(void *)f, (void *)aug_f, (void *)rev_f};
//! void *__enzyme_register_derivative_f[] = {(void *)f, (void *)fwd_f};
//! void *__enzyme_inactivefn[]            = {(void *)log_progress};
//! ```
//!
//! [`Registry::scan`] reads every such global before anything is differentiated: a
//! registered function gets the attribute `enzyme_custom_rule` (calls to it classify as
//! `CallKind::Custom`, whether or not it has a body, so the registered rule always wins
//! over the body) and `noinline` (so later optimization cannot dissolve the call); an
//! inactive function gets `enzyme_inactive`. Any other `__enzyme_*` global is an error: a
//! registration the pass does not understand must never be ignored.
//!
//! The registered functions follow Enzyme's calling convention (`convention.rs`); the
//! derivative functions the rest of the pass calls (same signatures as synthesized ones,
//! `crate::signature`) are thin wrappers around them (`wrappers.rs`).

mod builtin;
mod convention;
mod wrappers;

use std::collections::HashMap;

use ferrozyme_abi::{
    registration, Registration, CUSTOM_RULE_ATTR, ENZYME_FUNCTION_PREFIX, INACTIVE_ATTR,
};
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode, Value};

pub(crate) use wrappers::{synthesize_forward, synthesize_reverse};

/// `__enzyme_register_gradient_f = {f, aug, rev}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReverseRule {
    pub func: Value,
    pub aug: Value,
    pub rev: Value,
}

/// `__enzyme_register_derivative_f = {f, fwd}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ForwardRule {
    pub func: Value,
    pub fwd: Value,
}

/// The registered rules of a module.
#[derive(Default)]
pub(crate) struct Registry {
    reverse: HashMap<Value, ReverseRule>,
    forward: HashMap<Value, ForwardRule>,
}

impl Registry {
    /// Reads the registration globals of `module` and marks the functions they name (see
    /// the module docs). Unknown `__enzyme_*` globals and malformed registrations are
    /// errors.
    pub fn scan(module: Module) -> Result<Registry, Vec<Diagnostic>> {
        let mut reg = Registry::default();
        let mut diags = Vec::new();
        for g in module.globals() {
            let name = g.name();
            if !name.contains(ENZYME_FUNCTION_PREFIX) {
                continue;
            }
            if let Err(d) = reg.read(g, &name) {
                diags.push(d);
            }
        }
        match builtin::link(module) {
            Ok(rules) => {
                for (rev, fwd) in rules {
                    mark_custom(rev.func);
                    reg.reverse.insert(rev.func, rev);
                    reg.forward.insert(fwd.func, fwd);
                }
            }
            Err(e) => diags.push(Diagnostic::new(
                DiagKind::Internal,
                format!("linking the rules of the complex-arithmetic helpers failed: {e}"),
            )),
        }
        if diags.is_empty() {
            Ok(reg)
        } else {
            Err(diags)
        }
    }

    /// One registration global.
    fn read(&mut self, g: Value, name: &str) -> Result<(), Diagnostic> {
        let Some(kind) = registration(name) else {
            return Err(bad(
                name,
                "is not an Enzyme registration Ferrozyme understands".to_string(),
                "the registrations are __enzyme_register_gradient_*, __enzyme_register_derivative_*, __enzyme_inactivefn and __enzyme_inactive_global; rename the global if it is not meant for the AD pass",
            ));
        };
        let items = entries(g).ok_or_else(|| {
            bad(
                name,
                "has no constant initializer listing functions".to_string(),
                "initialize it statically, e.g. void *__enzyme_register_gradient_f[] = {(void *)f, (void *)aug_f, (void *)rev_f};",
            )
        })?;
        let funcs = |n: usize| -> Result<Vec<Value>, Diagnostic> {
            if items.len() != n || items.iter().any(|f| !f.is_function()) {
                return Err(bad(
                    name,
                    format!("must list exactly {n} functions, found {}", describe(&items)),
                    "write the functions themselves, e.g. {(void *)f, (void *)aug_f, (void *)rev_f}",
                ));
            }
            Ok(items.clone())
        };
        match kind {
            Registration::Gradient => {
                let f = funcs(3)?;
                mark_custom(f[0]);
                self.reverse.insert(
                    f[0],
                    ReverseRule {
                        func: f[0],
                        aug: f[1],
                        rev: f[2],
                    },
                );
            }
            Registration::Derivative => {
                let f = funcs(2)?;
                mark_custom(f[0]);
                self.forward.insert(
                    f[0],
                    ForwardRule {
                        func: f[0],
                        fwd: f[1],
                    },
                );
            }
            Registration::InactiveFn => {
                if items.is_empty() || items.iter().any(|f| !f.is_function()) {
                    return Err(bad(
                        name,
                        format!("must list functions, found {}", describe(&items)),
                        "write e.g. void *__enzyme_inactivefn[] = {(void *)log_progress};",
                    ));
                }
                for f in items {
                    f.add_string_fn_attr(INACTIVE_ATTR, "");
                }
            }
            Registration::InactiveGlobal
            | Registration::SplitDerivative
            | Registration::FunctionLike
            | Registration::AllocationLike => {
                return Err(Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!("the registration `{name}` is not supported yet"),
                )
                .with_help(
                    "register a gradient (__enzyme_register_gradient_*) or a forward derivative (__enzyme_register_derivative_*) for the function instead",
                ));
            }
        }
        Ok(())
    }

    pub fn reverse(&self, f: Value) -> Option<ReverseRule> {
        self.reverse.get(&f).copied()
    }

    pub fn forward(&self, f: Value) -> Option<ForwardRule> {
        self.forward.get(&f).copied()
    }

    /// Does `f` have a rule of either kind?
    pub fn has_rule(&self, f: Value) -> bool {
        self.reverse.contains_key(&f) || self.forward.contains_key(&f)
    }
}

/// Marks a function with a registered derivative: its calls use the rule, and nothing
/// inlines it.
fn mark_custom(f: Value) {
    f.add_string_fn_attr(CUSTOM_RULE_ATTR, "");
    f.remove_fn_attr("alwaysinline");
    f.add_fn_attr("noinline");
}

/// The values a registration global is initialized with (casts stripped); `None` when it
/// has no constant aggregate initializer.
fn entries(g: Value) -> Option<Vec<Value>> {
    let init = g.initializer()?;
    if !init.is_constant() || init.num_operands() == 0 {
        return None;
    }
    Some(
        init.operands()
            .into_iter()
            .map(|mut v| {
                while v.is_constant_expr()
                    && matches!(
                        v.const_opcode(),
                        Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast)
                    )
                {
                    v = v.operand(0);
                }
                v
            })
            .collect(),
    )
}

fn describe(items: &[Value]) -> String {
    let names: Vec<String> = items
        .iter()
        .map(|v| {
            if v.is_function() {
                v.name()
            } else {
                "a non-function".to_string()
            }
        })
        .collect();
    format!(
        "{} entr{} ({})",
        items.len(),
        if items.len() == 1 { "y" } else { "ies" },
        names.join(", ")
    )
}

fn bad(name: &str, what: String, help: &str) -> Diagnostic {
    Diagnostic::new(
        DiagKind::BadAutodiffCall,
        format!("the registration global `{name}` {what}"),
    )
    .with_help(help.to_string())
}

/// The names of the functions with registered derivatives (`__enzyme_register_gradient_*`,
/// `__enzyme_register_derivative_*`) in `module`.
pub fn registered_functions(module: Module) -> Vec<String> {
    module
        .globals()
        .into_iter()
        .filter(|g| {
            matches!(
                registration(&g.name()),
                Some(Registration::Gradient) | Some(Registration::Derivative)
            )
        })
        .filter_map(|g| entries(g).and_then(|e| e.first().copied()))
        .filter(|f| f.is_function())
        .map(|f| f.name())
        .collect()
}

/// Prepares `module` for an optimization pipeline that runs before the AD pass (clang's
/// `-O2` in `ferrozyme cc`, the plugin's pipeline start): the functions named in `names`
/// (registered in this module or another one of the program) get `noinline`, so their
/// calls survive for the registered derivatives to replace (a body inlined into its
/// callers would be differentiated instead: a silently wrong derivative).
pub fn prepare_module(module: Module, names: &[String]) {
    for n in names {
        if let Some(f) = module.function(n) {
            mark_custom(f);
        }
    }
}
