//! The runtime's pieces as data: what each defines, what it needs, its IR.
//!
//! A piece is linked into a module only when generated code calls one of its functions
//! (`RtFn::piece`), after the pieces it needs. Every symbol a piece defines is listed
//! here, so the linker can tell runtime symbols from the user's (`is_runtime_symbol`); the
//! tests check the lists against the IR text and that every piece links on its own.

use ferrozyme_analysis::types::FpType;

use super::RtFn;

/// One separately linked part of the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// `thread.ll`: per-thread state through a `pthread` key.
    Thread,
    /// `stats.ll`: tape memory statistics (`__ferrozyme_tape_stats`) for benchmarks.
    Stats,
    /// `pool.ll`: the per-thread pool of stack buffers.
    Pool,
    /// `stack.ll`: tape stacks.
    Stack,
    /// `region.ll`: one bump region per outermost call for counted loops' stacks.
    Region,
    /// `arena.ll`: split-mode tape blocks.
    Arena,
    /// `check.ll`: the run-time stop for pointers without a shadow.
    Check,
    /// `typed.ll` for one float type: memcpy/memmove/realloc adjoints.
    Typed(FpType),
    /// `realloc_bytes.ll`: the realloc adjoint for memory of several float types, and the
    /// copy adjoint for bytes of unknown type (`__fz_move_adj_bytes`).
    ReallocBytes,
    /// `kept.ll`: the shadows derivatives leave to globals, zeroed at the next start.
    Kept,
    /// `shadows.ll`: who frees the shadows of allocations (replay and primal free).
    Shadows,
    /// `guard.ll`: the message for a stack overflow in a recursive derivative.
    Guard,
}

/// Every piece, dependencies first.
pub const PIECES: &[Piece] = &[
    Piece::Thread,
    Piece::Stats,
    Piece::Pool,
    Piece::Stack,
    Piece::Region,
    Piece::Arena,
    Piece::Check,
    Piece::Typed(FpType::F64),
    Piece::Typed(FpType::F32),
    Piece::Typed(FpType::F16),
    Piece::Typed(FpType::F80),
    Piece::ReallocBytes,
    Piece::Kept,
    Piece::Shadows,
    Piece::Guard,
];

const THREAD_IR: &str = include_str!("ir/thread.ll");
const STATS_IR: &str = include_str!("ir/stats.ll");
const POOL_IR: &str = include_str!("ir/pool.ll");
const STACK_IR: &str = include_str!("ir/stack.ll");
const REGION_IR: &str = include_str!("ir/region.ll");
const ARENA_IR: &str = include_str!("ir/arena.ll");
const CHECK_IR: &str = include_str!("ir/check.ll");
const TYPED_IR: &str = include_str!("ir/typed.ll");
const REALLOC_BYTES_IR: &str = include_str!("ir/realloc_bytes.ll");
const KEPT_IR: &str = include_str!("ir/kept.ll");
const SHADOWS_IR: &str = include_str!("ir/shadows.ll");
const GUARD_IR: &str = include_str!("ir/guard.ll");

