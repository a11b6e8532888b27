; Recursion through a pointer that advances each call, and a loop whose pointer phis
; advance by constants (would grow trees forever without the stride rule and the cap).
define double @rec(ptr %p, i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %base, label %step
base:
  ret double 0.0
step:
  %x = load double, ptr %p, align 8
  %next = getelementptr inbounds i8, ptr %p, i64 8
  %m = sub i64 %n, 1
  %r = call double @rec(ptr %next, i64 %m)
  %s = fadd double %x, %r
  ret double %s
}

define void @walk(ptr %a, ptr %b, ptr %end) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %a, %entry ], [ %p.next, %loop ]
  %q = phi ptr [ %b, %entry ], [ %q.next, %loop ]
  %r = phi ptr [ %a, %entry ], [ %q, %loop ]
  %v = load double, ptr %p, align 8
  store double %v, ptr %q, align 8
  %p.next = getelementptr inbounds i8, ptr %p, i64 8
  %q.next = getelementptr inbounds i8, ptr %q, i64 16
  %t = getelementptr inbounds i8, ptr %r, i64 24
  %done = icmp eq ptr %p.next, %end
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
