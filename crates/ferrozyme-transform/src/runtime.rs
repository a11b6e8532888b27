//! The tiny runtime the generated code calls: tape stacks and memory adjoints.
//!
//! It is written in LLVM IR and linked into the user's module once, with internal linkage,
//! so programs need no extra library at link time and LLVM inlines the hot helpers.
//!
//! A *stack* is 24 bytes `{ ptr data, i64 len, i64 cap }` (lengths in bytes) living inside
//! the tape. The forward sweep pushes a value each time its block runs; the reverse sweep
//! reads the top while it replays that execution and pops when it leaves the block. The
//! buffer grows geometrically; when the reverse sweep finishes it goes to a small
//! per-thread pool that later stacks take their buffers from (see `__fz_pool`).

use ferrozyme_analysis::types::FpType;
use ferrozyme_llvm::{link_ir_text, Module, Value};

/// The runtime functions generated code calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RtFn {
    /// `ptr __fz_push(ptr stack, i64 n)`: room for `n` more bytes; returns the slot.
    Push,
    /// `ptr __fz_top(ptr stack, i64 n)`: the last `n`-byte record.
    Top,
    /// `void __fz_pop(ptr stack, i64 n)`.
    Pop,
    /// `void __fz_stack_free(ptr stack)`: the buffer goes to the per-thread pool.
    StackFree,
    /// `void __fz_reserve(ptr stack, i64 extra)`: one allocation for a counted loop.
    Reserve,
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
    /// `void __fz_realloc_adj_T(ptr old_shadow, ptr new_shadow, i64 new_bytes)`.
    ReallocAdj(FpType),
}

impl RtFn {
    /// The function's name in the runtime IR.
    pub fn name(self) -> &'static str {
        use FpType::{F32, F64};
        match self {
            RtFn::Push => "__fz_push",
            RtFn::Top => "__fz_top",
            RtFn::Pop => "__fz_pop",
            RtFn::StackFree => "__fz_stack_free",
            RtFn::Reserve => "__fz_reserve",
            RtFn::CheckShadow => "__fz_check_shadow",
            RtFn::TapeAlloc => "__fz_tape_alloc",
            RtFn::TapeFree => "__fz_tape_free",
            RtFn::MemcpyAdj(F64) => "__fz_memcpy_adj_f64",
            RtFn::MemcpyAdj(F32) => "__fz_memcpy_adj_f32",
            RtFn::MemmoveAdj(F64) => "__fz_memmove_adj_f64",
            RtFn::MemmoveAdj(F32) => "__fz_memmove_adj_f32",
            RtFn::ReallocAdj(F64) => "__fz_realloc_adj_f64",
            RtFn::ReallocAdj(F32) => "__fz_realloc_adj_f32",
        }
    }
}

/// Runtime functions with per-thread state (pool, arena) and what a clone that is being
/// differentiated calls instead (see `clone::preprocess`). `__fz_grow` is not called by
/// generated code directly, but appears once `__fz_push` is inlined.
pub const PLAIN_VARIANTS: &[(&str, &str)] = &[
    ("__fz_grow", "__fz_grow_plain"),
    ("__fz_stack_free", "__fz_stack_free_plain"),
    ("__fz_tape_alloc", "malloc"),
    ("__fz_tape_free", "free"),
];

/// Size of a stack header in bytes.
pub const STACK_HEADER: u64 = 24;
/// Bytes of the inline buffer every stack starts with (no heap allocation for loops
/// that push less than this per call); its capacity is stored as `STACK_INLINE + 1`.
pub const STACK_INLINE: u64 = 256;