impl Piece {
    /// The module name the piece is linked under.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Thread => "ferrozyme-runtime-thread",
            Piece::Stats => "ferrozyme-runtime-stats",
            Piece::Pool => "ferrozyme-runtime-pool",
            Piece::Stack => "ferrozyme-runtime-stack",
            Piece::Region => "ferrozyme-runtime-region",
            Piece::Arena => "ferrozyme-runtime-arena",
            Piece::Check => "ferrozyme-runtime-check",
            Piece::Typed(FpType::F64) => "ferrozyme-runtime-f64",
            Piece::Typed(FpType::F32) => "ferrozyme-runtime-f32",
            Piece::Typed(FpType::F16) => "ferrozyme-runtime-f16",
            Piece::Typed(FpType::F80) => "ferrozyme-runtime-f80",
            Piece::ReallocBytes => "ferrozyme-runtime-realloc-bytes",
            Piece::Kept => "ferrozyme-runtime-kept",
            Piece::Shadows => "ferrozyme-runtime-shadows",
            Piece::Guard => "ferrozyme-runtime-guard",
        }
    }

    /// The pieces whose functions this one calls.
    pub fn needs(self) -> &'static [Piece] {
        match self {
            Piece::Pool => &[Piece::Thread, Piece::Stats],
            Piece::Arena => &[Piece::Thread, Piece::Stats],
            Piece::Stack => &[Piece::Pool, Piece::Stats],
            Piece::Region => &[Piece::Stack],
            Piece::Shadows => &[Piece::Kept],
            Piece::Thread
            | Piece::Stats
            | Piece::Check
            | Piece::Typed(_)
            | Piece::ReallocBytes
            | Piece::Kept
            | Piece::Guard => &[],
        }
    }

    /// The symbols (functions and globals) the piece defines.
    pub fn defines(self) -> &'static [&'static str] {
        match self {
            Piece::Thread => &[
                "__fz_state_once",
                "__fz_state_key",
                "__fz_state_ready",
                "__fz_state_init",
                "__fz_state_peek",
                "__fz_state",
                "__fz_state_release",
            ],
            Piece::Stats => &["__fz_stats_add", "__ferrozyme_tape_stats"],
            Piece::Pool => &[
                "__fz_pool_take",
                "__fz_pool_put",
                "__fz_pool_release",
                "__fz_slab_take",
                "__fz_slab_retire",
                "__fz_slab_recycle",
                "__fz_slab_put",
            ],
            Piece::Stack => &[
                "__fz_grow",
                "__fz_push",
                "__fz_push_reserved",
                "__fz_reserve",
                "__fz_top",
                "__fz_pop",
                "__fz_stack_free",
                "__fz_grow_plain",
                "__fz_stack_free_plain",
            ],
            Piece::Region => &[
                "__fz_region_claim",
                "__fz_region_want",
                "__fz_region_link",
                "__fz_region_release",
                "__fz_region_claim_plain",
                "__fz_region_release_plain",
            ],
            Piece::Arena => &[
                "__fz_tape_alloc",
                "__fz_tape_free",
                "__fz_arena_pop",
                "__fz_arena_spare",
                "__fz_arena_release",
            ],
            Piece::Check => &["__fz_check_shadow"],
            Piece::Typed(FpType::F64) => &[
                "__fz_memcpy_adj_f64",
                "__fz_memmove_adj_f64",
                "__fz_realloc_adj_f64",
                "__fz_copy_adj_strided_f64",
                "__fz_copy_fwd_strided_f64",
            ],
            Piece::Typed(FpType::F32) => &[
                "__fz_memcpy_adj_f32",
                "__fz_memmove_adj_f32",
                "__fz_realloc_adj_f32",
                "__fz_copy_adj_strided_f32",
                "__fz_copy_fwd_strided_f32",
            ],
            Piece::Typed(FpType::F16) => &[
                "__fz_memcpy_adj_f16",
                "__fz_memmove_adj_f16",
                "__fz_realloc_adj_f16",
                "__fz_copy_adj_strided_f16",
                "__fz_copy_fwd_strided_f16",
            ],
            Piece::Typed(FpType::F80) => &[
                "__fz_memcpy_adj_f80",
                "__fz_memmove_adj_f80",
                "__fz_realloc_adj_f80",
                "__fz_copy_adj_strided_f80",
                "__fz_copy_fwd_strided_f80",
            ],
            Piece::ReallocBytes => &[
                "__fz_realloc_adj_bytes",
                "__fz_realloc_fwd_bytes",
                "__fz_move_msg",
                "__fz_move_adj_word",
                "__fz_move_adj_byte",
                "__fz_move_adj_bytes",
            ],
            Piece::Kept => &[
                "__fz_shadows_kept_on",
                "__fz_shadows_kept",
                "__fz_shadows_kept_lock",
                "__fz_shadows_kept_dirty",
                "__fz_shadows_kept_epoch",
                "__fz_shadows_kept_seq",
                "__fz_shadows_kept_acquire",
                "__fz_shadows_kept_unlock",
                "__fz_shadows_keep",
                "__fz_shadows_forget",
                "__fz_shadows_kept_cmp",
                "__fz_shadows_kept_end",
                "__fz_shadows_kept_sort",
                "__fz_shadows_kept_find",
                "__fz_shadows_kept_scan",
                "__fz_shadows_kept_zero",
                "__fz_shadows_kept_walk",
            ],
            Piece::Shadows => &[
                "__fz_shadows_once",
                "__fz_shadows_key",
                "__fz_shadows_init",
                "__fz_shadows_release",
                "__fz_shadows_peek",
                "__fz_shadow_dealloc",
                "__fz_shadow_new",
                "__fz_shadows_find",
                "__fz_shadows_mark",
                "__fz_shadow_replayed",
                "__fz_shadows_primal_gone",
                "__fz_shadow_primal_freed",
                "__fz_shadow_free_given",
                "__fz_shadow_retire",
                "__fz_shadow_free_later",
                "__fz_shadow_realloc_later",
                "__fz_shadow_realloc_mixed",
                "__fz_shadow_mixed_msg",
                "__fz_shadow_lost_check",
                "__fz_shadow_lost_msg",
                "__fz_shadow_settle",
                "__fz_shadow_new_plain",
                "__fz_shadow_replayed_plain",
                "__fz_shadow_primal_freed_plain",
                "__fz_shadow_free_given_plain",
                "__fz_shadow_free_later_plain",
                "__fz_shadow_settle_plain",
            ],
            Piece::Guard => &[
                "__fz_guard_once",
                "__fz_guard_key",
                "__fz_guard_ready",
                "__fz_guard_none",
                "__fz_guard_old",
                "__fz_guard_msg1",
                "__fz_guard_msg2",
                "__fz_guard_msg3",
                "__fz_guard_init",
                "__fz_stack_guard",
                "__fz_guard_setup",
                "__fz_guard_release",
                "__fz_guard_put_dec",
                "__fz_guard_handler",
            ],
        }
    }

    /// The piece's IR text (without target header).
    pub fn ir(self) -> String {
        match self {
            Piece::Thread => THREAD_IR.to_string(),
            Piece::Stats => STATS_IR.to_string(),
            Piece::Pool => POOL_IR.to_string(),
            Piece::Stack => STACK_IR.to_string(),
            Piece::Region => REGION_IR.to_string(),
            Piece::Arena => ARENA_IR.to_string(),
            Piece::Check => CHECK_IR.to_string(),
            Piece::ReallocBytes => REALLOC_BYTES_IR.to_string(),
            Piece::Kept => KEPT_IR.to_string(),
            Piece::Shadows => SHADOWS_IR.to_string(),
            Piece::Guard => GUARD_IR.to_string(),
            Piece::Typed(fp) => {
                let (t, ty, size) = match fp {
                    FpType::F64 => ("f64", "double", "8"),
                    FpType::F32 => ("f32", "float", "4"),
                    FpType::F16 => ("f16", "half", "2"),
                    FpType::F80 => ("f80", "x86_fp80", "16"),
                };
                // x86_fp80 constants are written in hexadecimal only.
                let zero = if fp == FpType::F80 {
                    "0xK00000000000000000000"
                } else {
                    "0.0"
                };
                TYPED_IR
                    .replace("{T}", t)
                    .replace("{FP}", ty)
                    .replace("{SIZE}", size)
                    .replace("{ZERO}", zero)
            }
        }
    }

    /// Is the piece already in `module` (its first definition is)?
    pub fn is_linked(self, module: ferrozyme_llvm::Module) -> bool {
        let first = self.defines()[0];
        module
            .function(first)
            .or_else(|| module.global(first))
            .is_some_and(|g| !g.is_declaration())
    }
}

