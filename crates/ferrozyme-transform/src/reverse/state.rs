//! The state of one reverse-mode synthesis, one structure per concern.
//!
//! | structure | holds | written by |
//! |---|---|---|
//! | [`Facts`] | the request, the clone `p`, its analyses, loops, final stores | setup only (then read-only) |
//! | [`Out`] | the generated function(s), their entry blocks and entry builders | setup |
//! | [`ValueMaps`] | primal value/block → forward copy, reverse blocks, reverse parameters, tapes of augmented calls | setup, forward sweep |
//! | [`LaneMaps`] (one per lane) | shadows, shadow parameters, the return seed, adjoint slots | setup, forward sweep (shadows), reverse sweep (adjoints) |
//! | [`Tape`] | the tape pointers, its layout (size, slots, records), size patches | caching (slots and records), finalize |
//! | [`Caches`] | where each cached value lives, values already available per reverse block | `values.rs` |
//! | [`Flow`] | how the reverse sweep finds its way back: predecessor records and rules, loop counters, the scaled block | forward sweep, counters, reverse sweep |
//!
//! `Gen` (in `mod.rs`) owns one of each, the emission cursor, the diagnostics and the two
//! narrow services synthesis may use ([`crate::services`]).

use ferrozyme_analysis::hash::{HashMap, HashSet};
use std::cell::OnceCell;

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::Loops;
use ferrozyme_analysis::predecessors::PredRule;
use ferrozyme_analysis::types::TypeAnalysis;
use ferrozyme_llvm::{Block, Builder, Context, Module, Type, Value};

use crate::lanes::Lane;
use crate::signature::Request;

/// Facts about the function being differentiated, fixed before emission starts.
pub(crate) struct Facts {
    pub m: Module,
    pub ctx: Context,
    pub req: Request,
    /// Split mode (augmented forward + reverse functions) rather than combined.
    pub split: bool,
    /// A nested split pair (`tape_nest.rs`): the augmented function gets its tape block
    /// and the outermost call's tape region (`tape_region.rs`) as its last parameters,
    /// and the reverse function does not free it.
    pub nested: bool,
    /// The preprocessed clone of `req.func` that is differentiated.
    pub p: Value,
    pub cfg: Cfg,
    pub act: Activity,
    pub types: TypeAnalysis,
    pub loops: Loops,
    /// Reachable return blocks of `p`.
    pub returns: Vec<Block>,
    /// Fast-math flags for derivative code outside floating-point instructions
    /// (`ferrozyme_llvm::fastmath`).
    pub fmf: u32,
    /// The user-facing name of the function (for messages).
    pub fname: String,
    /// Final stores performed after the reverse sweep (combined mode, see
    /// `memory::deferrable_stores`).
    pub deferred: HashSet<Value>,
    /// Frees performed after the reverse sweep (`memory::deferrable_frees`).
    pub deferred_frees: HashSet<Value>,
    /// Those of `deferred_frees` that free MPI handles (`memory::branched_handle_frees`):
    /// run after the reverse sweep, on a copy of the handle, only when the forward sweep
    /// reached them.
    pub branched_frees: HashSet<Value>,
    /// flang's `Destroy` of a local, and MPI handle frees, in split mode: run on a copy at
    /// the reverse function's exit (`kept_destroy.rs`, `branched_free.rs`).
    pub split_kept: HashSet<Value>,
    /// Combined mode: callees may keep MPI handles they were handed for the outermost
    /// reverse exit (`handed_free.rs`), so the sweeps are bracketed.
    pub callees_keep_handles: bool,
    /// Stores into `enzyme_dupnoneed` memory that the forward sweep leaves out
    /// (`memory::dropped_stores`).
    pub dropped: HashSet<Value>,
    /// Memory objects the primal may write (computed on first need).
    pub writes: OnceCell<super::memory::Writes>,
    /// Where shadows may be primals at run time (`common::runtime_activity`).
    pub rt: crate::common::runtime_activity::RuntimeActivity,
}

impl Facts {
    /// Number of lanes (1 in scalar mode).
    pub fn width(&self) -> u32 {
        self.req.width.max(1)
    }
}

/// The generated functions and their entry blocks.
pub(crate) struct Out {
    pub fwd_fn: Value,
    pub rev_fn: Value,
    pub fwd_entry: Block,
    pub rev_entry: Block,
    /// Builder for allocas and initialisation in the entry block of the reverse function.
    pub eb: Builder,
    /// Builder for the entry block of the forward function (the same block as `eb`'s
    /// when combined).
    pub fb_entry: Builder,
}

