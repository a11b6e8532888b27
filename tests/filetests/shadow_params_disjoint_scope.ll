; Decision: in a reverse function, loads and stores through a GEP chain on a shadow
; parameter marked "ferrozyme-shadow" (the AD contract: shadow memory is not primal
; memory) get `!alias.scope` of a scope named after the function, and those through a
; primal pointer parameter get that scope in their `!noalias` (reverse/alias.rs,
; mark_shadows_disjoint). The `enzyme_dupnoneed` shadow (`y`'s in grad_noneed: callers
; may pass one buffer as both) is not marked and gets no scope; the tape keeps its own.
; Why it matters: without the fact LLVM's vectorizer guards GMM's reverse row loop
; (`icf` read, `dicf` written) behind a run-time overlap check: gmm at -O2 -ffast-math
; 51.85M -> 48.86M gradient instructions on the quick input (gmm18; gmm8 found it).
;
; void f_axpy(const double *w, double *y, int n, double a) {
;   for (int i = 0; i < n; i++) y[i] += a * w[i] * w[i];
; }
; grad: __enzyme_autodiff(f_axpy, enzyme_dup, w, dw, enzyme_dup, y, dy, n, enzyme_const, a)
; grad_noneed: the same with enzyme_dupnoneed for y
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops
; -fno-discard-value-names, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; grad_noneed's derivative: only w's shadow is in the scope.
; CHECK-LABEL: define internal void @fz_grad_f_axpy(
; CHECK: load double, ptr %arrayidx, align 8, !noalias [[PN:![0-9]+]]
; CHECK: {{^}}rev.for.body:
; CHECK: %sh = load double, ptr {{%.*}}, align 8, !noalias [[TAPE:![0-9]+]]{{$}}
; CHECK: %sh3 = load double, ptr {{%.*}}, align 8, !alias.scope [[SN:![0-9]+]], !noalias [[TAPE]]
; grad's derivative: both shadows.
; CHECK-LABEL: define internal void @fz_grad_f_axpy.1(
; CHECK: load double, ptr %arrayidx, align 8, !noalias [[PD:![0-9]+]]
; CHECK: {{^}}rev.for.body:
; CHECK: %sh = load double, ptr {{%.*}}, align 8, !alias.scope [[SD:![0-9]+]], !noalias [[TAPE]]
; CHECK: %sh3 = load double, ptr {{%.*}}, align 8, !alias.scope [[SD]], !noalias [[TAPE]]
; CHECK: [[TAPE]] = !{[[T:![0-9]+]]}
; CHECK: [[T]] = !{!"ferrozyme.tape", [[DOM:![0-9]+]]}
; CHECK: [[PN]] = !{[[T]], [[N:![0-9]+]]}
; CHECK: [[N]] = !{!"ferrozyme.shadow.fz_grad_f_axpy", [[DOM]]}
; CHECK: [[SN]] = !{[[N]]}
; CHECK: [[PD]] = !{[[T]], [[D:![0-9]+]]}
; CHECK: [[D]] = !{!"ferrozyme.shadow.fz_grad_f_axpy.1", [[DOM]]}
; CHECK: [[SD]] = !{[[D]]}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4
@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4

define dso_local void @f_axpy(ptr noundef readonly captures(none) %w, ptr noundef captures(none) %y, i32 noundef %n, double noundef %a) {
entry:
  %cmp11 = icmp sgt i32 %n, 0
  br i1 %cmp11, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr inbounds nuw double, ptr %w, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul = fmul double %a, %0
  %arrayidx5 = getelementptr inbounds nuw double, ptr %y, i64 %indvars.iv
  %1 = load double, ptr %arrayidx5, align 8
  %2 = tail call double @llvm.fmuladd.f64(double %mul, double %0, double %1)
  store double %2, ptr %arrayidx5, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local void @grad(ptr noundef %w, ptr noundef %dw, ptr noundef %y, ptr noundef %dy, i32 noundef %n, double noundef %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_axpy, i32 noundef %0, ptr noundef %w, ptr noundef %dw, i32 noundef %0, ptr noundef %y, ptr noundef %dy, i32 noundef %n, i32 noundef %1, double noundef %a)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @grad_noneed(ptr noundef %w, ptr noundef %dw, ptr noundef %y, ptr noundef %dy, i32 noundef %n, double noundef %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_dupnoneed, align 4
  %2 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_axpy, i32 noundef %0, ptr noundef %w, ptr noundef %dw, i32 noundef %1, ptr noundef %y, ptr noundef %dy, i32 noundef %n, i32 noundef %2, double noundef %a)
  ret void
}

