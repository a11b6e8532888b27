//! Keeping the functions the AD pass did not touch out of the re-optimization (used by
//! `ferrozyme cc` and `cargo ferrozyme`).
//!
//! `ferrozyme cc` optimizes every function once before the pass (clang's `-O<n>`) and
//! runs `default<O<n>>` again afterwards for the derivative code. Functions the pass left
//! alone gain nothing from the second run; it only costs compile time. They are made
//! `optnone noinline` for the second run ([`freeze_untouched`]) and restored before code
//! generation ([`thaw`]).
//!
//! `optnone` alone does not keep a function out of LLVM's interprocedural passes: IPSCCP
//! still replaces the arguments of a local function by the constants all its callers
//! pass, and dead-argument elimination then drops them. After the AD pass that matters:
//! a hook call such as `__enzyme_autodiff(f, x, dx, n)` took `f`'s address (nothing was
//! known about its arguments when clang optimized the primal), the derivative call that
//! replaces it passes `n = 4` directly, and the constant reached every primal function
//! below `f`, which the deferred unrolling (`ferrozyme cc`'s tail pipeline) then unrolled
//! fully: 2.3x the primal code clang itself produces, all of it generated again by the
//! code generator (issue 18, `bench/compile_scaling` chain). So frozen functions with
//! local linkage that are still called are made external for the run (IPSCCP and
//! dead-argument elimination only rewrite local functions) and made local again by
//! [`thaw`]; [`Frozen::relinked`] tells the caller whether a `globaldce` is worth running
//! afterwards (a frozen function called only from code the pipeline deleted survives the
//! run as dead code).

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::{Module, Value};

/// Functions the AD pass left alone, as far as re-optimization is concerned: defined,
/// not generated (marked by the pass, see `ferrozyme_transform::generated`), neither
/// calling nor called by generated code, not already `optnone`. `ferrozyme cc` optimized them once before the pass; running the
/// whole pipeline over them again only costs compile time.
fn untouched_functions(module: Module) -> Vec<Value> {
    let generated = crate::generated::is_generated;
    let defined: Vec<Value> = module.definitions().collect();
    let mut touched: HashSet<Value> = HashSet::default();
    for &f in &defined {
        let callees: Vec<Value> = f
            .calls_and_invokes()
            .filter_map(|i| i.called_function())
            .collect();
        if generated(f) {
            touched.insert(f);
            touched.extend(callees);
        } else if callees.iter().any(|c| generated(*c)) {
            touched.insert(f);
        }
    }
    defined
        .into_iter()
        .filter(|f| !touched.contains(f) && !f.has_fn_attr("optnone"))
        .collect()
}

/// Functions kept out of a pipeline run by [`freeze_untouched`], by name (the pipeline
/// may delete or rename functions), with whether each was `noinline` before; and the
/// functions that were `optnone` before (the user's).
pub struct Frozen {
    module: Module,
    functions: Vec<(String, bool)>,
    user_optnone: HashSet<String>,
    /// Frozen functions made external for the run, with whether each was private (else
    /// internal).
    relinked: Vec<(String, bool)>,
}

/// Marks [`untouched_functions`] `optnone noinline` so the re-optimization after the pass
/// skips them; [`thaw`] restores them before code generation (which then sees the same
/// IR as after the first optimization, and optimizes it as usual).
pub fn freeze_untouched(module: Module) -> Frozen {
    let user_optnone = module
        .functions()
        .into_iter()
        .filter(|f| f.has_fn_attr("optnone"))
        .map(|f| f.name())
        .collect();
    let mut relinked = Vec::new();
    let functions = untouched_functions(module)
        .into_iter()
        .map(|f| {
            let was = f.has_fn_attr("noinline");
            f.add_fn_attr("optnone");
            f.add_fn_attr("noinline");
            if f.is_local_linkage() && !f.users().is_empty() {
                relinked.push((f.name(), f.is_private_linkage()));
                f.set_linkage_external();
            }
            (f.name(), was)
        })
        .collect();
    Frozen {
        module,
        functions,
        user_optnone,
        relinked,
    }
}

impl Frozen {
    /// The names of the functions this freeze keeps out of the pipeline run.
    pub fn names(&self) -> HashSet<String> {
        self.functions.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Whether [`freeze_untouched`] made local functions external for the run (then
    /// [`thaw`] makes them local again, and a `globaldce` after it removes the ones
    /// nothing calls any more).
    pub fn relinked(&self) -> bool {
        !self.relinked.is_empty()
    }
}

/// The opposite of [`freeze_untouched`], given the names it froze: marks every other
/// defined function (those the AD pass generated or changed) `optnone noinline`, so a
/// pipeline run reaches only the functions the pass left alone (`deferred::
/// tail_pipeline`). [`thaw`] undoes it.
pub fn freeze_all_except(module: Module, untouched: &HashSet<String>) -> Frozen {
    let user_optnone: HashSet<String> = module
        .functions()
        .into_iter()
        .filter(|f| f.has_fn_attr("optnone"))
        .map(|f| f.name())
        .collect();
    let functions = module
        .functions()
        .into_iter()
        .filter(|f| {
            !f.is_declaration() && !untouched.contains(&f.name()) && !f.has_fn_attr("optnone")
        })
        .map(|f| {
            let was = f.has_fn_attr("noinline");
            f.add_fn_attr("optnone");
            f.add_fn_attr("noinline");
            (f.name(), was)
        })
        .collect();
    Frozen {
        module,
        functions,
        user_optnone,
        relinked: Vec::new(),
    }
}

/// Undoes [`freeze_untouched`]: every function that is `optnone` now but was not before
/// loses it, including copies the pipeline made of frozen functions (function
/// specialization clones `f` into `f.specialized.1` with its attributes); code
/// generation must not see them as `optnone`.
pub fn thaw(frozen: Frozen) {
    for (name, private) in &frozen.relinked {
        if let Some(f) = frozen.module.function(name) {
            if *private {
                f.set_linkage_private();
            } else {
                f.set_linkage_internal();
            }
        }
    }
    let was_noinline: ferrozyme_analysis::hash::HashMap<String, bool> =
        frozen.functions.into_iter().collect();
    for f in frozen.module.functions() {
        let name = f.name();
        if !f.has_fn_attr("optnone") || frozen.user_optnone.contains(&name) {
            continue;
        }
        f.remove_fn_attr("optnone");
        if !was_noinline.get(&name).copied().unwrap_or(false) {
            f.remove_fn_attr("noinline");
        }
    }
}
