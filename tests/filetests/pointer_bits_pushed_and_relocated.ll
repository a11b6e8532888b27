; Decision: a shadowed pointer stored into memory as its integer (`store i64 (ptrtoint
; %q)` through a moving end pointer, libstdc++'s `push_back` of a
; `std::reference_wrapper<const double>` at -O2) keeps the destination's shadow, and the
; shadow memory gets `ptrtoint` of `%q`'s shadow; a pointer then copied as an `i64`
; (the buffer relocated when the vector grows) copies the shadow's bits in reverse and
; in forward mode. Before cxx33 the end pointer's shadow was pruned (its only use was an
; integer store of "integer" memory), the shadow buffer kept nulls and the reverse sweep
; crashed (SIGSEGV, tests/cxx/390 at -O2), and forward mode stored a zero tangent for
; the copied bits (SIGSEGV too). Written by hand after 390's IR.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.sin.f64(double)

define double @f(ptr %x, i64 %n) {
entry:
  %buf = call noalias ptr @malloc(i64 64)
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %end = phi ptr [ %buf, %entry ], [ %end.next, %loop ]
  %q = getelementptr inbounds double, ptr %x, i64 %i
  %qi = ptrtoint ptr %q to i64
  store i64 %qi, ptr %end, align 8
  %end.next = getelementptr inbounds i8, ptr %end, i64 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %buf2 = call noalias ptr @malloc(i64 8)
  %w = load i64, ptr %buf, align 8
  store i64 %w, ptr %buf2, align 8
  %p0 = load ptr, ptr %buf2, align 8
  %v0 = load double, ptr %p0, align 8
  %s0 = call double @llvm.sin.f64(double %v0)
  %b1 = getelementptr inbounds i8, ptr %buf, i64 8
  %p1 = load ptr, ptr %b1, align 8
  %v1 = load double, ptr %p1, align 8
  %r = fmul double %s0, %v1
  call void @free(ptr %buf)
  call void @free(ptr %buf2)
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i64 %n)
  ret void
}

define double @tan(ptr %x, ptr %tx, i64 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %0, ptr %x, ptr %tx, i64 %n)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %end.shadow = phi ptr
; CHECK: %[[S:[0-9]+]] = getelementptr inbounds double, ptr %x.shadow, i64 %i
; CHECK: store i64 %qi, ptr %end,
; CHECK: %[[I:[0-9]+]] = ptrtoint ptr %[[S]] to i64
; CHECK: store i64 %[[I]], ptr %end.shadow
; CHECK: %w.shadow = load i64
; CHECK: store i64 %w.shadow,
; CHECK-LABEL: define internal { double, double } @fz_fwd_f(
; CHECK: %end.d0 = phi ptr
; CHECK: store i64 %{{[0-9]+}}, ptr %end.d0
; CHECK: %w.d0 = load i64
; CHECK: store i64 %w.d0,