const RUNTIME_IR: &str = r#"
declare ptr @realloc(ptr, i64)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @abort()
declare i64 @malloc_usable_size(ptr)
declare i64 @llvm.umax.i64(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; Stack buffers freed by the reverse sweep are kept per thread for the stacks of later
; derivative calls (a gradient is usually computed many times): reusing memory that is
; already mapped avoids page faults and the copies of geometric growth. Entries are
; { data, cap } (cap 0: empty); buffers under 64 KiB (malloc recycles those well) or
; over 256 MiB are not kept.
@__fz_pool = internal thread_local global [16 x { ptr, i64 }] zeroinitializer

; Takes the smallest pooled buffer of at least %need bytes and at most
; max(8 * need, 64 KiB); { null, 0 } when none. Requests under 4 KiB go to malloc.
define { ptr, i64 } @__fz_pool_take(i64 %need) noinline {
entry:
  %small = icmp ult i64 %need, 4096
  br i1 %small, label %miss, label %scan
scan:
  %n8 = shl i64 %need, 3
  %lim = call i64 @llvm.umax.i64(i64 %n8, i64 65536)
  br label %loop
loop:
  %i = phi i64 [ 0, %scan ], [ %i1, %loop ]
  %best = phi i64 [ 16, %scan ], [ %best2, %loop ]
  %bcap = phi i64 [ -1, %scan ], [ %bcap2, %loop ]
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %i, i32 1
  %c = load i64, ptr %cp
  %fits = icmp uge i64 %c, %need
  %nz = icmp ne i64 %c, 0
  %under = icmp ule i64 %c, %lim
  %smaller = icmp ult i64 %c, %bcap
  %t1 = and i1 %fits, %nz
  %t2 = and i1 %t1, %under
  %take = and i1 %t2, %smaller
  %best2 = select i1 %take, i64 %i, i64 %best
  %bcap2 = select i1 %take, i64 %c, i64 %bcap
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, 16
  br i1 %end, label %out, label %loop
out:
  %none = icmp eq i64 %best2, 16
  br i1 %none, label %miss, label %hit
miss:
  ret { ptr, i64 } zeroinitializer
hit:
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %best2, i32 0
  %cp2 = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %best2, i32 1
  %d = load ptr, ptr %dp
  store ptr null, ptr %dp
  store i64 0, ptr %cp2
  %r0 = insertvalue { ptr, i64 } undef, ptr %d, 0
  %r1 = insertvalue { ptr, i64 } %r0, i64 %bcap2, 1
  ret { ptr, i64 } %r1
}

; Gives a heap stack buffer back: it replaces the smallest pooled one (or an empty
; entry) when that is smaller; whatever is not kept is freed.
define void @__fz_pool_put(ptr %d, i64 %cap) noinline {
entry:
  %huge = icmp ugt i64 %cap, 268435456
  %small = icmp ult i64 %cap, 65536
  %skip = or i1 %huge, %small
  br i1 %skip, label %drop, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %mi = phi i64 [ 0, %entry ], [ %mi2, %loop ]
  %mc = phi i64 [ -1, %entry ], [ %mc2, %loop ]
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %i, i32 1
  %c = load i64, ptr %cp
  %lt = icmp ult i64 %c, %mc
  %mi2 = select i1 %lt, i64 %i, i64 %mi
  %mc2 = select i1 %lt, i64 %c, i64 %mc
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, 16
  br i1 %end, label %out, label %loop
out:
  %keep = icmp ult i64 %mc2, %cap
  br i1 %keep, label %swap, label %drop
swap:
  call void @__fz_tls_register()
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %mi2, i32 0
  %cp2 = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %mi2, i32 1
  %old = load ptr, ptr %dp
  store ptr %d, ptr %dp
  store i64 %cap, ptr %cp2
  call void @free(ptr %old)
  ret void
drop:
  call void @free(ptr %d)
  ret void
}

; Grows a stack buffer; takes and returns the header fields by value so that, after
; inlining, the header of a stack living in an alloca'd tape can be promoted to
; registers (nothing else takes its address). A stack starts in a small inline buffer
; that is not heap memory, marked by an odd capacity (lengths are multiples of 8, so
; `len + n > cap` still tests the room exactly): it is copied to the heap, not realloc'd.
; A pooled buffer is used when one fits, otherwise `__fz_grow_plain` allocates.
define { ptr, i64 } @__fz_grow(ptr %data, i64 %cap, i64 %need) noinline cold {
entry:
  %inl = and i64 %cap, 1
  %used = and i64 %cap, -2
  %c2 = shl i64 %used, 1
  %c3 = call i64 @llvm.umax.i64(i64 %c2, i64 %need)
  %c4 = call i64 @llvm.umax.i64(i64 %c3, i64 64)
  %p = call { ptr, i64 } @__fz_pool_take(i64 %c4)
  %pd = extractvalue { ptr, i64 } %p, 0
  %hit = icmp ne ptr %pd, null
  br i1 %hit, label %pooled, label %nopool
pooled:
  call void @llvm.memcpy.p0.p0.i64(ptr %pd, ptr %data, i64 %used, i1 false)
  %isinl = icmp ne i64 %inl, 0
  br i1 %isinl, label %done, label %retire
retire:
  call void @__fz_pool_put(ptr %data, i64 %used)
  br label %done
done:
  ret { ptr, i64 } %p
nopool:
  %g = call { ptr, i64 } @__fz_grow_plain(ptr %data, i64 %cap, i64 %need)
  ret { ptr, i64 } %g
}

define ptr @__fz_push(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %len = load i64, ptr %lenp
  %cap = load i64, ptr %capp
  %d0 = load ptr, ptr %s
  %new = add i64 %len, %n
  %full = icmp ugt i64 %new, %cap
  br i1 %full, label %grow, label %done, !prof !0
grow:
  %g = call { ptr, i64 } @__fz_grow(ptr %d0, i64 %cap, i64 %new)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  store ptr %gd, ptr %s
  store i64 %gc, ptr %capp
  br label %done
done:
  %d = phi ptr [ %d0, %entry ], [ %gd, %grow ]
  store i64 %new, ptr %lenp
  %slot = getelementptr inbounds i8, ptr %d, i64 %len
  ret ptr %slot
}

define void @__fz_reserve(ptr %s, i64 %extra) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %len = load i64, ptr %lenp
  %cap = load i64, ptr %capp
  %d0 = load ptr, ptr %s
  %new = add i64 %len, %extra
  %full = icmp ugt i64 %new, %cap
  br i1 %full, label %grow, label %done
grow:
  %g = call { ptr, i64 } @__fz_grow(ptr %d0, i64 %cap, i64 %new)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  store ptr %gd, ptr %s
  store i64 %gc, ptr %capp
  br label %done
done:
  ret void
}