impl RtFn {
    /// The piece that defines the function.
    pub fn piece(self) -> Piece {
        match self {
            RtFn::Push
            | RtFn::PushReserved
            | RtFn::Top
            | RtFn::Pop
            | RtFn::StackFree
            | RtFn::Reserve => Piece::Stack,
            RtFn::RegionClaim | RtFn::RegionRelease => Piece::Region,
            RtFn::CheckShadow => Piece::Check,
            RtFn::TapeAlloc | RtFn::TapeFree => Piece::Arena,
            RtFn::MemcpyAdj(fp)
            | RtFn::MemmoveAdj(fp)
            | RtFn::ReallocAdj(fp)
            | RtFn::CopyAdjStrided(fp)
            | RtFn::CopyFwdStrided(fp) => Piece::Typed(fp),
            RtFn::ReallocAdjBytes | RtFn::ReallocFwdBytes | RtFn::MoveAdjBytes => {
                Piece::ReallocBytes
            }
            RtFn::ShadowNew
            | RtFn::ShadowReplayed
            | RtFn::ShadowPrimalFreed
            | RtFn::ShadowFreeGiven
            | RtFn::ShadowFreeLater
            | RtFn::ShadowReallocLater
            | RtFn::ShadowReallocMixed
            | RtFn::ShadowSettle => Piece::Shadows,
            RtFn::KeptWalk | RtFn::KeptKeep | RtFn::KeptForget => Piece::Kept,
            RtFn::StackGuard => Piece::Guard,
        }
    }
}

