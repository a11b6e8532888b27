; Stack buffers freed by the reverse sweep are kept per thread for the stacks of later
; derivative calls (a gradient is usually computed many times): reusing memory that is
; already mapped avoids page faults and the copies of geometric growth. The pool is the
; first 256 bytes of the thread's state (thread.ll): 16 entries { data, cap } (cap 0:
; empty); buffers under 64 KiB (malloc recycles those well) or over 1 GiB are not kept,
; nor one that would bring the pool over 2 GiB in all. A gradient of GMM's largest input
; (10k points, d 32, K 200) tapes ~580 MB: with the old 256 MiB limit every call mapped it
; afresh, 125,000 page faults and 0.37 s of system time against 1.27 s of user time
; (bench/README "gmm17"). Kept, the memory stays mapped between calls: a thread that
; computed such a gradient holds what it held during it, never more than 2 GiB.
;
; A stack's first buffer of up to 32 KiB comes from the thread's *slab* instead (state
; offsets 304-351: { ptr chunk, ptr top, ptr end, i64 count, ptr spares, i64 nspares }):
; bump allocation in chunks of 1 MiB, so that consecutive buffers lie next to each other
; as malloc's fresh memory does (the hardware prefetcher follows both sweeps through
; them), without malloc's bookkeeping. A recursive function's augmented calls reserve one
; such buffer each (`fixed_tape.rs`), tens of thousands per gradient (the recursive FFT:
; 65,534), all held until the reverse sweep: malloc's per-thread cache overflows and
; each cost hundreds of instructions (bench/README.md "fft14"; free lists per size class
; were tried there and lost: reused buffers lie scattered, and taking one is a cache
; miss). A slab buffer is marked by bit 1 of its capacity (capacities are otherwise
; multiples of 8, an inline buffer's plus 1, so `len + n > cap` still tests the room
; exactly) and has a 16-byte header { chunk }. A chunk's header (64 bytes) { i64 balance,
; ptr next spare } counts frees down (atomically: another thread may free) and, when the
; chunk stops being the current one, its allocations up: whoever brings it back to zero
; after that puts it among the spares of its own thread (at most 16; the rest go back to
; malloc). A buffer still live keeps its chunk.

