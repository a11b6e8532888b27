; Decision: a pointer passed to a defined callee as an integer (`ptrtoint`, rebuilt there
; with `inttoptr`) is allowed when the callee only compares through it: the rebuilt
; pointer and the pointers read through it are only read, and the floats read are only
; compared (through `fabs`). libstdc++'s `__merge_adaptive` gets `std::stable_sort`'s
; comparator, a struct holding `&x`, this way once the argument registers are taken
; (tests/cxx/366 at -O2). The callee's derivative needs no shadow of the pointer: no
; adjoint goes through what it reads. A callee that stores through the rebuilt pointer
; stays refused (tests/errors/ranges_transform_iterator_as_integer_O0.cpp).
; Why it matters: until cxx32 this was refused at every level.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define internal fastcc i64 @pick(i64 %a, i64 %b, i64 %comp) noinline {
entry:
  %c = inttoptr i64 %comp to ptr
  %x = load ptr, ptr %c, align 8
  %pa = getelementptr inbounds double, ptr %x, i64 %a
  %va = load double, ptr %pa, align 8
  %fa = tail call double @llvm.fabs.f64(double %va)
  %pb = getelementptr inbounds double, ptr %x, i64 %b
  %vb = load double, ptr %pb, align 8
  %fb = tail call double @llvm.fabs.f64(double %vb)
  %lt = fcmp olt double %fa, %fb
  %r = select i1 %lt, i64 %a, i64 %b
  ret i64 %r
}

define double @f(ptr %x) {
entry:
  %slot = alloca ptr, align 8
  store ptr %x, ptr %slot, align 8
  %comp = ptrtoint ptr %slot to i64
  %k = call fastcc i64 @pick(i64 0, i64 1, i64 %comp)
  %p = getelementptr inbounds double, ptr %x, i64 %k
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  ret double %sq
}

declare double @llvm.fabs.f64(double)

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(ptr %x, ptr %x.shadow, double %d_ret)
; CHECK: call fastcc i64 @pick(i64 0, i64 1, i64 %comp)
