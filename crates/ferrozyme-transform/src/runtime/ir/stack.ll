; Tape stacks: a stack is 24 bytes { ptr data, i64 len, i64 cap } (lengths in bytes)
; living inside the tape. The forward sweep pushes a record each time its block runs;
; the reverse sweep reads the top while it replays that execution and pops when it
; leaves the block. The buffer grows geometrically; when the reverse sweep finishes it
; goes to the per-thread pool (pool.ll) that later stacks take their buffers from.
;
; Generated code can be differentiated again (reverse over reverse of a loop): then these
; functions are differentiated like user code, the header's shadow being a mirror stack
; with a shadow buffer. For that, the header's lengths are typed as integers by
; `!ferrozyme.tape.int` on their accesses (the header's memory mixes with every other
; tape slot), and the copies of a stack's records into a larger buffer carry
; `!ferrozyme.tape.move`: the source is never used again, so the adjoints move back byte
; for byte whatever the records hold (the transform's `reverse/tape_move.rs`).
;
; Lengths never wrap (a length is at most the buffer's size, a pop or a top follows the
; push of the same bytes), so their arithmetic says so (`nuw nsw`): a length stepped in
; a loop is an induction variable, and without the flags IndVars tries to prove them
; for every such loop through SCEV's loop guards, which walk the dominators of the
; whole (merged) function (bench/compile_scaling/README.md, tree23).

declare ptr @realloc(ptr, i64)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @abort()
declare i64 @llvm.umax.i64(i64, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare { ptr, i64 } @__fz_pool_take(i64)
declare void @__fz_pool_put(ptr, i64)
declare void @__fz_stats_add(i64)
declare ptr @__fz_slab_take(i64)

; Grows a stack buffer; takes and returns the header fields by value so that, after
; inlining, the header of a stack living in an alloca'd tape can be promoted to
; registers (nothing else takes its address). A stack starts in a small inline buffer
; that is not heap memory, marked by an odd capacity (lengths are multiples of 8, so
; `len + n > cap` still tests the room exactly): it is copied to the heap, not realloc'd.
; A pooled buffer is used when one fits, otherwise `__fz_grow_plain` allocates.
define { ptr, i64 } @__fz_grow(ptr %data, i64 %cap, i64 %need) noinline cold {
entry:
  %inl = and i64 %cap, 1
  %mark = and i64 %cap, 2
  %used = and i64 %cap, -8
  %c2 = shl i64 %used, 1
  %c3 = call i64 @llvm.umax.i64(i64 %c2, i64 %need)
  %c4 = call i64 @llvm.umax.i64(i64 %c3, i64 64)
  %isinl = icmp ne i64 %inl, 0
  %isslab = icmp ne i64 %mark, 0
  %small = icmp ule i64 %c4, 32768
  %toslab = and i1 %isinl, %small
  br i1 %toslab, label %slab, label %pool
slab:
  ; A stack's first buffer, small: from the slab (pool.ll), marked by bit 1 of the
  ; capacity; an inline buffer's records are copied. A split tape's stack starts with
  ; no buffer at all (capacity 1: nothing to copy), so its first growth calls no
  ; `memcpy` (the recursive FFT: 65,534 such growths per gradient).
  %c15 = add i64 %c4, 15
  %c16 = and i64 %c15, -16
  %sd = call ptr @__fz_slab_take(i64 %c16)
  %slabempty = icmp eq i64 %used, 0
  br i1 %slabempty, label %slabdone, label %slabcopy
slabcopy:
  call void @llvm.memcpy.p0.p0.i64(ptr %sd, ptr %data, i64 %used, i1 false), !ferrozyme.tape.move !1
  br label %slabdone
slabdone:
  call void @__fz_stats_add(i64 %c16)
  %scap = or i64 %c16, 2
  %s0 = insertvalue { ptr, i64 } undef, ptr %sd, 0
  %s1 = insertvalue { ptr, i64 } %s0, i64 %scap, 1
  ret { ptr, i64 } %s1
pool:
  ; No heap buffer to keep (inline), or one malloc must not resize (a slab buffer).
  %fresh = or i1 %isinl, %isslab
  %oldheap = select i1 %fresh, i64 0, i64 %used
  %p = call { ptr, i64 } @__fz_pool_take(i64 %c4)
  %pd = extractvalue { ptr, i64 } %p, 0
  %hit = icmp ne ptr %pd, null
  br i1 %hit, label %pooled, label %nopool
pooled:
  ; Only an empty first buffer (capacity 1) has no bytes to copy.
  %pc = extractvalue { ptr, i64 } %p, 1
  %poolempty = icmp eq i64 %used, 0
  br i1 %poolempty, label %done, label %poolcopy
poolcopy:
  call void @llvm.memcpy.p0.p0.i64(ptr %pd, ptr %data, i64 %used, i1 false), !ferrozyme.tape.move !1
  br i1 %isinl, label %done, label %retire
retire:
  ; The old heap buffer leaves the statistics in `__fz_pool_put`, before the new one
  ; enters them (the peak counts what is held after the move, as before).
  call void @__fz_pool_put(ptr %data, i64 %cap)
  br label %done
done:
  call void @__fz_stats_add(i64 %pc)
  ret { ptr, i64 } %p
nopool:
  ; A slab buffer is copied into fresh memory (as an inline one), then given back.
  %pcap = select i1 %isslab, i64 1, i64 %cap
  %pcap2 = or i64 %pcap, %used
  %gcap = select i1 %isslab, i64 %pcap2, i64 %cap
  %g = call { ptr, i64 } @__fz_grow_plain(ptr %data, i64 %gcap, i64 %need)
  %gc = extractvalue { ptr, i64 } %g, 1
  %gdelta = sub i64 %gc, %oldheap
  call void @__fz_stats_add(i64 %gdelta)
  br i1 %isslab, label %slabout, label %plainout
slabout:
  call void @__fz_pool_put(ptr %data, i64 %cap)
  br label %plainout
plainout:
  ret { ptr, i64 } %g
}

define ptr @__fz_push(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !1
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !1
  %d0 = load ptr, ptr %s
  %new = add nuw nsw i64 %len, %n
  %full = icmp ugt i64 %new, %cap
  br i1 %full, label %grow, label %done, !prof !0
grow:
  %g = call { ptr, i64 } @__fz_grow(ptr %d0, i64 %cap, i64 %new)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  store ptr %gd, ptr %s
  store i64 %gc, ptr %capp, !ferrozyme.tape.int !1
  br label %done
done:
  %d = phi ptr [ %d0, %entry ], [ %gd, %grow ]
  store i64 %new, ptr %lenp, !ferrozyme.tape.int !1
  %slot = getelementptr inbounds i8, ptr %d, i64 %len
  ret ptr %slot
}

; A push into room reserved before the loop nest for all its pushes (one
; `__fz_reserve` of a sure bound: `reverse/fixed_tape.rs`): no capacity check, no
; growth path, so the header's data pointer and capacity stay loop-invariant.
define ptr @__fz_push_reserved(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !1
  %d = load ptr, ptr %s
  %new = add nuw nsw i64 %len, %n
  store i64 %new, ptr %lenp, !ferrozyme.tape.int !1
  %slot = getelementptr inbounds i8, ptr %d, i64 %len
  ret ptr %slot
}

define void @__fz_reserve(ptr %s, i64 %extra) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !1
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !1
  %d0 = load ptr, ptr %s
  %new = add nuw nsw i64 %len, %extra
  %full = icmp ugt i64 %new, %cap
  br i1 %full, label %grow, label %done
grow:
  %g = call { ptr, i64 } @__fz_grow(ptr %d0, i64 %cap, i64 %new)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  store ptr %gd, ptr %s
  store i64 %gc, ptr %capp, !ferrozyme.tape.int !1
  br label %done
done:
  ret void
}

define ptr @__fz_top(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !1
  %d = load ptr, ptr %s
  %off = sub nuw nsw i64 %len, %n
  %slot = getelementptr inbounds i8, ptr %d, i64 %off
  ret ptr %slot
}

define void @__fz_pop(ptr %s, i64 %n) alwaysinline {
entry:
  %lenp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lenp, !ferrozyme.tape.int !1
  %new = sub nuw nsw i64 %len, %n
  store i64 %new, ptr %lenp, !ferrozyme.tape.int !1
  ret void
}

define void @__fz_stack_free(ptr %s) alwaysinline {
entry:
  %capp = getelementptr inbounds i8, ptr %s, i64 16
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !1
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
  call void @llvm.memcpy.p0.p0.i64(ptr %nd1, ptr %data, i64 %used, i1 false), !ferrozyme.tape.move !1
  br label %done
re:
  %nd2 = call ptr @realloc(ptr %data, i64 %c4), !ferrozyme.tape.move !1
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
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !1
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

!0 = !{!"branch_weights", i32 1, i32 2000}
!1 = !{}
