; Decision: glibc's `__memcpy_chk(dst, src, n, size)` (`-D_FORTIFY_SOURCE`, no IR) in the
; derivative's clone becomes glibc's check (`n > size`: `__chk_fail()`) and `llvm.memcpy`
; (`fortify.rs`), so the shadows are copied forward and the adjoints moved back as for a
; plain `memcpy`. Why it matters: before probe46 the call was refused ("no derivative for
; `__memcpy_chk`", tests/c/1525); dropping the check would let an overflow run on in the
; derivative. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

declare ptr @__memcpy_chk(ptr, ptr, i64, i64)
declare double @__enzyme_autodiff(ptr, ...)

; sum of squares of the first n doubles of x, copied into a local of 8 doubles first
define internal double @f(ptr %x, i32 %n) {
entry:
  %tmp = alloca [8 x double], align 16
  %n64 = sext i32 %n to i64
  %bytes = shl nsw i64 %n64, 3
  %r = call ptr @__memcpy_chk(ptr %tmp, ptr %x, i64 %bytes, i64 64)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %r, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %i1 = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i1, %n64
  br i1 %done, label %exit, label %loop
exit:
  ret double %s1
}

define double @main_grad(ptr %x, ptr %dx, i32 %n) {
  %d = load i32, ptr @enzyme_dup, align 4
  %c = load i32, ptr @enzyme_const, align 4
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %c, i32 %n)
  ret double %g
}

; CHECK: icmp ugt i64 %{{.*}}, 64
; CHECK: call void @__chk_fail()
; CHECK-NEXT: unreachable
; CHECK: call void @llvm.memcpy.p0.p0.i64(
