; Decision: GMM's packed-triangle index `sext(P / 2 + q)` (P the stepped product of
; reverse/quadratic.rs, the halving exact, q affine in the counter) is stepped back whole
; in 64 bits where a run-time guard shows that the loop's 32-bit arithmetic cannot wrap
; (reverse/stepped_index.rs): three slots T (the index), E (its step) and ok, set where
; the reverse enters the loop (ok: the parts of the factors and of q independent of the
; counter, the counter's start and its value there, each biased by 2^12, or'ed and
; compared `ult 8192`), stepped beside P and D (T -= E, E -= k1 k2 s^2 = -1), and read
; as `select ok, T, sext(P / 2 + q)` marked `!ferrozyme.stepped_index`. At -O3 LLVM's
; loop unswitching makes a loop that steps T (the `.us` copy); at -O2, where the pipeline
; does not unswitch, `ferrozyme opt`/`cc` unswitch the loops of the functions holding a
; marked select after the pipeline (`unswitch_guarded_loops`, gmm32; here the gradient is
; inlined into @grad, the mark followed it) and remove the marks.
; Not taken: a halving not known to be exact (`c (d - c) / 2`, f_inexact).
; Why it matters: the reverse triangle of gmm-fused at -O3 -march=x86-64-v3 spent 4 of
; its 18 instructions per entry on the index (mov, sar, add, movslq): bench/icount.py
; 53.39M -> 51.78M per gradient call (quick), 689.2M -> 627.3M (1k d20_K100) (fused21);
; at the harness flags 60.42M -> 58.94M, 804.8M -> 754.9M (gmm32).
;
; f_tri: see reverse_quadratic_index_stepped_back.ll (the same IR);
; f_inexact: for (c < d) s += l[c * (d - c) / 2 + c] * x[c]  (written by hand)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -O3 -o - | %FileCheck %s --check-prefix=O3
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s --check-prefix=O2
; RUN: %ferrozyme opt %s -O1 -o - | %FileCheck %s --check-prefix=O2

