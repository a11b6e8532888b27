; Decision: the address of a stack object declared `align 16` rounded up to 16 through
; integers, `inttoptr ((ptrtoint %raw + 15) & -16)` (Eigen's aligned stack buffer at
; -O0, tests/c/860), becomes a byte GEP of the alloca (by the rounding's offset, 0 at run
; time): the shadow alloca then receives the copy's derivatives. Before sweep19 the
; `inttoptr` stayed without a shadow: this function was refused (a value written to
; memory without a shadow and read back), and tests/c/860's loop at -O0 lost the buffer's
; derivatives silently. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @f(ptr %x) {
entry:
  %raw = alloca i8, i64 31, align 16
  %ri = ptrtoint ptr %raw to i64
  %up = add i64 %ri, 15
  %al = and i64 %up, -16
  %buf = inttoptr i64 %al to ptr
  %x0 = load double, ptr %x, align 8
  store double %x0, ptr %buf, align 16
  %v = load double, ptr %buf, align 16
  %m = fmul double %v, %x0
  ret double %m
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %raw.shadow = alloca i8, i64 31, align 16
; CHECK: %raw = alloca i8, i64 31, align 16
; CHECK: %[[OFF:[0-9]+]] = sub i64 %al, %{{[0-9]+}}
; CHECK: %[[P:[0-9]+]] = getelementptr i8, ptr %raw, i64 %[[OFF]]
; CHECK: %[[PS:[0-9]+]] = getelementptr i8, ptr %raw.shadow, i64 %[[OFF]]
; CHECK-NOT: inttoptr
; CHECK: store double %x0, ptr %[[P]]
; CHECK: store double %{{[0-9]+}}, ptr %[[PS]]
