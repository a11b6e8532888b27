//! What synthesis may ask of the rest of the pass, and nothing more.
//!
//! A synthesizer (reverse or forward mode) differentiates one function. It needs two
//! kinds of help from outside that function:
//!
//! * [`Callees`]: the derivative functions of the functions it calls (their shells exist
//!   as soon as they are asked for, so recursion works; their bodies are synthesized
//!   later by the driver);
//! * [`Support`]: module-level objects shared by every generated function — the tape
//!   runtime, shadows of mutable globals, scratch slots, C library declarations, and the
//!   set of functions that touch shadowed globals (an input of activity analysis).
//!
//! Options, memo tables and reports stay with the driver.

use ferrozyme_analysis::abi_marks::AbiMarks;
use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Type, Value};

use crate::lanes::Lane;
use crate::runtime::{RtFn, Runtime};
use crate::signature::{Request, TangentRequest};

/// Derivatives of callees, by request.
pub(crate) trait Callees {
    /// The combined (forward + reverse) function for `req`.
    fn combined(&mut self, req: &Request) -> Value;
    /// The augmented forward and reverse functions for `req`.
    fn split(&mut self, req: &Request) -> (Value, Value);
    /// The forward-mode function for `req`.
    fn tangent(&mut self, req: &TangentRequest) -> Value;
    /// The nested split pair for `req`: the augmented function takes its tape block (a
    /// region of the caller's) and the outermost call's tape region as its last
    /// parameters (`reverse/tape_nest.rs`, `reverse/tape_region.rs`).
    fn nested(&mut self, req: &Request) -> (Value, Value);
    /// A synthesized function's nested tape regions, patched when the drain is over.
    fn nest_layout(&mut self, layout: crate::reverse::tape_nest::NestLayout);
    /// `func`'s derivatives are asked for as a candidate of a call through a pointer that
    /// runs only where the pointer is not null: should they fail, they become run-time
    /// stops (`crate::candidate_stops`).
    fn speculative(&mut self, func: Value);
}

/// Module-level objects shared by all generated code.
pub(crate) struct Support {
    pub module: Module,
    /// Functions whose calls are differentiated whatever their arguments
    /// ([`differentiated_callees`]).
    pub touchers: HashSet<Value>,
    runtime: Runtime,
    /// Shadows of mutable globals, by (global, lane).
    shadow_globals: HashMap<(Value, Lane), Value>,
    /// Targets of calls through pointers, by function type (see [`Support::candidates`]).
    candidates: HashMap<(Type, AbiMarks), Vec<Candidate>>,
    /// Optimization remarks of the synthesizers (empty unless asked for).
    pub remarks: crate::remarks::Remarks,
    /// Recursive cycles of the module's direct calls, as of the current drain's start
    /// (`refresh_call_cycles`): callees on a cycle with their caller keep tapes of their
    /// own (`reverse/tape_nest.rs`).
    call_cycles: ferrozyme_analysis::scc::CallCycles,
    /// Which parameters may receive a shadowed global (`crate::global_args`), for the
    /// current drain.
    pub global_args: crate::global_args::Cache,
    /// Which functions reach a free of an MPI handle they were handed
    /// (`reverse::callee_handle_free`), built at the current drain's first question.
    handed_frees: Option<crate::reverse::HandedFrees>,
}

/// Functions whose calls are differentiated whatever their arguments: they touch
/// mutable globals with shadows (through their calls), or reach an MPI barrier, which
/// the reverse sweep mirrors (`parallel::mpi::functions_calling_barriers`); both closed
/// over one caller graph.
pub(crate) fn differentiated_callees(module: Module) -> HashSet<Value> {
    let mut graph = ferrozyme_analysis::caller_graph::CallerGraph::new(module);
    let mut seeds = ferrozyme_analysis::activity::functions_referencing_shadowed_globals(module);
    seeds.extend(crate::parallel::mpi::functions_calling_barriers(
        module, &mut graph,
    ));
    graph.callers_closure(seeds)
}

