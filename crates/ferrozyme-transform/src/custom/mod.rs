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

mod annotations;
mod barriers;
mod blas;
mod builtin;
mod convention;
mod fortran_assign;
mod holomorphic;
mod print_only;
mod qsort;
mod search;
pub(crate) mod threadprivate;
mod wrappers;

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_abi::{
    registration, Registration, ALLOCATOR_ATTR, CUSTOM_RULE_ATTR, DEALLOCATOR_ATTR,
    ENZYME_FUNCTION_PREFIX, FUNCTION_LIKE_ATTR, INACTIVE_ATTR, UNSUPPORTED_HOOK_FUNCTIONS,
};
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Opcode, Value};

pub use annotations::dropped_in_source;
pub use barriers::{inline_barriers, keep_calls};
pub(crate) use blas::prune as prune_library_rules;
pub(crate) use wrappers::{synthesize_forward, synthesize_reverse};

/// `__enzyme_register_gradient_f = {f, aug, rev}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReverseRule {
    pub func: Value,
    pub aug: Value,
    pub rev: Value,
    /// A built-in rule in the library convention (`blas.rs`): the rule functions take the
    /// activity mask first and a null shadow for constant memory.
    pub library: bool,
}

/// `__enzyme_register_derivative_f = {f, fwd}`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ForwardRule {
    pub func: Value,
    pub fwd: Value,
    /// As `ReverseRule::library`.
    pub library: bool,
}

