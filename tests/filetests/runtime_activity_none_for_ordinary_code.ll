; Decision: no runtime-activity guards where activity is known at compile time. The
; same loop as runtime_activity_guarded_phi.ll with both buffers duplicated: the phi of
; pointers has an ordinary shadow phi, and no adjoint access is guarded (no pointer
; comparison, no masked load or store).
; Why it matters: run-time checks are only for code that needs them; everything else
; must get exactly the code it got before.
;
; (the C of runtime_activity_guarded_phi.ll, with
;   __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, n))
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr %x, ptr %y, i32 %n) {
entry:
  %cmp14 = icmp sgt i32 %n, 0
  br i1 %cmp14, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %p.016 = phi ptr [ %y, %for.body.preheader ], [ %cond, %for.body ]
  %s.015 = phi double [ 0.000000e+00, %for.body.preheader ], [ %2, %for.body ]
  %arrayidx = getelementptr inbounds nuw double, ptr %p.016, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %1 = load double, ptr %arrayidx2, align 8
  %2 = tail call double @llvm.fmuladd.f64(double %0, double %1, double %s.015)
  %cmp5 = fcmp ogt double %1, 0.000000e+00
  %cond = select i1 %cmp5, ptr %y, ptr %x
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %y, ptr %dy, i32 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr , ...) 

; CHECK-LABEL: define internal void @fz_grad_f(ptr %x, ptr %x.shadow, ptr %y, ptr %y.shadow, i32 %n, double %d_ret)
; CHECK: %p.016.shadow = phi ptr [ %y.shadow, %for.body.preheader ], [ [[S:%.*]], %for.body ]
; CHECK: [[S]] = select i1 %cmp5, ptr %y.shadow, ptr %x.shadow
; CHECK-NOT: icmp ne ptr
; CHECK-NOT: @llvm.masked
; CHECK: {{^}}}
