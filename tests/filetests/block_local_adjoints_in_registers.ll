; Decision: in the reverse sweep, the adjoint of a floating scalar whose users are all
; non-phi instructions of its own block is kept as an SSA value (the first contribution,
; then `fadd`s) while that block's reverse is emitted, instead of a zero-initialised
; `alloca` slot with a load, `fadd` and store per contribution and a load and a store of
; zero to read it (reverse/adj_regs.rs). Here `%t` and `%s` (used only in `entry`),
; `%ax` and `%e` (only in the loop's block) and the returned `%out` get no slot; `%u`
; (used after the branch and by phis), `%acc`, `%acc.next`, `%r` and the argument `%x`
; keep theirs. `%t`'s two contributions (through `%u = %t * %s` and
; through `sin`) are summed in a register and scaled by `%c` without touching memory,
; and the returned value's adjoint is the seed `%d_ret` itself.
; Why it matters: on bench/compile_scaling's `chain` (n = 320) the reverses were 67.8k
; instructions after the pass, 43.1k with this; the post-AD pipeline (SROA, InstCombine,
; EarlyCSE) spent its time turning the slots back into values (issue 18).
;
; double local(double x, double c, int n) {
;   double t = x * c, s = sin(t), u = t * s, acc = u;
;   for (int i = 0; i < n; i++) acc = acc * 0.5 + exp(x * acc);
;   return u * acc;   /* acc: phi of u and the loop's value */
; }
; void grad(double x, double c, int n) {
;   __enzyme_autodiff((void *)local, x, enzyme_const, c, enzyme_const, n);
; }
; (clang-22 -O2, values named, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal { double } @fz_grad_local(
; CHECK-NOT: {{%d\.(t|s|ax|e|out) = alloca}}
; CHECK: %d.u = alloca double
; CHECK-NOT: {{%d\.(t|s|ax|e|out) = alloca}}
; CHECK: rev.entry:
; CHECK-NEXT: %[[DU:.+]] = load double, ptr %d.u
; CHECK-NEXT: store double 0.000000e+00, ptr %d.u
; CHECK-NEXT: %[[A:.+]] = fmul contract double %[[DU]], %s
; CHECK-NEXT: %[[B:.+]] = fmul contract double %[[DU]], %t
; CHECK-NEXT: %[[COS:.+]] = call contract double @llvm.cos.f64(double %t)
; CHECK-NEXT: %[[C:.+]] = fmul contract double %[[B]], %[[COS]]
; CHECK-NEXT: %[[DT:.+]] = fadd nsz contract double %[[A]], %[[C]]
; CHECK-NEXT: fmul contract double %[[DT]], %c
; CHECK: rev.loop:
; CHECK-NOT: {{%d\.(ax|e)}}
; CHECK: rev.exit:
; CHECK-NEXT: fmul contract double %d_ret, %r
; CHECK-NOT: %d.out
; CHECK: fmul contract double %d_ret, %u
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

define double @local(double %x, double %c, i32 %n) {
entry:
  %t = fmul double %x, %c
  %s = tail call double @sin(double %t)
  %u = fmul double %t, %s
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit

loop:
  %i = phi i32 [ %i.next, %loop ], [ 0, %entry ]
  %acc = phi double [ %acc.next, %loop ], [ %u, %entry ]
  %ax = fmul double %x, %acc
  %e = tail call double @exp(double %ax)
  %acc.next = tail call double @llvm.fmuladd.f64(double %acc, double 5.000000e-01, double %e)
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi double [ %u, %entry ], [ %acc.next, %loop ]
  %out = fmul double %u, %r
  ret double %out
}

declare double @sin(double)
declare double @exp(double)
declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(double %x, double %c, i32 %n) {
  %k = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr @local, double %x, i32 %k, double %c, i32 %k, i32 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
