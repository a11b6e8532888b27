; The shadows derivatives leave to globals, zeroed when the next top-level derivative
; starts.
;
; A derivative that builds a function-local static table (the rows of a `static
; std::vector<std::vector<double>>`, a `static double *buf` grown with `realloc`) gives
; each block a shadow that lives on with the primal; the reverse sweeps accumulate
; adjoints there, and the next derivative would read them as tangents (tests/cxx/501). A
; top-level derivative starts from zero derivatives of every global, so the float bytes of
; every such shadow still reachable from a global are zeroed then; a shadow reachable only
; from the caller's own memory (an object passed with enzyme_dup) is the caller's business
; and is left alone.
;
; * `__fz_shadows_keep` (from `__fz_shadow_settle`): a replayed shadow whose primal outlived
;   the derivative becomes a candidate { ptr shadow, ptr primal, i64 bytes, i64 layout,
;   i64 mark, i64 seq } (48 bytes) in one process-wide list (a spin lock guards it: the
;   statics are the process's).
; * `__fz_shadows_forget`: a shadow released by the table (an adopted one) leaves the list.
; * `__fz_shadows_kept_walk(roots, k)` (from the pass's `__fz_kept.zero`, called where a
;   top-level derivative zeroes the shadow globals, `contexts::zero_all`): `roots` are `k`
;   records { ptr global, ptr shadow global, i64 bytes } of the globals holding pointers.
;   The list is sorted by shadow address (a block overlapping a newer one is stale: its
;   memory was freed and reused, and it goes). From each root, every 8-byte word whose
;   shadow word points into a listed shadow at the offset its primal word points into
;   that block's primal is followed: a pair both derivatives and program made together,
;   not an adjoint that happens to look like an address. Each block reached has its floats
;   zeroed and its words followed in turn (a work list; each block once per walk). Blocks
;   not reached leave the list. Cost: the sort, plus a binary search per word of the
;   blocks that hold pointers: O(size of those shadows), nothing per access.
; * `layout` (`reverse/copy_layout.rs`, `kept_layout`): 0 floats only (zeroed whole), 1 no
;   floats (followed, not zeroed), 2 nothing certain (every word but what looks like a
;   pointer is zeroed: `__fz_shadows_kept_zero`), else records of floats beside pointers:
;   bits 0-7 the float's size, 8-31 the record's length, 32-63 the mask of its float
;   slots.
; * Nothing happens until the pass sets `__fz_shadows_kept_on` (a module whose derivatives
;   leave shadows where globals can reach them): otherwise the list would only grow.

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @abort()
declare void @qsort(ptr, i64, i64, ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

@__fz_shadows_kept_on = internal global i8 0
@__fz_shadows_kept = internal global { ptr, i64, i64 } zeroinitializer
@__fz_shadows_kept_lock = internal global i32 0
@__fz_shadows_kept_dirty = internal global i8 0
@__fz_shadows_kept_epoch = internal global i64 0
@__fz_shadows_kept_seq = internal global i64 0

define void @__fz_shadows_kept_acquire() {
entry:
  br label %try
try:
  %old = atomicrmw xchg ptr @__fz_shadows_kept_lock, i32 1 acquire
  %busy = icmp ne i32 %old, 0
  br i1 %busy, label %try, label %done
done:
  ret void
}

define void @__fz_shadows_kept_unlock() {
entry:
  store atomic i32 0, ptr @__fz_shadows_kept_lock release, align 4
  ret void
}

; A candidate: shadow %s of primal %p, %n bytes.
define void @__fz_shadows_keep(ptr %p, ptr %s, i64 %n, i64 %layout) {
entry:
  %on = load i8, ptr @__fz_shadows_kept_on
  %off = icmp eq i8 %on, 0
  %null = icmp eq ptr %s, null
  %skip = or i1 %off, %null
  br i1 %skip, label %done, label %add
add:
  call void @__fz_shadows_kept_acquire()
  %lp = getelementptr inbounds i8, ptr @__fz_shadows_kept, i64 8
  %cp = getelementptr inbounds i8, ptr @__fz_shadows_kept, i64 16
  %len = load i64, ptr %lp
  %cap = load i64, ptr %cp
  %full = icmp eq i64 %len, %cap
  br i1 %full, label %grow, label %put
grow:
  %empty = icmp eq i64 %cap, 0
  %dbl = shl i64 %cap, 1
  %nc = select i1 %empty, i64 16, i64 %dbl
  %bytes = mul i64 %nc, 48
  %nd = call ptr @malloc(i64 %bytes)
  %oom = icmp eq ptr %nd, null
  br i1 %oom, label %fail, label %grown
fail:
  call void @abort()
  unreachable
grown:
  %old = load ptr, ptr @__fz_shadows_kept
  %ob = mul i64 %len, 48
  call void @llvm.memmove.p0.p0.i64(ptr %nd, ptr %old, i64 %ob, i1 false)
  call void @free(ptr %old)
  store ptr %nd, ptr @__fz_shadows_kept
  store i64 %nc, ptr %cp
  br label %put
put:
  %d = load ptr, ptr @__fz_shadows_kept
  %eo = mul i64 %len, 48
  %e = getelementptr inbounds i8, ptr %d, i64 %eo
  store ptr %s, ptr %e
  %ep = getelementptr inbounds i8, ptr %e, i64 8
  store ptr %p, ptr %ep
  %en = getelementptr inbounds i8, ptr %e, i64 16
  store i64 %n, ptr %en
  %el = getelementptr inbounds i8, ptr %e, i64 24
  store i64 %layout, ptr %el
  %em = getelementptr inbounds i8, ptr %e, i64 32
  store i64 0, ptr %em
  %seq = load i64, ptr @__fz_shadows_kept_seq
  %seq1 = add i64 %seq, 1
  store i64 %seq1, ptr @__fz_shadows_kept_seq
  %es = getelementptr inbounds i8, ptr %e, i64 40
  store i64 %seq1, ptr %es
  %len1 = add i64 %len, 1
  store i64 %len1, ptr %lp
  store i8 1, ptr @__fz_shadows_kept_dirty
  call void @__fz_shadows_kept_unlock()
  br label %done
done:
  ret void
}

; The shadow %s is released: its entries go (the order kept, so the list stays sorted).
define void @__fz_shadows_forget(ptr %s) {
entry:
  %lp = getelementptr inbounds i8, ptr @__fz_shadows_kept, i64 8
  %len0 = load atomic i64, ptr %lp monotonic, align 8
  %none = icmp eq i64 %len0, 0
  br i1 %none, label %done, label %lock
lock:
  call void @__fz_shadows_kept_acquire()
  %d = load ptr, ptr @__fz_shadows_kept
  %len = load i64, ptr %lp
  br label %loop
loop:
  %i = phi i64 [ 0, %lock ], [ %i1, %step ]
  %w = phi i64 [ 0, %lock ], [ %w1, %step ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %end
body:
  %eo = mul i64 %i, 48
  %e = getelementptr inbounds i8, ptr %d, i64 %eo
  %es = load ptr, ptr %e
  %gone = icmp eq ptr %es, %s
  br i1 %gone, label %step, label %keep
keep:
  %wo = mul i64 %w, 48
  %we = getelementptr inbounds i8, ptr %d, i64 %wo
  call void @llvm.memmove.p0.p0.i64(ptr %we, ptr %e, i64 48, i1 false)
  %wk = add i64 %w, 1
  br label %step
step:
  %w1 = phi i64 [ %w, %body ], [ %wk, %keep ]
  %i1 = add i64 %i, 1
  br label %loop
end:
  store i64 %w, ptr %lp
  call void @__fz_shadows_kept_unlock()
  br label %done
done:
  ret void
}

; qsort's order: by shadow address.
define i32 @__fz_shadows_kept_cmp(ptr %a, ptr %b) {
entry:
  %pa = load ptr, ptr %a
  %pb = load ptr, ptr %b
  %ia = ptrtoint ptr %pa to i64
  %ib = ptrtoint ptr %pb to i64
  %gt = icmp ugt i64 %ia, %ib
  %lt = icmp ult i64 %ia, %ib
  %g = zext i1 %gt to i32
  %l = zext i1 %lt to i32
  %r = sub i32 %g, %l
  ret i32 %r
}

; The end of entry %e's shadow (at least one byte past its start).
define i64 @__fz_shadows_kept_end(ptr %e) {
entry:
  %s = load ptr, ptr %e
  %si = ptrtoint ptr %s to i64
  %np = getelementptr inbounds i8, ptr %e, i64 16
  %n = load i64, ptr %np
  %zero = icmp eq i64 %n, 0
  %n1 = select i1 %zero, i64 1, i64 %n
  %end = add i64 %si, %n1
  ret i64 %end
}

; Sorts the list by shadow address; of two overlapping entries the older goes.
define void @__fz_shadows_kept_sort(ptr %d, ptr %lp) {
entry:
  %len = load i64, ptr %lp
  call void @qsort(ptr %d, i64 %len, i64 48, ptr @__fz_shadows_kept_cmp)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %step ]
  %w = phi i64 [ 0, %entry ], [ %w1, %step ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %end
body:
  %eo = mul i64 %i, 48
  %e = getelementptr inbounds i8, ptr %d, i64 %eo
  %first = icmp eq i64 %w, 0
  br i1 %first, label %append, label %check
check:
  %lo = sub i64 %w, 1
  %lbo = mul i64 %lo, 48
  %last = getelementptr inbounds i8, ptr %d, i64 %lbo
  %lend = call i64 @__fz_shadows_kept_end(ptr %last)
  %es = load ptr, ptr %e
  %esi = ptrtoint ptr %es to i64
  %overlap = icmp ult i64 %esi, %lend
  br i1 %overlap, label %older, label %append
older:
  %lsp = getelementptr inbounds i8, ptr %last, i64 40
  %lseq = load i64, ptr %lsp
  %esp = getelementptr inbounds i8, ptr %e, i64 40
  %eseq = load i64, ptr %esp
  %newer = icmp ugt i64 %eseq, %lseq
  br i1 %newer, label %replace, label %drop
replace:
  call void @llvm.memmove.p0.p0.i64(ptr %last, ptr %e, i64 48, i1 false)
  br label %drop
drop:
  br label %step
append:
  %wo = mul i64 %w, 48
  %we = getelementptr inbounds i8, ptr %d, i64 %wo
  call void @llvm.memmove.p0.p0.i64(ptr %we, ptr %e, i64 48, i1 false)
  %wk = add i64 %w, 1
  br label %step
step:
  %w1 = phi i64 [ %w, %drop ], [ %wk, %append ]
  %i1 = add i64 %i, 1
  br label %loop
end:
  store i64 %w, ptr %lp
  ret void
}

; The index of the entry whose shadow holds address %q, or -1 (a binary search).
define i64 @__fz_shadows_kept_find(ptr %d, i64 %len, i64 %q) {
entry:
  br label %loop
loop:
  ; The answer, if any, is below %hi and at or above %lo.
  %lo = phi i64 [ 0, %entry ], [ %lo1, %step ]
  %hi = phi i64 [ %len, %entry ], [ %hi1, %step ]
  %more = icmp slt i64 %lo, %hi
  br i1 %more, label %body, label %end
body:
  %span = sub i64 %hi, %lo
  %half = lshr i64 %span, 1
  %mid = add i64 %lo, %half
  %mo = mul i64 %mid, 48
  %m = getelementptr inbounds i8, ptr %d, i64 %mo
  %ms = load ptr, ptr %m
  %msi = ptrtoint ptr %ms to i64
  %above = icmp ugt i64 %msi, %q
  %mid1 = add i64 %mid, 1
  %lo1 = select i1 %above, i64 %lo, i64 %mid1
  %hi1 = select i1 %above, i64 %mid, i64 %hi
  br label %step
step:
  br label %loop
end:
  ; %lo: the first entry starting above %q; the one before it is the candidate.
  %any = icmp sgt i64 %lo, 0
  br i1 %any, label %test, label %miss
test:
  %c = sub i64 %lo, 1
  %co = mul i64 %c, 48
  %ce = getelementptr inbounds i8, ptr %d, i64 %co
  %cend = call i64 @__fz_shadows_kept_end(ptr %ce)
  %in = icmp ult i64 %q, %cend
  br i1 %in, label %hit, label %miss
hit:
  ret i64 %c
miss:
  ret i64 -1
}

; Follows the words of the %n bytes at primal %p / shadow %s: each pair pointing at the
; same offset of a listed block's primal and shadow marks the block (with %epoch) and
; pushes it on the work list %stack (its length at %sp).
define void @__fz_shadows_kept_scan(ptr %p, ptr %s, i64 %n, ptr %d, i64 %len, i64 %epoch, ptr %stack, ptr %sp) {
entry:
  %words = lshr i64 %n, 3
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %next ]
  %more = icmp ult i64 %k, %words
  br i1 %more, label %body, label %done
body:
  %ko = shl i64 %k, 3
  %sa = getelementptr inbounds i8, ptr %s, i64 %ko
  %sw = load i64, ptr %sa, align 1
  %pa = getelementptr inbounds i8, ptr %p, i64 %ko
  %pw = load i64, ptr %pa, align 1
  %null = icmp eq i64 %sw, 0
  %same = icmp eq i64 %sw, %pw
  %no = or i1 %null, %same
  br i1 %no, label %next, label %look
look:
  %i = call i64 @__fz_shadows_kept_find(ptr %d, i64 %len, i64 %sw)
  %miss = icmp slt i64 %i, 0
  br i1 %miss, label %next, label %pair
pair:
  %eo = mul i64 %i, 48
  %e = getelementptr inbounds i8, ptr %d, i64 %eo
  %es = load ptr, ptr %e
  %esi = ptrtoint ptr %es to i64
  %at = sub i64 %sw, %esi
  %epp = getelementptr inbounds i8, ptr %e, i64 8
  %ep = load ptr, ptr %epp
  %epi = ptrtoint ptr %ep to i64
  %want = add i64 %epi, %at
  %match = icmp eq i64 %want, %pw
  br i1 %match, label %seen, label %next
seen:
  %mp = getelementptr inbounds i8, ptr %e, i64 32
  %m = load i64, ptr %mp
  %again = icmp eq i64 %m, %epoch
  br i1 %again, label %next, label %push
push:
  store i64 %epoch, ptr %mp
  %top = load i64, ptr %sp
  %slot = getelementptr inbounds i64, ptr %stack, i64 %top
  store i64 %i, ptr %slot
  %top1 = add i64 %top, 1
  store i64 %top1, ptr %sp
  br label %next
next:
  %k1 = add i64 %k, 1
  br label %loop
done:
  ret void
}

; Zeroes the floats of the %n bytes of shadow %s (of primal %p) as %layout describes them.
define void @__fz_shadows_kept_zero(ptr %s, ptr %p, i64 %n, i64 %layout) {
entry:
  %whole = icmp eq i64 %layout, 0
  br i1 %whole, label %all, label %guess
all:
  call void @llvm.memset.p0.i64(ptr %s, i8 0, i64 %n, i1 false)
  ret void
guess:
  %unknown = icmp eq i64 %layout, 2
  br i1 %unknown, label %words, label %strided
words:
  ; Nothing certain about the contents: every word but the pointers goes. A pointer is a
  ; word equal to the primal's (a constant pointer) or a user-space address at or above
  ; 4 GiB (shadows are heap memory; what a float adjoint holding such a bit pattern would
  ; be is a positive denormal, in a double or the upper float of a pair).
  %w = phi i64 [ 0, %guess ], [ %w1, %wnext ]
  %wo = shl i64 %w, 3
  %wend = add i64 %wo, 8
  %win = icmp ule i64 %wend, %n
  br i1 %win, label %wbody, label %tail
wbody:
  %sa = getelementptr inbounds i8, ptr %s, i64 %wo
  %sw = load i64, ptr %sa, align 1
  %pa = getelementptr inbounds i8, ptr %p, i64 %wo
  %pw = load i64, ptr %pa, align 1
  %same = icmp eq i64 %sw, %pw
  %hi = icmp uge i64 %sw, 4294967296
  %lo = icmp ult i64 %sw, 140737488355328
  %addr = and i1 %hi, %lo
  %keep = or i1 %same, %addr
  br i1 %keep, label %wnext, label %clearw
clearw:
  store i64 0, ptr %sa, align 1
  br label %wnext
wnext:
  %w1 = add i64 %w, 1
  br label %words
tail:
  %rest = sub i64 %n, %wo
  %tp = getelementptr inbounds i8, ptr %s, i64 %wo
  call void @llvm.memset.p0.i64(ptr %tp, i8 0, i64 %rest, i1 false)
  ret void
strided:
  %fsz = and i64 %layout, 255
  %lp = lshr i64 %layout, 8
  %period = and i64 %lp, 16777215
  %mask = lshr i64 %layout, 32
  %known = icmp ugt i64 %fsz, 1
  %rec = icmp ne i64 %period, 0
  %go = and i1 %known, %rec
  br i1 %go, label %records, label %done
records:
  %r = phi i64 [ 0, %strided ], [ %r1, %rnext ]
  %rend = add i64 %r, %period
  %fits = icmp ule i64 %rend, %n
  br i1 %fits, label %slots, label %done
slots:
  %k = phi i64 [ 0, %records ], [ %k1, %snext ]
  %ko = mul i64 %k, %fsz
  %inrec = icmp ult i64 %ko, %period
  %k32 = icmp ult i64 %k, 32
  %slot_ok = and i1 %inrec, %k32
  br i1 %slot_ok, label %bit, label %rnext
bit:
  %b = lshr i64 %mask, %k
  %b1 = and i64 %b, 1
  %float = icmp ne i64 %b1, 0
  br i1 %float, label %clear, label %snext
clear:
  %at = add i64 %r, %ko
  %q = getelementptr inbounds i8, ptr %s, i64 %at
  call void @llvm.memset.p0.i64(ptr %q, i8 0, i64 %fsz, i1 false)
  br label %snext
snext:
  %k1 = add i64 %k, 1
  br label %slots
rnext:
  %r1 = add i64 %r, %period
  br label %records
done:
  ret void
}

; The walk of the module essay from the %k roots { ptr global, ptr shadow, i64 bytes }.
define void @__fz_shadows_kept_walk(ptr %roots, i64 %k) {
entry:
  %lp = getelementptr inbounds i8, ptr @__fz_shadows_kept, i64 8
  %len0 = load atomic i64, ptr %lp monotonic, align 8
  %none = icmp eq i64 %len0, 0
  br i1 %none, label %done, label %lock
lock:
  call void @__fz_shadows_kept_acquire()
  %ep0 = load i64, ptr @__fz_shadows_kept_epoch
  %epoch = add i64 %ep0, 1
  store i64 %epoch, ptr @__fz_shadows_kept_epoch
  %d = load ptr, ptr @__fz_shadows_kept
  %dirty = load i8, ptr @__fz_shadows_kept_dirty
  %unsorted = icmp ne i8 %dirty, 0
  br i1 %unsorted, label %sort, label %sorted
sort:
  call void @__fz_shadows_kept_sort(ptr %d, ptr %lp)
  store i8 0, ptr @__fz_shadows_kept_dirty
  br label %sorted
sorted:
  %len = load i64, ptr %lp
  %sb = shl i64 %len, 3
  %sb1 = add i64 %sb, 16
  %stack = call ptr @malloc(i64 %sb1)
  %oom = icmp eq ptr %stack, null
  br i1 %oom, label %fail, label %ready
fail:
  call void @abort()
  unreachable
ready:
  %sp = getelementptr inbounds i8, ptr %stack, i64 %sb
  store i64 0, ptr %sp
  br label %roots_loop
roots_loop:
  %r = phi i64 [ 0, %ready ], [ %r1, %root ]
  %rmore = icmp slt i64 %r, %k
  br i1 %rmore, label %root, label %work
root:
  %ro = mul i64 %r, 24
  %re = getelementptr inbounds i8, ptr %roots, i64 %ro
  %g = load ptr, ptr %re
  %sgp = getelementptr inbounds i8, ptr %re, i64 8
  %sg = load ptr, ptr %sgp
  %gnp = getelementptr inbounds i8, ptr %re, i64 16
  %gn = load i64, ptr %gnp
  call void @__fz_shadows_kept_scan(ptr %g, ptr %sg, i64 %gn, ptr %d, i64 %len, i64 %epoch, ptr %stack, ptr %sp)
  %r1 = add i64 %r, 1
  br label %roots_loop
work:
  %top = load i64, ptr %sp
  %empty = icmp eq i64 %top, 0
  br i1 %empty, label %prune, label %pop
pop:
  %top1 = sub i64 %top, 1
  store i64 %top1, ptr %sp
  %slot = getelementptr inbounds i64, ptr %stack, i64 %top1
  %i = load i64, ptr %slot
  %eo = mul i64 %i, 48
  %e = getelementptr inbounds i8, ptr %d, i64 %eo
  %s = load ptr, ptr %e
  %pp = getelementptr inbounds i8, ptr %e, i64 8
  %p = load ptr, ptr %pp
  %np = getelementptr inbounds i8, ptr %e, i64 16
  %n = load i64, ptr %np
  %lyp = getelementptr inbounds i8, ptr %e, i64 24
  %layout = load i64, ptr %lyp
  call void @__fz_shadows_kept_zero(ptr %s, ptr %p, i64 %n, i64 %layout)
  %floats = icmp eq i64 %layout, 0
  br i1 %floats, label %work, label %follow
follow:
  call void @__fz_shadows_kept_scan(ptr %p, ptr %s, i64 %n, ptr %d, i64 %len, i64 %epoch, ptr %stack, ptr %sp)
  br label %work
prune:
  call void @free(ptr %stack)
  br label %ploop
ploop:
  %j = phi i64 [ 0, %prune ], [ %j1, %pstep ]
  %w = phi i64 [ 0, %prune ], [ %w1, %pstep ]
  %pmore = icmp slt i64 %j, %len
  br i1 %pmore, label %pbody, label %pend
pbody:
  %jo = mul i64 %j, 48
  %je = getelementptr inbounds i8, ptr %d, i64 %jo
  %jmp = getelementptr inbounds i8, ptr %je, i64 32
  %jm = load i64, ptr %jmp
  %reached = icmp eq i64 %jm, %epoch
  br i1 %reached, label %pkeep, label %pstep
pkeep:
  %wo = mul i64 %w, 48
  %we = getelementptr inbounds i8, ptr %d, i64 %wo
  call void @llvm.memmove.p0.p0.i64(ptr %we, ptr %je, i64 48, i1 false)
  %wk = add i64 %w, 1
  br label %pstep
pstep:
  %w1 = phi i64 [ %w, %pbody ], [ %wk, %pkeep ]
  %j1 = add i64 %j, 1
  br label %ploop
pend:
  store i64 %w, ptr %lp
  call void @__fz_shadows_kept_unlock()
  br label %done
done:
  ret void
}
