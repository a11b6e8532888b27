//! Reverse-mode synthesis: one forward sweep that mirrors the primal, one reverse sweep
//! made of one reverse block per primal block, adjoints emitted in reverse order.
//!
//! # Phases
//!
//! 1. **Setup.** The function to differentiate has been cloned and canonicalised (`P`).
//!    We analyse `P` (CFG, activity), create the generated function(s) and one forward
//!    block and one reverse block per reachable block of `P`.
//! 2. **Forward sweep** (`forward.rs`), in reverse postorder: every primal instruction is
//!    copied; pointers with shadows get their shadow instruction beside them (GEP of the
//!    shadow, shadow allocation, shadow load of a pointer ...); active calls become calls
//!    of the callee's *augmented forward* function, which returns the callee's tape; blocks
//!    with several predecessors record which one they were entered from.
//! 3. **Reverse sweep** (`adjoint.rs`): each reverse block replays its primal block's
//!    instructions backwards, applying the rule of each active instruction, then moves the
//!    adjoints of the block's phis to the incoming values on the edge it leaves by, and
//!    branches to the reverse block of the recorded predecessor.
//! 4. **Finalise** (`finish.rs`): tape size, stack pops and frees, entry terminators.
//!
//! Calls are handled in both sweeps by `calls.rs`; instructions that cannot be
//! differentiated are rejected before anything is emitted (`check.rs`). The state of a
//! synthesis is split by concern (`state.rs`, which says which phase writes what).
//!
//! # Values the reverse sweep needs (`values.rs`)
//!
//! A primal value used by the reverse sweep is taken directly when its definition runs
//! once and dominates every return (combined mode only); otherwise it is recomputed when
//! it is cheap and pure (GEPs, casts, integer arithmetic, integer division by a constant
//! that cannot trap) or *cached*: values of blocks that run at most once get a slot in
//! the tape, values of blocks on a CFG cycle get a stack (push in the forward sweep, read
//! the top while replaying, pop when the reverse sweep leaves the defining block). Caches
//! are created lazily, on first need, by inserting the store or push right after the
//! forward copy of the value: only values the reverse sweep actually uses are ever
//! cached.
//!
//! # Invariants
//!
//! * The reverse sweep replays the forward trace exactly backwards, so for a value `v`
//!   defined in block `D` and used while replaying block `B` (which `D` dominates), the top
//!   of `v`'s stack is the instance `B` used: later instances were popped when their `D`
//!   was replayed.
//! * Each adjoint lives in an `alloca` of the reverse function (`adjoint_slots.rs`; mem2reg turns them into
//!   SSA later); replaying a definition reads and zeroes its adjoint, so each dynamic
//!   instance starts from zero.
//! * Generated code carries no debug locations (it has no subprogram); diagnostics use the
//!   clone's locations.

mod adj_regs;
mod adjoint;
mod adjoint_slots;
pub(crate) mod alias;
pub(crate) mod bits;
mod branched_free;
mod callee_handle_free;
mod calls;
mod cheap;
pub(crate) mod check;
pub(crate) mod copy_layout;
mod counters;
pub(crate) mod escape;
mod finish;
mod fixed_tape;
mod forward;
mod forwarding;
mod guarded_copy;
mod handed_free;
mod heap_shadows;
mod kept_destroy;
pub(crate) mod memory;
pub(crate) mod mixed;
mod parallel;
mod quadratic;
mod reciprocals;
mod recompute;
mod record_share;
mod recurrence;
mod reload;
mod scaled;
mod speculated;
mod state;
pub(crate) mod stepped_index;
mod store_back;
mod tape_home;
mod tape_move;
pub(crate) use tape_move::is_tape_move;
pub(crate) mod tape_nest;
pub(crate) mod tape_region;
mod unshadowed_result;
mod untyped_moves;
mod values;
mod vector;
mod write_once;

use std::cell::OnceCell;

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::loops::Loops;
use ferrozyme_llvm::{fastmath, Block, Builder, Diagnostic, Value};

use crate::analyses::Analyses;
use crate::common::{Diags, Problem};
use crate::lanes::{Lane, Lanes};
use crate::runtime::RtFn;
use crate::services::{Callees, Support};
use crate::signature::{Request, Target};

pub(crate) use callee_handle_free::HandedFrees;
pub(crate) use guarded_copy::runtime_copy_fields;
pub(crate) use state::{Cache, Key};
use state::{Caches, Facts, Flow, LaneMaps, Out, Tape, ValueMaps};

/// The reverse-mode synthesizer of one function. Each concern is its own structure (see
/// `state.rs` for what each holds and which phase writes it); `b` is the emission cursor.
pub(crate) struct Gen<'s> {
    fx: Facts,
    out: Out,
    b: Builder,
    vals: ValueMaps,
    /// Per-lane state, and the lane whose code is being emitted.
    lanes: Lanes<LaneMaps>,
    lane: Lane,
    tape: Tape,
    caches: Caches,
    flow: Flow,
    diags: Diags,
    callees: &'s mut dyn Callees,
    sup: &'s mut Support,
}

