; Machine code only (`thread_tls.rs`): `__fz_state_peek` and the key's destructor of
; thread.ll, replaced where the module is compiled to an object by the native code
; generator. The state block is still created, registered and released through the
; pthread key as in thread.ll (so a thread's exit frees it exactly as before); a
; `thread_local` pointer only caches what `pthread_getspecific` returned, so the lookup on
; every tape block and slab buffer is one load. The destructor clears the cache first:
; key destructors of other libraries that run after it and differentiate again find no
; stale pointer and take the key's path (which creates a fresh state, as before).

@__fz_state_tls = internal thread_local global ptr null, align 8
@__fz_state_once = external global i32
@__fz_state_key = external global i32
@__fz_state_ready = external global i32

declare void @__fz_state_init()
declare i32 @pthread_once(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare void @free(ptr)

define ptr @__fz_state_peek() {
entry:
  %c = load ptr, ptr @__fz_state_tls, align 8
  %hit = icmp ne ptr %c, null
  br i1 %hit, label %done, label %key, !prof !1
key:
  %r = load atomic i32, ptr @__fz_state_ready acquire, align 4
  %ready = icmp ne i32 %r, 0
  br i1 %ready, label %get, label %once, !prof !1
once:
  %o = call i32 @pthread_once(ptr @__fz_state_once, ptr @__fz_state_init)
  br label %get
get:
  %k = load i32, ptr @__fz_state_key
  %p = call ptr @pthread_getspecific(i32 %k)
  store ptr %p, ptr @__fz_state_tls, align 8
  br label %done
done:
  %s = phi ptr [ %c, %entry ], [ %p, %get ]
  ret ptr %s
}

define void @__fz_state_release(ptr %st) {
entry:
  store ptr null, ptr @__fz_state_tls, align 8
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

!1 = !{!"branch_weights", i32 2000, i32 1}
