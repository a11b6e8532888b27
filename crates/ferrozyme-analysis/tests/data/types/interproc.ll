; @caller never touches %x's memory itself; @callee loads double through it, and
; @outer (a caller of @caller) passes an alloca that gets the same facts.
define double @callee(ptr %p) {
  %v = load double, ptr %p, align 8
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %w = load i32, ptr %q, align 4, !tbaa !5
  %wf = sitofp i32 %w to double
  %r = fadd double %v, %wf
  ret double %r
}

define double @caller(ptr %x) {
  %r = call double @callee(ptr %x)
  ret double %r
}

define ptr @id(ptr %p) {
  ret ptr %p
}

define double @outer() {
  %buf = alloca [16 x i8], align 8
  %r = call double @caller(ptr %buf)
  %h = call ptr @malloc(i64 8)
  %h2 = call ptr @id(ptr %h)
  store float 1.0, ptr %h2, align 4
  ret double %r
}

declare ptr @malloc(i64)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!3 = !{!"int", !1, i64 0}
!5 = !{!3, !3, i64 0}
