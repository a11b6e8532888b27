; Decision: an active call of a function that writes memory (`scale` updates `p` in
; place) becomes, in the forward sweep, a call of its augmented function `fz_aug_scale`
; (the primal plus what its reverse needs, returned as a tape), and in the reverse
; sweep a call of `fz_rev_scale` with the adjoint arguments and that tape. The
; callee's tape is a value of the caller's forward sweep; here the call runs once per
; run of the caller, so it is the nested pair (`fz_aug_scale.nest`/`fz_rev_scale.nest`)
; working in a region of the caller's own tape (`reverse/tape_nest.rs`): no block of its
; own, nothing freed by the callee.
; Why it matters: the callee's reverse needs the values `p` held before the call
; (overwritten by then); only its own forward sweep can keep them.
;
; __attribute__((noinline)) void scale(double *p, double f) {
;   p[0] *= f;
;   p[1] *= f;
; }
; double usescale(double *p, double f) {
;   scale(p, f);
;   return p[0] + p[1];
; }
; void grad(double *p, double *dp, double f) { __enzyme_autodiff((void *)usescale, p, dp, f); }
; // The values `p` held before the update are kept in the callee's tape.
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @scale(ptr %p, double %f) {
entry:
  %0 = load double, ptr %p, align 8
  %mul = fmul double %f, %0
  store double %mul, ptr %p, align 8
  %arrayidx1 = getelementptr i8, ptr %p, i64 8
  %1 = load double, ptr %arrayidx1, align 8
  %mul2 = fmul double %f, %1
  store double %mul2, ptr %arrayidx1, align 8
  ret void
}

define double @usescale(ptr %p, double %f) {
entry:
  call void @scale(ptr %p, double %f)
  %0 = load double, ptr %p, align 8
  %arrayidx1 = getelementptr i8, ptr %p, i64 8
  %1 = load double, ptr %arrayidx1, align 8
  %add = fadd double %0, %1
  ret double %add
}

define void @grad(ptr %p, ptr %dp, double %f) {
entry:
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @usescale, ptr %p, ptr %dp, double %f)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_usescale(ptr %p, ptr %p.shadow, double %f, double %d_ret)
; CHECK: %fz.nest = alloca i8, i64 16, align 16
; CHECK-NEXT: [[REGION:%.*]] = getelementptr i8, ptr %fz.nest, i64 0
; CHECK: call { ptr } @fz_aug_scale.nest(ptr %p, ptr %p.shadow, double %f, ptr [[REGION]], ptr {{%region|null}})
; CHECK-NOT: @scale(
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: [[R:%.*]] = call { double } @fz_rev_scale.nest(ptr %p, ptr %p.shadow, double %f, ptr [[REGION]])
; CHECK-NEXT: extractvalue { double } [[R]], 0
; CHECK-LABEL: define internal { ptr } @fz_aug_scale.nest(ptr %p, ptr %p.shadow, double %f, ptr %tape, ptr %region)
; CHECK-NOT: __fz_tape_alloc
; CHECK: [[P0:%.*]] = load double, ptr %p
; CHECK-NEXT: [[S0:%.*]] = getelementptr i8, ptr [[LOCAL:%.*]], i64
; CHECK-NEXT: store double [[P0]], ptr [[S0]]
; CHECK-LABEL: define internal { double } @fz_rev_scale.nest(
; CHECK-NOT: load double, ptr %p
; CHECK-NOT: __fz_tape_free
; CHECK: {{^}}}
