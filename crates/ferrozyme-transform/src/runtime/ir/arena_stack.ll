; Record stacks of split-mode tapes whose whole room is reserved once per call
; (`reverse/arena_stack.rs`): the buffer is a block of the tape arena (arena.ll) instead
; of a heap buffer. A recursive function (the recursive FFT) reserves a small stack in
; every call, and malloc/free of one small buffer per call (in the order of the forward
; sweep, freed all together by the reverse sweep) cost more than the loop it tapes;
; the arena's bump allocation follows the calls' order, and the reverse sweep frees the
; blocks in about the opposite order, which pops them.
;
; The buffer's capacity is stored odd (`extra + 1`): "not heap memory" for stack.ll, so
; a later growth (none happens: the pushes are `__fz_push_reserved` into room reserved
; for all of them) would copy it to the heap instead of giving it to the pool, and
; `__fz_stack_free` would leave it alone. Only a fresh stack (empty, no buffer: a split
; tape's stacks start as { null, 0, 1 }) takes an arena block; any other goes through
; `__fz_reserve`, and so does a reservation over 4 KiB: big buffers come from the pool
; (pool.ll), which keeps them mapped from one gradient to the next (the arena gives an
; empty chunk back to malloc, and a big one would be mapped anew by every call), and
; for them one malloc per call does not matter.

declare ptr @__fz_tape_alloc(i64)
declare void @__fz_tape_free(ptr)
declare void @__fz_reserve(ptr, i64)
declare void @__fz_pool_put(ptr, i64)

define void @__fz_reserve_arena(ptr %s, i64 %extra) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !0
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !0
  %empty = icmp eq i64 %len, 0
  %nobuf = icmp eq i64 %cap, 1
  %some = icmp ne i64 %extra, 0
  %small = icmp ule i64 %extra, 4096
  %f1 = and i1 %empty, %nobuf
  %f2 = and i1 %f1, %some
  %fresh = and i1 %f2, %small
  br i1 %fresh, label %arena, label %other
arena:
  %p = call ptr @__fz_tape_alloc(i64 %extra)
  store ptr %p, ptr %s
  %c = or i64 %extra, 1
  store i64 %c, ptr %capp, !ferrozyme.tape.int !0
  ret void
other:
  call void @__fz_reserve(ptr %s, i64 %extra)
  ret void
}

; At the reverse sweep's exit: an arena buffer (odd capacity, not null) goes back to the
; arena; a heap buffer (even capacity) to the pool, as `__fz_stack_free`.
define void @__fz_stack_free_arena(ptr %s) alwaysinline {
entry:
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !0
  %d = load ptr, ptr %s
  %inl = and i64 %cap, 1
  %heap = icmp eq i64 %inl, 0
  br i1 %heap, label %pool, label %odd
pool:
  call void @__fz_pool_put(ptr %d, i64 %cap)
  ret void
odd:
  %has = icmp ne ptr %d, null
  br i1 %has, label %arena, label %done
arena:
  call void @__fz_tape_free(ptr %d)
  ret void
done:
  ret void
}

!0 = !{}
