; The tapes of split mode (one per call of an augmented function: per call of a
; recursive function) come from a per-thread arena instead of malloc: a bump pointer in
; chunks of 64 KiB or more, so allocating is cheap and the reverse sweep reads tapes
; that lie next to each other. The arena is part of the thread's state (thread.ll, at
; offset 256):
;   arena { chunk, top, end, last }: the newest chunk, its free space [top, end), and
;     its newest block (null when the chunk holds none);
;   chunk header (32 bytes) { previous chunk, and its top, end and last };
;   block header (32 bytes) { owner arena, previous block of the chunk, size, freed }.
; Freeing marks the block; freeing the newest block pops it and every marked block
; below it (and empty chunks but the first), so any order of frees gives the memory back
; once the blocks after it are freed. A tape freed by another thread than its owner is
; only marked (atomically); the owner pops it.
;
; Chunks of the standard 64 KiB that a pop leaves empty are kept as the thread's spare
; chunks (state offsets 352-367, { ptr first spare, i64 count }, linked through the
; chunk's first word) for the next chunk the arena needs, at most 1024 of them (64 MiB);
; larger chunks (one tape over 64 KiB) and those over the cap go back to malloc, and the
; spares at thread exit (`__fz_arena_release`). Freed to malloc, the chunks of a gradient
; with many split tapes joined the top of the heap, which glibc then trimmed: the
; recursive FFT (131,070 tape blocks, 10 MB of chunks per gradient) took 1,480 page
; faults and a quarter of its time in the kernel on every call (bench/README "fft33").

declare ptr @__fz_state()
declare ptr @__fz_state_peek()
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @abort()
declare i64 @llvm.umax.i64(i64, i64)
declare void @__fz_stats_add(i64)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)

define ptr @__fz_tape_alloc(i64 %n) noinline {
entry:
  %st = call ptr @__fz_state()
  %arena = getelementptr inbounds i8, ptr %st, i64 256
  %n15 = add i64 %n, 15
  %n16 = and i64 %n15, -16
  %sz = add i64 %n16, 32
  %topp = getelementptr inbounds i8, ptr %arena, i64 8
  %endp = getelementptr inbounds i8, ptr %arena, i64 16
  %lastp = getelementptr inbounds i8, ptr %arena, i64 24
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
  %relp = getelementptr inbounds i8, ptr %st, i64 296
  store ptr @__fz_arena_release, ptr %relp
  %need = add i64 %sz, 32
  %csz = call i64 @llvm.umax.i64(i64 %need, i64 65536)
  %std = icmp eq i64 %csz, 65536
  %spp = getelementptr inbounds i8, ptr %st, i64 352
  %sp = load ptr, ptr %spp
  %hassp = icmp ne ptr %sp, null
  %reuse = and i1 %std, %hassp
  br i1 %reuse, label %spare, label %fresh
spare:
  %spn = load ptr, ptr %sp
  store ptr %spn, ptr %spp
  %nspp = getelementptr inbounds i8, ptr %st, i64 360
  %nsp = load i64, ptr %nspp
  %nsp1 = sub i64 %nsp, 1
  store i64 %nsp1, ptr %nspp
  br label %link
fresh:
  %m = call ptr @malloc(i64 %csz)
  %bad = icmp eq ptr %m, null
  br i1 %bad, label %oom, label %link
oom:
  call void @abort()
  unreachable
link:
  %c = phi ptr [ %sp, %spare ], [ %m, %fresh ]
  %prevc = load ptr, ptr %arena
  %last0 = load ptr, ptr %lastp
  store ptr %prevc, ptr %c
  %c1 = getelementptr inbounds i8, ptr %c, i64 8
  store ptr %top, ptr %c1
  %c2 = getelementptr inbounds i8, ptr %c, i64 16
  store ptr %end, ptr %c2
  %c3 = getelementptr inbounds i8, ptr %c, i64 24
  store ptr %last0, ptr %c3
  store ptr %c, ptr %arena
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
  store ptr %arena, ptr %blk
  %b1 = getelementptr inbounds i8, ptr %blk, i64 8
  store ptr %prevb, ptr %b1
  %b2 = getelementptr inbounds i8, ptr %blk, i64 16
  store i64 %sz, ptr %b2
  %b3 = getelementptr inbounds i8, ptr %blk, i64 24
  store atomic i64 0, ptr %b3 monotonic, align 8
  call void @__fz_stats_add(i64 %sz)
  %p = getelementptr inbounds i8, ptr %blk, i64 32
  ret ptr %p
}

