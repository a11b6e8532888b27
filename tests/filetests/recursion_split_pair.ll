; Decision: a recursive function differentiated in reverse mode calls its own
; augmented function in its forward sweep and its own reverse function in its reverse
; sweep: the driver creates the pair's declarations before synthesizing the bodies, so
; `fz_aug_rpow` can call `fz_aug_rpow`. Each level's tape is a field of its caller's
; tape (a slot: the recursive call is in a block that runs once per call).
; Why it matters: recursion needs no special case, and each level frees its own tape.
;
; double rpow(double x, int n) { return n == 0 ? 1.0 : x * rpow(x, n - 1); }
; double grad(double x, int n) { return __enzyme_autodiff((void *)rpow, x, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @rpow(double %x, i32 %n) {
entry:
  %cmp = icmp eq i32 %n, 0
  br i1 %cmp, label %common.ret3, label %cond.false

common.ret3:                                      ; preds = %entry, %cond.false
  %common.ret3.op = phi double [ %mul, %cond.false ], [ 1.000000e+00, %entry ]
  ret double %common.ret3.op

cond.false:                                       ; preds = %entry
  %sub = add i32 %n, -1
  %call = call double @rpow(double %x, i32 %sub)
  %mul = fmul double %x, %call
  br label %common.ret3
}

define double @grad(double %x, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @rpow, double %x, i32 %n)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_rpow(
; CHECK: call { double, ptr } @fz_aug_rpow(double %x, i32
; CHECK: call { double } @fz_rev_rpow(double %x, i32
; CHECK-LABEL: define internal { double, ptr } @fz_aug_rpow(double %x, i32 %n)
; CHECK: [[R:%.*]] = call { double, ptr } @fz_aug_rpow(double %x, i32
; CHECK: [[T:%.*]] = extractvalue { double, ptr } [[R]], 1
; CHECK-NEXT: [[SLOT:%.*]] = getelementptr i8, ptr {{%.*}}, i64
; CHECK-NEXT: store ptr [[T]], ptr [[SLOT]]
; CHECK-LABEL: define internal { double } @fz_rev_rpow(double %x, i32 %n, double %d_ret, ptr %tape)
; CHECK-DAG: call { double } @fz_rev_rpow(double %x, i32
; CHECK-DAG: call void @__fz_tape_free(ptr %tape)
; CHECK: {{^}}}
