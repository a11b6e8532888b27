//! The tiny runtime the generated code calls: tape stacks, split-mode tapes, memory
//! adjoints.
//!
//! It is written in LLVM IR (`ir/*.ll`) and linked into the user's module with internal
//! linkage, so programs need no extra library at link time and LLVM inlines the hot
//! helpers. It comes in *pieces* ([`PIECES`]), and a module gets only the pieces its
//! derivatives call (and the pieces those need): a derivative without loops contains no
//! runtime at all, one with loop stacks gets `stack` + `pool` + `thread`, split mode adds
//! the tape `arena`.
//!
//! * `stack.ll` — a *stack* is 24 bytes `{ ptr data, i64 len, i64 cap }` (lengths in
//!   bytes) living inside the tape. The forward sweep pushes a record each time its
//!   block runs; the reverse sweep reads the top while it replays that execution and pops
//!   when it leaves the block. The buffer grows geometrically.
//! * `region.ll` — one bump region per outermost split-mode call, from which the
//!   stacks of counted loops take their whole room at once (`reverse/tape_region.rs`).
//! * `pool.ll` — when the reverse sweep finishes, a big stack buffer goes to a small
//!   per-thread pool that later stacks take their buffers from.
//! * `arena.ll` — split-mode tapes come from a per-thread bump arena.
//! * `thread.ll` — the per-thread state of pool and arena, reached through a POSIX
//!   thread-specific key (`pthread_key_create`/`pthread_getspecific`), never `thread_local`
//!   globals: every execution engine supports keys, and LLVM's MCJIT (`lli-22
//!   --jit-kind=mcjit`) does not support TLS. The key's destructor frees the state when a
//!   thread exits.
//!   Where the driver compiles to machine code, a `thread_local` pointer caches the
//!   key's value (`thread_tls.rs`, `ir/thread_tls.ll`).
//! * `stats.ll` — bytes of heap tape memory held now and at peak, in the weak global
//!   `__ferrozyme_tape_stats` that benchmarks read (`bench/common/bench.h`).
//! * `check.ll` — the run-time stop for pointers without a known shadow.
//! * `typed.ll` — memcpy/memmove/realloc adjoints, one piece per float type.
//! * `realloc_bytes.ll` — the realloc adjoint for memory of several float types.
//! * `guard.ll` — the message for a stack overflow in the derivative of a recursive
//!   function (an alternate-stack SIGSEGV handler, installed on first use).
//! * `shadows.ll` — the shadows of heap allocations: freed once both the reverse sweep
//!   has replayed the allocation and its primal was freed, in either order; left to the
//!   caller when the primal outlives the gradient.
//! * `kept.ll` — those a global can still reach: their floats are zeroed when the next
//!   top-level derivative starts (`outside_allocations.rs` gives the roots).
//!
//! Linking a piece after others (a later request needs the arena, say) first gives the
//! runtime symbols already in the module back their external linkage, so the new piece's
//! declarations resolve to them, and makes every runtime symbol internal again after.

mod pieces;
mod thread_tls;

use ferrozyme_analysis::types::FpType;
use ferrozyme_llvm::{link_ir_for_target, LinkError, Module, Value};

pub(crate) use pieces::is_runtime_symbol;
pub use pieces::Piece;
pub use thread_tls::cache_thread_state_in_tls;

/// The runtime functions generated code calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtFn {
    /// `ptr __fz_push(ptr stack, i64 n)`: room for `n` more bytes; returns the slot.
    Push,
    /// `ptr __fz_push_reserved(ptr stack, i64 n)`: as `Push` into room reserved for every
    /// push of the loop nest (`reverse/fixed_tape.rs`): no capacity check.
    PushReserved,
    /// `ptr __fz_top(ptr stack, i64 n)`: the last `n`-byte record.
    Top,
    /// `void __fz_pop(ptr stack, i64 n)`.
    Pop,
    /// `void __fz_stack_free(ptr stack)`: the buffer goes to the per-thread pool.
    StackFree,
    /// `void __fz_reserve(ptr stack, i64 extra)`: one allocation for a counted loop.
    Reserve,
    /// `ptr __fz_region_claim(ptr region, i64 n)`: `n` bytes of the outermost call's
    /// region (`reverse/tape_region.rs`).
    RegionClaim,
    /// `void __fz_region_release(ptr region)`: every chunk of the region back.
    RegionRelease,
    /// `void __fz_check_shadow(i1 bad, ptr msg)`: stop with `msg` when `bad`.
    CheckShadow,
    /// `ptr __fz_tape_alloc(i64 n)`: a split-mode tape block from the per-thread arena.
    TapeAlloc,
    /// `void __fz_tape_free(ptr tape)`.
    TapeFree,
    /// `void __fz_memcpy_adj_T(ptr dst_shadow, ptr src_shadow, i64 bytes)`.
    MemcpyAdj(FpType),
    /// `void __fz_memmove_adj_T(...)`: as `MemcpyAdj` for overlapping buffers.
    MemmoveAdj(FpType),
    /// `void __fz_realloc_adj_T(ptr old_shadow, ptr new_shadow, i64 new_bytes, i64 old_bytes)` (old_bytes -1: unknown, `malloc_usable_size`).
    ReallocAdj(FpType),
    /// `void __fz_copy_adj_strided_T(ptr dst_shadow, ptr src_shadow, i64 bytes, i64
    /// period, i64 mask)`: as `MemmoveAdj` for records holding floats next to pointers or
    /// integers: only the float slots set in `mask` of each `period`-byte record.
    CopyAdjStrided(FpType),
    /// `void __fz_copy_fwd_strided_T(...)`, the same arguments: the forward sweep's copy
    /// of such records' shadows, all but the float slots.
    CopyFwdStrided(FpType),
    /// `void __fz_realloc_adj_bytes(ptr old_shadow, ptr new_shadow, i64 new_bytes, i64 old_bytes)`: for
    /// memory holding several float types, or unknown contents (`ir/realloc_bytes.ll`).
    ReallocAdjBytes,
    /// `void __fz_realloc_fwd_bytes(ptr old_shadow, ptr new_shadow, i64 new_bytes, i64 old_bytes)`: the
    /// old shadow's kept bytes into the new one (memory holding pointers).
    ReallocFwdBytes,
    /// `void __fz_move_adj_bytes(ptr dst_shadow, ptr src_shadow, i64 bytes)`: the reverse
    /// of a copy of bytes whose type is unknown: moved back word by word, never added
    /// (a run-time stop where both copies hold a derivative).
    MoveAdjBytes,
    /// `void __fz_shadow_new(ptr primal, ptr shadow, ptr dealloc, i64 w0, i64 w1)`: a heap
    /// allocation's new shadow, released by `dealloc(shadow, w0, w1)` (null: `free`;
    /// `shadow_memory.rs`).
    ShadowNew,
    /// `void __fz_shadow_replayed(ptr shadow, ptr dealloc, i64 w0, i64 w1)`: the reverse
    /// sweep is done with it.
    ShadowReplayed,
    /// `void __fz_shadow_primal_freed(ptr primal)`: the primal is about to be freed.
    ShadowPrimalFreed,
    /// `void __fz_shadow_free_given(ptr primal, ptr shadow, ptr dealloc, i64 w0, i64 w1)`: as `ShadowPrimalFreed`,
    /// freeing `shadow` at once when the table does not record it (given memory).
    ShadowFreeGiven,
    /// `void __fz_shadow_free_later(ptr primal, ptr shadow, ptr dealloc, i64 w0, i64 w1)`: a forward sweep frees the
    /// primal; a shadow the table does not record is freed when the derivative settles.
    ShadowFreeLater,
    /// `void __fz_shadow_realloc_later(ptr primal, ptr shadow, ptr dealloc, i64 w0, i64 w1)`:
    /// as `ShadowFreeLater` for the old block of a `realloc` whose old size in bytes is `w0`;
    /// when the derivative settles, an adopted shadow with a non-zero byte in it is a
    /// run-time stop (the adjoints of the values the caller's block held would be lost).
    ShadowReallocLater,
    /// `void __fz_shadow_realloc_mixed(ptr primal, ptr shadow, ptr dealloc, i64 w0, i64 w1)`:
    /// as `ShadowFreeLater` for the old block of a `realloc` whose elements hold floats
    /// beside pointers or integers; a shadow the table does not record (the caller's) is a
    /// run-time stop (its held values' adjoints could not be returned).
    ShadowReallocMixed,
    /// `void __fz_shadow_settle()`: after a top-level reverse-mode derivative.
    ShadowSettle,
    /// `void __fz_shadows_kept_walk(ptr roots, i64 k)`: zeroes the floats of the shadows
    /// derivatives left where the `k` globals `roots` reach them (`ir/kept.ll`).
    KeptWalk,
    /// `void __fz_shadows_keep(ptr primal, ptr shadow, i64 bytes, i64 layout)`: a shadow
    /// a forward derivative allocated, a candidate for `KeptWalk`.
    KeptKeep,
    /// `void __fz_shadows_forget(ptr shadow)`: a forward derivative releases the shadow.
    KeptForget,
    /// `ptr __fz_stack_guard()`: this thread's stack-overflow record, whose first field
    /// names the recursive derivative a call enters (`stack_guard.rs`).
    StackGuard,
}

impl RtFn {
    /// The function's name in the runtime IR.
    pub fn name(self) -> &'static str {
        use FpType::{F16, F32, F64, F80};
        match self {
            RtFn::Push => "__fz_push",
            RtFn::PushReserved => "__fz_push_reserved",
            RtFn::Top => "__fz_top",
            RtFn::Pop => "__fz_pop",
            RtFn::StackFree => "__fz_stack_free",
            RtFn::Reserve => "__fz_reserve",
            RtFn::RegionClaim => "__fz_region_claim",
            RtFn::RegionRelease => "__fz_region_release",
            RtFn::CheckShadow => "__fz_check_shadow",
            RtFn::TapeAlloc => "__fz_tape_alloc",
            RtFn::TapeFree => "__fz_tape_free",
            RtFn::MemcpyAdj(F64) => "__fz_memcpy_adj_f64",
            RtFn::MemcpyAdj(F32) => "__fz_memcpy_adj_f32",
            RtFn::MemmoveAdj(F64) => "__fz_memmove_adj_f64",
            RtFn::MemmoveAdj(F32) => "__fz_memmove_adj_f32",
            RtFn::ReallocAdj(F64) => "__fz_realloc_adj_f64",
            RtFn::ReallocAdj(F32) => "__fz_realloc_adj_f32",
            RtFn::MemcpyAdj(F16) => "__fz_memcpy_adj_f16",
            RtFn::MemmoveAdj(F16) => "__fz_memmove_adj_f16",
            RtFn::ReallocAdj(F16) => "__fz_realloc_adj_f16",
            RtFn::MemcpyAdj(F80) => "__fz_memcpy_adj_f80",
            RtFn::MemmoveAdj(F80) => "__fz_memmove_adj_f80",
            RtFn::ReallocAdj(F80) => "__fz_realloc_adj_f80",
            RtFn::CopyAdjStrided(F64) => "__fz_copy_adj_strided_f64",
            RtFn::CopyAdjStrided(F32) => "__fz_copy_adj_strided_f32",
            RtFn::CopyAdjStrided(F16) => "__fz_copy_adj_strided_f16",
            RtFn::CopyAdjStrided(F80) => "__fz_copy_adj_strided_f80",
            RtFn::CopyFwdStrided(F64) => "__fz_copy_fwd_strided_f64",
            RtFn::CopyFwdStrided(F32) => "__fz_copy_fwd_strided_f32",
            RtFn::CopyFwdStrided(F16) => "__fz_copy_fwd_strided_f16",
            RtFn::CopyFwdStrided(F80) => "__fz_copy_fwd_strided_f80",
            RtFn::ReallocAdjBytes => "__fz_realloc_adj_bytes",
            RtFn::ReallocFwdBytes => "__fz_realloc_fwd_bytes",
            RtFn::MoveAdjBytes => "__fz_move_adj_bytes",
            RtFn::ShadowNew => "__fz_shadow_new",
            RtFn::ShadowReplayed => "__fz_shadow_replayed",
            RtFn::ShadowPrimalFreed => "__fz_shadow_primal_freed",
            RtFn::ShadowFreeGiven => "__fz_shadow_free_given",
            RtFn::ShadowFreeLater => "__fz_shadow_free_later",
            RtFn::ShadowReallocLater => "__fz_shadow_realloc_later",
            RtFn::ShadowReallocMixed => "__fz_shadow_realloc_mixed",
            RtFn::ShadowSettle => "__fz_shadow_settle",
            RtFn::KeptWalk => "__fz_shadows_kept_walk",
            RtFn::KeptKeep => "__fz_shadows_keep",
            RtFn::KeptForget => "__fz_shadows_forget",
            RtFn::StackGuard => "__fz_stack_guard",
        }
    }
}

/// Runtime functions with per-thread state (pool, arena) and what a clone that is being
/// differentiated calls instead (see `clone::preprocess`). `__fz_grow` is not called by
/// generated code directly, but appears once `__fz_push` is inlined.
pub const PLAIN_VARIANTS: &[(&str, &str)] = &[
    ("__fz_grow", "__fz_grow_plain"),
    ("__fz_stack_free", "__fz_stack_free_plain"),
    ("__fz_region_claim", "__fz_region_claim_plain"),
    ("__fz_region_release", "__fz_region_release_plain"),
    ("__fz_tape_alloc", "malloc"),
    ("__fz_tape_free", "free"),
    ("__fz_shadow_new", "__fz_shadow_new_plain"),
    ("__fz_shadow_replayed", "__fz_shadow_replayed_plain"),
    ("__fz_shadow_primal_freed", "__fz_shadow_primal_freed_plain"),
    ("__fz_shadow_free_given", "__fz_shadow_free_given_plain"),
    ("__fz_shadow_free_later", "__fz_shadow_free_later_plain"),
    ("__fz_shadow_realloc_later", "__fz_shadow_free_later_plain"),
    ("__fz_shadow_realloc_mixed", "__fz_shadow_free_later_plain"),
    ("__fz_shadow_settle", "__fz_shadow_settle_plain"),
];

