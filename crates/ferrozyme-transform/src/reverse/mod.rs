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
//! 4. **Finalise**: tape size, stack pops and frees, entry terminators.
//!
//! # Values the reverse sweep needs (`values.rs`)
//!
//! A primal value used by the reverse sweep is taken directly when its definition runs
//! once and dominates every return (combined mode only); otherwise it is recomputed when
//! it is cheap and pure (GEPs, casts, integer arithmetic) or *cached*: values of blocks
//! that run at most once get a slot in the tape, values of blocks on a CFG cycle get a
//! stack (push in the forward sweep, read the top while replaying, pop when the reverse
//! sweep leaves the defining block). Caches are created lazily, on first need, by
//! inserting the store or push right after the forward copy of the value: only values the
//! reverse sweep actually uses are ever cached.
//!
//! # Invariants
//!
//! * The reverse sweep replays the forward trace exactly backwards, so for a value `v`
//!   defined in block `D` and used while replaying block `B` (which `D` dominates), the top
//!   of `v`'s stack is the instance `B` used: later instances were popped when their `D`
//!   was replayed.
//! * Each adjoint lives in an `alloca` of the reverse function (mem2reg turns them into
//!   SSA later); replaying a definition reads and zeroes its adjoint, so each dynamic
//!   instance starts from zero.
//! * Generated code carries no debug locations (it has no subprogram); diagnostics use the
//!   clone's locations.

mod adjoint;
mod bits;
mod check;
mod counters;
mod forward;
mod memory;
mod mixed;
mod scaled;
mod values;
mod vector;

use std::collections::{HashMap, HashSet};

use ferrozyme_analysis::activity::{Activity, ActivityInput, ArgActivity};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{
    fastmath, Block, Builder, Context, DiagKind, Diagnostic, Module, Type, Value,
};

use crate::driver::Driver;

/// What to differentiate: a function and the activity of its arguments and return.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    pub func: Value,
    pub args: Vec<ArgActivity>,
    /// Is the (floating) return value active, i.e. does the caller pass its adjoint?
    pub ret_active: bool,
    /// Number of adjoint directions (vector reverse mode): every shadow, seed and
    /// returned adjoint comes `width` times, lane 0 first.
    pub width: u32,
}

/// Where the generated code goes.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// One function: forward sweep, then reverse sweep.
    Combined { g: Value },
    /// Augmented forward function (returns the tape) and reverse function (takes it).
    Split { aug: Value, rev: Value },
}

/// Parameter types shared by all generated functions: each primal parameter, followed by
/// its shadow pointer when it is `Dup`.
pub fn primal_shadow_params(req: &Request) -> Vec<Type> {
    let ctx = req.func.ty().context();
    let mut v = Vec::new();
    for (p, a) in req.func.params().into_iter().zip(&req.args) {
        v.push(p.ty());
        if *a == ArgActivity::Dup {
            for _ in 0..req.width {
                v.push(ctx.ptr());
            }
        }
    }
    v
}

/// The return type of reverse/combined functions: a literal struct of the adjoints of the
/// `Active` parameters, in order, or `void` when there are none.
pub fn adjoint_return_type(req: &Request) -> Type {
    let ctx = req.func.ty().context();
    let tys: Vec<Type> = req
        .func
        .params()
        .into_iter()
        .zip(&req.args)
        .filter(|(_, a)| **a == ArgActivity::Active)
        .flat_map(|(p, _)| std::iter::repeat_n(p.ty(), req.width as usize))
        .collect();
    if tys.is_empty() {
        ctx.void()
    } else {
        ctx.struct_type(&tys)
    }
}

