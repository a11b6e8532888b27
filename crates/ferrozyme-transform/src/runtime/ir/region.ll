; Tape regions: one bump allocator per outermost derivative call, from which the record
; stacks of counted loops in split-mode functions take their whole room at once
; (`reverse/tape_region.rs`). A region is 32 bytes { ptr cur, ptr end, ptr chunk, i64 cap },
; zeroed when the outermost call starts: the free room [cur, end) of the newest chunk,
; and that chunk with its capacity as `__fz_grow` returned it (a slab buffer's marked by
; bit 1). Each chunk starts with 16 bytes { previous chunk, its capacity }. Claimed room
; never moves (a new chunk is taken when the current one is full), so a stack's data
; pointer may point into it; the outermost call's reverse sweep gives every chunk back
; at once (`__fz_region_release`) instead of one release per stack.
;
; Out of line on purpose: one call per loop nest in the generated code (a stack of its
; own reserved one `__fz_grow` call, four header fields and a release per loop).

declare { ptr, i64 } @__fz_grow(ptr, i64, i64)
declare { ptr, i64 } @__fz_grow_plain(ptr, i64, i64)
declare void @__fz_pool_put(ptr, i64)
declare void @free(ptr)
declare i64 @llvm.umax.i64(i64, i64)

; The size of the next chunk for a claim of %n bytes: room for the claim and the
; chunk's header, at least twice the current chunk (`__fz_grow` makes it 64 bytes at
; least; no larger floor: a recursive function's calls own a region each). A claim
; saturated to 2^62 bytes stays unsatisfiable, and the growth aborts.
define i64 @__fz_region_want(ptr %r, i64 %n) alwaysinline {
entry:
  %capp = getelementptr inbounds i8, ptr %r, i64 24
  %cap = load i64, ptr %capp, !ferrozyme.tape.int !0
  %used = and i64 %cap, -8
  %dbl = shl i64 %used, 1
  %n15 = add i64 %n, 31
  %need = and i64 %n15, -16
  %w = call i64 @llvm.umax.i64(i64 %dbl, i64 %need)
  ret i64 %w
}

; Makes chunk { %d, %c } the region's current one (linked to the previous) and claims
; %n bytes at its start.
define ptr @__fz_region_link(ptr %r, ptr %d, i64 %c, i64 %n) alwaysinline {
entry:
  %endp = getelementptr inbounds i8, ptr %r, i64 8
  %chp = getelementptr inbounds i8, ptr %r, i64 16
  %capp = getelementptr inbounds i8, ptr %r, i64 24
  %prev = load ptr, ptr %chp
  %pcap = load i64, ptr %capp, !ferrozyme.tape.int !0
  store ptr %prev, ptr %d
  %dcapp = getelementptr inbounds i8, ptr %d, i64 8
  store i64 %pcap, ptr %dcapp, !ferrozyme.tape.int !0
  store ptr %d, ptr %chp
  store i64 %c, ptr %capp, !ferrozyme.tape.int !0
  %size = and i64 %c, -8
  %end = getelementptr inbounds i8, ptr %d, i64 %size
  store ptr %end, ptr %endp
  %start = getelementptr inbounds i8, ptr %d, i64 16
  %next = getelementptr inbounds i8, ptr %start, i64 %n
  store ptr %next, ptr %r
  ret ptr %start
}

; %n bytes (a multiple of 8) of region %r: their address.
define ptr @__fz_region_claim(ptr %r, i64 %n) noinline {
entry:
  %endp = getelementptr inbounds i8, ptr %r, i64 8
  %cur = load ptr, ptr %r
  %end = load ptr, ptr %endp
  %ci = ptrtoint ptr %cur to i64
  %ei = ptrtoint ptr %end to i64
  %room = sub i64 %ei, %ci
  %full = icmp ugt i64 %n, %room
  br i1 %full, label %grow, label %fits, !prof !1
fits:
  %next = getelementptr inbounds i8, ptr %cur, i64 %n
  store ptr %next, ptr %r
  ret ptr %cur
grow:
  %want = call i64 @__fz_region_want(ptr %r, i64 %n)
  %g = call { ptr, i64 } @__fz_grow(ptr null, i64 1, i64 %want)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  %p = call ptr @__fz_region_link(ptr %r, ptr %gd, i64 %gc, i64 %n)
  ret ptr %p
}

; Every chunk of region %r back to the pool (or the slab).
define void @__fz_region_release(ptr %r) noinline {
entry:
  %chp = getelementptr inbounds i8, ptr %r, i64 16
  %capp = getelementptr inbounds i8, ptr %r, i64 24
  %d0 = load ptr, ptr %chp
  %c0 = load i64, ptr %capp, !ferrozyme.tape.int !0
  br label %loop
loop:
  %d = phi ptr [ %d0, %entry ], [ %next, %body ]
  %c = phi i64 [ %c0, %entry ], [ %nc, %body ]
  %none = icmp eq ptr %d, null
  br i1 %none, label %done, label %body
body:
  %next = load ptr, ptr %d
  %ncp = getelementptr inbounds i8, ptr %d, i64 8
  %nc = load i64, ptr %ncp, !ferrozyme.tape.int !0
  call void @__fz_pool_put(ptr %d, i64 %c)
  br label %loop
done:
  ret void
}

; The same with malloc/free, for generated code that is differentiated again (see
; `stack.ll`'s `__fz_grow_plain`).
define ptr @__fz_region_claim_plain(ptr %r, i64 %n) noinline {
entry:
  %endp = getelementptr inbounds i8, ptr %r, i64 8
  %cur = load ptr, ptr %r
  %end = load ptr, ptr %endp
  %ci = ptrtoint ptr %cur to i64
  %ei = ptrtoint ptr %end to i64
  %room = sub i64 %ei, %ci
  %full = icmp ugt i64 %n, %room
  br i1 %full, label %grow, label %fits
fits:
  %next = getelementptr inbounds i8, ptr %cur, i64 %n
  store ptr %next, ptr %r
  ret ptr %cur
grow:
  %want = call i64 @__fz_region_want(ptr %r, i64 %n)
  %g = call { ptr, i64 } @__fz_grow_plain(ptr null, i64 1, i64 %want)
  %gd = extractvalue { ptr, i64 } %g, 0
  %gc = extractvalue { ptr, i64 } %g, 1
  %p = call ptr @__fz_region_link(ptr %r, ptr %gd, i64 %gc, i64 %n)
  ret ptr %p
}

define void @__fz_region_release_plain(ptr %r) noinline {
entry:
  %chp = getelementptr inbounds i8, ptr %r, i64 16
  %d0 = load ptr, ptr %chp
  br label %loop
loop:
  %d = phi ptr [ %d0, %entry ], [ %next, %body ]
  %none = icmp eq ptr %d, null
  br i1 %none, label %done, label %body
body:
  %next = load ptr, ptr %d
  call void @free(ptr %d)
  br label %loop
done:
  ret void
}

!0 = !{}
!1 = !{!"branch_weights", i32 1, i32 2000}