; A pointer read from global memory has no shadow (nothing told us where its adjoint
; memory is): stop with a message instead of writing derivatives through null.
declare i64 @write(i32, ptr, i64)
declare i64 @strlen(ptr)
define void @__fz_check_shadow(i1 %bad, ptr %msg) alwaysinline {
entry:
  br i1 %bad, label %fail, label %ok, !prof !0
fail:
  %n = call i64 @strlen(ptr %msg)
  %w = call i64 @write(i32 2, ptr %msg, i64 %n)
  call void @abort()
  unreachable
ok:
  ret void
}

define ptr @__fz_top(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lenp
  %d = load ptr, ptr %s
  %off = sub i64 %len, %n
  %slot = getelementptr inbounds i8, ptr %d, i64 %off
  ret ptr %slot
}

define void @__fz_pop(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lenp
  %new = sub i64 %len, %n
  store i64 %new, ptr %lenp
  ret void
}

define void @__fz_stack_free(ptr %s) alwaysinline {
entry:
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %cap = load i64, ptr %capp
  %inl = and i64 %cap, 1
  %heap = icmp eq i64 %inl, 0
  br i1 %heap, label %f, label %done
f:
  %d = load ptr, ptr %s
  call void @__fz_pool_put(ptr %d, i64 %cap)
  br label %done
done:
  ret void
}

; Growth by malloc/realloc: `__fz_grow` when the pool has nothing that fits, and what
; the generated code calls when it is itself differentiated (higher order, see
; `clone::preprocess`): the same stacks without the per-thread pool and arena, whose
; global state has no derivative.
define { ptr, i64 } @__fz_grow_plain(ptr %data, i64 %cap, i64 %need) noinline {
entry:
  %inl = and i64 %cap, 1
  %used = and i64 %cap, -2
  %c2 = shl i64 %used, 1
  %c3 = call i64 @llvm.umax.i64(i64 %c2, i64 %need)
  %c4 = call i64 @llvm.umax.i64(i64 %c3, i64 64)
  %isinl = icmp ne i64 %inl, 0
  br i1 %isinl, label %fresh, label %re
fresh:
  %nd1 = call ptr @malloc(i64 %c4)
  %bad1 = icmp eq ptr %nd1, null
  br i1 %bad1, label %oom, label %copy
copy:
  call void @llvm.memcpy.p0.p0.i64(ptr %nd1, ptr %data, i64 %used, i1 false)
  br label %done
re:
  %nd2 = call ptr @realloc(ptr %data, i64 %c4)
  br label %done
done:
  %nd = phi ptr [ %nd1, %copy ], [ %nd2, %re ]
  %bad = icmp eq ptr %nd, null
  br i1 %bad, label %oom, label %ok
oom:
  call void @abort()
  unreachable
ok:
  %r0 = insertvalue { ptr, i64 } undef, ptr %nd, 0
  %r1 = insertvalue { ptr, i64 } %r0, i64 %c4, 1
  ret { ptr, i64 } %r1
}