/// The return type of augmented forward functions: `{ ret?, shadow ret?, ptr tape }`.
/// A result holding pointers (a pointer, or an aggregate such as `{ptr, i64}`) has one
/// shadow per lane, of its own type (pointer fields hold shadows).
pub fn aug_return_type(req: &Request) -> Type {
    let ctx = req.func.ty().context();
    let ret = req.func.function_type().return_type();
    let mut f = Vec::new();
    if !ret.is_void() {
        f.push(ret);
    }
    if !ret.is_void() && ret.contains_pointer() {
        for _ in 0..req.width {
            f.push(ret);
        }
    }
    f.push(ctx.ptr());
    ctx.struct_type(&f)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Primal(Value),
    /// The shadow of a pointer in one lane.
    Shadow(Value, u16),
    /// The tape returned by the augmented call of a primal call instruction.
    Tape(Value),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Cache {
    /// A slot in the tape (blocks that run at most once).
    Slot { off: u64, ty: Type },
    /// A field of the record that a cyclic block pushes each time it runs.
    Field { block: Block, off: u64, ty: Type },
}

/// The per-execution record of a block on a CFG cycle: one push of all the values the
/// reverse sweep needs from that block, at the end of its forward copy.
pub(crate) struct Record {
    /// Offset of the stack header in the tape.
    pub stack: u64,
    /// Record size so far (final at `finalize`).
    pub size: u64,
    /// The push in the forward block; stores of fields go right after it.
    pub slot: Value,
    /// Call instructions whose operand 1 is the record size, patched at `finalize`.
    pub size_uses: Vec<Value>,
}

/// How the reverse sweep can tell which predecessor a block was entered from without a
/// record ("record the path only where it cannot be recomputed").
#[derive(Clone, Copy, Debug)]
pub(crate) enum PredRule {
    /// An if/else (diamond) or if-then (triangle) join: the branch condition of the
    /// dominating block decides; `on_true`/`on_false` are predecessor indices.
    Branch {
        cond: Value,
        on_true: u32,
        on_false: u32,
    },
    /// A loop header entered from its preheader once and from its latch afterwards: the
    /// induction variable equals its start value exactly on entry.
    Counter {
        iv: Value,
        /// The value on entry (a constant or a value defined before the loop).
        start: Value,
        entry: u32,
        latch: u32,
    },
}

pub(crate) struct Gen<'d> {
    d: &'d mut Driver,
    m: Module,
    ctx: Context,
    /// Fast-math flags for derivative code outside floating-point instructions
    /// (`ferrozyme_llvm::fastmath`).
    fmf: u32,
    b: Builder,
    /// Builder for allocas and initialisation in the entry block of the reverse function.
    eb: Builder,
    /// Builder for the entry block of the forward function (same as `eb` when combined).
    fb_entry: Builder,
    fname: String,
    req: Request,
    split: bool,
    p: Value,
    cfg: Cfg,
    act: Activity,
    types: ferrozyme_analysis::types::TypeAnalysis,
    returns: Vec<Block>,
    fwd_fn: Value,
    rev_fn: Value,
    fwd_entry: Block,
    rev_entry: Block,
    fwd: HashMap<Value, Value>,
    shadow: HashMap<Value, Value>,
    fwd_shadow_params: HashMap<Value, Value>,
    rev_params: HashMap<Value, Value>,
    rev_shadow_params: HashMap<Value, Value>,
    seed: Option<Value>,
    /// Vector reverse mode: the number of lanes, the current lane, and the per-lane
    /// state of the lanes not current (see [`Gen::set_lane`]).
    width: usize,
    lane: usize,
    parked: Vec<LaneState>,
    rev_block: HashMap<Block, Block>,
    adj: HashMap<Value, Value>,
    cache: HashMap<Key, Cache>,
    memo: HashMap<(Block, Key), Value>,
    /// `top` of a block's record, per reverse block: ((reverse block, primal block), ptr).
    record_tops: HashMap<(Block, Block), Value>,
    pred_rec: HashMap<Block, Cache>,
    /// Blocks whose predecessor the reverse sweep recomputes instead of recording.
    pred_rule: HashMap<Block, PredRule>,
    /// Induction variables the reverse sweep counts down (see `counters.rs`).
    counters: HashMap<Value, counters::Counter>,
    /// The primal block whose reverse block is being emitted.
    rev_ctx: Option<Block>,
    /// The block being reversed with the seed 1 (`scaled`).
    scaled: Option<scaled::Scaled>,
    /// Caches of loop values read after their loop (`values::exit_context`).
    exit_cache: HashMap<(Key, Block), Cache>,
    /// Final stores performed after the reverse sweep (combined mode, see
    /// `memory::deferrable_stores`).
    deferred: HashSet<Value>,
    call_tape: HashMap<Value, Value>,
    /// Shadows allocated on the heap in the forward sweep, freed when the reverse sweep
    /// replays their allocation.
    heap_shadow: HashSet<Value>,
    /// The tape as the forward and the reverse code address it. In split mode these are
    /// local copies (kept in registers by SROA) of the heap block `tape_heap_*` that the
    /// augmented function fills at each return and the reverse function reads at entry.
    tape_fwd: Value,
    tape_rev: Value,
    tape_heap_fwd: Value,
    tape_heap_rev: Value,
    /// Split mode: the augmented function's returns (the tape is copied out before each).
    aug_rets: Vec<Value>,
    tape_size: u64,
    size_patches: Vec<(Value, u32)>,
    /// Records of cyclic blocks, by primal block.
    records: HashMap<Block, Record>,
    record_order: Vec<Block>,
    ret_index: Option<u64>,
    rev_exit_ret: Option<Value>,
    recompute_depth: u32,
    /// Memory objects the primal may write (computed on first need).
    writes: Option<memory::Writes>,
    loops: Option<ferrozyme_analysis::loops::Loops>,
    diags: Vec<Diagnostic>,
}

