; Per-thread state of the tape runtime: the stack-buffer pool and the split-tape arena.
;
; One block per thread, { [16 x { ptr, i64 }] pool, { ptr, ptr, ptr, ptr } arena,
; ptr release_pool, ptr release_arena, { ptr, ptr, ptr, i64, ptr, i64 } slab,
; { ptr, i64 } arena spares } (368 bytes: pool at 0, arena at 256, the two release
; functions at 288 and 296, set by the pool and the arena when they first keep memory
; there, so this piece needs neither; the pool's slab of small stack buffers at 304,
; pool.ll; the arena's spare chunks at 352, arena.ll), reached
; through a POSIX thread-specific key rather than a `thread_local` global: every
; execution engine supports keys (LLVM's MCJIT does not support TLS, and
; `__cxa_thread_atexit_impl` with `__dso_handle` is not available in every JIT). The key
; is created once per module (`pthread_once`, called only until `__fz_state_ready` says
; the key exists: the lookup runs on every tape block and pooled buffer); its destructor
; releases the block when the thread exits. The main thread's block lives until the
; process exits (reachable from the thread's key, so leak checkers do not report it).

declare i32 @pthread_once(ptr, ptr)
declare i32 @pthread_key_create(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @abort()

@__fz_state_once = internal global i32 0
@__fz_state_key = internal global i32 0
@__fz_state_ready = internal global i32 0

define void @__fz_state_init() {
entry:
  %r = call i32 @pthread_key_create(ptr @__fz_state_key, ptr @__fz_state_release)
  %bad = icmp ne i32 %r, 0
  br i1 %bad, label %fail, label %ok
fail:
  call void @abort()
  unreachable
ok:
  store atomic i32 1, ptr @__fz_state_ready release, align 4
  ret void
}

; This thread's state, or null when it has none yet.
define ptr @__fz_state_peek() {
entry:
  %r = load atomic i32, ptr @__fz_state_ready acquire, align 4
  %ready = icmp ne i32 %r, 0
  br i1 %ready, label %get, label %once, !prof !1
once:
  %o = call i32 @pthread_once(ptr @__fz_state_once, ptr @__fz_state_init)
  br label %get
get:
  %k = load i32, ptr @__fz_state_key
  %p = call ptr @pthread_getspecific(i32 %k)
  ret ptr %p
}

; This thread's state, created (zeroed) on first use.
define ptr @__fz_state() {
entry:
  %p = call ptr @__fz_state_peek()
  %none = icmp eq ptr %p, null
  br i1 %none, label %make, label %done, !prof !0
make:
  %n = call ptr @calloc(i64 1, i64 368)
  %bad = icmp eq ptr %n, null
  br i1 %bad, label %oom, label %set
oom:
  call void @abort()
  unreachable
set:
  %k = load i32, ptr @__fz_state_key
  %s = call i32 @pthread_setspecific(i32 %k, ptr %n)
  br label %done
done:
  %r = phi ptr [ %p, %entry ], [ %n, %set ]
  ret ptr %r
}

; The key's destructor, at thread exit: the pool's buffers and the arena's chunks go back
; to malloc (through the release functions the pool and the arena registered), then the
; block.
define void @__fz_state_release(ptr %st) {
entry:
  %pp = getelementptr inbounds i8, ptr %st, i64 288
  %pf = load ptr, ptr %pp
  %hp = icmp ne ptr %pf, null
  br i1 %hp, label %pool, label %arena
pool:
  call void %pf(ptr %st)
  br label %arena
arena:
  %ap = getelementptr inbounds i8, ptr %st, i64 296
  %af = load ptr, ptr %ap
  %ha = icmp ne ptr %af, null
  br i1 %ha, label %rel, label %done
rel:
  %a = getelementptr inbounds i8, ptr %st, i64 256
  call void %af(ptr %a)
  br label %done
done:
  call void @free(ptr %st)
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}
!1 = !{!"branch_weights", i32 2000, i32 1}
