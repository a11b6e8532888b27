; Stack buffers freed by the reverse sweep are kept per thread for the stacks of later
; derivative calls (a gradient is usually computed many times): reusing memory that is
; already mapped avoids page faults and the copies of geometric growth. The pool is the
; first 256 bytes of the thread's state (thread.ll): 16 entries { data, cap } (cap 0:
; empty); buffers under 64 KiB (malloc recycles those well) or over 256 MiB are not kept.

declare ptr @__fz_state_peek()
declare ptr @__fz_state()
declare void @__fz_stats_add(i64)
declare void @free(ptr)
declare i64 @llvm.umax.i64(i64, i64)

; Takes the smallest pooled buffer of at least %need bytes and at most
; max(8 * need, 64 KiB); { null, 0 } when none. Requests under 4 KiB go to malloc.
define { ptr, i64 } @__fz_pool_take(i64 %need) noinline {
entry:
  %small = icmp ult i64 %need, 4096
  br i1 %small, label %miss, label %state
state:
  %pool = call ptr @__fz_state_peek()
  %nostate = icmp eq ptr %pool, null
  br i1 %nostate, label %miss, label %scan
scan:
  %n8 = shl i64 %need, 3
  %lim = call i64 @llvm.umax.i64(i64 %n8, i64 65536)
  br label %loop
loop:
  %i = phi i64 [ 0, %scan ], [ %i1, %loop ]
  %best = phi i64 [ 16, %scan ], [ %best2, %loop ]
  %bcap = phi i64 [ -1, %scan ], [ %bcap2, %loop ]
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %i, i32 1
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
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %best2, i32 0
  %cp2 = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %best2, i32 1
  %d = load ptr, ptr %dp
  store ptr null, ptr %dp
  store i64 0, ptr %cp2
  %r0 = insertvalue { ptr, i64 } undef, ptr %d, 0
  %r1 = insertvalue { ptr, i64 } %r0, i64 %bcap2, 1
  ret { ptr, i64 } %r1
}

; Gives a heap stack buffer back: it replaces the smallest pooled one (or an empty
; entry) when that is smaller; whatever is not kept is freed. The buffer's bytes leave
; the tape statistics here, out of line: every reverse function releases its stacks
; through `__fz_stack_free`, inlined, and the update inlined there was a dozen
; instructions per stack of generated code (issue 18).
define void @__fz_pool_put(ptr %d, i64 %cap) noinline {
entry:
  %neg = sub i64 0, %cap
  call void @__fz_stats_add(i64 %neg)
  %huge = icmp ugt i64 %cap, 268435456
  %small = icmp ult i64 %cap, 65536
  %skip = or i1 %huge, %small
  br i1 %skip, label %drop, label %state
state:
  %pool = call ptr @__fz_state()
  %relp = getelementptr inbounds i8, ptr %pool, i64 288
  store ptr @__fz_pool_release, ptr %relp
  br label %loop
loop:
  %i = phi i64 [ 0, %state ], [ %i1, %loop ]
  %mi = phi i64 [ 0, %state ], [ %mi2, %loop ]
  %mc = phi i64 [ -1, %state ], [ %mc2, %loop ]
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %i, i32 1
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
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %mi2, i32 0
  %cp2 = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %mi2, i32 1
  %old = load ptr, ptr %dp
  store ptr %d, ptr %dp
  store i64 %cap, ptr %cp2
  call void @free(ptr %old)
  ret void
drop:
  call void @free(ptr %d)
  ret void
}

; At thread exit (called by the state's destructor): the pooled buffers are freed.
define void @__fz_pool_release(ptr %pool) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %dp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %i, i32 0
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %i, i32 1
  %d = load ptr, ptr %dp
  call void @free(ptr %d)
  store ptr null, ptr %dp
  store i64 0, ptr %cp
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, 16
  br i1 %end, label %done, label %loop
done:
  ret void
}