impl<'d> Gen<'d> {
    /// Synthesizes the derivative of `p` (the preprocessed clone of `req.func`) into `target`.
    pub(crate) fn run(
        d: &'d mut Driver,
        req: &Request,
        p: Value,
        target: Target,
    ) -> Result<(), Vec<Diagnostic>> {
        let m = d.module;
        let ctx = m.context();
        let cfg = Cfg::new(p);
        let args: Vec<ArgActivity> = req.args.clone();
        let types = d.types_for_clone(p, req.func);
        // Shadows also travel inside aggregates (a call returning `{ptr, i64}` — a Rust
        // slice or `Box<[f64]>` — and the `extractvalue`s of it).
        let mut act = Activity::run_full(
            &ActivityInput {
                func: p,
                args: &args,
                global_touchers: &d.touchers,
            },
            Some(&types),
            true,
        );
        act.restrict_to_useful(p);
        // The printouts show exactly what this synthesis uses.
        let orig_name = req.func.name();
        let rename = |s: String| s.replace(&format!("@{}", p.name()), &format!("@{orig_name}"));
        if d.print_activity {
            d.printout.push_str(&rename(act.print(p)));
        }
        if d.print_types {
            d.printout.push_str(&rename(types.print(p)));
        }
        let (fwd_fn, rev_fn, split) = match target {
            Target::Combined { g } => (g, g, false),
            Target::Split { aug, rev } => (aug, rev, true),
        };
        let b = Builder::new(ctx);
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
        let returns: Vec<Block> = cfg
            .return_blocks()
            .into_iter()
            .filter(|b| cfg.is_reachable(*b))
            .collect();
        let fmf = fastmath::function_default(p);
        b.set_fast_math(fmf);
        let mut g = Gen {
            d,
            m,
            ctx,
            fmf,
            b,
            eb,
            fb_entry,
            fname: display_name(req.func),
            req: req.clone(),
            split,
            p,
            cfg,
            act,
            types,
            returns,
            fwd_fn,
            rev_fn,
            fwd_entry,
            rev_entry,
            fwd: HashMap::new(),
            shadow: HashMap::new(),
            fwd_shadow_params: HashMap::new(),
            rev_params: HashMap::new(),
            rev_shadow_params: HashMap::new(),
            seed: None,
            width: req.width.max(1) as usize,
            lane: 0,
            parked: (0..req.width.max(1))
                .map(|_| LaneState::default())
                .collect(),
            rev_block: HashMap::new(),
            adj: HashMap::new(),
            cache: HashMap::new(),
            memo: HashMap::new(),
            record_tops: HashMap::new(),
            pred_rec: HashMap::new(),
            pred_rule: HashMap::new(),
            counters: HashMap::new(),
            rev_ctx: None,
            scaled: None,
            exit_cache: HashMap::new(),
            deferred: HashSet::new(),
            call_tape: HashMap::new(),
            heap_shadow: HashSet::new(),
            tape_fwd: ctx.ptr().zero(),
            tape_rev: ctx.ptr().zero(),
            tape_heap_fwd: ctx.ptr().zero(),
            tape_heap_rev: ctx.ptr().zero(),
            aug_rets: Vec::new(),
            tape_size: 0,
            size_patches: Vec::new(),
            records: HashMap::new(),
            record_order: Vec::new(),
            ret_index: None,
            rev_exit_ret: None,
            recompute_depth: 0,
            writes: None,
            loops: None,
            diags: Vec::new(),
        };
        g.check_supported();
        if !g.diags.is_empty() {
            return Err(g.diags);
        }
        if !g.split {
            g.deferred = memory::deferrable_stores(g.p, &g.cfg, &g.returns);
        }
        g.setup();
        g.emit_forward();
        g.setup_counters();
        g.emit_reverse();
        g.finalize();
        if !g.diags.is_empty() {
            return Err(g.diags);
        }
        Ok(())
    }

