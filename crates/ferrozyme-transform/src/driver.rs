//! The driver: requests in, derivative functions out, memoised.
//!
//! A [`Request`] (function + activity of its arguments and return) is the memo key. The
//! top-level `__enzyme_autodiff` calls ask for *combined* functions; active calls inside
//! differentiated code ask for *split* pairs (augmented forward + reverse), or for the
//! *nested* variant of a pair when the callee's tape can live in the caller's
//! (`reverse/tape_nest.rs`; the offsets are patched when the drain is over). Asking creates
//! the functions' shells at once (so recursive functions can call their own derivatives)
//! and queues their bodies; [`Driver::drain`] synthesizes queued bodies until none is
//! left: clone and canonicalise the function, run the analyses synthesis works from
//! ([`Analyses`]), print them when asked, synthesize, clean up and verify.
//!
//! Synthesis sees the driver only through [`Callees`] (the memo table, [`Memo`]) and
//! [`Support`] (module-level objects); the options stay here.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::types::{TypeAnalysis, TypeSession};
use ferrozyme_llvm::{DiagKind, Diagnostic, Module, Value};

use crate::analyses::Analyses;
use crate::clone::{clone_function, preprocess};
use crate::custom::Registry;
use crate::options::Options;
use crate::reverse::tape_nest::{self, NestLayout};
use crate::services::{Callees, Support};
use crate::signature::{
    adjoint_return_type, aug_return_type, combined_params, primal_shadow_params, reverse_params,
    tangent_params, tangent_return_type, Request, TangentRequest, Target,
};
use crate::timing::{Phase, PhaseTimes, Stamp};

/// A queued body to synthesize.
enum Job {
    Reverse(Request, Target),
    Tangent(TangentRequest, Value),
}

impl Job {
    fn func(&self) -> Value {
        match self {
            Job::Reverse(req, _) => req.func,
            Job::Tangent(req, _) => req.func,
        }
    }

    /// The generated functions the job fills.
    fn outputs(&self) -> Vec<Value> {
        match *self {
            Job::Reverse(_, Target::Combined { g }) => vec![g],
            Job::Reverse(_, Target::Split { aug, rev, .. }) => vec![aug, rev],
            Job::Tangent(_, g) => vec![g],
        }
    }
}

/// Requests → generated function shells, and the queue of bodies to synthesize.
pub(crate) struct Memo {
    module: Module,
    combined: HashMap<Request, Value>,
    split: HashMap<Request, (Value, Value)>,
    /// Nested split pairs (`reverse/tape_nest.rs`).
    nested: HashMap<Request, (Value, Value)>,
    /// Layouts with nested tapes synthesized in this drain, patched at its end.
    layouts: Vec<NestLayout>,
    /// Total tape size of every nested pair synthesized so far.
    nest_sizes: HashMap<Request, u64>,
    /// Does a nested pair synthesized so far (or one it nests) claim tape region room
    /// (`reverse/tape_region.rs`)?
    region_users: HashMap<Request, bool>,
    tangent: HashMap<TangentRequest, Value>,
    queue: Vec<Job>,
    /// Shells made since the last drain ended: never part of a type analysis.
    outputs: HashSet<Value>,
    /// Which function's synthesis requested each derivative (for diagnostics).
    requesters: crate::reached::Requesters,
    /// Which derivatives are possible targets the program may never reach
    /// (`candidate_stops.rs`).
    speculation: crate::candidate_stops::Speculation,
}

impl Memo {
    /// A new internal, marked function shell for a derivative of `primal`.
    fn shell(
        &mut self,
        primal: Value,
        name: &str,
        ret: ferrozyme_llvm::Type,
        params: &[ferrozyme_llvm::Type],
    ) -> Value {
        let ctx = self.module.context();
        let g = self
            .module
            .add_function(name, ctx.function_type(ret, params, false));
        g.set_linkage_internal();
        crate::generated::mark(g);
        // Derivatives follow the normal paths only (see `clone::drop_unwind_paths`).
        g.add_fn_attr("nounwind");
        inherit_inlining(primal, g);
        self.outputs.insert(g);
        self.requesters.note(primal);
        self.speculation.made(primal, g);
        g
    }

