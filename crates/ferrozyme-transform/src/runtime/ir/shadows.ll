; Who frees the shadow of memory the differentiated code allocates.
;
; The forward sweep gives every heap allocation a zeroed shadow; the reverse sweep needs
; it until it replays the allocation. After that the shadow belongs with its primal: if
; the primal memory is freed inside the gradient (by the function, a callee, or a caller,
; in the forward sweep or deferred to the end of a reverse sweep), the shadow is freed
; too; if the primal outlives the gradient (stored into an object the user passed,
; returned), so does the shadow, and the user frees it as they free the primal — Enzyme's
; contract. Which of the two happens, and in which order, is only known at run time (one
; callee allocating into a local object of one caller and into the user's object for
; another), so each shadow is recorded here: freed when both its replay and its primal's
; free have happened, in either order.
;
; The table is per thread, reached through its own POSIX thread-specific key (see
; thread.ll for why not `thread_local`): { ptr entries, i64 len, i64 cap }, each entry
; { ptr primal, ptr shadow, i64 flags, ptr dealloc, i64 w0, i64 w1, i64 bytes, i64 layout } (64
; bytes; `bytes` and `layout` are what `kept.ll` needs) with flags 1 = replayed, 2 = primal
; freed, 4 = done, 8 = adopted (a shadow the gradient did not allocate, whose primal it
; freed in a forward sweep: freed when the derivative settles). Lookups go from the newest entry down: allocations are replayed in
; the reverse order of their creation, so the entry sought is almost always the last, and
; finished entries at the end are dropped. `__fz_shadow_settle`, called after each
; top-level reverse-mode derivative, drops the entries whose primal outlived it (the user's
; now). `dealloc(shadow, w0, w1)` releases the shadow: a thunk calling the primal's
; family's deallocator with the words it needs besides the pointer (`operator delete`,
; `delete[]` with an aligned `new`'s alignment, `__rust_dealloc` with the size and
; alignment, an `__enzyme_allocation_like` deallocator with the allocation's arguments),
; or null for `free` (ferrozyme-abi's allocator table, `shadow_memory.rs`). An entry never found (recorded by another thread or another module) leaks its
; shadow rather than risking a double free.

declare i32 @pthread_once(ptr, ptr)
declare i32 @pthread_key_create(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare void @abort()
declare void @__fz_shadows_keep(ptr, ptr, i64, i64)
declare void @__fz_shadows_forget(ptr)

@__fz_shadows_once = internal global i32 0
@__fz_shadows_key = internal global i32 0

define void @__fz_shadows_init() {
entry:
  %r = call i32 @pthread_key_create(ptr @__fz_shadows_key, ptr @__fz_shadows_release)
  %bad = icmp ne i32 %r, 0
  br i1 %bad, label %fail, label %ok
fail:
  call void @abort()
  unreachable
ok:
  ret void
}

; The thread's table at its exit: the entries' array, then the table. Shadows still
; recorded are the user's (or leaked with their primal).
define void @__fz_shadows_release(ptr %t) {
entry:
  %d = load ptr, ptr %t
  call void @free(ptr %d)
  call void @free(ptr %t)
  ret void
}

; This thread's table, or null when it has none.
define ptr @__fz_shadows_peek() {
entry:
  %o = call i32 @pthread_once(ptr @__fz_shadows_once, ptr @__fz_shadows_init)
  %k = load i32, ptr @__fz_shadows_key
  %p = call ptr @pthread_getspecific(i32 %k)
  ret ptr %p
}

; Releases the shadow %s with %d(%s, %w0, %w1), or with `free` when %d is null.
define void @__fz_shadow_dealloc(ptr %s, ptr %d, i64 %w0, i64 %w1) {
entry:
  %c = icmp eq ptr %d, null
  br i1 %c, label %libc, label %own
libc:
  call void @free(ptr %s)
  ret void
own:
  call void %d(ptr %s, i64 %w0, i64 %w1)
  ret void
}

; Records a new shadow `%s` of the primal allocation `%p`, released by
; %dealloc(%s, %w0, %w1) (null: free); %size bytes long, its floats where %layout says
; (`kept.ll`).
define void @__fz_shadow_new(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 %size, i64 %layout) {
entry:
  %none = icmp eq ptr %s, null
  br i1 %none, label %done, label %get
get:
  %t0 = call ptr @__fz_shadows_peek()
  %fresh = icmp eq ptr %t0, null
  br i1 %fresh, label %make, label %have, !prof !0
make:
  %tn = call ptr @calloc(i64 1, i64 24)
  %oom0 = icmp eq ptr %tn, null
  br i1 %oom0, label %oom, label %setk
setk:
  %k = load i32, ptr @__fz_shadows_key
  %sr = call i32 @pthread_setspecific(i32 %k, ptr %tn)
  br label %have
have:
  %t = phi ptr [ %t0, %get ], [ %tn, %setk ]
  %lp = getelementptr inbounds i8, ptr %t, i64 8
  %cp = getelementptr inbounds i8, ptr %t, i64 16
  %len = load i64, ptr %lp
  %cap = load i64, ptr %cp
  %full = icmp eq i64 %len, %cap
  br i1 %full, label %grow, label %put, !prof !0
grow:
  %empty = icmp eq i64 %cap, 0
  %dbl = shl i64 %cap, 1
  %nc = select i1 %empty, i64 16, i64 %dbl
  %bytes = mul i64 %nc, 64
  %old = load ptr, ptr %t
  %nd = call ptr @realloc(ptr %old, i64 %bytes)
  %oom1 = icmp eq ptr %nd, null
  br i1 %oom1, label %oom, label %grown
grown:
  store ptr %nd, ptr %t
  store i64 %nc, ptr %cp
  br label %put
put:
  %d = load ptr, ptr %t
  %off = mul i64 %len, 64
  %e = getelementptr inbounds i8, ptr %d, i64 %off
  store ptr %p, ptr %e
  %es = getelementptr inbounds i8, ptr %e, i64 8
  store ptr %s, ptr %es
  %ef = getelementptr inbounds i8, ptr %e, i64 16
  store i64 0, ptr %ef
  %ed = getelementptr inbounds i8, ptr %e, i64 24
  store ptr %dealloc, ptr %ed
  %ew0 = getelementptr inbounds i8, ptr %e, i64 32
  store i64 %w0, ptr %ew0
  %ew1 = getelementptr inbounds i8, ptr %e, i64 40
  store i64 %w1, ptr %ew1
  %eb = getelementptr inbounds i8, ptr %e, i64 48
  store i64 %size, ptr %eb
  %el = getelementptr inbounds i8, ptr %e, i64 56
  store i64 %layout, ptr %el
  %len1 = add i64 %len, 1
  store i64 %len1, ptr %lp
  br label %done
oom:
  call void @abort()
  unreachable
done:
  ret void
}

; The newest entry below index %from (exclusive) whose pointer at byte offset %field
; (0: primal, 8: shadow) is %key and whose flags have none of %skip's bits (done and
; adopted entries are always skipped), or -1.
define i64 @__fz_shadows_find(ptr %t, i64 %from, i64 %field, ptr %key, i64 %skip) {
entry:
  %d = load ptr, ptr %t
  %sk = or i64 %skip, 12
  br label %loop
loop:
  %i = phi i64 [ %from, %entry ], [ %j, %next ]
  %more = icmp sgt i64 %i, 0
  br i1 %more, label %body, label %none
body:
  %j = sub i64 %i, 1
  %off = mul i64 %j, 64
  %e = getelementptr inbounds i8, ptr %d, i64 %off
  %fp = getelementptr inbounds i8, ptr %e, i64 16
  %f = load i64, ptr %fp
  %m = and i64 %f, %sk
  %skipped = icmp ne i64 %m, 0
  br i1 %skipped, label %next, label %cmp
cmp:
  %kp = getelementptr inbounds i8, ptr %e, i64 %field
  %k = load ptr, ptr %kp
  %hit = icmp eq ptr %k, %key
  br i1 %hit, label %found, label %next
next:
  br label %loop
found:
  ret i64 %j
none:
  ret i64 -1
}

; Sets flag %bit on entry %i; once it is both replayed and freed, its shadow is freed and
; finished entries at the end of the table are dropped.
define void @__fz_shadows_mark(ptr %t, i64 %i, i64 %bit) {
entry:
  %d = load ptr, ptr %t
  %off = mul i64 %i, 64
  %e = getelementptr inbounds i8, ptr %d, i64 %off
  %fp = getelementptr inbounds i8, ptr %e, i64 16
  %f = load i64, ptr %fp
  %f2 = or i64 %f, %bit
  %both = and i64 %f2, 3
  %ready = icmp eq i64 %both, 3
  br i1 %ready, label %release, label %keep
keep:
  store i64 %f2, ptr %fp
  ret void
release:
  %sp = getelementptr inbounds i8, ptr %e, i64 8
  %s = load ptr, ptr %sp
  %dp = getelementptr inbounds i8, ptr %e, i64 24
  %dl = load ptr, ptr %dp
  %w0p = getelementptr inbounds i8, ptr %e, i64 32
  %w0 = load i64, ptr %w0p
  %w1p = getelementptr inbounds i8, ptr %e, i64 40
  %w1 = load i64, ptr %w1p
  call void @__fz_shadow_dealloc(ptr %s, ptr %dl, i64 %w0, i64 %w1)
  store i64 4, ptr %fp
  %lp = getelementptr inbounds i8, ptr %t, i64 8
  %len = load i64, ptr %lp
  br label %trim
trim:
  %n = phi i64 [ %len, %release ], [ %n1, %dead ]
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %last, label %out
last:
  %n1 = sub i64 %n, 1
  %loff = mul i64 %n1, 64
  %lf = add i64 %loff, 16
  %lfp = getelementptr inbounds i8, ptr %d, i64 %lf
  %lflags = load i64, ptr %lfp
  %isdead = icmp eq i64 %lflags, 4
  br i1 %isdead, label %dead, label %out
dead:
  br label %trim
out:
  store i64 %n, ptr %lp
  ret void
}

; The reverse sweep has replayed the allocation whose shadow is %s.
define void @__fz_shadow_replayed(ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  %t = call ptr @__fz_shadows_peek()
  %none = icmp eq ptr %t, null
  br i1 %none, label %done, label %look
look:
  %lp = getelementptr inbounds i8, ptr %t, i64 8
  %len = load i64, ptr %lp
  %i = call i64 @__fz_shadows_find(ptr %t, i64 %len, i64 8, ptr %s, i64 1)
  %miss = icmp slt i64 %i, 0
  br i1 %miss, label %done, label %mark
mark:
  call void @__fz_shadows_mark(ptr %t, i64 %i, i64 1)
  br label %done
done:
  ret void
}

; Marks as freed the newest recorded allocations of primal %p (one entry per shadow lane,
; recorded one after the other). Returns whether there was one.
define i1 @__fz_shadows_primal_gone(ptr %p) {
entry:
  %t = call ptr @__fz_shadows_peek()
  %none = icmp eq ptr %t, null
  br i1 %none, label %miss, label %look
look:
  %lp = getelementptr inbounds i8, ptr %t, i64 8
  %len = load i64, ptr %lp
  %i = call i64 @__fz_shadows_find(ptr %t, i64 %len, i64 0, ptr %p, i64 2)
  %nf = icmp slt i64 %i, 0
  br i1 %nf, label %miss, label %lanes
lanes:
  ; Entry %k and the entries right below it with the same primal (the other lanes).
  %k = phi i64 [ %i, %look ], [ %k1, %same ]
  call void @__fz_shadows_mark(ptr %t, i64 %k, i64 2)
  %below = icmp sgt i64 %k, 0
  br i1 %below, label %peek, label %hit
peek:
  %k1 = sub i64 %k, 1
  ; Marking may have dropped entries from the end; %k1 is below them.
  %d = load ptr, ptr %t
  %off = mul i64 %k1, 64
  %e = getelementptr inbounds i8, ptr %d, i64 %off
  %q = load ptr, ptr %e
  %fp = getelementptr inbounds i8, ptr %e, i64 16
  %f = load i64, ptr %fp
  %fm = and i64 %f, 6
  %live = icmp eq i64 %fm, 0
  %eq = icmp eq ptr %q, %p
  %again = and i1 %eq, %live
  br i1 %again, label %same, label %hit
same:
  br label %lanes
hit:
  ret i1 true
miss:
  ret i1 false
}

; The primal %p is about to be freed.
define void @__fz_shadow_primal_freed(ptr %p) {
entry:
  %h = call i1 @__fz_shadows_primal_gone(ptr %p)
  ret void
}

; The primal %p, memory the function was given, is about to be freed, and %s is its
; shadow: a shadow this table records goes when its replay has happened too; one it does
; not (the caller's) is freed now, as Enzyme frees the shadow of freed duplicated memory.
define void @__fz_shadow_free_given(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  %h = call i1 @__fz_shadows_primal_gone(ptr %p)
  br i1 %h, label %done, label %own
own:
  call void @__fz_shadows_forget(ptr %s)
  call void @__fz_shadow_dealloc(ptr %s, ptr %dealloc, i64 %w0, i64 %w1)
  br label %done
done:
  ret void
}

; A forward sweep frees the primal %p whose shadow is %s. A shadow this table records
; is marked (freed once replayed too); any other (memory the gradient was given) is
; adopted: freed when the derivative settles, as Enzyme frees the shadow of freed
; duplicated memory. Each vector-mode lane calls this with its own shadow. Not when the
; shadow is the primal itself (run-time activity: constant memory).
define void @__fz_shadow_free_later(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  call void @__fz_shadow_retire(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 10)
  ret void
}

; As `__fz_shadow_free_later` for the old block of a `realloc` whose old size in bytes is
; %w0: an adopted shadow (the caller's) is checked when the derivative settles (flag 16):
; a non-zero byte in its old size is the adjoint of a value the block held before the
; call, which the caller's shadow (now the new block) would not get back.
define void @__fz_shadow_realloc_later(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  call void @__fz_shadow_retire(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 26)
  ret void
}

; As `__fz_shadow_free_later` for the old block of a `realloc` whose elements hold floats
; beside pointers or integers (a `Vec<(f64, Box<f64>)>`): a shadow the table does not
; record (the caller's) is a run-time stop at once (flag 32). The reverse `realloc` moves
; its bytes back as they are, and the adjoints of the values it held before the call
; would end in it, not in the caller's grown shadow; nothing says which of its bytes are
; floats, so neither the settle's check nor a delivery can tell them from the shadow
; pointers (rust44).
define void @__fz_shadow_realloc_mixed(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  call void @__fz_shadow_retire(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 42)
  ret void
}

@__fz_shadow_mixed_msg = private constant [322 x i8] c"ferrozyme: the derivative reallocated a buffer the caller passed whose elements hold floats beside pointers or integers (a Vec of records grown past its capacity); the derivatives with respect to the values it held before the call could not be returned: reserve the capacity beforehand in both the primal and the shadow.\0A\00"

; The two above: an adopted shadow's entry gets flags %adopted (with 32: a stop instead).
define internal void @__fz_shadow_retire(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 %adopted) {
entry:
  %same = icmp eq ptr %s, %p
  %null = icmp eq ptr %s, null
  %skip = or i1 %same, %null
  br i1 %skip, label %done, label %get
get:
  %t0 = call ptr @__fz_shadows_peek()
  %fresh = icmp eq ptr %t0, null
  br i1 %fresh, label %adopt, label %look
look:
  %lp = getelementptr inbounds i8, ptr %t0, i64 8
  %len = load i64, ptr %lp
  %i = call i64 @__fz_shadows_find(ptr %t0, i64 %len, i64 8, ptr %s, i64 2)
  %miss = icmp slt i64 %i, 0
  br i1 %miss, label %again, label %mark
mark:
  call void @__fz_shadows_mark(ptr %t0, i64 %i, i64 2)
  br label %done
again:
  ; Recorded and already marked freed (another lane's call): nothing to do.
  %j = call i64 @__fz_shadows_find(ptr %t0, i64 %len, i64 8, ptr %s, i64 0)
  %known = icmp sge i64 %j, 0
  br i1 %known, label %done, label %adopt
adopt:
  %f32 = and i64 %adopted, 32
  %mixed = icmp ne i64 %f32, 0
  br i1 %mixed, label %stop, label %record
stop:
  %wr = call i64 @write(i32 2, ptr @__fz_shadow_mixed_msg, i64 321)
  call void @abort()
  unreachable
record:
  ; Size unknown, nothing to zero: `kept.ll` never zeroes an adopted shadow.
  call void @__fz_shadow_new(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 0, i64 1)
  %t = call ptr @__fz_shadows_peek()
  %lp2 = getelementptr inbounds i8, ptr %t, i64 8
  %n = load i64, ptr %lp2
  %last = sub i64 %n, 1
  %d = load ptr, ptr %t
  %off = mul i64 %last, 64
  %fo = add i64 %off, 16
  %fp = getelementptr inbounds i8, ptr %d, i64 %fo
  store i64 %adopted, ptr %fp
  br label %done
done:
  ret void
}

; After a top-level reverse-mode derivative: entries replayed whose primal was not freed
; inside it are dropped (primal and shadow are the caller's, or a global's: `kept.ll`
; is told); finished ones too; adopted shadows are freed.
define void @__fz_shadow_settle() {
entry:
  %t = call ptr @__fz_shadows_peek()
  %none = icmp eq ptr %t, null
  br i1 %none, label %done, label %scan
scan:
  %d = load ptr, ptr %t
  %lp = getelementptr inbounds i8, ptr %t, i64 8
  %len = load i64, ptr %lp
  br label %loop
loop:
  %i = phi i64 [ 0, %scan ], [ %i1, %step ]
  %w = phi i64 [ 0, %scan ], [ %w1, %step ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %end
body:
  %off = mul i64 %i, 64
  %e = getelementptr inbounds i8, ptr %d, i64 %off
  %fp = getelementptr inbounds i8, ptr %e, i64 16
  %f = load i64, ptr %fp
  %f1 = icmp eq i64 %f, 1
  %f4 = icmp eq i64 %f, 4
  %drop = or i1 %f1, %f4
  %f8 = and i64 %f, 8
  %adopted = icmp ne i64 %f8, 0
  br i1 %adopted, label %release, label %judge
release:
  %sp = getelementptr inbounds i8, ptr %e, i64 8
  %sa = load ptr, ptr %sp
  %dp = getelementptr inbounds i8, ptr %e, i64 24
  %da = load ptr, ptr %dp
  %wa0p = getelementptr inbounds i8, ptr %e, i64 32
  %wa0 = load i64, ptr %wa0p
  %wa1p = getelementptr inbounds i8, ptr %e, i64 40
  %wa1 = load i64, ptr %wa1p
  %f16 = and i64 %f, 16
  %check = icmp ne i64 %f16, 0
  br i1 %check, label %lost, label %free
lost:
  call void @__fz_shadow_lost_check(ptr %sa, i64 %wa0)
  br label %free
free:
  call void @__fz_shadows_forget(ptr %sa)
  call void @__fz_shadow_dealloc(ptr %sa, ptr %da, i64 %wa0, i64 %wa1)
  br label %skipit
judge:
  br i1 %f1, label %kept, label %judged
kept:
  ; The primal outlives the derivative: a static's table keeps its shadow, whose
  ; adjoints the next top-level derivative zeroes if a global still reaches it.
  %kp = load ptr, ptr %e
  %ks = getelementptr inbounds i8, ptr %e, i64 8
  %kss = load ptr, ptr %ks
  %kb = getelementptr inbounds i8, ptr %e, i64 48
  %kbb = load i64, ptr %kb
  %kl = getelementptr inbounds i8, ptr %e, i64 56
  %kll = load i64, ptr %kl
  call void @__fz_shadows_keep(ptr %kp, ptr %kss, i64 %kbb, i64 %kll)
  br label %skipit
judged:
  br i1 %drop, label %skipit, label %keep
keep:
  %woff = mul i64 %w, 64
  %we = getelementptr inbounds i8, ptr %d, i64 %woff
  call void @llvm.memmove.p0.p0.i64(ptr %we, ptr %e, i64 64, i1 false)
  %wk = add i64 %w, 1
  br label %step
skipit:
  br label %step
step:
  %w1 = phi i64 [ %wk, %keep ], [ %w, %skipit ]
  %i1 = add i64 %i, 1
  br label %loop
end:
  store i64 %w, ptr %lp
  br label %done
done:
  ret void
}

declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

@__fz_shadow_lost_msg = private constant [306 x i8] c"ferrozyme: the derivative reallocated a buffer the caller passed (a Vec grown past its capacity); the derivatives with respect to the values it held before the call would be lost: reserve the capacity beforehand in both the primal and the shadow (its spare capacity zeroed: vec![0.0; cap] then truncate).\0A\00"
declare i64 @write(i32, ptr, i64)

; A stop when any of the %n bytes of the old shadow %s is non-zero (`__fz_shadow_settle`).
define internal void @__fz_shadow_lost_check(ptr %s, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %bp = getelementptr inbounds i8, ptr %s, i64 %i
  %b = load i8, ptr %bp
  %z = icmp eq i8 %b, 0
  br i1 %z, label %next, label %stop
next:
  %i1 = add i64 %i, 1
  br label %loop
stop:
  %w = call i64 @write(i32 2, ptr @__fz_shadow_lost_msg, i64 305)
  call void @abort()
  unreachable
done:
  ret void
}

; What a derivative that is itself being differentiated calls instead (higher-order
; derivatives: `clone::preprocess`): no table, and a replayed shadow is freed at once.
define void @__fz_shadow_new_plain(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1, i64 %bytes, i64 %layout) {
entry:
  ret void
}

define void @__fz_shadow_replayed_plain(ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  call void @__fz_shadow_dealloc(ptr %s, ptr %dealloc, i64 %w0, i64 %w1)
  ret void
}

define void @__fz_shadow_primal_freed_plain(ptr %p) {
entry:
  ret void
}

define void @__fz_shadow_free_given_plain(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  call void @__fz_shadow_dealloc(ptr %s, ptr %dealloc, i64 %w0, i64 %w1)
  ret void
}

define void @__fz_shadow_free_later_plain(ptr %p, ptr %s, ptr %dealloc, i64 %w0, i64 %w1) {
entry:
  ret void
}

define void @__fz_shadow_settle_plain() {
entry:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}
