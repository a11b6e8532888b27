; Decision: `store i64 (ptrtoint p)` into memory whose `!tbaa` names a pointer type is
; a pointer store (`store ptr p`): the shadow memory gets `p`'s shadow. Likewise an `i64`
; load of pointer-tagged memory that is only stored again is a pointer copy.
; (ferrozyme-transform/src/intptr.rs)
; Why it matters: clang -O1 stores `std::unique_ptr`s into a `std::vector`'s buffer this
; way (`push_back`, and the element moves when the buffer grows); the shadow buffer held
; null and the reverse sweep's virtual call through it crashed (tests/cxx/139, 145).
;
; double f(double *x) {
;   double *obj = malloc(8); obj[0] = x[0] * x[0];
;   double **buf = malloc(8); *buf = obj;        // stored as i64 (ptrtoint obj)
;   double **nb = malloc(8);  *nb = *buf;        // moved as load i64 / store i64
;   double y = (*nb)[0]; free(obj); free(buf); free(nb); return y;
; }
; (hand-written IR in clang-22 -O1's shapes)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @f(ptr %x) {
entry:
  %obj = call ptr @malloc(i64 8)
  %x0 = load double, ptr %x, align 8, !tbaa !5
  %sq = fmul double %x0, %x0
  store double %sq, ptr %obj, align 8, !tbaa !5
  %buf = call ptr @malloc(i64 8)
  %oi = ptrtoint ptr %obj to i64
  store i64 %oi, ptr %buf, align 8, !tbaa !8
  %nb = call ptr @malloc(i64 8)
  %mv = load i64, ptr %buf, align 8, !tbaa !8
  store i64 %mv, ptr %nb, align 8, !tbaa !8
  store ptr null, ptr %buf, align 8, !tbaa !8
  %p = load ptr, ptr %nb, align 8, !tbaa !8
  %y = load double, ptr %p, align 8, !tbaa !5
  call void @free(ptr %obj)
  call void @free(ptr %buf)
  call void @free(ptr %nb)
  ret double %y
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"double", !3, i64 0}
!7 = !{!"any pointer", !3, i64 0}
!8 = !{!9, !9, i64 0}
!9 = !{!"p1 double", !7, i64 0}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %obj = call ptr @malloc(i64 8)
; CHECK: %[[OS:.*]] = call ptr @calloc(i64 8, i64 1)
; CHECK: %buf = call ptr @malloc(i64 8)
; CHECK: %[[BS:.*]] = call ptr @calloc(i64 8, i64 1)
; CHECK: store ptr %obj, ptr %buf, align 8
; CHECK: store ptr %[[OS]], ptr %[[BS]], align 8
; CHECK: %[[NBS:.*]] = call ptr @calloc(i64 8, i64 1)
; CHECK: %[[MV:.*]] = load ptr, ptr %buf, align 8
; CHECK: %[[MVS:.*]] = load ptr, ptr %[[BS]], align 8
; CHECK: store ptr %[[MV]], ptr %nb, align 8
; CHECK: store ptr %[[MVS]], ptr %[[NBS]], align 8
