; Decision: a neighbour index that instcombine spells `(j + 0xffffffff) & 0xffffffff`
; (`zext(trunc(j - 1))` with the add not `nsw`) is read as the exact affine form `j - 1`
; (affine_index.rs, `masked_sum`): the mask keeps the sum modulo 2^32 whatever the add
; wrapped, and over the counter's range (j = 1 .. 18 in the reverse loop) `j - 1` stays
; in [0, 2^32). The reverse column loop's updates of x's shadow at j - 1 and j + 1 then
; are one carried stream: two phis (the second a recurrence of the first: no add lands
; on j between them), one load/add/store per iteration at the j - 1 anchor (the cell the
; loop leaves behind: since bruss18 the loop runs upwards, streams/upward.rs), the two
; open cells added in fz.stream.flush.
; Without it (main before bruss9) this one-field stencil got no stream, unlike the u/v
; Brusselator whose indices keep `nsw`. Since bruss13 the row loop's last row is peeled
; (peel_rows.rs): the row loop's stream is the second one in the function, hence the
; names with a number.
; Why it matters: one-field and float 2-D stencils (tests/c/603's lap5, lapf) get the
; carried streams and, at -O2 with users' flags, the vectorized reverse loop.
;
; static int clampi(int i, int n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }
; void st(double *restrict out, const double *restrict x, double a) {
;   for (int i = 0; i < 5; i++)
;     for (int j = 0; j < 20; j++) {
;       int ip = clampi(i + 1, 5), im = clampi(i - 1, 5), jp = clampi(j + 1, 20),
;           jm = clampi(j - 1, 20);
;       double c = x[20 * i + j];
;       double l = x[20 * im + j] + x[20 * ip + j] + x[20 * i + jp] + x[20 * i + jm] - 4.0 * c;
;       out[20 * i + j] = a * l + c * c * c;
;     }
; }
; void grad(double *out, double *dout, double *x, double *dx, double a) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx,
;                     enzyme_const, a);
; }
; (clang-22 -O2 -ffast-math -fno-vectorize -fno-slp-vectorize, the first compile's
; -mllvm switches of `ferrozyme cc`, -fno-discard-value-names; attributes and metadata
; removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @st(ptr noalias noundef writeonly captures(none) %out, ptr noalias noundef readonly captures(none) %x, double noundef nofpclass(nan inf) %a) {
entry:
  br label %for.body4.peel.next

for.body4.peel.next:                              ; preds = %for.cond.cleanup3, %entry
  %indvars.iv76 = phi i64 [ 0, %entry ], [ %indvars.iv.next77, %for.cond.cleanup3 ]
  %0 = trunc nuw nsw i64 %indvars.iv76 to i32
  %1 = tail call i32 @llvm.umin.i32(i32 %0, i32 3)
  %cmp.i = icmp eq i64 %indvars.iv76, 0
  %2 = trunc i64 %indvars.iv76 to i32
  %3 = add i32 %2, -1
  %4 = tail call i32 @llvm.umin.i32(i32 range(i32 -2147483648, 21) %3, i32 4)
  %5 = mul nuw nsw i64 %indvars.iv76, 20
  %6 = mul nuw nsw i32 %4, 20
  %7 = mul nuw nsw i32 %1, 20
  %mul15 = add nuw nsw i32 %7, 20
  %8 = zext nneg i32 %6 to i64
  %9 = select i1 %cmp.i, i64 0, i64 %8
  %10 = zext nneg i32 %mul15 to i64
  %arrayidx.peel = getelementptr inbounds nuw double, ptr %x, i64 %5
  %11 = load double, ptr %arrayidx.peel, align 8
  %arrayidx14.peel = getelementptr inbounds nuw double, ptr %x, i64 %9
  %12 = load double, ptr %arrayidx14.peel, align 8
  %arrayidx18.peel = getelementptr inbounds nuw double, ptr %x, i64 %10
  %13 = load double, ptr %arrayidx18.peel, align 8
  %14 = getelementptr inbounds nuw double, ptr %x, i64 %5
  %arrayidx23.peel = getelementptr inbounds nuw i8, ptr %14, i64 8
  %15 = load double, ptr %arrayidx23.peel, align 8
  %mul30.neg.peel = fmul fast double %11, -4.000000e+00
  %add19.peel = fadd fast double %mul30.neg.peel, %12
  %add24.peel = fadd fast double %add19.peel, %13
  %add29.peel = fadd fast double %add24.peel, %15
  %sub31.peel = fadd fast double %add29.peel, %11
  %mul32.peel = fmul fast double %sub31.peel, %a
  %mul33.peel = fmul fast double %11, %11
  %mul34.peel = fmul fast double %mul33.peel, %11
  %add35.peel = fadd fast double %mul32.peel, %mul34.peel
  %arrayidx39.peel = getelementptr inbounds nuw double, ptr %out, i64 %5
  store double %add35.peel, ptr %arrayidx39.peel, align 8
  %invariant.gep = getelementptr inbounds nuw double, ptr %x, i64 %9
  %invariant.gep86 = getelementptr inbounds nuw double, ptr %x, i64 %10
  %16 = getelementptr inbounds nuw double, ptr %x, i64 %5
  %invariant.gep88 = getelementptr inbounds nuw double, ptr %x, i64 %5
  br label %for.body4

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3
  ret void

for.cond.cleanup3:                                ; preds = %for.body4
  %indvars.iv.next77 = add nuw nsw i64 %indvars.iv76, 1
  %exitcond85.not = icmp eq i64 %indvars.iv.next77, 5
  br i1 %exitcond85.not, label %for.cond.cleanup, label %for.body4.peel.next

for.body4:                                        ; preds = %for.body4.peel.next, %for.body4
  %indvars.iv = phi i64 [ 1, %for.body4.peel.next ], [ %indvars.iv.next, %for.body4 ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %17 = trunc nuw nsw i64 %indvars.iv.next to i32
  %18 = tail call i32 @llvm.umin.i32(i32 range(i32 -2147483648, 21) %17, i32 19)
  %19 = add nuw i64 %indvars.iv, 4294967295
  %20 = add nuw nsw i64 %indvars.iv, %5
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %20
  %21 = load double, ptr %arrayidx, align 8
  %gep = getelementptr inbounds nuw double, ptr %invariant.gep, i64 %indvars.iv
  %22 = load double, ptr %gep, align 8
  %gep87 = getelementptr inbounds nuw double, ptr %invariant.gep86, i64 %indvars.iv
  %23 = load double, ptr %gep87, align 8
  %24 = zext nneg i32 %18 to i64
  %arrayidx23 = getelementptr inbounds nuw double, ptr %16, i64 %24
  %25 = load double, ptr %arrayidx23, align 8
  %26 = and i64 %19, 4294967295
  %gep89 = getelementptr inbounds nuw double, ptr %invariant.gep88, i64 %26
  %27 = load double, ptr %gep89, align 8
  %mul30.neg = fmul fast double %21, -4.000000e+00
  %add19 = fadd fast double %mul30.neg, %22
  %add24 = fadd fast double %add19, %23
  %add29 = fadd fast double %add24, %25
  %sub31 = fadd fast double %add29, %27
  %mul32 = fmul fast double %sub31, %a
  %mul33 = fmul fast double %21, %21
  %mul34 = fmul fast double %mul33, %21
  %add35 = fadd fast double %mul32, %mul34
  %arrayidx39 = getelementptr inbounds nuw double, ptr %out, i64 %20
  store double %add35, ptr %arrayidx39, align 8
  %exitcond.not = icmp eq i64 %indvars.iv.next, 20
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4
}

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %out, ptr noundef %dout, ptr noundef %x, ptr noundef %dx, double noundef nofpclass(nan inf) %a) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dupnoneed, align 4
  %1 = load i32, ptr @enzyme_dup, align 4
  %2 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %0, ptr noundef %out, ptr noundef %dout, i32 noundef %1, ptr noundef %x, ptr noundef %dx, i32 noundef %2, double noundef nofpclass(nan inf) %a)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.umin.i32(i32, i32)




; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK: {{^}}fz.stream.flush{{[0-9]*}}:
; CHECK: {{^}}rev.for.body4:
; CHECK-NEXT: phi i64 [ 1,
; CHECK-NEXT: %[[S1:fz.stream[0-9]*]] = phi double [ 0.000000e+00,
; CHECK-NEXT: %fz.stream{{[0-9]+}} = phi double [ 0.000000e+00, {{.*}} [ %[[S1]],
; CHECK: [[A:%[0-9]+]] = getelementptr inbounds nuw double, ptr {{%[0-9]+}}, i64 {{%[0-9]+}}
; CHECK: %[[OLD:fz.stream.old[0-9]*]] = load double, ptr [[A]]
; CHECK-NEXT: [[S:%[0-9]+]] = fadd reassoc {{.*}}%[[OLD]]
; CHECK-NEXT: store double [[S]], ptr [[A]]
; CHECK-NEXT: br i1 {{%[0-9]+}}, label %rev.for.body4, label %fz.stream.flush{{[0-9]*}}