    /// The split pair for `req`, or its nested variant (`reverse/tape_nest.rs`: the
    /// augmented function takes its tape block, a region of the caller's, and the
    /// outermost call's tape region as its last parameters): shells made and queued on the first request.
    fn pair(&mut self, req: &Request, nested: bool) -> (Value, Value) {
        let known = if nested { &self.nested } else { &self.split };
        if let Some(&p) = known.get(req) {
            return p;
        }
        let name = req.func.name();
        let suffix = if nested { ".nest" } else { "" };
        let mut params = primal_shadow_params(req);
        if nested {
            // The tape block, then the outermost call's tape region.
            params.push(self.module.context().ptr());
            params.push(self.module.context().ptr());
        }
        let aug = self.shell(
            req.func,
            &format!("fz_aug_{name}{suffix}"),
            aug_return_type(req),
            &params,
        );
        let rev = self.shell(
            req.func,
            &format!("fz_rev_{name}{suffix}"),
            adjoint_return_type(req),
            &reverse_params(req),
        );
        let known = if nested {
            &mut self.nested
        } else {
            &mut self.split
        };
        known.insert(req.clone(), (aug, rev));
        self.queue.push(Job::Reverse(
            req.clone(),
            Target::Split { aug, rev, nested },
        ));
        (aug, rev)
    }
}

/// A derivative of a `noinline` function is `noinline` too. The derivative functions are
/// internal with one call site each, which LLVM's inliner takes almost regardless of
/// size: without this, the derivatives of a chain of functions the user kept apart are
/// merged into functions of thousands of instructions, and the re-optimization spends
/// several times longer on them than on the same code kept apart (chain of 160
/// functions: 7.3 s against 1.4 s of CPU).
fn inherit_inlining(primal: Value, derivative: Value) {
    if primal.has_fn_attr("noinline") {
        derivative.add_fn_attr("noinline");
    }
}

/// `fz_<kind>_f`, or `fz_<kind><width>_f` in vector mode.
fn shell_name(kind: &str, width: u32, func: Value) -> String {
    if width > 1 {
        format!("fz_{kind}{width}_{}", func.name())
    } else {
        format!("fz_{kind}_{}", func.name())
    }
}

impl Callees for Memo {
    fn tangent(&mut self, req: &TangentRequest) -> Value {
        if let Some(&g) = self.tangent.get(req) {
            return g;
        }
        let g = self.shell(
            req.func,
            &shell_name(
                if req.error { "fwderr" } else { "fwd" },
                req.width,
                req.func,
            ),
            tangent_return_type(req),
            &tangent_params(req),
        );
        self.tangent.insert(req.clone(), g);
        self.queue.push(Job::Tangent(req.clone(), g));
        g
    }

    fn combined(&mut self, req: &Request) -> Value {
        if let Some(&g) = self.combined.get(req) {
            return g;
        }
        let g = self.shell(
            req.func,
            &shell_name("grad", req.width, req.func),
            adjoint_return_type(req),
            &combined_params(req),
        );
        self.combined.insert(req.clone(), g);
        self.queue
            .push(Job::Reverse(req.clone(), Target::Combined { g }));
        g
    }

    fn split(&mut self, req: &Request) -> (Value, Value) {
        self.pair(req, false)
    }

    fn nested(&mut self, req: &Request) -> (Value, Value) {
        self.pair(req, true)
    }

    fn nest_layout(&mut self, layout: NestLayout) {
        self.layouts.push(layout);
    }

    fn speculative(&mut self, func: Value) {
        self.speculation.candidate(func);
    }
}

pub(crate) struct Driver {
    memo: Memo,
    /// Registered derivatives: their functions get wrappers, not synthesized bodies.
    registry: Registry,
    pub support: Support,
    /// Every derivative function synthesized so far.
    pub generated: Vec<Value>,
    /// Synthesized functions not yet checked by LLVM's verifier, with the name of the
    /// function each differentiates (`first_invalid`).
    unverified: Vec<(Value, String)>,
    /// Time per phase (see `timing.rs`).
    pub times: PhaseTimes,
    /// Streams `streams/mod.rs` carried (`Report::carried_streams`).
    pub carried_streams: usize,
    /// Of those, streams in value form (`Report::exact_streams`).
    pub exact_streams: usize,
    /// Type analysis shared by the clones of one drain (see `types_for_clone`).
    types: TypeSession,
}

