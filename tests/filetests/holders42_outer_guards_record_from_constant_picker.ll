; Decision: under forward over reverse, the inner gradient's call of a callee's augmented
; forward that may return a pointer into an `enzyme_const` argument (`pick` returns
; `w + k` or `x + k`) returns a record `{primal, shadow, tape}`; the outer derivative
; counts that record maybe-primal like a pointer (`runtime_activity/mod.rs`
; `returns_pointer`, found by holders41's walk `constant_args.rs`), so the tangent read
; through the picked pointer is guarded (`shadow != primal`, else a null slot).
; Why it matters: unguarded, the tangent of `*p` was read through the constant weights
; themselves (the shadow of a constant pointer is the pointer) and H v came out wrong by
; cos(x_a) w_b, silently (tests/c/1478).
;
; __attribute__((noinline)) static const double *pick(const double *w, const double *x,
;                                                      int k) {
;   return k > 2 ? w + k : x + k;
; }
; __attribute__((noinline)) double energy(const double *x, const double *w, int a, int b) {
;   const double *p = pick(w, x, b);
;   return sin(x[a]) * *p;
; }
; void gradient(const double *x, double *g, const double *w, int a, int b) {
;   __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, w, a, b);
; }
; void hvp(const double *x, const double *v, double *g, double *hv, const double *w,
;          int a, int b) {
;   __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv,
;                    enzyme_const, w, a, b);
; }
; (clang-22 -O2 -fno-discard-value-names, attributes and metadata removed, `noinline`
; kept.) Run natively (tests/c/1478's shape): H v against the analytic Hessian.
;
; RUN: %ferrozyme opt %s -o - --print-activity | %FileCheck %s --check-prefix=ACT
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @energy(ptr noundef readonly captures(none) %x, ptr noundef readonly captures(none) %w, i32 noundef %a, i32 noundef %b) noinline {
entry:
  %call = tail call fastcc ptr @pick(ptr noundef %w, ptr noundef %x, i32 noundef %b)
  %idxprom = sext i32 %a to i64
  %arrayidx = getelementptr inbounds double, ptr %x, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %call1 = tail call double @sin(double noundef %0)
  %1 = load double, ptr %call, align 8
  %mul = fmul double %call1, %1
  ret double %mul
}

define internal fastcc ptr @pick(ptr noundef readnone captures(ret: address, provenance) %w, ptr noundef readnone captures(ret: address, provenance) %x, i32 noundef %k) unnamed_addr noinline {
entry:
  %cmp = icmp sgt i32 %k, 2
  %idx.ext = sext i32 %k to i64
  %cond.v = select i1 %cmp, ptr %w, ptr %x
  %cond = getelementptr inbounds double, ptr %cond.v, i64 %idx.ext
  ret ptr %cond
}

declare double @sin(double noundef) local_unnamed_addr

define dso_local void @gradient(ptr noundef %x, ptr noundef %g, ptr noundef %w, i32 noundef %a, i32 noundef %b) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @energy, i32 noundef %0, ptr noundef %x, ptr noundef %g, i32 noundef %1, ptr noundef %w, i32 noundef %a, i32 noundef %b)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @hvp(ptr noundef %x, ptr noundef %v, ptr noundef %g, ptr noundef %hv, ptr noundef %w, i32 noundef %a, i32 noundef %b) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @gradient, i32 noundef %0, ptr noundef %x, ptr noundef %v, i32 noundef %0, ptr noundef %g, ptr noundef %hv, i32 noundef %1, ptr noundef %w, i32 noundef %a, i32 noundef %b)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

; ACT: runtime activity in @fz_grad_energy: shadow = primal for ; accesses guarded through

; CHECK-LABEL: define internal void @fz_fwd_fz_grad_energy(
; CHECK: [[AUG:%.*]] = call { { ptr, ptr, ptr }, { ptr, ptr, ptr } } @fz_fwd_fz_aug_pick.nest(
; CHECK: [[PRIM:%.*]] = extractvalue { { ptr, ptr, ptr }, { ptr, ptr, ptr } } [[AUG]], 0
; CHECK: [[TAN:%.*]] = extractvalue { { ptr, ptr, ptr }, { ptr, ptr, ptr } } [[AUG]], 1
; CHECK: [[P:%.*]] = extractvalue { ptr, ptr, ptr } [[PRIM]], 0
; CHECK: [[PD:%.*]] = extractvalue { ptr, ptr, ptr } [[TAN]], 0
; CHECK: load double, ptr [[P]]
; CHECK-NEXT: [[OWN:%.*]] = icmp ne ptr [[PD]], [[P]]
; CHECK-NEXT: [[SAFE:%.*]] = select i1 [[OWN]], ptr [[PD]], ptr @__fz_null_slot
; CHECK-NEXT: load double, ptr [[SAFE]]
