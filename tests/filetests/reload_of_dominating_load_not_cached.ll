; Decision: a load that reads the same address as a load of a dominating block (same
; base, same constant byte offset: `gep i8, %x, 8` and `gep double, %x, 1`), with no
; write that may alias it able to run in between, is replaced in the reverse sweep by
; that first load when the reverse sweep uses the first one directly (its block runs
; once and dominates every return): no tape slot for the second (reverse/reload.rs).
; Here `*out` may alias `x` and is written after the reload (the first store is not
; final: `x` is read after it), so the reload alone would be cached. In `@clobbered` a
; store to `*out` between the two loads keeps the slot.
; Why it matters: the clone's full unrolling repeats loads GVN had merged in the loop
; form (BA's `rot[i]` in `sqsum3` and in `w[i] = rot[i] * theta_inverse` under the
; `if`); each kept a slot, a value live across the branch after SROA.
; (hand-reduced from BA after the clone's unrolling)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define void @reload(ptr %x, ptr %out) {
entry:
  %p8 = getelementptr inbounds i8, ptr %x, i64 8
  %a = load double, ptr %p8, align 8
  %sq = fmul double %a, %a
  %cmp = fcmp ogt double %sq, 1.000000e+00
  br i1 %cmp, label %if.then, label %if.end

if.then:
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %p1, align 8
  %s = call double @sin(double %b)
  br label %if.end

if.end:
  %r = phi double [ %s, %if.then ], [ %sq, %entry ]
  store double %r, ptr %out, align 8
  %c = load double, ptr %x, align 8
  %t = fmul double %c, %r
  %o1 = getelementptr inbounds i8, ptr %out, i64 8
  store double %t, ptr %o1, align 8
  ret void
}

define void @clobbered(ptr %x, ptr %out) {
entry:
  %p8 = getelementptr inbounds i8, ptr %x, i64 8
  %a = load double, ptr %p8, align 8
  %sq = fmul double %a, %a
  %cmp = fcmp ogt double %sq, 1.000000e+00
  br i1 %cmp, label %if.then, label %if.end

if.then:
  store double 0.000000e+00, ptr %out, align 8
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %p1, align 8
  %s = call double @sin(double %b)
  br label %if.end

if.end:
  %r = phi double [ %s, %if.then ], [ %sq, %entry ]
  store double %r, ptr %out, align 8
  %c = load double, ptr %x, align 8
  %t = fmul double %c, %r
  %o1 = getelementptr inbounds i8, ptr %out, i64 8
  store double %t, ptr %o1, align 8
  ret void
}

declare double @sin(double)

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @reload, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout)
  call void (ptr, ...) @__enzyme_autodiff(ptr @clobbered, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_reload(
; CHECK-LABEL: {{^}}if.then:
; CHECK: %b = load double, ptr %p1
; CHECK-NOT: %fz.tape
; CHECK: {{^}}if.end:
; CHECK-LABEL: {{^}}rev.if.then:
; CHECK-NOT: load double, ptr {{%[0-9]+}}
; CHECK-NOT: load double, ptr %fz.tape
; CHECK: call double @llvm.cos.f64(double %a)
; CHECK-LABEL: define internal void @fz_grad_clobbered(
; CHECK-LABEL: {{^}}if.then:
; CHECK: %b = load double, ptr %p1
; CHECK-NEXT: store double %b, ptr %fz.tape
; CHECK-LABEL: {{^}}rev.if.then:
; CHECK: [[CACHED:%.*]] = load double, ptr %fz.tape
; CHECK-NEXT: call double @llvm.cos.f64(double [[CACHED]])