/// Is `name` a runtime function given a tape stack's header as its first argument
/// (`__fz_push`, `__fz_top`, `__fz_stack_free`, their plain variants, ...)?
pub(crate) fn takes_stack_header(name: &str) -> bool {
    use RtFn::*;
    let header = [Push, PushReserved, Top, Pop, StackFree, Reserve];
    header.iter().any(|f| {
        f.name() == name
            || PLAIN_VARIANTS
                .iter()
                .any(|(n, plain)| *n == f.name() && *plain == name)
    })
}

/// Size of a stack header in bytes.
pub const STACK_HEADER: u64 = 24;
/// Bytes of the inline buffer every stack starts with (no heap allocation for loops
/// that push less than this per call); its capacity is stored as `STACK_INLINE + 1`.
pub const STACK_INLINE: u64 = 256;

/// Handles to the runtime functions, each piece linked into the module on first use.
pub struct Runtime {
    module: Module,
}

impl Runtime {
    pub fn new(module: Module) -> Runtime {
        Runtime { module }
    }

    /// The runtime function `f`, linking its piece (and the pieces it needs) in on first
    /// use.
    pub fn get(&mut self, f: RtFn) -> Result<Value, RuntimeError> {
        self.ensure(f.piece())?;
        self.module
            .function(f.name())
            .filter(|g| !g.is_declaration())
            .ok_or(RuntimeError::Missing(f))
    }

    /// Links `piece` and what it needs, unless the module already defines them (an
    /// earlier request, or an earlier run of the pass over this module).
    fn ensure(&mut self, piece: Piece) -> Result<(), RuntimeError> {
        for &dep in piece.needs() {
            self.ensure(dep)?;
        }
        if piece.is_linked(self.module) {
            return Ok(());
        }
        link_runtime_ir(self.module, &piece.ir(), piece.name()).map_err(RuntimeError::Link)
    }
}

/// Links runtime IR text (without a target header: the module's is used) into `module`,
/// its declarations resolving to the runtime symbols already defined there, every runtime
/// symbol internal again afterwards.
fn link_runtime_ir(module: Module, ir: &str, name: &str) -> Result<(), LinkError> {
    set_runtime_linkage(module, false);
    let linked = link_ir_for_target(module, ir, name);
    set_runtime_linkage(module, true);
    linked
}

/// Gives every runtime symbol defined in `module` internal linkage (`internal`) or back
/// its external linkage (so that a piece linked next resolves its declarations to it).
/// Functions are marked as generated.
fn set_runtime_linkage(module: Module, internal: bool) {
    let defined = module
        .functions()
        .into_iter()
        .chain(module.globals())
        .filter(|g| !g.is_declaration() && pieces::is_runtime_symbol(&g.name()));
    for g in defined {
        if internal {
            g.set_linkage_internal();
            if g.is_function() {
                crate::generated::mark(g);
            }
        } else {
            g.set_linkage_external();
        }
    }
}

/// Every runtime function's name starts with this.
pub const RUNTIME_PREFIX: &str = "__fz_";

/// The runtime IR is ours: failing to link it, or a function missing from it, is a bug.
#[derive(Debug)]
pub enum RuntimeError {
    Link(ferrozyme_llvm::LinkError),
    Missing(RtFn),
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuntimeError::Link(msg) => write!(f, "linking the tape runtime failed: {msg}"),
            RuntimeError::Missing(r) => {
                write!(f, "runtime function {} missing after linking", r.name())
            }
        }
    }
}

/// Is `i` the runtime's call through a shadow's own deallocator (`__fz_shadow_dealloc`'s
/// `%d(%s, %w0, %w1)`, whose target is a generated thunk or the allocator family's
/// release function)? Its derivative releases the shadow's own shadow the same way
/// (`tangent/calls.rs`, higher order).
pub fn releases_a_shadow(i: Value) -> bool {
    i.called_function().is_none() && i.parent_function().source_name() == "__fz_shadow_dealloc"
}