/// Synthesizes the derivative of `p` (the preprocessed clone of `req.func`, analysed in
/// `an`) into `target`.
pub(crate) fn synthesize(
    callees: &mut dyn Callees,
    sup: &mut Support,
    req: &Request,
    p: Value,
    an: Analyses,
    target: Target,
) -> Result<(), Vec<Diagnostic>> {
    let Analyses {
        cfg,
        act,
        types,
        rt,
    } = an;
    let m = sup.module;
    let ctx = m.context();
    let (fwd_fn, rev_fn, split, nested) = match target {
        Target::Combined { g } => (g, g, false, false),
        Target::Split { aug, rev, nested } => (aug, rev, true, nested),
    };
    let returns: Vec<Block> = cfg
        .return_blocks()
        .into_iter()
        .filter(|b| cfg.is_reachable(*b))
        .collect();
    // Stores through placeholder primals (`enzyme_dupnoneed, nullptr`) never happen.
    let mut placeholder_diags = Diags::new(req.func.source_name());
    let placeholder_stores =
        crate::placeholder::placeholder_stores(p, &req.placeholder, &mut placeholder_diags);
    if !placeholder_diags.is_empty() {
        return placeholder_diags.into_result();
    }
    let mut deferred = if split {
        Default::default()
    } else {
        memory::deferrable_stores(p, &cfg, &returns)
    };
    deferred.retain(|s| !placeholder_stores.contains(s));
    let mut dropped = memory::dropped_stores(p, &req.noneed, &deferred);
    dropped.extend(placeholder_stores);
    let (mut deferred_frees, branched_frees) = if split {
        Default::default()
    } else {
        (
            memory::deferrable_frees(p, &cfg, &returns),
            memory::branched_handle_frees(p, &cfg, &returns),
        )
    };
    deferred_frees.extend(branched_frees.iter().copied());
    // A local's `Destroy` or an MPI handle free in split mode: run on a copy at the
    // reverse function's exit. Not a handle the function was handed: the callers' adjoint
    // communication, later in the reverse sweep, may still use it (`check.rs` refuses it).
    let split_kept = if split {
        memory::deferrable_frees(p, &cfg, &returns)
            .into_iter()
            .filter(|i| {
                memory::is_fortran_deallocation(*i)
                    || (memory::is_mpi_handle_free(*i) && memory::frees_local_handle(*i))
            })
            .collect()
    } else {
        Default::default()
    };
    let fx = Facts {
        m,
        ctx,
        req: req.clone(),
        split,
        nested,
        p,
        loops: Loops::new(&cfg),
        cfg,
        act,
        types,
        returns,
        fmf: fastmath::function_default(p),
        fname: req.func.name(),
        deferred,
        dropped,
        deferred_frees,
        branched_frees,
        split_kept,
        callees_keep_handles: !split && sup.reaches_handed_free(p),
        writes: OnceCell::new(),
        rt,
    };
    let mut diags = Diags::new(req.func.source_name());
    check::check_supported(&fx, sup, &mut diags);
    if !diags.is_empty() {
        return diags.into_result();
    }
    let b = Builder::new(ctx);
    b.set_fast_math(fx.fmf);
    let fwd_entry = b.append_block(fwd_fn, "fz.entry");
    let rev_entry = if split {
        b.append_block(rev_fn, "fz.rev.entry")
    } else {
        fwd_entry
    };
    let eb = Builder::new(ctx);
    eb.position_at_end(rev_entry);
    let fb_entry = Builder::new(ctx);
    fb_entry.position_at_end(fwd_entry);
    let width = fx.width();
    let mut g = Gen {
        out: Out {
            fwd_fn,
            rev_fn,
            fwd_entry,
            rev_entry,
            eb,
            fb_entry,
        },
        b,
        vals: ValueMaps::default(),
        lanes: Lanes::new(width, |_| LaneMaps::default()),
        lane: Lane::FIRST,
        tape: Tape::new(ctx),
        caches: Caches::default(),
        flow: Flow::default(),
        diags,
        callees,
        sup,
        fx,
    };
    g.setup();
    g.emit_forward();
    g.setup_counters();
    g.setup_recurrences();
    g.setup_quadratics();
    g.emit_reverse();
    g.finalize();
    g.diags.into_result()
}