    fn setup(&mut self) {
        let params = self.p.params();
        let fwd_params = self.fwd_fn.params();
        let rev_params = self.rev_fn.params();
        let mut k = 0;
        for (p, a) in params.iter().zip(self.req.args.clone()) {
            self.fwd.insert(*p, fwd_params[k]);
            self.rev_params.insert(*p, rev_params[k]);
            fwd_params[k].set_name(&p.name());
            if self.split {
                rev_params[k].set_name(&p.name());
            }
            k += 1;
            if a == ArgActivity::Dup {
                for l in 0..self.width {
                    self.set_lane(l);
                    self.fwd_shadow_params.insert(*p, fwd_params[k]);
                    self.rev_shadow_params.insert(*p, rev_params[k]);
                    fwd_params[k].set_name(&format!("{}.shadow", p.name()));
                    k += 1;
                }
                self.set_lane(0);
            }
        }
        if self.req.ret_active {
            for l in 0..self.width {
                self.set_lane(l);
                self.seed = Some(rev_params[k]);
                rev_params[k].set_name("d_ret");
                k += 1;
            }
            self.set_lane(0);
        }
        // The tape: a zeroed byte buffer whose size is patched at the end.
        let i8t = self.ctx.i8();
        let i64t = self.ctx.i64();
        if self.split {
            let alloc = self.d.rt(crate::runtime::TAPE_ALLOC);
            let heap = self.fb_entry.call_fn(alloc, &[i64t.const_int(0)]);
            self.size_patches.push((heap, 0));
            self.tape_heap_fwd = heap;
            self.tape_heap_rev = rev_params[k];
            self.tape_heap_rev.set_name("tape");
            let local = self
                .fb_entry
                .array_alloca(i8t, i64t.const_int(0), "fz.tape");
            local.set_alignment(16);
            self.size_patches.push((local, 0));
            self.tape_fwd = local;
            let local_rev = self.eb.array_alloca(i8t, i64t.const_int(0), "fz.tape");
            local_rev.set_alignment(16);
            self.size_patches.push((local_rev, 0));
            let cp = self
                .eb
                .memcpy(local_rev, self.tape_heap_rev, i64t.const_int(0), 16);
            self.size_patches.push((cp, 2));
            self.tape_rev = local_rev;
        } else {
            let t = self
                .fb_entry
                .array_alloca(i8t, i64t.const_int(0), "fz.tape");
            t.set_alignment(16);
            self.size_patches.push((t, 0));
            self.tape_fwd = t;
            self.tape_rev = t;
        }
        let ms = self
            .fb_entry
            .memset(self.tape_fwd, i8t.const_int(0), i64t.const_int(0), 16);
        self.size_patches.push((ms, 2));
        // One forward and one reverse block per reachable primal block.
        for blk in self.cfg.blocks.clone() {
            if !self.cfg.is_reachable(blk) {
                continue;
            }
            let fb = self.b.append_block(self.fwd_fn, &blk.name());
            self.fwd.insert(blk.as_value(), fb.as_value());
        }
        for blk in self.cfg.blocks.clone() {
            if !self.cfg.is_reachable(blk) {
                continue;
            }
            let rb = self
                .b
                .append_block(self.rev_fn, &format!("rev.{}", blk.name()));
            self.rev_block.insert(blk, rb);
        }
        if self.split && self.returns.len() > 1 {
            self.ret_index = Some(self.alloc_tape(4, 4));
        }
    }