/// Primal values → generated values, shared by all lanes.
#[derive(Default)]
pub(crate) struct ValueMaps {
    /// Primal value (or block, as a value) → its copy in the forward sweep.
    pub fwd: HashMap<Value, Value>,
    /// Primal block → its reverse block.
    pub rev_block: HashMap<Block, Block>,
    /// Primal parameter → the reverse function's parameter.
    pub rev_params: HashMap<Value, Value>,
    /// Primal call → the tape its augmented call returned.
    pub call_tape: HashMap<Value, Value>,
    /// Allocas whose shadow is on the heap (freed when the reverse sweep replays them).
    pub heap_shadow: HashSet<Value>,
    /// Branched deferred free → its flag (an `i8` slot, 1 once the forward sweep reached
    /// it) and the copy of the handle it frees (`branched_free.rs`).
    pub free_flags: HashMap<Value, (Value, Value)>,
    /// Split mode: each `Destroy` kept for the reverse function's exit, the tape slot of
    /// its copy, and the number of shadow copies in it (`kept_destroy.rs`).
    pub kept_destroys: Vec<(Value, Cache, u64)>,
    /// Split mode: each MPI handle free kept for the reverse function's exit and the tape
    /// slot of the handle (`branched_free.rs`).
    pub kept_handles: Vec<(Value, Cache)>,
}

/// What each lane of vector reverse mode has of its own.
#[derive(Default)]
pub(crate) struct LaneMaps {
    /// Primal pointer → its shadow in the forward sweep.
    pub shadow: HashMap<Value, Value>,
    pub fwd_shadow_params: HashMap<Value, Value>,
    pub rev_shadow_params: HashMap<Value, Value>,
    /// The adjoint of the return value, when active.
    pub seed: Option<Value>,
    /// Primal value → its adjoint slot (an `alloca` of the reverse function).
    pub adj: HashMap<Value, Value>,
    /// Primal value → its adjoint kept as a value instead (`adj_regs.rs`).
    pub regs: HashMap<Value, super::adj_regs::Reg>,
}

/// A value the reverse sweep may need from the forward sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Primal(Value),
    /// The shadow of a pointer in one lane.
    Shadow(Value, Lane),
    /// The tape returned by the augmented call of a primal call instruction.
    Tape(Value),
}

/// Where a cached value lives.
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
    /// The stack's room was claimed from the outermost call's region
    /// (`tape_region.rs`): it has no buffer of its own to release.
    pub in_region: bool,
    /// Split mode: the entry's stores of the empty header (`{ null, 0, cap 1 }`), dropped
    /// when the room comes from the region (the zeroed tape reads the same to a stack
    /// that is never released).
    pub init: Vec<Value>,
    /// A nested pair's claim with the stack's own reservation beside it, until the
    /// drain decides between them (`tape_region.rs`, "A single claim").
    pub site: Option<super::tape_region::ClaimSite>,
}

/// The tape: a byte buffer of slots and stack headers.
pub(crate) struct Tape {
    /// The tape as the forward and the reverse code address it. In split mode these are
    /// local copies (kept in registers by SROA) of the heap block `heap_*` that the
    /// augmented function fills at each return and the reverse function reads at entry.
    pub fwd: Value,
    pub rev: Value,
    pub heap_fwd: Value,
    pub heap_rev: Value,
    /// Bytes laid out so far.
    pub size: u64,
    /// Instructions whose operand is the final tape size: (instruction, operand index).
    pub size_patches: Vec<(Value, u32)>,
    /// Split mode's handover copies, which move the bytes laid out (`size`), not the
    /// block's rounded size: the padding is never read.
    pub exact_patches: Vec<(Value, u32)>,
    /// Split mode: the augmented function's returns (the tape is copied out before each).
    pub aug_rets: Vec<Value>,
    /// Split mode: those copies (local tape to heap block), one per return.
    pub copy_outs: Vec<Value>,
    /// Split mode with several returns: the slot recording which one was taken.
    pub ret_index: Option<u64>,
    /// Records of cyclic blocks, by primal block, in creation order.
    pub records: HashMap<Block, Record>,
    pub record_order: Vec<Block>,
    /// Regions of nested callee tapes (`tape_nest.rs`).
    pub nest: super::tape_nest::Nest,
    /// The outermost call's tape region as the forward function addresses it
    /// (`tape_region.rs`): a nested augmented function's parameter, or the owner's own.
    pub region: Option<Value>,
    /// A split-mode owner: the placeholder offset of the heap block's slot its region
    /// is handed over in (after the nested callees' tapes, `tape_nest::resolve`), and
    /// the `getelementptr`s that carry it.
    pub region_slot: Option<u64>,
    pub region_slot_geps: Vec<Value>,
    /// An owner's release of its region at the reverse sweep's return.
    pub region_release: Option<Value>,
}

