//! The driver: requests in, derivative functions out, memoised.
//!
//! A [`Request`] (function + activity of its arguments and return) is the memo key. The
//! top-level `__enzyme_autodiff` calls ask for *combined* functions; active calls inside
//! differentiated code ask for *split* pairs (augmented forward + reverse). Asking creates
//! the functions' shells at once (so recursive functions can call their own derivatives)
//! and queues their bodies; [`Driver::drain`] synthesizes queued bodies until none is left.

use std::collections::{HashMap, HashSet};

use ferrozyme_analysis::types::TypeAnalysis;

use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Type, Value};

use crate::clone::{clone_function, preprocess};
use crate::reverse::{
    adjoint_return_type, aug_return_type, primal_shadow_params, Gen, Request, Target,
};
use crate::runtime::Runtime;
use crate::tangent::{tangent_params, tangent_return_type, TangentGen, TangentRequest};

/// A queued body to synthesize.
enum Job {
    Reverse(Request, Target),
    Tangent(TangentRequest, Value),
}

pub struct Driver {
    pub module: Module,
    pub touchers: HashSet<Value>,
    runtime: Runtime,
    /// Shadows of mutable globals, by (global, lane).
    shadow_globals: HashMap<(Value, usize), Value>,
    combined: HashMap<Request, Value>,
    split: HashMap<Request, (Value, Value)>,
    tangent: HashMap<TangentRequest, Value>,
    queue: Vec<Job>,
    pub generated: Vec<Value>,
    pub printout: String,
    pub print_activity: bool,
    pub print_types: bool,
    /// `--check-gradients`: instrument top-level hook calls (see `checkgrad.rs`), except
    /// those inside functions that are themselves differentiated.
    pub check_gradients: bool,
    pub check_skip: HashSet<Value>,
    pub check_counter: usize,
    /// Messages for the user that are not errors.
    pub notes: Vec<String>,
}

impl Driver {
    pub fn new(module: Module) -> Driver {
        Driver {
            module,
            touchers: ferrozyme_analysis::activity::functions_touching_shadowed_globals(module),
            runtime: Runtime::new(module),
            shadow_globals: HashMap::new(),
            combined: HashMap::new(),
            split: HashMap::new(),
            tangent: HashMap::new(),
            queue: Vec::new(),
            generated: Vec::new(),
            printout: String::new(),
            print_activity: false,
            print_types: false,
            check_gradients: false,
            check_skip: HashSet::new(),
            check_counter: 0,
            notes: Vec::new(),
        }
    }

    /// A runtime helper (see `runtime.rs`).
    pub fn rt(&mut self, name: &str) -> Value {
        self.runtime
            .get(name)
            .expect("the embedded runtime IR parses and links (it is ours)")
    }

    /// A C library function, declared if needed.
    pub fn libc(&mut self, name: &str, ret: Type, params: &[Type]) -> Value {
        let ctx = self.module.context();
        self.module
            .get_or_declare(name, ctx.function_type(ret, params, false))
    }

    /// The zero-initialised shadow of a mutable global in lane `l` of vector mode (lane 0 is the ordinary
    /// shadow global, `__fz_shadow_<name>`; lane `l` is `__fz_shadow_<name>.<l>`).
    pub fn shadow_global_lane(&mut self, g: Value, l: usize) -> Value {
        if let Some(&s) = self.shadow_globals.get(&(g, l)) {
            return s;
        }
        let ty = g.global_value_type();
        let name = if l == 0 {
            format!("__fz_shadow_{}", g.name())
        } else {
            format!("__fz_shadow_{}.{l}", g.name())
        };
        let s = self.module.add_global(&name, ty);
        s.set_initializer(ty.zero());
        s.set_linkage_internal();
        // Accesses copied from the primal carry its alignment (`align 32` for an array
        // under -march=native): the shadow must be at least as aligned, or vector moves
        // fault (difftest seed 1 at -O3 -march=native).
        s.set_alignment(g.alignment());
        self.shadow_globals.insert((g, l), s);
        // A global pointer to another shadowed global: its shadow points to that shadow.
        if let Some(init) = g.initializer() {
            if init.is_global_variable() && ferrozyme_analysis::activity::global_needs_shadow(init)
            {
                let target = self.shadow_global_lane(init, l);
                s.set_initializer(target);
            }
        }
        s
    }

    /// Scratch slots for shadow reads (`__fz_null_slot`, constant zeros, so a pointer read
    /// through an invalid shadow is null) and writes (`__fz_sink_slot`, never read) through
    /// pointers whose shadow is invalid at run time (see `reverse/mixed.rs`).
    pub fn null_slot(&mut self) -> Value {
        self.scratch("__fz_null_slot", true)
    }

    pub fn sink_slot(&mut self) -> Value {
        self.scratch("__fz_sink_slot", false)
    }

    fn scratch(&mut self, name: &str, constant: bool) -> Value {
        if let Some(g) = self.module.global(name) {
            return g;
        }
        let ctx = self.module.context();
        let ty = ctx.array_type(ctx.i8(), 64);
        let g = self.module.add_global(name, ty);
        g.set_initializer(ty.zero());
        g.set_linkage_internal();
        if constant {
            g.set_global_constant();
        }
        g
    }