/// The reverse and forward rules of a built-in function in the library convention
/// (BLAS, threadprivate copies, Fortran's derived-type assignment).
pub(crate) fn library_rules(
    func: Value,
    aug: Value,
    rev: Value,
    fwd: Value,
) -> (ReverseRule, ForwardRule) {
    (
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
    )
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
        annotations::mark_inactive(module);
        print_only::mark(module);
        let mut reg = Registry::default();
        let mut diags = Vec::new();
        // Functions the program defines for Enzyme to call (`enzymeLogGrad`; in C++ its
        // mangled name contains it).
        for (hook, why) in UNSUPPORTED_HOOK_FUNCTIONS {
            if module.functions().iter().any(|f| f.name().contains(hook)) {
                diags.push(
                    Diagnostic::new(
                        DiagKind::BadAutodiffCall,
                        format!("the program defines `{hook}`: {why}"),
                    )
                    .with_help(format!(
                        "remove or rename `{hook}`, and print the derivatives you need yourself"
                    )),
                );
            }
        }
        // `__attribute__((enzyme_function_like("log1p")))`, through `ferrozyme cc`.
        for (f, like) in annotations::function_like(module) {
            let name = format!("enzyme_function_like(\"{like}\") on `{}`", f.name());
            if let Err(d) = mark_function_like(&name, f, &like) {
                diags.push(d);
            }
        }
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
            Ok(rules) => reg.add_builtin(rules),
            Err(e) => diags.push(Diagnostic::new(
                DiagKind::Internal,
                format!("linking the rules of the complex-arithmetic helpers failed: {e}"),
            )),
        }
        match threadprivate::link(module) {
            Ok(rules) => reg.add_builtin(rules),
            Err(e) => diags.push(Diagnostic::new(
                DiagKind::Internal,
                format!("linking the rule of OpenMP threadprivate data failed: {e}"),
            )),
        }
        match fortran_assign::link(module) {
            Ok(rules) => reg.add_builtin(rules),
            Err(e) => diags.push(Diagnostic::new(
                DiagKind::Internal,
                format!("linking the rule of Fortran derived-type assignment failed: {e}"),
            )),
        }
        match blas::link(module) {
            Ok(rules) => reg.add_builtin(rules),
            Err(e) => diags.push(Diagnostic::new(
                DiagKind::Internal,
                format!("linking the BLAS/LAPACK derivative rules failed: {e}"),
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
                "the registrations are __enzyme_register_gradient_*, __enzyme_register_derivative_*, __enzyme_inactivefn, __enzyme_inactivenoblockfn, __enzyme_inactive_global, __enzyme_function_like, __enzyme_allocation_like and __enzyme_shouldrecompute; rename the global if it is not meant for the AD pass",
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
                        library: false,
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
                        library: false,
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
            Registration::ShouldRecompute => {
                // A hint that recomputing `f` is allowed: what to keep is decided from the
                // program itself, so the list is only checked.
                if items.is_empty() || items.iter().any(|f| !f.is_function()) {
                    return Err(bad(
                        name,
                        format!("must list functions, found {}", describe(&items)),
                        "write e.g. void *__enzyme_shouldrecompute[] = {(void *)f};",
                    ));
                }
            }
            Registration::AllocationLike => read_allocation_like(name, &items)?,
            Registration::FunctionLike => read_function_like(name, &items)?,
            Registration::InactiveGlobal => {
                if items.is_empty() || items.iter().any(|g| !g.is_global_variable()) {
                    return Err(bad(
                        name,
                        format!("must list global variables, found {}", describe(&items)),
                        "write e.g. void *__enzyme_inactive_global[] = {(void *)&scratch};",
                    ));
                }
                for g in items {
                    ferrozyme_analysis::global_uses::declare_inactive(g);
                }
            }
            Registration::SplitDerivative => {
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

    /// Registers built-in rules (unless the user registered their own for the function).
    fn add_builtin(&mut self, rules: Vec<(ReverseRule, ForwardRule)>) {
        for (rev, fwd) in rules {
            if self.has_rule(rev.func) {
                continue;
            }
            mark_custom(rev.func);
            self.reverse.insert(rev.func, rev);
            self.forward.insert(fwd.func, fwd);
        }
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

/// `void *__enzyme_allocation_like[4] = {alloc, (void *)size_index, (void *)"indices",
/// dealloc};`: calls of `alloc` allocate `size` bytes like `malloc` (their result gets a
/// zeroed shadow of that size, made by `alloc` itself), calls of `dealloc` free them like
/// `free`. `indices` lists, for each argument of `dealloc`, where it comes from: `-1` is
/// the allocated pointer, `k` argument `k` of the allocation call (Enzyme's meaning); the
/// position of `-1` is the pointer `dealloc` frees. A shadow is released by `dealloc` with
/// the arguments its allocation was given.
fn read_allocation_like(name: &str, items: &[Value]) -> Result<(), Diagnostic> {
    let shape = || {
        bad(
            name,
            format!("must list the allocator, its size argument, the deallocator's argument list and the deallocator; found {}", describe(items)),
            "write e.g. void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)\"-1\", (void *)my_free};",
        )
    };
    if items.len() != 4 || !items[0].is_function() || !items[3].is_function() {
        return Err(shape());
    }
    let (alloc, dealloc) = (items[0], items[3]);
    let size = if items[1].is_null() {
        Some(0)
    } else if items[1].is_constant_expr() && items[1].const_opcode() == Some(Opcode::LLVMIntToPtr) {
        items[1].operand(0).const_int_value()
    } else {
        items[1].const_int_value()
    };
    let nparams = alloc.params().len() as i64;
    let Some(size) = size.filter(|k| (0..nparams).contains(k)) else {
        return Err(bad(
            name,
            format!("names size argument {:?}, but `{}` has {nparams} parameter(s)", size, alloc.name()),
            "the second entry is the index (from 0) of the allocator's size argument, e.g. (void *)1",
        ));
    };
    if !alloc.params()[size as usize].ty().is_integer() {
        return Err(bad(
            name,
            format!(
                "names argument {size} of `{}` as the size, but it is not an integer",
                alloc.name()
            ),
            "the second entry is the index (from 0) of the allocator's size argument",
        ));
    }
    let list = items[2].c_string().ok_or_else(shape)?;
    let indices: Vec<i64> = list
        .split(',')
        .map(|t| t.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            bad(
                name,
                format!("has the deallocator argument list \"{list}\", which is not a comma-separated list of integers"),
                "write e.g. \"-1\" (the pointer only) or \"-1,2\"",
            )
        })?;
    let Some(ptr_index) = indices.iter().position(|k| *k == -1) else {
        return Err(bad(
            name,
            format!(
                "has the deallocator argument list \"{list}\" without -1 (the pointer to free)"
            ),
            "write e.g. \"-1\"",
        ));
    };
    if dealloc.params().len() != indices.len() || !dealloc.params()[ptr_index].ty().is_pointer() {
        return Err(bad(
            name,
            format!(
                "describes {} argument(s) of `{}` (\"{list}\"), which takes {} with the pointer at position {ptr_index}",
                indices.len(),
                dealloc.name(),
                dealloc.params().len()
            ),
            "list one entry per argument of the deallocator; -1 marks the pointer it frees",
        ));
    }
    // Every other deallocator argument is one of the allocation call's, of the same type
    // (a shadow is released with the arguments its own allocation was given), and at most
    // two of them: the runtime's shadow table keeps two words per shadow
    // (`runtime/ir/shadows.ll`).
    let extra: Vec<(usize, i64)> = indices
        .iter()
        .enumerate()
        .filter(|(_, k)| **k != -1)
        .map(|(j, k)| (j, *k))
        .collect();
    if extra.len() + 1 != indices.len() {
        return Err(bad(
            name,
            format!("has the deallocator argument list \"{list}\" with -1 more than once"),
            "-1 marks the one pointer the deallocator frees",
        ));
    }
    for &(j, k) in &extra {
        let param = dealloc.params()[j].ty();
        let same = (0..nparams).contains(&k) && alloc.params()[k as usize].ty() == param;
        if !same || !(param.is_integer() || param.is_pointer()) {
            return Err(bad(
                name,
                format!(
                    "passes argument {k} of `{}` ({nparams} parameter(s)) as argument {j} of `{}` (\"{list}\"), but there is no such argument of the same integer or pointer type",
                    alloc.name(),
                    dealloc.name(),
                ),
                "each entry other than -1 is the index (from 0) of an allocator argument of the same integer or pointer type as that deallocator argument",
            ));
        }
    }
    if extra.len() > 2 {
        return Err(bad(
            name,
            format!(
                "gives `{}` {} arguments besides the pointer (\"{list}\"); Ferrozyme releases shadows with at most two",
                dealloc.name(),
                extra.len()
            ),
            "wrap the deallocator in a function taking the pointer and at most two of the allocation's arguments, and register that one",
        ));
    }
    alloc.add_string_fn_attr(ALLOCATOR_ATTR, &size.to_string());
    dealloc.add_string_fn_attr(DEALLOCATOR_ATTR, &ptr_index.to_string());
    // The shadows are the allocator's own blocks, released by the deallocator with the
    // allocation's arguments the list names (`shadow_memory.rs`).
    alloc.add_string_fn_attr(ferrozyme_abi::ALLOCATOR_DEALLOC_ATTR, &dealloc.name());
    alloc.add_string_fn_attr(ferrozyme_abi::ALLOCATOR_DEALLOC_ARGS_ATTR, &list);
    for f in [alloc, dealloc] {
        f.remove_fn_attr("alwaysinline");
        f.add_fn_attr("noinline");
    }
    Ok(())
}

/// `void *__enzyme_function_like[2] = {f, (void *)"name"};`: calls of `f` are treated
/// like calls of the known function `name` (its derivative rule, or as an allocator or
/// deallocator).
fn read_function_like(name: &str, items: &[Value]) -> Result<(), Diagnostic> {
    let like = (items.len() == 2 && items[0].is_function())
        .then(|| items[1].c_string())
        .flatten()
        .ok_or_else(|| {
            bad(
                name,
                format!(
                    "must list a function and the name of the function it behaves like; found {}",
                    describe(items)
                ),
                "write e.g. void *__enzyme_function_like[2] = {(void *)my_free, (void *)\"free\"};",
            )
        })?;
    mark_function_like(name, items[0], &like)
}

/// Marks `f` as behaving like the known function `like` (the registration or attribute
/// `name` says so); `like` must be a function Ferrozyme has a rule for.
fn mark_function_like(name: &str, f: Value, like: &str) -> Result<(), Diagnostic> {
    if !ferrozyme_analysis::calls::is_known_function(like) {
        return Err(bad(
            name,
            format!("says `{}` behaves like `{like}`, a function Ferrozyme has no rule for", f.name()),
            "name a function with a derivative rule (sin, exp, pow ...), an allocator (malloc ...) or a deallocator (free ...)",
        ));
    }
    f.add_string_fn_attr(FUNCTION_LIKE_ATTR, like);
    f.remove_fn_attr("alwaysinline");
    f.add_fn_attr("noinline");
    Ok(())
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
pub(super) fn entries(g: Value) -> Option<Vec<Value>> {
    let init = g.initializer()?.strip_const_casts();
    if !init.is_constant() {
        return None;
    }
    // A registration may be one pointer rather than an array of them (`void
    // *__enzyme_inactive_global = &g;`, as Enzyme's own tests write it): the initializer
    // is then the global or function itself, whose operands are not entries.
    if init.is_global_variable() || init.is_function() || init.is_global_alias() {
        return Some(vec![init]);
    }
    if init.num_operands() == 0 {
        return None;
    }
    Some(
        init.operands()
            .into_iter()
            .map(Value::strip_const_casts)
            .collect(),
    )
}

fn describe(items: &[Value]) -> String {
    let names: Vec<String> = items
        .iter()
        .map(|v| {
            if v.is_function() {
                v.name()
            } else if v.is_global_variable() {
                format!("global variable `{}`", v.name())
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
