; Decision: integer loads and stores that move a double's bits (a swap through `long *`,
; recognized as an untyped swap of shadowed memory) lose their `!tbaa` in the derivative's
; copies (`common/punned.rs`), in reverse and forward mode; the `double` load keeps its
; `!tbaa`. Why it matters: with the `long` tags, the derivative inlined into its caller
; let GVN forward the caller's `double` stores across the `long` stores (C forbids the
; aliasing; the program does it anyway), so the primal value the reverse sweep multiplied
; by was the one before the swap while its adjoint followed the swap: a silently wrong
; gradient at -O1/-O2 (tests/c/1463).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %a = load i64, ptr %p, align 8{{(, !noalias ![0-9]+)?$}}
; CHECK: %b = load i64, ptr %q, align 8{{(, !noalias ![0-9]+)?$}}
; CHECK: store i64 %b, ptr %p, align 8{{(, !noalias ![0-9]+)?$}}
; CHECK: store i64 %a, ptr %q, align 8{{(, !noalias ![0-9]+)?$}}
; CHECK: %v = load double, ptr %x, align 8, !tbaa
; CHECK-LABEL: define internal {{.*}}@fz_fwd_f(
; CHECK: %a = load i64, ptr %p, align 8{{$}}
; CHECK: %b = load i64, ptr %q, align 8{{$}}
; CHECK: store i64 %b, ptr %p, align 8{{$}}
; CHECK: store i64 %a, ptr %q, align 8{{$}}
; CHECK: %v = load double, ptr %x, align 8, !tbaa

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %x, i64 %i, i64 %j) {
entry:
  %p = getelementptr inbounds i64, ptr %x, i64 %i
  %q = getelementptr inbounds i64, ptr %x, i64 %j
  %a = load i64, ptr %p, align 8, !tbaa !0
  %b = load i64, ptr %q, align 8, !tbaa !0
  store i64 %b, ptr %p, align 8, !tbaa !0
  store i64 %a, ptr %q, align 8, !tbaa !0
  %v = load double, ptr %x, align 8, !tbaa !4
  %m = fmul double %v, %v
  ret double %m
}

define void @grad(ptr %x, ptr %dx, i64 %i, i64 %j) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, i64 %i, i32 %1, i64 %j)
  ret void
}

define double @tangent(ptr %x, ptr %dx, i64 %i, i64 %j) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, i64 %i, i32 %1, i64 %j)
  ret double %t
}

!0 = !{!1, !1, i64 0}
!1 = !{!"long", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
!4 = !{!5, !5, i64 0}
!5 = !{!"double", !2, i64 0}
