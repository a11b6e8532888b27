; Loop shapes for tests/loops.rs, hand-written with named blocks. Each function's comment
; says what its loops are; the tests check Loops::new and trip_count against that (and
; against a brute-force recomputation from the definitions).

; for (i = 0; i < n; i++) with a preheader (loop-simplify form): one loop {body}, latch
; body, entry = preheader = pre; trip count bound %n, start 0.
define void @counted(ptr %p, i64 %n) {
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %pre, label %exit
pre:
  br label %body
body:
  %i = phi i64 [ 0, %pre ], [ %i.next, %body ]
  %a = getelementptr double, ptr %p, i64 %i
  store double 0.0, ptr %a
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; The same loop without a preheader: the guard branches straight into the body (clang
; -O2 emits this when it needs no widened counter). entry = %entry, no preheader; the trip
; count is still known (bound %n, start 3, compared before the increment).
define void @guarded_no_preheader(i32 %n) {
entry:
  %guard = icmp sgt i32 %n, 3
  br i1 %guard, label %body, label %exit
body:
  %i = phi i32 [ 3, %entry ], [ %i.next, %body ]
  call void @use(i32 %i)
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; Nested: outer {outer.head, inner, outer.latch}, inner {inner} (a self loop, its own
; latch). outer.head only branches to inner, so it is the inner loop's preheader; entry is
; the outer one's. Trip counts: inner bound %m (its step is written `1 + j`), outer %n,
; both starting at 0.
define void @nested(i64 %n, i64 %m) {
entry:
  br label %outer.head
outer.head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer.head ], [ %j.next, %inner ]
  %j.next = add i64 1, %j
  %jdone = icmp eq i64 %j.next, %m
  br i1 %jdone, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %idone = icmp eq i64 %i.next, %n
  br i1 %idone, label %exit, label %outer.head
exit:
  ret void
}

; A `continue`: two back edges to the same header, merged into one loop with two
; latches {head, odd, even}. The induction variable steps by one on both back edges, and
; the exit test compares it with %n: trip count bound %n, start 0.
define void @two_latches(i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i.next1, %odd ], [ %i.next2, %even ]
  %bit = and i64 %i, 1
  %isodd = icmp ne i64 %bit, 0
  br i1 %isodd, label %odd, label %even
odd:
  %i.next1 = add i64 %i, 1
  br label %head
even:
  %i.next2 = add i64 %i, 1
  %done = icmp eq i64 %i.next2, %n
  br i1 %done, label %exit, label %head
exit:
  ret void
}

; No counted induction variable: steps by 2, then a float-controlled loop. Both are
; natural loops without a trip count.
define void @uncounted(i64 %n, double %x) {
entry:
  br label %by2
by2:
  %i = phi i64 [ 0, %entry ], [ %i.next, %by2 ]
  %i.next = add i64 %i, 2
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %mid, label %by2
mid:
  br label %grow
grow:
  %v = phi double [ %x, %mid ], [ %v.next, %grow ]
  %v.next = fmul double %v, 1.5
  %more = fcmp olt double %v.next, 1.0e2
  br i1 %more, label %grow, label %exit
exit:
  ret void
}

; The bound is computed inside the loop (changes every iteration): no trip count.
define void @moving_bound(ptr %p) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %a = getelementptr i64, ptr %p, i64 %i
  %lim = load i64, ptr %a
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %lim
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; Irreducible: a and b form a cycle entered at both blocks, so neither dominates the
; other: no back edge in the dominance sense, hence no natural loop (the CFG analysis
; still calls both blocks cyclic).
define void @irreducible(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %b, label %exit
b:
  br i1 %d, label %a, label %exit
exit:
  ret void
}

; Straight-line code: no loops.
define double @straight(double %x) {
entry:
  %y = fmul double %x, %x
  ret double %y
}

declare void @use(i32)