    /// Reserves `size` bytes of tape with the given alignment.
    fn alloc_tape(&mut self, size: u64, align: u64) -> u64 {
        let align = align.max(1);
        let off = self.tape_size.div_ceil(align) * align;
        self.tape_size = off + size.max(1);
        off
    }

    fn fwd_block(&self, b: Block) -> Block {
        self.fwd[&b.as_value()].as_block()
    }

    fn diag(&mut self, kind: DiagKind, at: Option<Value>, msg: String, help: &str) {
        let mut d = Diagnostic::new(kind, msg)
            .in_function(self.fname.clone())
            .with_help(help.to_string());
        if let Some(i) = at {
            d = d.at_instruction(i.to_string()).at_loc(i.source_loc());
        }
        self.diags.push(d);
    }

    fn finalize(&mut self) {
        let i64t = self.ctx.i64();
        // Tape size.
        let size = self.tape_size.max(8).div_ceil(16) * 16;
        // Split mode: the augmented function hands its tape over at each return.
        for r in std::mem::take(&mut self.aug_rets) {
            self.b.position_before(r);
            let cp = self
                .b
                .memcpy(self.tape_heap_fwd, self.tape_fwd, i64t.const_int(0), 16);
            self.size_patches.push((cp, 2));
        }
        for (inst, k) in std::mem::take(&mut self.size_patches) {
            inst.set_operand(k, i64t.const_int(size));
        }
        // Pops, where the reverse sweep leaves each record's block; record sizes.
        let pop = self.d.rt(crate::runtime::POP);
        let free_stack = self.d.rt(crate::runtime::STACK_FREE);
        for blk in self.record_order.clone() {
            let (stack, size) = {
                let r = &self.records[&blk];
                (r.stack, r.size.div_ceil(8) * 8)
            };
            if let Some(term) = self.rev_block.get(&blk).and_then(|rb| rb.terminator()) {
                self.b.position_before(term);
                let s = self.b.byte_gep(self.tape_rev, i64t.const_int(stack));
                let c = self.b.call_fn(pop, &[s, i64t.const_int(size)]);
                self.records
                    .get_mut(&blk)
                    .expect("record exists")
                    .size_uses
                    .push(c);
            }
            let r = &self.records[&blk];
            r.slot.set_operand(1, i64t.const_int(size));
            for u in &r.size_uses {
                u.set_operand(1, i64t.const_int(size));
            }
            self.reserve_for_loop(blk, stack, size);
        }
        if let Some(ret) = self.rev_exit_ret {
            self.b.position_before(ret);
            for blk in self.record_order.clone() {
                let s = self
                    .b
                    .byte_gep(self.tape_rev, i64t.const_int(self.records[&blk].stack));
                self.b.call_fn(free_stack, &[s]);
            }
            if self.split {
                let free = self.d.rt(crate::runtime::TAPE_FREE);
                self.b.call_fn(free, &[self.tape_heap_rev]);
            }
        }
        // Entry terminators.
        let p_entry = self
            .p
            .entry_block()
            .expect("a defined function has an entry block");
        let fwd_first = self.fwd_block(p_entry);
        self.fb_entry.position_at_end(self.fwd_entry);
        self.fb_entry.br(fwd_first);
        if self.split {
            self.eb.position_at_end(self.rev_entry);
            match self.returns.len() {
                0 => {
                    self.eb.unreachable();
                }
                1 => {
                    self.eb.br(self.rev_block[&self.returns[0]]);
                }
                _ => {
                    let off = self
                        .ret_index
                        .expect("ret index slot exists with several returns");
                    let i32t = self.ctx.i32();
                    let ptr = self.eb.byte_gep(self.tape_rev, i64t.const_int(off));
                    let idx = self.eb.load(i32t, ptr, "fz.ret.idx");
                    let cases: Vec<(Value, Block)> = self
                        .returns
                        .iter()
                        .enumerate()
                        .skip(1)
                        .map(|(k, r)| (i32t.const_int(k as u64), self.rev_block[r]))
                        .collect();
                    self.eb
                        .switch(idx, self.rev_block[&self.returns[0]], &cases);
                }
            }
        }
    }
}