/// Is `name` a symbol some piece defines?
pub fn is_runtime_symbol(name: &str) -> bool {
    name.starts_with(super::RUNTIME_PREFIX) && PIECES.iter().any(|p| p.defines().contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names a piece's text defines: `define ... @name(` and `@name = ...`.
    fn defined_in(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in text.lines() {
            if line.starts_with("define ") {
                if let Some(at) = line.find('@') {
                    let rest = &line[at + 1..];
                    out.push(rest[..rest.find('(').unwrap()].to_string());
                }
            } else if let Some(rest) = line.strip_prefix('@') {
                if let Some(eq) = rest.find(" = ") {
                    out.push(rest[..eq].to_string());
                }
            }
        }
        out
    }

    #[test]
    fn lists_match_the_ir() {
        for &p in PIECES {
            let mut listed: Vec<String> = p.defines().iter().map(|s| s.to_string()).collect();
            let mut found = defined_in(&p.ir());
            listed.sort();
            found.sort();
            assert_eq!(listed, found, "{p:?}");
        }
    }

    #[test]
    fn no_thread_local_storage() {
        for &p in PIECES {
            let ir: String = p
                .ir()
                .lines()
                .filter(|l| !l.trim_start().starts_with(';'))
                .collect();
            assert!(!ir.contains("thread_local"), "{p:?} uses TLS");
            assert!(!ir.contains("__cxa_thread_atexit"), "{p:?}");
            assert!(!ir.contains("__dso_handle"), "{p:?}");
        }
    }

    #[test]
    fn every_function_belongs_to_a_piece() {
        use RtFn::*;
        for f in [
            Push,
            PushReserved,
            Top,
            Pop,
            StackFree,
            Reserve,
            RegionClaim,
            RegionRelease,
            CheckShadow,
            TapeAlloc,
            TapeFree,
            MemcpyAdj(FpType::F64),
            MemmoveAdj(FpType::F32),
            ReallocAdj(FpType::F64),
        ] {
            assert!(f.piece().defines().contains(&f.name()), "{f:?}");
        }
        for (n, plain) in super::super::PLAIN_VARIANTS {
            assert!(is_runtime_symbol(n), "{n}");
            assert!(
                is_runtime_symbol(plain) || ["malloc", "free"].contains(plain),
                "{plain}"
            );
        }
    }

    #[test]
    fn dependencies_come_first() {
        for (i, p) in PIECES.iter().enumerate() {
            for d in p.needs() {
                let j = PIECES.iter().position(|q| q == d).unwrap();
                assert!(j < i, "{p:?} needs {d:?}, listed after it");
            }
        }
    }

    /// Links the runtime functions `fns` into an empty module one by one (as requests
    /// come); returns the runtime symbols it then defines, after checking it verifies.
    fn link_in_turn(fns: &[RtFn]) -> Vec<String> {
        let ctx = inkwell::context::Context::create();
        let m = ctx.create_module("t");
        m.set_triple(&inkwell::targets::TargetTriple::create(
            "x86_64-pc-linux-gnu",
        ));
        let module = ferrozyme_llvm::Module::from_inkwell(&m);
        let mut rt = super::super::Runtime::new(module);
        for &f in fns {
            let v = rt.get(f).expect("links");
            assert_eq!(v.name(), f.name());
        }
        module.verify().expect("verifies");
        let mut names: Vec<String> = module
            .functions()
            .into_iter()
            .chain(module.globals())
            .filter(|g| !g.is_declaration())
            .map(|g| g.name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn pieces_link_on_demand_and_in_any_order() {
        // A stack brings the pool, the thread state and the statistics, not the arena.
        let s = link_in_turn(&[RtFn::Push]);
        assert!(s.iter().any(|n| n == "__fz_pool_put"));
        assert!(s.iter().any(|n| n == "__fz_state"));
        assert!(s.iter().any(|n| n == "__ferrozyme_tape_stats"));
        assert!(!s
            .iter()
            .any(|n| n.contains("arena") || n.starts_with("__fz_tape")));
        // The check alone brings nothing else.
        assert_eq!(link_in_turn(&[RtFn::CheckShadow]), ["__fz_check_shadow"]);
        // Nor does the stack-overflow guard.
        let g = link_in_turn(&[RtFn::StackGuard]);
        assert!(
            g.iter()
                .all(|n| n.starts_with("__fz_guard") || n == "__fz_stack_guard"),
            "{g:?}"
        );
        // The shadow table has its own thread key: it brings no tape runtime.
        let t = link_in_turn(&[RtFn::ShadowNew, RtFn::ShadowReplayed]);
        assert!(t.iter().all(|n| n.starts_with("__fz_shadow")), "{t:?}");
        // Pieces linked after others reuse the thread state already there.
        let all = link_in_turn(&[
            RtFn::CheckShadow,
            RtFn::MemcpyAdj(FpType::F32),
            RtFn::Push,
            RtFn::TapeAlloc,
            RtFn::ReallocAdj(FpType::F64),
            RtFn::Pop,
            RtFn::TapeFree,
            RtFn::MemmoveAdj(FpType::F16),
            RtFn::ReallocAdj(FpType::F80),
            RtFn::ReallocAdjBytes,
            RtFn::ShadowSettle,
            RtFn::RegionClaim,
            RtFn::StackGuard,
        ]);
        let every: Vec<&str> = PIECES
            .iter()
            .flat_map(|p| p.defines().iter().copied())
            .collect();
        assert_eq!(all.len(), every.len(), "{all:?}");
        for n in every {
            assert!(all.iter().any(|a| a == n), "{n} missing");
        }
    }
}