    pub fn shadow_globals(&self) -> Vec<Value> {
        self.shadow_globals.values().copied().collect()
    }

    /// The forward-mode derivative function for `req` (queued on first request).
    pub fn tangent_fn(&mut self, req: &TangentRequest) -> Value {
        if let Some(&g) = self.tangent.get(req) {
            return g;
        }
        let ctx = self.module.context();
        let fty = ctx.function_type(tangent_return_type(req), &tangent_params(req), false);
        let prefix = if req.width > 1 {
            format!("fz_fwd{}_", req.width)
        } else {
            "fz_fwd_".to_string()
        };
        let g = self
            .module
            .add_function(&format!("{prefix}{}", req.func.name()), fty);
        g.set_linkage_internal();
        self.tangent.insert(req.clone(), g);
        self.queue.push(Job::Tangent(req.clone(), g));
        g
    }

    /// The combined derivative function for `req` (queued for synthesis on first request).
    pub fn combined_fn(&mut self, req: &Request) -> Value {
        if let Some(&g) = self.combined.get(req) {
            return g;
        }
        let ctx = self.module.context();
        let mut params = primal_shadow_params(req);
        if req.ret_active {
            for _ in 0..req.width {
                params.push(req.func.function_type().return_type());
            }
        }
        let fty = ctx.function_type(adjoint_return_type(req), &params, false);
        let prefix = if req.width > 1 {
            format!("fz_grad{}_", req.width)
        } else {
            "fz_grad_".to_string()
        };
        let g = self
            .module
            .add_function(&format!("{prefix}{}", req.func.name()), fty);
        g.set_linkage_internal();
        self.combined.insert(req.clone(), g);
        self.queue
            .push(Job::Reverse(req.clone(), Target::Combined { g }));
        g
    }

    /// The augmented-forward and reverse functions for `req`.
    pub fn split_fns(&mut self, req: &Request) -> (Value, Value) {
        if let Some(&p) = self.split.get(req) {
            return p;
        }
        let ctx = self.module.context();
        let base = primal_shadow_params(req);
        let aug_ty = ctx.function_type(aug_return_type(req), &base, false);
        let mut rev_params = base.clone();
        if req.ret_active {
            for _ in 0..req.width {
                rev_params.push(req.func.function_type().return_type());
            }
        }
        rev_params.push(ctx.ptr());
        let rev_ty = ctx.function_type(adjoint_return_type(req), &rev_params, false);
        let name = req.func.name();
        let aug = self.module.add_function(&format!("fz_aug_{name}"), aug_ty);
        let rev = self.module.add_function(&format!("fz_rev_{name}"), rev_ty);
        aug.set_linkage_internal();
        rev.set_linkage_internal();
        self.split.insert(req.clone(), (aug, rev));
        self.queue
            .push(Job::Reverse(req.clone(), Target::Split { aug, rev }));
        (aug, rev)
    }

    /// Type analysis of `clone`, a copy of `original` (with `original`'s call-graph
    /// component). Reusing one analysis of the component for every clone in it was tried
    /// and lost precision on `-O0` code (random programs from tools/difftest then failed
    /// with `cannot-deduce-type`), so each clone is analysed with the component.
    pub fn types_for_clone(&mut self, clone: Value, original: Value) -> TypeAnalysis {
        TypeAnalysis::run_for_clone(self.module, clone, Some(original))
    }

    /// Synthesizes every queued body.
    pub fn drain(&mut self) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        while let Some(job) = self.queue.pop() {
            let func = match &job {
                Job::Reverse(req, _) => req.func,
                Job::Tangent(req, _) => req.func,
            };
            let name = func.name();
            let p = clone_function(self.module, func, &format!("fz_primal_{name}"));
            if let Err(e) = preprocess(self.module, p, matches!(job, Job::Reverse(..))) {
                diags.push(
                    Diagnostic::new(DiagKind::Internal, format!("preprocessing failed: {e}"))
                        .in_function(name.clone()),
                );
                p.delete_function();
                continue;
            }
            let (result, fns) = match &job {
                Job::Reverse(req, target) => {
                    let fns = match *target {
                        Target::Combined { g } => vec![g],
                        Target::Split { aug, rev } => vec![aug, rev],
                    };
                    (Gen::run(self, req, p, *target), fns)
                }
                Job::Tangent(req, g) => (TangentGen::run(self, req, p, *g), vec![*g]),
            };
            match result {
                Ok(()) => {
                    for f in fns {
                        crate::cse::merge_duplicates(f);
                        if !ferrozyme_llvm::verify_function(f) {
                            // The module verifier says what is wrong (the function check
                            // only says that something is).
                            let why = self.module.verify().err().map(|m| {
                                let first: Vec<&str> = m.trim().lines().take(3).collect();
                                format!(": {}", first.join(" | "))
                            });
                            diags.push(
                                Diagnostic::new(
                                    DiagKind::Internal,
                                    format!(
                                        "the generated function `{}` failed LLVM's verifier{}",
                                        f.name(),
                                        why.unwrap_or_default()
                                    ),
                                )
                                .in_function(name.clone())
                                .with_help("this is a bug in Ferrozyme; please report it with the input file"),
                            );
                        }
                        self.generated.push(f);
                    }
                }
                Err(mut d) => diags.append(&mut d),
            }
            p.delete_function();
        }
        diags
    }
}