impl Tape {
    pub fn new(ctx: Context) -> Tape {
        let null = ctx.ptr().zero();
        Tape {
            fwd: null,
            rev: null,
            heap_fwd: null,
            heap_rev: null,
            size: 0,
            size_patches: Vec::new(),
            exact_patches: Vec::new(),
            aug_rets: Vec::new(),
            copy_outs: Vec::new(),
            ret_index: None,
            records: HashMap::default(),
            record_order: Vec::new(),
            nest: Default::default(),
            region: None,
            region_slot: None,
            region_slot_geps: Vec::new(),
            region_release: None,
        }
    }

    /// Reserves `size` bytes with the given alignment; returns their offset.
    pub fn alloc(&mut self, size: u64, align: u64) -> u64 {
        let align = align.max(1);
        let off = self.size.div_ceil(align) * align;
        self.size = off + size.max(1);
        off
    }

    /// The final size of the tape block (16-byte granules, at least one).
    pub fn final_size(&self) -> u64 {
        self.size.max(8).div_ceil(16) * 16
    }
}

/// Where the reverse sweep finds the values it needs.
#[derive(Default)]
pub(crate) struct Caches {
    /// Cached values, by key.
    pub cache: HashMap<Key, Cache>,
    /// Values already available in a reverse block: ((reverse block, key), value).
    pub memo: HashMap<(Block, Key), Value>,
    /// `top` of a block's record, per reverse block: ((reverse block, primal block), ptr).
    pub record_tops: HashMap<(Block, Block), Value>,
    /// Caches of loop values read after their loop (`values::exit_context`).
    pub exit_cache: HashMap<(Key, Block), Cache>,
    /// Depth of the recomputation in progress (chains are cut at 12).
    pub recompute_depth: u32,
    /// Which primal blocks can run after which (for loads re-read in the reverse).
    pub reach: super::memory::Reach,
    /// Forwarded loads computed once per reverse iteration of their loop, in a slot
    /// (`forwarding.rs`): load -> slot.
    pub forwarded_slots: HashMap<Value, Value>,
    /// Caches holding integers that are plain integer data (counters, path tags, primal
    /// integers that carry no float bits): their tape accesses are marked for type
    /// analysis of a derivative that is differentiated again (`alias::mark_tape_int`).
    pub int_data: ferrozyme_analysis::hash::HashSet<(Option<Block>, u64)>,
    /// Loops whose header's record holds the cached values of all their blocks
    /// (`reverse/record_share.rs`), by header.
    pub shared_records: HashMap<Block, bool>,
}

/// How the reverse sweep finds its way back through the control flow.
#[derive(Default)]
pub(crate) struct Flow {
    /// Blocks whose predecessor is recorded: where the record is.
    pub pred_rec: HashMap<Block, Cache>,
    /// Blocks whose predecessor the reverse sweep recomputes instead of recording.
    pub pred_rule: HashMap<Block, PredRule>,
    /// Induction variables the reverse sweep counts down (see `counters.rs`).
    pub counters: HashMap<Value, super::counters::Counter>,
    /// Loop-carried integers the reverse sweep steps back (see `recurrence.rs`).
    pub recurrences: HashMap<Value, super::recurrence::Recurrence>,
    /// Products of two factors affine in a counter, stepped back (see `quadratic.rs`).
    pub quadratics: HashMap<Value, super::quadratic::Quadratic>,
    /// Indices over those products stepped back whole (see `stepped_index.rs`).
    pub stepped: HashMap<Value, super::stepped_index::SteppedIndex>,
    /// The primal block whose reverse block is being emitted.
    pub rev_ctx: Option<Block>,
    /// The block being reversed with the seed 1 (`scaled.rs`).
    pub scaled: Option<super::scaled::Scaled>,
    /// The reverse sweep's return (frees and tape release go before it).
    pub rev_exit_ret: Option<Value>,
}