define void @__fz_stack_free_plain(ptr %s) {
entry:
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %cap = load i64, ptr %capp
  %inl = and i64 %cap, 1
  %heap = icmp eq i64 %inl, 0
  br i1 %heap, label %f, label %done
f:
  %d = load ptr, ptr %s
  call void @free(ptr %d)
  br label %done
done:
  ret void
}

; The tapes of split mode (one per call of an augmented function: per call of a
; recursive function) come from a per-thread arena instead of malloc: a bump pointer in
; chunks of 64 KiB or more, so allocating is cheap and the reverse sweep reads tapes
; that lie next to each other.
;   arena { chunk, top, end, last }: the newest chunk, its free space [top, end), and
;     its newest block (null when the chunk holds none);
;   chunk header (32 bytes) { previous chunk, and its top, end and last };
;   block header (32 bytes) { owner arena, previous block of the chunk, size, freed }.
; Freeing marks the block; freeing the newest block pops it and every marked block
; below it (and empty chunks but the first), so any order of frees gives the memory back
; once the blocks after it are freed. A tape freed by another thread than its owner is
; only marked (atomically); the owner pops it.
@__fz_arena = internal thread_local global { ptr, ptr, ptr, ptr } zeroinitializer

define ptr @__fz_tape_alloc(i64 %n) noinline {
entry:
  %n15 = add i64 %n, 15
  %n16 = and i64 %n15, -16
  %sz = add i64 %n16, 32
  %topp = getelementptr inbounds i8, ptr @__fz_arena, i64 8
  %endp = getelementptr inbounds i8, ptr @__fz_arena, i64 16
  %lastp = getelementptr inbounds i8, ptr @__fz_arena, i64 24
  %top = load ptr, ptr %topp
  %end = load ptr, ptr %endp
  %ti = ptrtoint ptr %top to i64
  %ei = ptrtoint ptr %end to i64
  %room = sub i64 %ei, %ti
  %fits = icmp ule i64 %sz, %room
  %have = icmp ne ptr %top, null
  %ok = and i1 %fits, %have
  br i1 %ok, label %bump, label %chunk, !prof !1
chunk:
  call void @__fz_tls_register()
  %need = add i64 %sz, 32
  %csz = call i64 @llvm.umax.i64(i64 %need, i64 65536)
  %c = call ptr @malloc(i64 %csz)
  %bad = icmp eq ptr %c, null
  br i1 %bad, label %oom, label %link
oom:
  call void @abort()
  unreachable
link:
  %prevc = load ptr, ptr @__fz_arena
  %last0 = load ptr, ptr %lastp
  store ptr %prevc, ptr %c
  %c1 = getelementptr inbounds i8, ptr %c, i64 8
  store ptr %top, ptr %c1
  %c2 = getelementptr inbounds i8, ptr %c, i64 16
  store ptr %end, ptr %c2
  %c3 = getelementptr inbounds i8, ptr %c, i64 24
  store ptr %last0, ptr %c3
  store ptr %c, ptr @__fz_arena
  %cend = getelementptr inbounds i8, ptr %c, i64 %csz
  store ptr %cend, ptr %endp
  store ptr null, ptr %lastp
  %cdata = getelementptr inbounds i8, ptr %c, i64 32
  br label %bump
bump:
  %blk = phi ptr [ %top, %entry ], [ %cdata, %link ]
  %ntop = getelementptr inbounds i8, ptr %blk, i64 %sz
  store ptr %ntop, ptr %topp
  %prevb = load ptr, ptr %lastp
  store ptr %blk, ptr %lastp
  store ptr @__fz_arena, ptr %blk
  %b1 = getelementptr inbounds i8, ptr %blk, i64 8
  store ptr %prevb, ptr %b1
  %b2 = getelementptr inbounds i8, ptr %blk, i64 16
  store i64 %sz, ptr %b2
  %b3 = getelementptr inbounds i8, ptr %blk, i64 24
  store atomic i64 0, ptr %b3 monotonic, align 8
  %p = getelementptr inbounds i8, ptr %blk, i64 32
  ret ptr %p
}