/// A function a call through a pointer may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The pointer value the call's callee is compared with.
    pub pointer: Value,
    /// The function whose derivatives are called when it matches: the function itself,
    /// or for a library function with a math rule a wrapper with a body that calls it.
    pub func: Value,
}

impl Support {
    pub fn new(module: Module) -> Support {
        Support {
            module,
            touchers: differentiated_callees(module),
            runtime: Runtime::new(module),
            shadow_globals: HashMap::default(),
            candidates: HashMap::default(),
            remarks: crate::remarks::Remarks::default(),
            call_cycles: ferrozyme_analysis::scc::CallCycles::new(module),
            global_args: Default::default(),
            handed_frees: None,
        }
    }

    /// Recomputes the call cycles (each drain: hook calls replaced by the previous
    /// round are calls of derivatives now).
    pub fn refresh_call_cycles(&mut self) {
        self.call_cycles = ferrozyme_analysis::scc::CallCycles::new(self.module);
        self.global_args = Default::default();
        self.handed_frees = None;
    }

    /// Does a function `f` calls, any number of calls down, free an MPI handle it was
    /// handed (`reverse::HandedFrees::reached_from`)? The call graph is built once a
    /// drain, at its first question.
    pub fn reaches_handed_free(&mut self, f: Value) -> bool {
        let module = self.module;
        self.handed_frees
            .get_or_insert_with(|| crate::reverse::HandedFrees::new(module))
            .reached_from(f)
    }

    /// Do `caller` and `callee` lie on one cycle of direct calls (a recursive callee)?
    /// Functions created since the last refresh are answered "yes" (the safe answer).
    pub fn same_cycle(&self, caller: Value, callee: Value) -> bool {
        self.call_cycles.same_cycle(caller, callee)
    }

    /// The functions a call through a pointer of function type `fty` with `sret`/`byval`
    /// arguments `marks` may reach (`ferrozyme_analysis::calls::indirect_candidates`), in
    /// module order.
    pub fn candidates(&mut self, fty: Type, marks: AbiMarks) -> Vec<Candidate> {
        if let Some(c) = self.candidates.get(&(fty, marks)) {
            return c.clone();
        }
        let found = self.as_candidates(ferrozyme_analysis::calls::indirect_candidates(
            self.module,
            fty,
            marks,
        ));
        self.candidates.insert((fty, marks), found.clone());
        found
    }

    /// The functions the call through a pointer `call` may reach
    /// (`ferrozyme_analysis::calls::call_targets`, cached by type and `sret`/`byval` marks when not chosen): the
    /// leaves of a `select`/`phi` of functions (a derivative's own dispatch, met by a
    /// higher-order derivative), else [`Support::candidates`] of its type.
    pub fn call_candidates(&mut self, call: Value) -> Vec<Candidate> {
        match ferrozyme_analysis::calls::chosen_targets(call) {
            Some(leaves) => self.as_candidates(leaves),
            None => self.candidates(call.called_function_type(), AbiMarks::of_call(call)),
        }
    }