impl Driver {
    pub fn new(module: Module, registry: Registry) -> Driver {
        Driver {
            registry,
            memo: Memo {
                module,
                combined: HashMap::default(),
                split: HashMap::default(),
                nested: HashMap::default(),
                layouts: Vec::new(),
                nest_sizes: HashMap::default(),
                region_users: HashMap::default(),
                tangent: HashMap::default(),
                queue: Vec::new(),
                outputs: HashSet::default(),
                requesters: Default::default(),
                speculation: Default::default(),
            },
            support: Support::new(module),
            generated: Vec::new(),
            unverified: Vec::new(),
            times: PhaseTimes::default(),
            carried_streams: 0,
            exact_streams: 0,
            types: TypeSession::new(module),
        }
    }

    pub fn module(&self) -> Module {
        self.support.module
    }

    /// The memo table, as synthesis and hook replacement see it.
    pub fn callees(&mut self) -> &mut dyn Callees {
        &mut self.memo
    }

    /// Type analysis of `clone`, a copy of `original` (with `original`'s call-graph
    /// component). One session serves every clone of a drain: each function's facts are
    /// computed once and each clone adds only what it teaches (`types/session.rs`), with
    /// the precision of analysing each clone with its whole component. The session's
    /// invariants hold here: clones live until the drain ends, the user's functions do
    /// not change during a drain, and the functions being generated are left out.
    fn types_for_clone(&mut self, clone: Value, original: Value) -> TypeAnalysis {
        let start = Stamp::now();
        let outputs = &self.memo.outputs;
        let t = self
            .types
            .analyse_clone(clone, original, &|f| outputs.contains(&f));
        self.times.add_since(Phase::TypeAnalysis, start);
        t
    }