define void @__fz_tape_free(ptr %p) noinline {
entry:
  %blk = getelementptr inbounds i8, ptr %p, i64 -32
  %owner = load ptr, ptr %blk
  %flag = getelementptr inbounds i8, ptr %blk, i64 24
  %szp = getelementptr inbounds i8, ptr %blk, i64 16
  %sz = load i64, ptr %szp
  %neg = sub i64 0, %sz
  call void @__fz_stats_add(i64 %neg)
  store atomic i64 1, ptr %flag release, align 8
  ; The reverse sweep frees tapes in the reverse order of their allocation, so it reads
  ; the arena downwards, and the blocks below this one are the next it needs: a prefetch
  ; 8 KiB down hides the misses of a reverse sweep over megabytes of small tapes, which
  ; the hardware prefetcher left exposed (the recursive FFT: -10% of the gradient's CPU
  ; time, bench/README "fft33"). Not `inbounds`: the address may lie below the chunk (a
  ; prefetch never faults).
  %ahead = getelementptr i8, ptr %blk, i64 -8192
  call void @llvm.prefetch.p0(ptr %ahead, i32 0, i32 3, i32 1)
  %st = call ptr @__fz_state_peek()
  %arena = getelementptr inbounds i8, ptr %st, i64 256
  %have = icmp ne ptr %st, null
  %same = icmp eq ptr %owner, %arena
  %mine = and i1 %have, %same
  br i1 %mine, label %own, label %done
own:
  call void @__fz_arena_pop(ptr %arena)
  br label %done
done:
  ret void
}

; Pops the marked blocks at the top of an arena, and chunks left empty (except the
; first).
define void @__fz_arena_pop(ptr %arena) noinline {
entry:
  %topp = getelementptr inbounds i8, ptr %arena, i64 8
  %endp = getelementptr inbounds i8, ptr %arena, i64 16
  %lastp = getelementptr inbounds i8, ptr %arena, i64 24
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
  %c = load ptr, ptr %arena
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
  %cend = load ptr, ptr %endp
  store ptr %prevc, ptr %arena
  store ptr %stop, ptr %topp
  store ptr %send, ptr %endp
  store ptr %slast, ptr %lastp
  call void @__fz_arena_spare(ptr %arena, ptr %c, ptr %cend)
  br label %loop
done:
  ret void
}

; A chunk [%c, %end) left empty: kept among the spares when it has the standard size
; and there are fewer than 1024, else freed.
define void @__fz_arena_spare(ptr %arena, ptr %c, ptr %end) {
entry:
  %ci = ptrtoint ptr %c to i64
  %ei = ptrtoint ptr %end to i64
  %csz = sub i64 %ei, %ci
  %std = icmp eq i64 %csz, 65536
  %nspp = getelementptr inbounds i8, ptr %arena, i64 104
  %nsp = load i64, ptr %nspp
  %room = icmp ult i64 %nsp, 1024
  %keep = and i1 %std, %room
  br i1 %keep, label %push, label %drop
push:
  %spp = getelementptr inbounds i8, ptr %arena, i64 96
  %sp = load ptr, ptr %spp
  store ptr %sp, ptr %c
  store ptr %c, ptr %spp
  %nsp1 = add i64 %nsp, 1
  store i64 %nsp1, ptr %nspp
  ret void
drop:
  call void @free(ptr %c)
  ret void
}

; At thread exit (called by the state's destructor): the spare chunks and the arena's
; chunks go back to malloc. Chunks that still hold tapes nobody freed are left alone
; (their tapes may be reversed by another thread; their owner pointer is then only
; compared, never read).
define void @__fz_arena_release(ptr %arena) {
entry:
  call void @__fz_arena_pop(ptr %arena)
  %spp = getelementptr inbounds i8, ptr %arena, i64 96
  %sp0 = load ptr, ptr %spp
  br label %spares
spares:
  %s = phi ptr [ %sp0, %entry ], [ %sn, %frees ]
  %snull = icmp eq ptr %s, null
  br i1 %snull, label %sparesdone, label %frees
frees:
  %sn = load ptr, ptr %s
  call void @free(ptr %s)
  br label %spares
sparesdone:
  store ptr null, ptr %spp
  %nspp = getelementptr inbounds i8, ptr %arena, i64 104
  store i64 0, ptr %nspp
  %lastp = getelementptr inbounds i8, ptr %arena, i64 24
  %last = load ptr, ptr %lastp
  %c = load ptr, ptr %arena
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
  br label %done
done:
  ret void
}

!1 = !{!"branch_weights", i32 2000, i32 1}