/// What each lane of vector reverse mode has of its own: shadows, adjoints, seed.
#[derive(Default)]
pub(crate) struct LaneState {
    shadow: HashMap<Value, Value>,
    fwd_shadow_params: HashMap<Value, Value>,
    rev_shadow_params: HashMap<Value, Value>,
    seed: Option<Value>,
    adj: HashMap<Value, Value>,
}

impl Gen<'_> {
    /// Makes lane `l` current: its shadows, adjoints and seed move into the fields the
    /// rest of the generator uses (the previous lane's are parked). With one lane this is
    /// a no-op, so scalar reverse mode is unchanged.
    pub(crate) fn set_lane(&mut self, l: usize) {
        if l == self.lane {
            return;
        }
        let cur = LaneState {
            shadow: std::mem::take(&mut self.shadow),
            fwd_shadow_params: std::mem::take(&mut self.fwd_shadow_params),
            rev_shadow_params: std::mem::take(&mut self.rev_shadow_params),
            seed: self.seed.take(),
            adj: std::mem::take(&mut self.adj),
        };
        self.parked[self.lane] = cur;
        let next = std::mem::take(&mut self.parked[l]);
        self.shadow = next.shadow;
        self.fwd_shadow_params = next.fwd_shadow_params;
        self.rev_shadow_params = next.rev_shadow_params;
        self.seed = next.seed;
        self.adj = next.adj;
        self.lane = l;
    }

    /// Runs `f` once per lane (lane 0 last current afterwards is restored to lane 0).
    pub(crate) fn each_lane(&mut self, mut f: impl FnMut(&mut Self)) {
        for l in 0..self.width {
            self.set_lane(l);
            f(self);
        }
        self.set_lane(0);
    }
}

/// The user-facing name of a function (clones are named after their original).
pub fn display_name(f: Value) -> String {
    f.name()
}

impl Gen<'_> {
    /// When the loop around cyclic block `blk` has a trip count known at its preheader,
    /// reserve the record stack once there, so the loop's pushes never reallocate.
    fn reserve_for_loop(&mut self, blk: Block, stack: u64, size: u64) {
        use ferrozyme_llvm::IntPredicate;
        let loops = self
            .loops
            .get_or_insert_with(|| ferrozyme_analysis::loops::Loops::new(&self.cfg));
        let Some(l) = loops.innermost(blk) else {
            return;
        };
        let Some(tc) = ferrozyme_analysis::loops::trip_count(l) else {
            return;
        };
        let Some(pre) = l.preheader else { return };
        let Some(&fpre) = self.fwd.get(&pre.as_value()) else {
            return;
        };
        let Some(term) = fpre.as_block().terminator() else {
            return;
        };
        let i64t = self.ctx.i64();
        self.b.position_before(term);
        let n = self.fwd_operand(tc.bound);
        let n = match n.ty().int_width() {
            Some(w) if w < 64 => self.b.sext(n, i64t),
            Some(64) => n,
            _ => return,
        };
        let cnt = self.b.sub(n, i64t.const_i64(tc.start - 1));
        let pos = self
            .b
            .icmp(IntPredicate::LLVMIntSGT, cnt, i64t.const_int(0));
        let cnt = self.b.select(pos, cnt, i64t.const_int(0));
        let bytes = self.b.mul(cnt, i64t.const_int(size));
        let cap = i64t.const_int(1 << 30);
        let big = self.b.icmp(IntPredicate::LLVMIntUGT, bytes, cap);
        let bytes = self.b.select(big, cap, bytes);
        let reserve = self.d.rt(crate::runtime::RESERVE);
        let s = self.b.byte_gep(self.tape_fwd, i64t.const_int(stack));
        self.b.call_fn(reserve, &[s, bytes]);
    }
}