    /// Synthesizes every queued body; analysis printouts `opts` asks for go to `printout`.
    pub fn drain(&mut self, opts: &Options, printout: &mut String) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        // Clones stay until the end of the drain: the type session refers to them.
        let mut clones = Vec::new();
        // Gradients whose loops may run upwards, with their primal pointer parameters.
        let mut upward = Vec::new();
        // A later round may clone and run LLVM's passes over what earlier drains
        // generated (a derivative differentiated again): verified first, once.
        for (f, name) in std::mem::take(&mut self.unverified) {
            if let Some(d) = verify_generated(self.module(), f, &name) {
                diags.push(d);
            }
        }
        if !diags.is_empty() {
            return diags;
        }
        self.support.refresh_call_cycles();
        while let Some(job) = self.memo.queue.pop() {
            let func = job.func();
            if self.registry.has_rule(func) {
                match self.custom(&job) {
                    Ok(()) => self.generated.extend(job.outputs()),
                    Err(mut d) => diags.append(&mut d),
                }
                continue;
            }
            let name = func.name();
            if let Err(mut d) = crate::clone::reject_computed_branches(func, &name) {
                diags.append(&mut d);
                continue;
            }
            let module = self.module();
            let reverse = matches!(job, Job::Reverse(..));
            let start = Stamp::now();
            let p = clone_function(
                module,
                func,
                &format!("{}{name}", crate::clone::CLONE_PREFIX),
            );
            let inlined = if opts.enzyme.inline {
                crate::settings::inline_calls(module, p, func, opts.enzyme.inline_count)
            } else {
                Ok(())
            };
            let linked = crate::fortran::linked_runtimes(module);
            let prepared =
                inlined.and_then(|()| preprocess(module, p, reverse, opts.loops_unpeeled));
            if crate::fortran::linked_runtimes(module) != linked {
                // The runtime IR just linked may touch globals with shadows (the request
                // table of runtime/mpi_fortran.c, whose MPI_WAIT wrapper has only integer
                // arguments) or reach a barrier (MPI_BARRIER's wrapper): its callers, the
                // clone among them, are differentiated too.
                self.support.touchers = crate::services::differentiated_callees(module);
            }
            self.times.add_since(Phase::Clone, start);
            clones.push(p);
            if let Err(e) = prepared {
                diags.push(
                    Diagnostic::new(DiagKind::Internal, format!("preprocessing failed: {e}"))
                        .in_function(name.clone()),
                );
                continue;
            }
            let (args, runtime) = match &job {
                Job::Reverse(req, _) => (&req.args, &req.runtime),
                Job::Tangent(req, _) => (&req.args, &req.runtime),
            };
            let types = self.types_for_clone(p, func);
            let start = Stamp::now();
            let an = Analyses::run(
                &self.support,
                p,
                types,
                args,
                runtime,
                opts.enzyme.runtime_activity,
            );
            self.times.add_since(Phase::Activity, start);
            printout.push_str(&an.print(p, func, opts));
            let start = Stamp::now();
            self.memo.requesters.enter(func);
            self.memo.speculation.begin(&job.outputs());
            let result = match &job {
                Job::Reverse(req, target) => crate::reverse::synthesize(
                    &mut self.memo,
                    &mut self.support,
                    req,
                    p,
                    an,
                    *target,
                ),
                Job::Tangent(req, g) => {
                    crate::tangent::synthesize(&mut self.memo, &mut self.support, req, p, an, *g)
                }
            };
            self.memo.requesters.leave();
            self.times.add_since(Phase::Synthesis, start);
            let start = Stamp::now();
            match result {
                Ok(()) => {
                    // Peeled stencil loops: their reverse neighbour updates as carried
                    // streams (`streams/mod.rs`).
                    if let Job::Reverse(req, Target::Combined { g }) = &job {
                        if p.has_string_fn_attr(crate::streams::PEELED) {
                            match crate::streams::carry(module, *g, req, opts.vectorized_loops) {
                                Ok((n, e)) => {
                                    self.carried_streams += n;
                                    self.exact_streams += e;
                                }
                                Err(e) => diags.push(Diagnostic::new(DiagKind::Internal, e)),
                            }
                        } else if let Some(primals) =
                            crate::streams::upward::upward_candidate(*g, req, opts.vectorized_loops)
                        {
                            // Falling reverse loops whose iterations commute, upwards
                            // (`streams/upward.rs`), once the nested tapes are resolved.
                            upward.push((*g, primals));
                        }
                    }
                    for f in job.outputs() {
                        // Adjoint products with a common factor, summed, as one product
                        // (`adjoint_factor.rs`); the differences it makes merge below.
                        crate::adjoint_factor::factor_function(f);
                        crate::cse::merge_duplicates(f);
                        // Verified here only where LLVM's passes run on it within the
                        // drain (the upward trial) or in debug builds; the rest once,
                        // by the module verifier after the pass (`Session::finish`),
                        // which names the function through `unverified` when it fails.
                        let upward_trial = upward.last().is_some_and(|(g, _)| *g == f);
                        if cfg!(debug_assertions) || upward_trial {
                            if let Some(d) = verify_generated(module, f, &name) {
                                diags.push(d);
                            }
                        } else {
                            self.unverified.push((f, name.clone()));
                        }
                        self.generated.push(f);
                    }
                }
                Err(d) if self.memo.speculation.failure_is_a_stop(&job.outputs()) => {
                    // A possible target the program may never reach (`candidate_stops.rs`).
                    crate::candidate_stops::fill(&mut self.support, &job.outputs(), func, &d);
                    self.generated.extend(job.outputs());
                }
                Err(d) => diags.extend(self.memo.requesters.attach(func, d)),
            }
            self.times.add_since(Phase::Cleanup, start);
        }
        // Offsets and sizes of nested callee tapes, now that every callee's is known.
        let mut layouts = std::mem::take(&mut self.memo.layouts);
        crate::reverse::tape_region::prune_unused(&mut layouts, &mut self.memo.region_users);
        if let Err(d) = tape_nest::resolve(layouts, &mut self.memo.nest_sizes) {
            diags.push(d);
        }
        for (g, primals) in upward {
            if let Err(e) = crate::streams::upward_trial::upward_if_taken(g, &primals) {
                diags.push(Diagnostic::new(DiagKind::Internal, e));
            }
        }
        // The session goes first (it refers to the clones); the next drain sees the hook
        // calls replaced, so it analyses the module afresh.
        self.types = TypeSession::new(self.module());
        for p in clones {
            p.delete_function();
        }
        self.memo.outputs.clear();
        diags
    }
}