; CHECK-LABEL: define internal void @fz_grad_f_tri(
; CHECK: [[T:%[a-z0-9.]+\.index]] = alloca i64
; CHECK-NEXT: [[E:%[a-z0-9.]+\.index\.step]] = alloca i64
; CHECK-NEXT: [[OK:%fz\.index\.ok]] = alloca i1
; The guard is checked once where the reverse enters the row loop (gmm33): d - 1 (the
; row counter's entry value), its start 0 and the parts varying with the row (q's and the
; column counter's exit value: -1 each) in [-2^10, 2^10), the invariant ones (2d - 1, 0,
; the column counter's start 0) in [-2^12, 2^12).
; CHECK-LABEL: {{^}}rev.for.cond.cleanup:
; CHECK: [[W:%.*]] = icmp ult i64 {{%.*}}, 8192
; CHECK: [[N:%.*]] = icmp ult i64 {{%.*}}, 2048
; CHECK-NEXT: [[OKO:%.*]] = and i1 [[W]], [[N]]
; CHECK-LABEL: {{^}}rev.for.body4:
; CHECK: [[OKV:%.*]] = load i1, ptr [[OK]]
; CHECK-NEXT: [[TV:%.*]] = load i64, ptr [[T]]
; CHECK: sdiv exact i32
; CHECK: [[X:%.*]] = sext i32 {{%.*}} to i64
; CHECK-NEXT: [[I:%.*]] = select i1 [[OKV]], i64 [[TV]], i64 [[X]], !ferrozyme.stepped_index
; CHECK: getelementptr {{.*}}, i64 [[I]]
; CHECK: [[TC:%.*]] = load i64, ptr [[T]]
; CHECK-NEXT: [[EC:%.*]] = load i64, ptr [[E]]
; CHECK-NEXT: [[TN:%.*]] = sub i64 [[TC]], [[EC]]
; CHECK-NEXT: store i64 [[TN]], ptr [[T]]
; CHECK-NEXT: [[EN:%.*]] = sub i64 [[EC]], -1
; CHECK-NEXT: store i64 [[EN]], ptr [[E]]
; CHECK-LABEL: {{^}}rev.for.cond.cleanup.from.for.cond.cleanup3:
; CHECK-NEXT: store i1 [[OKO]], ptr [[OK]]
; CHECK-LABEL: {{^}}rev.for.cond.cleanup3.from.for.body4:
; CHECK: store i64 {{%.*}}, ptr [[T]]
; CHECK-NEXT: store i64 {{%.*}}, ptr [[E]]
; CHECK-NOT: ptr [[OK]]
; CHECK: br label %rev.for.body4
; CHECK-LABEL: define internal void @fz_grad_f_inexact(
; CHECK-NOT: stepped_index
; CHECK-NOT: alloca i1
; CHECK: ret void

; O3: [[TU:%idxprom9.index.0.us[.0-9a-z]*]] = phi i64
; O3: sub i64 [[TU]],

; O2-LABEL: define dso_local void @grad(
; O2: [[TU2:%idxprom9.index.0[.a-z]*.us]] = phi i64
; O2: getelementptr inbounds double, ptr %l, i64 [[TU2]]
; O2: sub i64 [[TU2]],
; O2-NOT: stepped_index
; O2-NOT: ferrozyme-unswitch-guarded

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define dso_local double @f_tri(ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %x, i32 noundef %d) {
entry:
  %cmp35 = icmp sgt i32 %d, 0
  br i1 %cmp35, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul = shl nuw nsw i32 %d, 1
  %wide.trip.count45 = zext nneg i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %2, %for.cond.cleanup3 ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.cond.cleanup3
  %indvars.iv42 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next43, %for.cond.cleanup3 ]
  %s.036 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %2, %for.cond.cleanup3 ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv42
  %0 = load double, ptr %arrayidx, align 8
  %cmp232.not = icmp eq i64 %indvars.iv42, 0
  br i1 %cmp232.not, label %for.cond.cleanup3, label %for.body4.preheader

for.body4.preheader:                              ; preds = %for.body
  %1 = trunc nuw nsw i64 %indvars.iv42 to i32
  br label %for.body4

for.cond.cleanup3:                                ; preds = %for.body4, %for.body
  %z.0.lcssa = phi double [ %0, %for.body ], [ %9, %for.body4 ]
  %2 = tail call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %s.036)
  %indvars.iv.next43 = add nuw nsw i64 %indvars.iv42, 1
  %exitcond46.not = icmp eq i64 %indvars.iv.next43, %wide.trip.count45
  br i1 %exitcond46.not, label %for.cond.cleanup, label %for.body

for.body4:                                        ; preds = %for.body4.preheader, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.preheader ], [ %indvars.iv.next, %for.body4 ]
  %z.033 = phi double [ %0, %for.body4.preheader ], [ %9, %for.body4 ]
  %3 = trunc nuw nsw i64 %indvars.iv to i32
  %4 = xor i32 %3, -1
  %sub5 = add nsw i32 %mul, %4
  %5 = trunc i64 %indvars.iv to i32
  %6 = mul i32 %sub5, %5
  %div = sdiv i32 %6, 2
  %add = add nsw i32 %1, %4
  %sub8 = add i32 %add, %div
  %idxprom9 = sext i32 %sub8 to i64
  %arrayidx10 = getelementptr inbounds double, ptr %l, i64 %idxprom9
  %7 = load double, ptr %arrayidx10, align 8
  %arrayidx12 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %8 = load double, ptr %arrayidx12, align 8
  %9 = tail call double @llvm.fmuladd.f64(double %7, double %8, double %z.033)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %indvars.iv42
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @f_inexact(ptr noundef readonly captures(none) %l, ptr noundef readonly captures(none) %x, i32 noundef %d) {
entry:
  %cmp = icmp sgt i32 %d, 0
  br i1 %cmp, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:
  %n = zext nneg i32 %d to i64
  br label %for.body

for.cond.cleanup:
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %acc, %for.body ]
  ret double %s.0.lcssa

for.body:
  %iv = phi i64 [ 0, %for.body.preheader ], [ %iv.next, %for.body ]
  %s = phi double [ 0.000000e+00, %for.body.preheader ], [ %acc, %for.body ]
  %0 = trunc nuw nsw i64 %iv to i32
  %1 = sub i32 %d, %0
  %2 = mul i32 %1, %0
  %div = sdiv i32 %2, 2
  %add = add i32 %div, %0
  %idx = sext i32 %add to i64
  %arrayidx = getelementptr inbounds double, ptr %l, i64 %idx
  %3 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %iv
  %xv = load double, ptr %arrayidx2, align 8
  %acc = tail call double @llvm.fmuladd.f64(double %3, double %xv, double %s)
  %iv.next = add nuw nsw i64 %iv, 1
  %exitcond.not = icmp eq i64 %iv.next, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local void @grad(ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_tri, ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d)
  %call1 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f_inexact, ptr noundef %l, ptr noundef %dl, ptr noundef %x, ptr noundef %dx, i32 noundef %d)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
