; Decision: in a reverse block, a shadow slot that a store's adjoint zeroes and a later
; load's adjoint adds to again, with accesses between that may be the same slot, keeps its
; value in a register (reverse/write_once.rs): the zero store goes, each access between
; of the same type and aligned size compares its address with the slot's (a load reads
; `select(same, slot value, load)`, a store sets the slot value to
; `select(same, stored, slot value)`), and the accumulation's load becomes the slot value.
; Here the reverse of `x[i + n] = a * b` zeroes `dx[i + n]`, the reverse of `x[i] = ...`
; reads and zeroes `dx[i]` (the same slot when n = 0), and the reverses of the loads of
; `x[i + n]` and `x[i]` add to both again: both zero stores and both reloads are gone.
; Why it matters: with the zero stores in place, LLVM cannot fold them (dx[i] may be
; dx[i + n]); at -O3 -march=native SLP packs an FFT butterfly's two adds into one 16-byte
; load of the pair the same iteration zeroed with two 8-byte stores, which the store
; buffer cannot forward (bench/README "fft34": fft-iter's gradient 4.6 -> 2.6x its
; primal by CPU time).
;
; void bfly(double *x, long n) {
;   for (long i = 0; i < n; i++) {
;     double a = x[i], b = x[i + n];
;     x[i] = a + b;
;     x[i + n] = a * b;
;   }
; }
; void grad(double *x, double *dx, long n) {
;   __enzyme_autodiff((void *)bfly, enzyme_dup, x, dx, enzyme_const, n);
; }
; The rule applies to AVX targets only (the functions carry `-march=x86-64-v3`'s AVX
; features): without AVX the adds stay scalar and LLVM lowers each select of doubles to a
; branch.
; (clang-22 -O2 -fno-vectorize -fno-slp-vectorize -fno-unroll-loops, attributes and
; metadata removed, AVX target features added)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_bfly(
; CHECK: rev.for.body:
; CHECK: %[[DI:.+]] = getelementptr inbounds nuw double, ptr %x.shadow, i64 %i.0191.rev1
; CHECK-NEXT: %[[DB:.+]] = getelementptr double, ptr %[[DI]], i64 %n
; CHECK-NEXT: %[[OB:.+]] = load double, ptr %[[DB]]
; CHECK-NOT: store double 0.0
; CHECK: %[[SAME:.+]] = icmp eq ptr %[[DI]], %[[DB]]
; CHECK-NEXT: %[[OI:.+]] = load double, ptr %[[DI]]
; CHECK-NEXT: %[[VI:.+]] = select i1 %[[SAME]], double 0.000000e+00, double %[[OI]]
; CHECK-NOT: store double 0.0
; CHECK-NOT: load double, ptr %[[DB]]
; CHECK: %[[NB:.+]] = fadd nsz double 0.000000e+00, %{{.+}}
; CHECK-NEXT: %[[SAME2:.+]] = icmp eq ptr %[[DB]], %[[DI]]
; CHECK-NEXT: store double %[[NB]], ptr %[[DB]]
; CHECK-NEXT: %[[RI:.+]] = select i1 %[[SAME2]], double %[[NB]], double 0.000000e+00
; CHECK-NEXT: %[[NI:.+]] = fadd nsz double %[[RI]], %{{.+}}
; CHECK-NEXT: store double %[[NI]], ptr %[[DI]]
; CHECK-NOT: store double 0.0
; CHECK: ret void
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define void @bfly(ptr noundef captures(none) %x, i64 noundef %n) #0 {
entry:
  %cmp18 = icmp sgt i64 %n, 0
  br i1 %cmp18, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void

for.body:                                         ; preds = %entry, %for.body
  %i.019 = phi i64 [ %inc, %for.body ], [ 0, %entry ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %i.019
  %0 = load double, ptr %arrayidx, align 8
  %arrayidx1 = getelementptr double, ptr %arrayidx, i64 %n
  %1 = load double, ptr %arrayidx1, align 8
  %add2 = fadd double %0, %1
  store double %add2, ptr %arrayidx, align 8
  %mul = fmul double %0, %1
  store double %mul, ptr %arrayidx1, align 8
  %inc = add nuw nsw i64 %i.019, 1
  %exitcond.not = icmp eq i64 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define void @grad(ptr noundef %x, ptr noundef %dx, i64 noundef %n) #0 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @bfly, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, i64 noundef %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

attributes #0 = { "target-features"="+avx,+avx2,+fma,+sse2" }