define void @__fz_tape_free(ptr %p) noinline {
entry:
  %blk = getelementptr inbounds i8, ptr %p, i64 -32
  %owner = load ptr, ptr %blk
  %flag = getelementptr inbounds i8, ptr %blk, i64 24
  store atomic i64 1, ptr %flag release, align 8
  %mine = icmp eq ptr %owner, @__fz_arena
  br i1 %mine, label %own, label %done
own:
  call void @__fz_arena_pop()
  br label %done
done:
  ret void
}

; Pops the marked blocks at the top of this thread's arena, and chunks left empty
; (except the first).
define void @__fz_arena_pop() noinline {
entry:
  %topp = getelementptr inbounds i8, ptr @__fz_arena, i64 8
  %endp = getelementptr inbounds i8, ptr @__fz_arena, i64 16
  %lastp = getelementptr inbounds i8, ptr @__fz_arena, i64 24
  br label %loop
loop:
  %b = load ptr, ptr %lastp
  %empty = icmp eq ptr %b, null
  br i1 %empty, label %chunkdone, label %check
check:
  %fp = getelementptr inbounds i8, ptr %b, i64 24
  %f = load atomic i64, ptr %fp acquire, align 8
  %freed = icmp ne i64 %f, 0
  br i1 %freed, label %popb, label %done
popb:
  store ptr %b, ptr %topp
  %pp = getelementptr inbounds i8, ptr %b, i64 8
  %pb = load ptr, ptr %pp
  store ptr %pb, ptr %lastp
  br label %loop
chunkdone:
  %c = load ptr, ptr @__fz_arena
  %nochunk = icmp eq ptr %c, null
  br i1 %nochunk, label %done, label %haschunk
haschunk:
  %prevc = load ptr, ptr %c
  %first = icmp eq ptr %prevc, null
  br i1 %first, label %done, label %unlink
unlink:
  %c1 = getelementptr inbounds i8, ptr %c, i64 8
  %stop = load ptr, ptr %c1
  %c2 = getelementptr inbounds i8, ptr %c, i64 16
  %send = load ptr, ptr %c2
  %c3 = getelementptr inbounds i8, ptr %c, i64 24
  %slast = load ptr, ptr %c3
  store ptr %prevc, ptr @__fz_arena
  store ptr %stop, ptr %topp
  store ptr %send, ptr %endp
  store ptr %slast, ptr %lastp
  call void @free(ptr %c)
  br label %loop
done:
  ret void
}

; At thread exit (and at exit for the main thread): the pool's buffers and the arena's
; chunks go back to malloc. Chunks that still hold tapes nobody freed are left alone
; (their tapes may be reversed by another thread).
declare i32 @__cxa_thread_atexit_impl(ptr, ptr, ptr)
@__dso_handle = external hidden global i8
@__fz_tls_registered = internal thread_local global i1 false

define void @__fz_tls_register() noinline {
entry:
  %r = load i1, ptr @__fz_tls_registered
  br i1 %r, label %done, label %reg
reg:
  store i1 true, ptr @__fz_tls_registered
  %x = call i32 @__cxa_thread_atexit_impl(ptr @__fz_tls_release, ptr null, ptr @__dso_handle)
  br label %done
done:
  ret void
}

define void @__fz_tls_release(ptr %unused) {
entry:
  br label %pool
pool:
  %i = phi i64 [ 0, %entry ], [ %i1, %pool ]
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %i, i32 0
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr @__fz_pool, i64 0, i64 %i, i32 1
  %d = load ptr, ptr %dp
  call void @free(ptr %d)
  store ptr null, ptr %dp
  store i64 0, ptr %cp
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, 16
  br i1 %end, label %arena, label %pool
arena:
  call void @__fz_arena_pop()
  %lastp = getelementptr inbounds i8, ptr @__fz_arena, i64 24
  %last = load ptr, ptr %lastp
  %c = load ptr, ptr @__fz_arena
  %nolive = icmp eq ptr %last, null
  %isc = icmp ne ptr %c, null
  %fr = and i1 %nolive, %isc
  br i1 %fr, label %freec, label %done
freec:
  %prevc = load ptr, ptr %c
  %only = icmp eq ptr %prevc, null
  br i1 %only, label %freeit, label %done
freeit:
  call void @free(ptr %c)
  store ptr null, ptr @__fz_arena
  %topp = getelementptr inbounds i8, ptr @__fz_arena, i64 8
  store ptr null, ptr %topp
  %endp = getelementptr inbounds i8, ptr @__fz_arena, i64 16
  store ptr null, ptr %endp
  br label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}