    fn as_candidates(&self, funcs: Vec<Value>) -> Vec<Candidate> {
        let module = self.module;
        funcs
            .into_iter()
            .map(|f| Candidate {
                pointer: f,
                func: if f.is_declaration()
                    && !f.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR)
                {
                    library_wrapper(module, f)
                } else {
                    f
                },
            })
            .collect()
    }

    /// A runtime helper (see `runtime.rs`).
    pub fn rt(&mut self, f: RtFn) -> Value {
        match self.runtime.get(f) {
            Ok(v) => v,
            // The runtime is IR text compiled into Ferrozyme and checked by its tests.
            Err(e) => panic!("invariant: the embedded runtime links and is complete: {e}"),
        }
    }

    /// Stops the program at run time with `msg` (a full line) where `bad` (`i1`) holds,
    /// at `b`'s position (`__fz_check_shadow`).
    pub fn stop_if(&mut self, b: &ferrozyme_llvm::Builder, bad: Value, msg: &str) {
        let g = self.module.add_string("fz.msg", msg);
        let check = self.rt(RtFn::CheckShadow);
        b.call_fn(check, &[bad, g]);
    }

    /// A C library function, declared if needed.
    pub fn libc(&mut self, name: &str, ret: Type, params: &[Type]) -> Value {
        let ctx = self.module.context();
        self.module
            .get_or_declare(name, ctx.function_type(ret, params, false))
    }

    /// The zero-initialised shadow of a mutable global in lane `l` of vector mode (lane 0
    /// is the ordinary shadow global, `__fz_shadow_<name>`; lane `l` is
    /// `__fz_shadow_<name>.<l>`).
    pub fn shadow_global(&mut self, g: Value, l: Lane) -> Value {
        if let Some(&s) = self.shadow_globals.get(&(g, l)) {
            return s;
        }
        let ty = g.global_value_type();
        let name = if l == Lane::FIRST {
            format!("__fz_shadow_{}", g.name())
        } else {
            format!("__fz_shadow_{}.{l}", g.name())
        };
        let s = self.module.add_global(&name, ty);
        s.set_initializer(ty.zero());
        s.set_linkage_internal();
        // Accesses copied from the primal carry its alignment (`align 32` for an array
        // under -march=native): the shadow must be at least as aligned, or vector moves
        // fault (difftest seed 1 at -O3 -march=native, tests/c/405).
        s.set_alignment(g.alignment());
        // Each thread's copy of a thread-local global has its own adjoint
        // (`thread_locals.rs`).
        s.copy_thread_local_mode(g);
        self.shadow_globals.insert((g, l), s);
        // Pointers in the initializer to other shadowed globals (a global view of an
        // array, a table of functions): the shadow starts pointing at their shadows.
        if let Some(init) = g.initializer() {
            let b = ferrozyme_llvm::Builder::new(self.module.context());
            if let Some(si) = crate::common::shadows::initializer_shadow(&b, self, init, l) {
                s.set_initializer(si);
            }
        }
        s
    }

    /// Every shadow global made so far (top-level derivative calls zero them), by name:
    /// the map's order changes from run to run, the zeroing code must not.
    pub fn shadow_globals(&self) -> Vec<Value> {
        let mut v: Vec<(String, Value)> = self
            .shadow_globals
            .values()
            .map(|&s| (s.name(), s))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v.into_iter().map(|(_, s)| s).collect()
    }

    /// Every shadow global made so far with its primal global, by the shadow's name.
    pub fn shadow_globals_with_primals(&self) -> Vec<(Value, Value)> {
        let mut v: Vec<(String, Value, Value)> = self
            .shadow_globals
            .iter()
            .map(|(&(g, _), &s)| (s.name(), g, s))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v.into_iter().map(|(_, g, s)| (g, s)).collect()
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
        let ty = ctx.array_type(ctx.i8(), SCRATCH_SLOT_BYTES);
        let g = self.module.add_global(name, ty);
        g.set_initializer(ty.zero());
        g.set_linkage_internal();
        // Atomic adds of tangents go there too (`tangent_atomic_rmw`): aligned for them.
        g.set_alignment(16);
        if constant {
            g.set_global_constant();
        }
        g
    }
}

/// `fz_call_<f>`: a function with a body that calls the library function `f` (a math
/// function with a rule), so a call through a pointer that reaches `f` can use the
/// derivatives of a function with IR.
fn library_wrapper(module: Module, f: Value) -> Value {
    let name = format!("fz_call_{}", f.name());
    if let Some(w) = module.function(&name) {
        return w;
    }
    let w = module.add_function(&name, f.function_type());
    w.set_linkage_internal();
    crate::generated::mark(w);
    let b = ferrozyme_llvm::Builder::new(module.context());
    let entry = b.append_block(w, "entry");
    b.position_at_end(entry);
    let r = b.call_fn(f, &w.params());
    b.ret(r);
    w
}

/// The bytes of each scratch slot ([`Support::null_slot`], [`Support::sink_slot`]): a
/// guarded access moves at most this many through one.
pub(crate) const SCRATCH_SLOT_BYTES: u64 = 64;