impl Gen<'_> {
    /// Parameters, seeds, the tape buffer, and one forward and one reverse block per
    /// reachable primal block.
    fn setup(&mut self) {
        self.map_params();
        self.create_tape();
        self.enter_handle_deferral();
        for blk in self.fx.cfg.blocks.clone() {
            if self.fx.cfg.is_reachable(blk) {
                let fb = self.b.append_block(self.out.fwd_fn, &blk.name());
                self.vals.fwd.insert(blk.as_value(), fb.as_value());
            }
        }
        for blk in self.fx.cfg.blocks.clone() {
            if self.fx.cfg.is_reachable(blk) {
                let rb = self
                    .b
                    .append_block(self.out.rev_fn, &format!("rev.{}", blk.name()));
                self.vals.rev_block.insert(blk, rb);
            }
        }
        if self.fx.split && self.fx.returns.len() > 1 {
            self.tape.ret_index = Some(self.tape.alloc(4, 4));
        }
    }

    /// Maps the primal parameters to the generated functions' parameters (the signature
    /// is `crate::signature`'s): each primal parameter, its shadows per lane, then the
    /// return seeds per lane; the reverse function of a split pair then takes the tape.
    fn map_params(&mut self) {
        let fwd_params = self.out.fwd_fn.params();
        let rev_params = self.out.rev_fn.params();
        let mut k = 0;
        // Shadow parameters whose memory is disjoint from all primal memory by the AD
        // contract (`generated::SHADOW_PARAM_ATTR`): not where a shadow may be the
        // primal at run time, nor for `enzyme_dupnoneed` memory (callers may pass one
        // buffer as both).
        let contract = !self.fx.rt.active();
        for (j, (p, a)) in self
            .fx
            .p
            .params()
            .into_iter()
            .zip(self.fx.req.args.clone())
            .enumerate()
        {
            self.vals.fwd.insert(p, fwd_params[k]);
            self.vals.rev_params.insert(p, rev_params[k]);
            fwd_params[k].set_name(&p.name());
            if self.fx.split {
                rev_params[k].set_name(&p.name());
            }
            k += 1;
            if a == ArgActivity::Dup {
                for l in Lane::all(self.fx.width()) {
                    self.lanes[l].fwd_shadow_params.insert(p, fwd_params[k]);
                    self.lanes[l].rev_shadow_params.insert(p, rev_params[k]);
                    fwd_params[k].set_name(&format!("{}.shadow", p.name()));
                    if contract && !self.fx.req.noneed.get(j).copied().unwrap_or(false) {
                        crate::generated::mark_shadow_param(self.out.rev_fn, k as u32);
                    }
                    k += 1;
                }
            }
        }
        if self.fx.nested {
            // The nested augmented function's last parameters: its tape block, a region
            // of its caller's (`tape_nest.rs`), and the outermost call's tape region
            // (`tape_region.rs`).
            self.tape.heap_fwd = fwd_params[k];
            self.tape.heap_fwd.set_name("tape");
            fwd_params[k + 1].set_name("region");
            self.tape.region = Some(fwd_params[k + 1]);
        }
        if self.fx.req.ret_active {
            for l in Lane::all(self.fx.width()) {
                self.lanes[l].seed = Some(rev_params[k]);
                rev_params[k].set_name("d_ret");
                k += 1;
            }
        }
        if self.fx.split {
            self.tape.heap_rev = rev_params[k];
            self.tape.heap_rev.set_name("tape");
        }
    }

    /// The tape: a zeroed byte buffer whose size is patched at the end (`finish.rs`). In
    /// split mode the augmented function allocates the heap block it hands over, and both
    /// functions work on a local copy.
    fn create_tape(&mut self) {
        let i8t = self.fx.ctx.i8();
        let i64t = self.fx.ctx.i64();
        let zero = i64t.const_int(0);
        let local = |b: &Builder, tape: &mut Tape| {
            let t = b.array_alloca(i8t, zero, "fz.tape");
            t.set_alignment(16);
            tape.size_patches.push((t, 0));
            t
        };
        if self.fx.split {
            if !self.fx.nested {
                // The outermost pair allocates the block (its size: the own tape, then
                // the nested callees' tapes, `tape_nest::resolve`).
                let alloc = self.sup.rt(RtFn::TapeAlloc);
                let heap = self.out.fb_entry.call_fn(alloc, &[zero]);
                self.tape.size_patches.push((heap, 0));
                self.tape.heap_fwd = heap;
            }
            self.tape.fwd = local(&self.out.fb_entry, &mut self.tape);
            self.tape.rev = local(&self.out.eb, &mut self.tape);
            let cp = self
                .out
                .eb
                .memcpy(self.tape.rev, self.tape.heap_rev, zero, 16);
            tape_move::mark_tape_move(self.fx.ctx, cp);
            self.tape.exact_patches.push((cp, 2));
        } else {
            self.tape.fwd = local(&self.out.fb_entry, &mut self.tape);
            self.tape.rev = self.tape.fwd;
        }
        let ms = self
            .out
            .fb_entry
            .memset(self.tape.fwd, i8t.const_int(0), zero, 16);
        self.tape.size_patches.push((ms, 2));
    }

    fn fwd_block(&self, b: Block) -> Block {
        self.vals.fwd[&b.as_value()].as_block()
    }

    fn report(&mut self, at: Option<Value>, p: Problem<'_>) {
        self.diags.report(at, p);
    }

    /// Runs `f` once per lane, lane 0 first; lane 0 is current afterwards.
    pub(crate) fn each_lane(&mut self, mut f: impl FnMut(&mut Self)) {
        for l in Lane::all(self.fx.width()) {
            self.lane = l;
            f(self);
        }
        self.lane = Lane::FIRST;
    }
}