declare ptr @__fz_state_peek()
declare ptr @__fz_state()
declare void @__fz_stats_add(i64)
declare void @free(ptr)
declare ptr @malloc(i64)
declare void @abort()
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
define void @__fz_pool_put(ptr %d, i64 %mcap) noinline {
entry:
  %cap = and i64 %mcap, -8
  %neg = sub i64 0, %cap
  call void @__fz_stats_add(i64 %neg)
  %mark = and i64 %mcap, 2
  %slab = icmp ne i64 %mark, 0
  br i1 %slab, label %toslab, label %heap
toslab:
  call void @__fz_slab_put(ptr %d)
  ret void
heap:
  %huge = icmp ugt i64 %cap, 1073741824
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
  %tot = phi i64 [ 0, %state ], [ %tot2, %loop ]
  %cp = getelementptr inbounds [16 x { ptr, i64 }], ptr %pool, i64 0, i64 %i, i32 1
  %c = load i64, ptr %cp
  %lt = icmp ult i64 %c, %mc
  %mi2 = select i1 %lt, i64 %i, i64 %mi
  %mc2 = select i1 %lt, i64 %c, i64 %mc
  %tot2 = add i64 %tot, %c
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, 16
  br i1 %end, label %out, label %loop
out:
  %bigger = icmp ult i64 %mc2, %cap
  %rest = sub i64 %tot2, %mc2
  %after = add i64 %rest, %cap
  %fits = icmp ule i64 %after, 2147483648
  %keep = and i1 %bigger, %fits
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

; At thread exit (called by the state's destructor): the pooled buffers and the spare
; slab chunks are freed (the current chunk too when nothing in it is live).
define void @__fz_pool_release(ptr %pool) {
entry:
  call void @__fz_slab_retire(ptr %pool)
  %spp = getelementptr inbounds i8, ptr %pool, i64 336
  %sp0 = load ptr, ptr %spp
  br label %spares
spares:
  %c = phi ptr [ %sp0, %entry ], [ %cn, %freec ]
  %cnull = icmp eq ptr %c, null
  br i1 %cnull, label %sparesdone, label %freec
freec:
  %cnp = getelementptr inbounds i8, ptr %c, i64 8
  %cn = load ptr, ptr %cnp
  call void @free(ptr %c)
  br label %spares
sparesdone:
  store ptr null, ptr %spp
  %nspp = getelementptr inbounds i8, ptr %pool, i64 344
  store i64 0, ptr %nspp
  br label %loop
loop:
  %i = phi i64 [ 0, %sparesdone ], [ %i1, %loop ]
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

; A slab buffer of %n bytes (a multiple of 16, at most 32 KiB) from this thread's current
; chunk; a spare or new chunk when it has no room.
define ptr @__fz_slab_take(i64 %n) noinline {
entry:
  %st = call ptr @__fz_state()
  %relp = getelementptr inbounds i8, ptr %st, i64 288
  store ptr @__fz_pool_release, ptr %relp
  %sz = add i64 %n, 16
  %topp = getelementptr inbounds i8, ptr %st, i64 312
  %endp = getelementptr inbounds i8, ptr %st, i64 320
  %top = load ptr, ptr %topp
  %end = load ptr, ptr %endp
  %ti = ptrtoint ptr %top to i64
  %ei = ptrtoint ptr %end to i64
  %room = sub i64 %ei, %ti
  %fits = icmp ule i64 %sz, %room
  br i1 %fits, label %bump, label %chunk, !prof !0
chunk:
  call void @__fz_slab_retire(ptr %st)
  %spp = getelementptr inbounds i8, ptr %st, i64 336
  %sp = load ptr, ptr %spp
  %has = icmp ne ptr %sp, null
  br i1 %has, label %reuse, label %fresh
reuse:
  %spnp = getelementptr inbounds i8, ptr %sp, i64 8
  %spn = load ptr, ptr %spnp
  store ptr %spn, ptr %spp
  %nspp = getelementptr inbounds i8, ptr %st, i64 344
  %nsp = load i64, ptr %nspp
  %nsp1 = sub i64 %nsp, 1
  store i64 %nsp1, ptr %nspp
  br label %setup
fresh:
  %c = call ptr @malloc(i64 1048576)
  %bad = icmp eq ptr %c, null
  br i1 %bad, label %oom, label %setup
oom:
  call void @abort()
  unreachable
setup:
  %ch = phi ptr [ %sp, %reuse ], [ %c, %fresh ]
  store atomic i64 0, ptr %ch monotonic, align 8
  %curp = getelementptr inbounds i8, ptr %st, i64 304
  store ptr %ch, ptr %curp
  %cend = getelementptr inbounds i8, ptr %ch, i64 1048576
  store ptr %cend, ptr %endp
  %cdata = getelementptr inbounds i8, ptr %ch, i64 64
  br label %bump
bump:
  %b = phi ptr [ %top, %entry ], [ %cdata, %setup ]
  %nt = getelementptr inbounds i8, ptr %b, i64 %sz
  store ptr %nt, ptr %topp
  %curp2 = getelementptr inbounds i8, ptr %st, i64 304
  %cur = load ptr, ptr %curp2
  store ptr %cur, ptr %b
  %cntp = getelementptr inbounds i8, ptr %st, i64 328
  %cnt = load i64, ptr %cntp
  %cnt1 = add i64 %cnt, 1
  store i64 %cnt1, ptr %cntp
  %data = getelementptr inbounds i8, ptr %b, i64 16
  ret ptr %data
}

; The current chunk takes no more buffers: its allocations join its balance, and it is
; recycled at once when all of them were freed.
define void @__fz_slab_retire(ptr %st) {
entry:
  %curp = getelementptr inbounds i8, ptr %st, i64 304
  %cur = load ptr, ptr %curp
  %none = icmp eq ptr %cur, null
  br i1 %none, label %done, label %retire
retire:
  %cntp = getelementptr inbounds i8, ptr %st, i64 328
  %cnt = load i64, ptr %cntp
  %old = atomicrmw add ptr %cur, i64 %cnt acq_rel, align 8
  %now = add i64 %old, %cnt
  store ptr null, ptr %curp
  %topp = getelementptr inbounds i8, ptr %st, i64 312
  store ptr null, ptr %topp
  %endp = getelementptr inbounds i8, ptr %st, i64 320
  store ptr null, ptr %endp
  store i64 0, ptr %cntp
  %empty = icmp eq i64 %now, 0
  br i1 %empty, label %recycle, label %done
recycle:
  call void @__fz_slab_recycle(ptr %st, ptr %cur)
  br label %done
done:
  ret void
}

; An empty chunk goes among this thread's spares, or back to malloc when there are 16.
define void @__fz_slab_recycle(ptr %st, ptr %ch) {
entry:
  %nspp = getelementptr inbounds i8, ptr %st, i64 344
  %nsp = load i64, ptr %nspp
  %full = icmp uge i64 %nsp, 16
  br i1 %full, label %drop, label %keep
keep:
  %spp = getelementptr inbounds i8, ptr %st, i64 336
  %sp = load ptr, ptr %spp
  %nxp = getelementptr inbounds i8, ptr %ch, i64 8
  store ptr %sp, ptr %nxp
  store ptr %ch, ptr %spp
  %nsp1 = add i64 %nsp, 1
  store i64 %nsp1, ptr %nspp
  ret void
drop:
  call void @free(ptr %ch)
  ret void
}

; A slab buffer is given back (by any thread): the last one of a retired chunk recycles
; the chunk in this thread.
define void @__fz_slab_put(ptr %d) {
entry:
  %h = getelementptr inbounds i8, ptr %d, i64 -16
  %ch = load ptr, ptr %h
  %old = atomicrmw sub ptr %ch, i64 1 acq_rel, align 8
  %last = icmp eq i64 %old, 1
  br i1 %last, label %recycle, label %done
recycle:
  %st = call ptr @__fz_state()
  %relp = getelementptr inbounds i8, ptr %st, i64 288
  store ptr @__fz_pool_release, ptr %relp
  call void @__fz_slab_recycle(ptr %st, ptr %ch)
  br label %done
done:
  ret void
}

!0 = !{!"branch_weights", i32 2000, i32 1}