!1 = !{!"branch_weights", i32 2000, i32 1}
"#;

/// Memory adjoint helpers, written once for `{FP}` of `{SIZE}` bytes and instantiated
/// for `double` (`_f64`) and `float` (`_f32`).
const TYPED_IR: &str = r#"
define void @__fz_memcpy_adj_{T}(ptr %dd, ptr %ds, i64 %nbytes) {
entry:
  %n = udiv i64 %nbytes, {SIZE}
  %z = icmp eq i64 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pd = getelementptr inbounds {FP}, ptr %dd, i64 %i
  %ps = getelementptr inbounds {FP}, ptr %ds, i64 %i
  %vd = load {FP}, ptr %pd
  %vs = load {FP}, ptr %ps
  %sum = fadd {FP} %vs, %vd
  store {FP} 0.0, ptr %pd
  store {FP} %sum, ptr %ps
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @__fz_memmove_adj_{T}(ptr %dd, ptr %ds, i64 %nbytes) {
entry:
  %tmp = call ptr @malloc(i64 %nbytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %dd, i64 %nbytes, i1 false)
  call void @llvm.memset.p0.i64(ptr %dd, i8 0, i64 %nbytes, i1 false)
  %n = udiv i64 %nbytes, {SIZE}
  %z = icmp eq i64 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pt = getelementptr inbounds {FP}, ptr %tmp, i64 %i
  %ps = getelementptr inbounds {FP}, ptr %ds, i64 %i
  %vt = load {FP}, ptr %pt
  %vs = load {FP}, ptr %ps
  %sum = fadd {FP} %vs, %vt
  store {FP} %sum, ptr %ps
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  call void @free(ptr %tmp)
  ret void
}

; Reverse of `new = realloc(old, n)`: the first min(old size, n) bytes of the new block
; came from the old one, so their adjoints flow back; then the new shadow is freed.
define void @__fz_realloc_adj_{T}(ptr %sold, ptr %snew, i64 %nnew) {
entry:
  %null = icmp eq ptr %sold, null
  br i1 %null, label %exit, label %body
body:
  %us = call i64 @malloc_usable_size(ptr %sold)
  %lt = icmp ult i64 %us, %nnew
  %m = select i1 %lt, i64 %us, i64 %nnew
  call void @__fz_memcpy_adj_{T}(ptr %snew, ptr %sold, i64 %m)
  br label %exit
exit:
  call void @free(ptr %snew)
  ret void
}

"#;

fn typed_ir() -> String {
    [("f64", "double", "8"), ("f32", "float", "4")]
        .iter()
        .map(|(t, fp, size)| {
            TYPED_IR
                .replace("{T}", t)
                .replace("{FP}", fp)
                .replace("{SIZE}", size)
        })
        .collect()
}

/// Handles to the runtime functions, linked into the module on first use.
pub struct Runtime {
    module: Module,
    linked: bool,
}

impl Runtime {
    pub fn new(module: Module) -> Runtime {
        Runtime {
            module,
            linked: false,
        }
    }

    /// The runtime function `f`, linking the runtime in on first use.
    pub fn get(&mut self, f: RtFn) -> Result<Value, RuntimeError> {
        if !self.linked && self.module.function(RtFn::Push.name()).is_none() {
            let header = format!(
                "target datalayout = \"{}\"\ntarget triple = \"{}\"\n",
                self.module.data_layout(),
                self.module.target_triple()
            );
            link_ir_text(
                self.module,
                &(header + RUNTIME_IR + &typed_ir()),
                "ferrozyme-runtime",
            )
            .map_err(RuntimeError::Link)?;
            // Defined externally in the text so the linker keeps them all; internal here.
            for g in self.module.functions() {
                if g.name().starts_with(RUNTIME_PREFIX) && !g.is_declaration() {
                    g.set_linkage_internal();
                    crate::generated::mark(g);
                }
            }
        }
        self.linked = true;
        self.module
            .function(f.name())
            .ok_or(RuntimeError::Missing(f))
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
