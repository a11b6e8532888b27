; Decision: a loop marked with `__enzyme_set_fixed_point` (checkpoint/fixed_loop.rs). The
; marker at the top of the do-while body names the state %r; the loop is outlined into the
; step @__fz_fp_loop_step.0 (checkpoint/while_outline.rs): the body once, returning 1 on the
; back edge and 0 at the exit, taking the state and %a and storing %mul (the value the
; loop gives to the `return`, forwarded from the state's last store at -O2) into a slot.
; The loop is replaced by the fixed-point loop function the `__enzyme_fixed_point` lowering
; makes (default settings: -1, the bits of -1.0, no control), with the state's region
; (%r, 8 bytes); after it the function returns the slot's value. The marker is gone.
; Why it matters: the derivative of the marked loop is the fixed point's (two-phase
; adjoint), not the derivative through every Newton iteration.
;
; double root(const double *a) {
;   double r = 1.0; int more;
;   do {
;     __enzyme_set_fixed_point(enzyme_fp_state, &r, (int64_t)sizeof(double));
;     double next = 0.5 * (r + *a / r);
;     more = fabs(next - r) > 1e-15 * next;
;     r = next;
;   } while (more);
;   return r;
; }
; double grad(double *a, double *da) { return __enzyme_autodiff((void *)root, enzyme_dup, a, da); }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define dso_local double @root(
; CHECK: %fz.fp.out = alloca double
; CHECK-NOT: __enzyme_set_fixed_point
; CHECK: call void @__fz_ckpt_call.0(i64 -1, i64 -4616189618054758400, i64 0, i64 0, i64 %{{[0-9]+}}, i64 8, ptr %r, ptr %a, ptr %fz.fp.out)
; CHECK-NEXT: %[[OUT:[a-z0-9.]+]] = load double, ptr %fz.fp.out
; CHECK-NOT: br
; CHECK: ret double %[[OUT]]
; CHECK: define internal i32 @__fz_fp_loop_step.0(i64 %0, ptr %1, ptr %2, ptr %3)
; CHECK: %mul = fmul double %add, 5.000000e-01
; CHECK-NEXT: store double %mul, ptr %3
; CHECK: store double %mul, ptr %1
; CHECK-NEXT: br i1 %cmp, label %step.again, label %step.done
; CHECK: step.again:
; CHECK-NEXT: ret i32 1
; CHECK: step.done:
; CHECK-NEXT: ret i32 0

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_fp_state = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local double @root(ptr noundef readonly captures(none) %a) {
entry:
  %r = alloca double, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %r)
  store double 1.000000e+00, ptr %r, align 8
  br label %do.body

do.body:                                          ; preds = %do.body, %entry
  %0 = load i32, ptr @enzyme_fp_state, align 4
  call void (i32, ...) @__enzyme_set_fixed_point(i32 noundef %0, ptr noundef nonnull %r, i64 noundef 8)
  %1 = load double, ptr %r, align 8
  %2 = load double, ptr %a, align 8
  %div = fdiv double %2, %1
  %add = fadd double %1, %div
  %mul = fmul double %add, 5.000000e-01
  %sub = fsub double %mul, %1
  %3 = call double @llvm.fabs.f64(double %sub)
  %mul1 = fmul double %mul, 1.000000e-15
  %cmp = fcmp ogt double %3, %mul1
  store double %mul, ptr %r, align 8
  br i1 %cmp, label %do.body, label %do.end

do.end:                                           ; preds = %do.body
  call void @llvm.lifetime.end.p0(ptr nonnull %r)
  ret double %mul
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare void @__enzyme_set_fixed_point(i32 noundef, ...) local_unnamed_addr

declare double @llvm.fabs.f64(double)

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local double @grad(ptr noundef %a, ptr noundef %da) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @root, i32 noundef %0, ptr noundef %a, ptr noundef %da)
  ret double %call
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

