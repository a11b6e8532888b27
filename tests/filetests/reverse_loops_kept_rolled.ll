; Decision: the loops the reverse sweep builds are not unrolled; at -O3 the post-AD
; pipeline unrolls the rest of the generated code (the forward sweep's copies of the
; primal's loops) as the user's flags unroll the primal. At the end of a reverse
; synthesis every natural loop of the reverse function that holds a reverse block gets
; a loop ID `!{self, !{"llvm.loop.unroll.disable"}}` on its latches under the inert kind
; `!ferrozyme.rolled` (the forward sweep's loops get none); `ferrozyme cc -O3` turns the
; marks into `!llvm.loop` before the pipeline (a one-case `switch` latch becomes the
; `br` simplifycfg would make of it, which would otherwise drop the loop ID), below -O3
; it drops them and generated code is not unrolled at all, as before
; (`crates/ferrozyme-transform/src/rolled_loops.rs`, `ferrozyme-cli` `pipeline.rs`
; `derivative_loops`).
; Why it matters: gmm-fused's row loop (this shape) at -O3 -march=x86-64-v3: the
; primal's loop is unrolled twice (10.5 instructions per entry), the forward sweep's
; copy was rolled (16); unrolled it is the primal's again, while run-time unrolling of
; GMM's reverse column loop cost instructions (15.2M -> 17.9M per call): gradient/primal
; gmm-fused 2.73 -> 2.52, gmm 2.22 -> 2.13 by instructions (bench/README.md, "gmm19").
;
; extern double __enzyme_autodiff(void *, ...);
; extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
; double f(int d, const double *q, const double *l, const double *y) {
;   double sq = 0.0;
;   for (int r = 0; r < d; r++) {
;     double z = q[r] * y[r];
;     for (int c = 0; c < r; c++) z += l[c * (2 * d - c - 1) / 2 + r - c - 1] * y[c];
;     sq += z * z;
;   }
;   return sq;
; }
; double g(int d, const double *q, double *dq, const double *l, double *dl, const double *y) {
;   return __enzyme_autodiff((void *)f, enzyme_const, d, enzyme_dup, q, dq, enzyme_dup, l, dl,
;                            enzyme_const, y);
; }
; (tools/filetest-ir.py f.c -march=x86-64-v3)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=MARK
; RUN: %ferrozyme cc %s -O3 -march=x86-64-v3 -S -emit-llvm -o - | %FileCheck %s --check-prefix=O3
; RUN: %ferrozyme cc %s -O2 -march=x86-64-v3 -S -emit-llvm -o - | %FileCheck %s --check-prefix=O2

; The forward sweep's two loops carry no mark, the reverse sweep's two do (one ID each).
; MARK-LABEL: define internal void @fz_grad_f(
; MARK-NOT: ferrozyme.rolled
; MARK: rev.entry:
; MARK: br label %rev.for.cond.cleanup5, !ferrozyme.rolled ![[OUTER:[0-9]+]]
; MARK: br label %rev.for.body6, !ferrozyme.rolled ![[INNER:[0-9]+]]
; MARK: ![[OUTER]] = distinct !{![[OUTER]], ![[D:[0-9]+]]}
; MARK-NEXT: ![[D]] = !{!"llvm.loop.unroll.disable"}
; MARK-NEXT: ![[INNER]] = distinct !{![[INNER]], ![[D]]}

; At -O3 both reverse loops keep their IDs through the pipeline, as `!llvm.loop` (the
; outer one unswitched on the packed index's guard, hoisted to it since gmm33: its two
; copies share the ID, as the inner loop's do).
; O3-NOT: ferrozyme.rolled
; O3: br i1 %{{.*}}, label %rev.entry{{.*}}, !llvm.loop ![[A:[0-9]+]]
; O3: br i1 %{{.*}}, label %rev.for.body{{[.a-z]*}}, label %rev.for.body6.from.for.body6{{.*}}, !llvm.loop ![[B:[0-9]+]]
; O3: ![[A]] = distinct !{![[A]], ![[D:[0-9]+]]}
; O3-NEXT: ![[D]] = !{!"llvm.loop.unroll.disable"}
; O3-NEXT: ![[B]] = distinct !{![[B]], ![[D]]}

; Below -O3 the marks are dropped: nothing of this reaches the output.
; O2-LABEL: define {{.*}} @g(
; O2-NOT: ferrozyme.rolled
; O2-NOT: llvm.loop.unroll.disable

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4
@enzyme_dup = external global i32, align 4

define double @f(i32 %d, ptr %q, ptr %l, ptr %y) {
entry:
  %cmp39 = icmp sgt i32 %d, 0
  br i1 %cmp39, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %mul7 = shl i32 %d, 1
  %wide.trip.count49 = zext i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.cleanup5, %entry
  %sq.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %3, %for.cond.cleanup5 ]
  ret double %sq.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.cond.cleanup5
  %indvars.iv46 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next47, %for.cond.cleanup5 ]
  %sq.040 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %3, %for.cond.cleanup5 ]
  %arrayidx = getelementptr double, ptr %q, i64 %indvars.iv46
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr double, ptr %y, i64 %indvars.iv46
  %1 = load double, ptr %arrayidx2, align 8
  %mul = fmul double %0, %1
  %cmp436.not = icmp eq i64 %indvars.iv46, 0
  br i1 %cmp436.not, label %for.cond.cleanup5, label %for.body6.preheader

for.body6.preheader:                              ; preds = %for.body
  %2 = trunc i64 %indvars.iv46 to i32
  br label %for.body6

for.cond.cleanup5:                                ; preds = %for.body6, %for.body
  %z.0.lcssa = phi double [ %mul, %for.body ], [ %10, %for.body6 ]
  %3 = call double @llvm.fmuladd.f64(double %z.0.lcssa, double %z.0.lcssa, double %sq.040)
  %indvars.iv.next47 = add i64 %indvars.iv46, 1
  %exitcond50.not = icmp eq i64 %indvars.iv.next47, %wide.trip.count49
  br i1 %exitcond50.not, label %for.cond.cleanup, label %for.body

for.body6:                                        ; preds = %for.body6.preheader, %for.body6
  %indvars.iv = phi i64 [ 0, %for.body6.preheader ], [ %indvars.iv.next, %for.body6 ]
  %z.037 = phi double [ %mul, %for.body6.preheader ], [ %10, %for.body6 ]
  %4 = trunc i64 %indvars.iv to i32
  %5 = xor i32 %4, -1
  %sub8 = add i32 %mul7, %5
  %6 = trunc i64 %indvars.iv to i32
  %7 = mul i32 %sub8, %6
  %div = sdiv i32 %7, 2
  %add = add i32 %2, %5
  %sub11 = add i32 %add, %div
  %idxprom12 = sext i32 %sub11 to i64
  %arrayidx13 = getelementptr double, ptr %l, i64 %idxprom12
  %8 = load double, ptr %arrayidx13, align 8
  %arrayidx15 = getelementptr double, ptr %y, i64 %indvars.iv
  %9 = load double, ptr %arrayidx15, align 8
  %10 = call double @llvm.fmuladd.f64(double %8, double %9, double %z.037)
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %indvars.iv46
  br i1 %exitcond.not, label %for.cond.cleanup5, label %for.body6
}

declare double @llvm.fmuladd.f64(double, double, double)

define double @g(i32 %d, ptr %q, ptr %dq, ptr %l, ptr %dl, ptr %y) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, i32 %d, i32 %1, ptr %q, ptr %dq, i32 %1, ptr %l, ptr %dl, i32 %0, ptr %y)
  ret double %call
}

declare double @__enzyme_autodiff(ptr, ...)