impl Driver {
    /// The derivative functions of a function with a registered derivative: wrappers
    /// around the registered functions (`crate::custom`).
    fn custom(&mut self, job: &Job) -> Result<(), Vec<Diagnostic>> {
        let func = job.func();
        let missing = |kind: &str, how: &str| {
            vec![Diagnostic::new(
                DiagKind::BadAutodiffCall,
                format!(
                    "`{}` has a registered derivative, but no {kind} derivative; the body is not differentiated in its place",
                    func.name()
                ),
            )
            .in_function(func.source_name())
            .with_help(how.to_string())]
        };
        if let Job::Reverse(_, Target::Split { nested: true, .. }) = job {
            // Callers nest only the tapes of functions without a registered derivative
            // (`tape_nest.rs`); a registered rule's tape is its own.
            return Err(vec![Diagnostic::new(
                DiagKind::Internal,
                format!(
                    "`{}` has a registered derivative but was asked for a nested tape",
                    func.name()
                ),
            )]);
        }
        match job {
            Job::Reverse(req, target) => match self.registry.reverse(func) {
                Some(rule) => crate::custom::synthesize_reverse(&mut self.support, req, rule, *target),
                None => Err(missing(
                    "reverse-mode",
                    "register one: void *__enzyme_register_gradient_f[] = {(void *)f, (void *)aug_f, (void *)rev_f};",
                )),
            },
            Job::Tangent(req, g) => match self.registry.forward(func) {
                Some(rule) => crate::custom::synthesize_forward(&mut self.support, req, rule, *g),
                None => Err(missing(
                    "forward-mode",
                    "register one: void *__enzyme_register_derivative_f[] = {(void *)f, (void *)fwd_f};",
                )),
            },
        }
    }
}

impl Driver {
    /// After the module failed LLVM's verifier: the `internal-error` naming the first
    /// synthesized function the drains left unverified that fails it, if one does.
    pub fn first_invalid(&self) -> Option<Diagnostic> {
        let module = self.module();
        self.unverified
            .iter()
            .find_map(|(f, name)| verify_generated(module, *f, name))
    }

    /// Every derivative function made so far (forward, combined, split and nested
    /// pairs), with the function it differentiates.
    pub fn primals_of_derivatives(&self) -> HashMap<Value, Value> {
        let m = &self.memo;
        let pairs = m.split.iter().chain(&m.nested);
        m.combined
            .iter()
            .map(|(r, g)| (*g, r.func))
            .chain(pairs.flat_map(|(r, (a, v))| [(*a, r.func), (*v, r.func)]))
            .chain(m.tangent.iter().map(|(r, g)| (*g, r.func)))
            .collect()
    }
}

/// An `internal-error` when generated function `f` fails LLVM's verifier.
fn verify_generated(module: Module, f: Value, name: &str) -> Option<Diagnostic> {
    if ferrozyme_llvm::verify_function(f) {
        return None;
    }
    // The module verifier says what is wrong (the function check only says that
    // something is).
    let why = module.verify().err().map(|m| {
        let first: Vec<&str> = m.trim().lines().take(3).collect();
        format!(": {}", first.join(" | "))
    });
    Some(
        Diagnostic::new(
            DiagKind::Internal,
            format!(
                "the generated function `{}` failed LLVM's verifier{}",
                f.name(),
                why.unwrap_or_default()
            ),
        )
        .in_function(name.to_string())
        .with_help("this is a bug in Ferrozyme; please report it with the input file"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drains leave generated functions to the module verifier (issue 18: one
    /// verification, not two); when it fails, the error still names the generated
    /// function, the function it differentiates and the verifier's words.
    #[test]
    fn module_verifier_failure_names_the_unverified_generated_function() {
        let ir = r#"
define double @f(double %x) {
  ret double %x
}
define internal double @fz_grad_f(double %x) {
  %a = fadd double %b, 1.0
  %b = fmul double %x, 2.0
  ret double %a
}
define internal double @fz_ok(double %x) {
  ret double %x
}
"#;
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        assert!(m.verify().is_err(), "the test's IR is meant to be invalid");
        let mut d = Driver::new(module, crate::custom::Registry::scan(module).unwrap());
        let ok = module.function("fz_ok").unwrap();
        let bad = module.function("fz_grad_f").unwrap();
        d.unverified.push((ok, "f".to_string()));
        assert!(d.first_invalid().is_none());
        d.unverified.push((bad, "f".to_string()));
        let diag = d
            .first_invalid()
            .expect("the invalid function is found")
            .to_string();
        assert!(
            diag.contains("`fz_grad_f` failed LLVM's verifier"),
            "{diag}"
        );
        assert!(diag.contains("dominate"), "{diag}");
        assert!(diag.contains("in function `f`"), "{diag}");
        d.unverified.remove(1);
        assert!(
            d.first_invalid().is_none(),
            "valid functions are not reported"
        );
    }
}
