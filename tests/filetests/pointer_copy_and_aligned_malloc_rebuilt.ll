; Decision: (1) an `i64` copy of a pointer into a stack object whose type declares `ptr`
; there (`%struct.view = type { ptr }`, passed to a callee that reads the pointer) is a
; pointer copy: the shadow object gets the shadow pointer. (2) An address rounded up to
; 16 inside `malloc`ed memory (`(m + 15) & -16`) is `m` plus the same byte offset, and
; its shadow is that offset from the `calloc`ed shadow of `m`: both allocations are
; 16-byte aligned, so the rounded shadow is the rounded primal's mirror and as aligned
; (`align 16` accesses through it stay valid). (ferrozyme-transform/src/intptr.rs)
; Why it matters: (1) is Eigen's `Transpose` at -O1 (the shadow object held null: a
; crash in gemv); (2) hand-aligned scratch buffers were `unsupported-instruction`. A mask
; on an argument or wider than 16 stays an error (tests/errors/audit_inttoptr*.c).
;
; static double use(struct view *v) { return v->p[0] * v->p[0]; }   // noinline
; double f(double *x, struct view *h) {
;   struct view v; memcpy(&v, h, 8);            // copied as an i64
;   double u = use(&v);
;   char *m = malloc(64);
;   double *a = (double *)(((uintptr_t)m + 15) & ~(uintptr_t)15);
;   a[0] = x[0] * x[0];
;   double y = a[0];
;   free(m);
;   return y * u;
; }
; (hand-written IR in clang-22 -O1's shapes)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.view = type { ptr }

@enzyme_dup = external global i32, align 4

define internal double @use(ptr %v) noinline {
entry:
  %p = load ptr, ptr %v, align 8
  %d = load double, ptr %p, align 8
  %r = fmul double %d, %d
  ret double %r
}

define double @f(ptr %x, ptr %h) {
entry:
  %v = alloca %struct.view, align 8
  %pi = load i64, ptr %h, align 8
  store i64 %pi, ptr %v, align 8
  %u = call double @use(ptr %v)
  %m = call ptr @malloc(i64 64)
  %mi = ptrtoint ptr %m to i64
  %ai = add i64 %mi, 15
  %al = and i64 %ai, -16
  %a = inttoptr i64 %al to ptr
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  store double %sq, ptr %a, align 16
  %y = load double, ptr %a, align 16
  call void @free(ptr %m)
  %r = fmul double %y, %u
  ret double %r
}

define void @grad(ptr %x, ptr %dx, ptr %h, ptr %dh) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %h, ptr %dh)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: inttoptr
; CHECK: %[[P:[0-9]+]] = load ptr, ptr %h, align 8
; CHECK: %[[PS:.*]] = load ptr, ptr %h.shadow, align 8
; CHECK: store ptr %[[P]], ptr %v, align 8
; CHECK: store ptr %[[PS]], ptr %v.shadow, align 8
; CHECK: %m = call ptr @malloc(i64 64)
; CHECK: %[[S:[0-9]+]] = call ptr @calloc(i64 64, i64 1)
; CHECK: %al = and i64 %ai, -16
; CHECK: %[[OFF:[0-9]+]] = sub i64 %al,
; CHECK: getelementptr i8, ptr %m, i64 %[[OFF]]
; CHECK: %[[SA:[0-9]+]] = getelementptr i8, ptr %[[S]], i64 %[[OFF]]
; CHECK-NOT: inttoptr
; CHECK: load double, ptr %[[SA]], align 16
; CHECK: ret void
