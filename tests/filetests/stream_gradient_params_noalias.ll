; Decision: a gradient whose reverse stencil streams were carried (streams/mod.rs), when the
; pipeline after the pass vectorizes loops (`ferrozyme opt -O2`, `ferrozyme cc -O2`
; without -fno-vectorize), gets `noalias` on its copies of the primal's `restrict`
; pointers and on their shadows, and the driver keeps the loop vectorizer's run-time
; alias checks in the loop's preheader (`-hoist-runtime-checks=false`, only for modules
; with a carried stream). The reverse column loop (rows i - 1, i, i + 1 of the shadow of
; x; clamped rows, so their distance is known only at run time) is then loop-vectorized:
; `vector.body` with <2 x double> read-modify-writes of the shadow in @grad (the
; gradient is inlined there; its noalias parameters became the scope declarations).
; Without -O2 (no vectorizer after the pass) the parameters stay as they were: the
; attribute alone changed only code generation (register spills: the Brusselator's
; gradient 130.3k -> 140.5k instructions with the harness flags).
; Why it matters: with LLVM 22's default the checks are hoisted out of the row loop and
; LoopVectorize then gives up on the loop without a remark; with them in the preheader
; but no noalias it checks every pair of pointers (108 pairs in the Brusselator, more
; than the vector loop saves). Both together: the Brusselator's gradient with users'
; flags 112.9k -> 103.9k instructions (bench/README.md, "bruss9").
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x) {
;   const double *u = x, *v = x + 24 * 24;
;   for (int i = 0; i < 24; i++)
;     for (int j = 0; j < 24; j++) {
;       int ip = clampi(i + 1, 24), im = clampi(i - 1, 24), jp = clampi(j + 1, 24),
;           jm = clampi(j - 1, 24);
;       double uij = u[24 * i + j], vij = v[24 * i + j];
;       double lu = u[24 * im + j] + u[24 * ip + j] + u[24 * i + jp] + u[24 * i + jm] - 4.0 * uij;
;       double lv = v[24 * im + j] + v[24 * ip + j] + v[24 * i + jp] + v[24 * i + jm] - 4.0 * vij;
;       out[24 * i + j] = lu + uij * uij * vij;
;       out[576 + 24 * i + j] = lv - uij * uij * vij;
;     }
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize, the first compile's
; -mllvm switches of `ferrozyme cc`, -fno-discard-value-names; attributes and metadata
; removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=AD
; RUN: %ferrozyme opt %s -O2 -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @st(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x) {
entry:
  %add.ptr = getelementptr inbounds nuw i8, ptr %x, i64 4608
  br label %for.body4.peel.next

for.body4.peel.next:                              ; preds = %for.cond.cleanup3, %entry
  %indvars.iv128 = phi i64 [ 0, %entry ], [ %indvars.iv.next129, %for.cond.cleanup3 ]
  %0 = trunc nuw nsw i64 %indvars.iv128 to i32
  %1 = tail call i32 @llvm.umin.i32(i32 %0, i32 22)
  %2 = tail call i32 @llvm.smax.i32(i32 %0, i32 1)
  %3 = add nsw i32 %2, -1
  %cond6.i117 = tail call noundef range(i32 0, 24) i32 @llvm.umin.i32(i32 %3, i32 23)
  %4 = mul nuw nsw i64 %indvars.iv128, 24
  %mul15 = mul nuw nsw i32 %cond6.i117, 24
  %5 = mul nuw nsw i32 %1, 24
  %mul19 = add nuw nsw i32 %5, 24
  %6 = add nuw nsw i64 %4, 576
  %7 = zext nneg i32 %mul15 to i64
  %8 = zext nneg i32 %mul19 to i64
  %arrayidx.peel = getelementptr inbounds nuw double, ptr %x, i64 %4
  %9 = load double, ptr %arrayidx.peel, align 8
  %arrayidx14.peel = getelementptr inbounds nuw double, ptr %add.ptr, i64 %4
  %10 = load double, ptr %arrayidx14.peel, align 8
  %arrayidx18.peel = getelementptr inbounds nuw double, ptr %x, i64 %7
  %11 = load double, ptr %arrayidx18.peel, align 8
  %arrayidx22.peel = getelementptr inbounds nuw double, ptr %x, i64 %8
  %12 = load double, ptr %arrayidx22.peel, align 8
  %13 = or disjoint i64 %4, 1
  %arrayidx27.peel = getelementptr inbounds nuw double, ptr %x, i64 %13
  %14 = load double, ptr %arrayidx27.peel, align 8
  %mul34.neg.peel = fmul fast double %9, -4.000000e+00
  %arrayidx39.peel = getelementptr inbounds nuw double, ptr %add.ptr, i64 %7
  %15 = load double, ptr %arrayidx39.peel, align 8
  %arrayidx43.peel = getelementptr inbounds nuw double, ptr %add.ptr, i64 %8
  %16 = load double, ptr %arrayidx43.peel, align 8
  %arrayidx48.peel = getelementptr inbounds nuw double, ptr %add.ptr, i64 %13
  %17 = load double, ptr %arrayidx48.peel, align 8
  %mul57.peel = fmul fast double %9, %9
  %mul58.peel = fmul fast double %mul57.peel, %10
  %add23.peel = fadd fast double %11, %mul34.neg.peel
  %add28.peel = fadd fast double %add23.peel, %mul58.peel
  %add33.peel = fadd fast double %add28.peel, %12
  %sub35.peel = fadd fast double %add33.peel, %14
  %add59.peel = fadd fast double %sub35.peel, %9
  %arrayidx63.peel = getelementptr inbounds nuw double, ptr %out, i64 %4
  store double %add59.peel, ptr %arrayidx63.peel, align 8
  %mul55.neg.peel = fmul fast double %10, -4.000000e+00
  %.neg.peel = fsub fast double %mul55.neg.peel, %mul58.peel
  %add44.peel = fadd fast double %.neg.peel, %15
  %add49.peel = fadd fast double %add44.peel, %16
  %add54.peel = fadd fast double %add49.peel, %17
  %sub66.peel = fadd fast double %add54.peel, %10
  %arrayidx71.peel = getelementptr inbounds nuw double, ptr %out, i64 %6
  store double %sub66.peel, ptr %arrayidx71.peel, align 8
  %18 = add nuw i64 %4, 4294967295
  %19 = getelementptr inbounds nuw double, ptr %out, i64 %6
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3
  ret void

for.cond.cleanup3:                                ; preds = %for.body4
  %indvars.iv.next129 = add nuw nsw i64 %indvars.iv128, 1
  %exitcond136.not = icmp eq i64 %indvars.iv.next129, 24
  br i1 %exitcond136.not, label %for.cond.cleanup, label %for.body4.peel.next

for.body4:                                        ; preds = %for.body4.peel.next, %for.body4
  %indvars.iv = phi i64 [ 1, %for.body4.peel.next ], [ %indvars.iv.next, %for.body4 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %20 = trunc nuw nsw i64 %indvars.iv.next to i32
  %cond6.i118 = tail call noundef range(i32 0, 24) i32 @llvm.umin.i32(i32 %20, i32 23)
  %21 = add nuw nsw i64 %indvars.iv, %4
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %21
  %22 = load double, ptr %arrayidx, align 8
  %arrayidx14 = getelementptr inbounds nuw double, ptr %add.ptr, i64 %21
  %23 = load double, ptr %arrayidx14, align 8
  %24 = add nuw nsw i64 %indvars.iv, %7
  %arrayidx18 = getelementptr inbounds nuw double, ptr %x, i64 %24
  %25 = load double, ptr %arrayidx18, align 8
  %26 = add nuw nsw i64 %indvars.iv, %8
  %arrayidx22 = getelementptr inbounds nuw double, ptr %x, i64 %26
  %27 = load double, ptr %arrayidx22, align 8
  %28 = zext nneg i32 %cond6.i118 to i64
  %29 = add nuw nsw i64 %4, %28
  %arrayidx27 = getelementptr inbounds nuw double, ptr %x, i64 %29
  %30 = load double, ptr %arrayidx27, align 8
  %add30 = add i64 %18, %indvars.iv
  %idxprom31 = and i64 %add30, 4294967295
  %arrayidx32 = getelementptr inbounds nuw double, ptr %x, i64 %idxprom31
  %31 = load double, ptr %arrayidx32, align 8
  %mul34.neg = fmul fast double %22, -4.000000e+00
  %arrayidx39 = getelementptr inbounds nuw double, ptr %add.ptr, i64 %24
  %32 = load double, ptr %arrayidx39, align 8
  %arrayidx43 = getelementptr inbounds nuw double, ptr %add.ptr, i64 %26
  %33 = load double, ptr %arrayidx43, align 8
  %arrayidx48 = getelementptr inbounds nuw double, ptr %add.ptr, i64 %29
  %34 = load double, ptr %arrayidx48, align 8
  %arrayidx53 = getelementptr inbounds nuw double, ptr %add.ptr, i64 %idxprom31
  %35 = load double, ptr %arrayidx53, align 8
  %mul57 = fmul fast double %22, %22
  %mul58 = fmul fast double %mul57, %23
  %add23 = fadd fast double %25, %mul34.neg
  %add28 = fadd fast double %add23, %mul58
  %add33 = fadd fast double %add28, %27
  %sub35 = fadd fast double %add33, %30
  %add59 = fadd fast double %sub35, %31
  %arrayidx63 = getelementptr inbounds nuw double, ptr %out, i64 %21
  store double %add59, ptr %arrayidx63, align 8
  %mul55.neg = fmul fast double %23, -4.000000e+00
  %.neg = fsub fast double %mul55.neg, %mul58
  %add44 = fadd fast double %.neg, %32
  %add49 = fadd fast double %add44, %33
  %add54 = fadd fast double %add49, %34
  %sub66 = fadd fast double %add54, %35
  %arrayidx71 = getelementptr inbounds nuw double, ptr %19, i64 %indvars.iv
  store double %sub66, ptr %arrayidx71, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 24
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dupnoneed, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %1, ptr noundef %x, ptr noundef %dx)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32)

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.smax.i32(i32, i32)




; AD: define internal void @fz_grad_st(ptr %out, ptr %out.shadow, ptr %x, ptr %x.shadow)
; AD: fz.stream.flush:

; CHECK-LABEL: define dso_local void @grad(
; CHECK: call void @llvm.experimental.noalias.scope.decl(
; CHECK: {{^}}vector.body:
; CHECK: fadd reassoc {{.*}} <2 x double>
; CHECK: store <2 x double>
; CHECK: {{^}}middle.block{{[0-9]*}}:
