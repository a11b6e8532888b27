; Decision: when the optimizer merged hook calls from several predecessors into one call
; of a `phi` of functions (SimplifyCFG sinking the calls of a three-way choice into their
; common successor, as the plugin sees code at the start of the optimization pipeline),
; the phi becomes a chain of selects on comparisons (`p == @f ? @f : (p == @g ? @g :
; @h)`) and the call is split into one direct call per function (unmerge.rs), each calling
; its own derivative (tests/c/122 through the plugin).
; Why it matters: a hook whose function is only known at run time cannot be
; differentiated; the optimizer manufactured this one from three direct calls.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %mul = fmul double %x, %x
  ret double %mul
}

define double @g(double %x) {
entry:
  %call = call double @sin(double %x)
  ret double %call
}

define double @h(double %x) {
entry:
  %call = call double @exp(double %x)
  ret double %call
}

declare double @sin(double)
declare double @exp(double)

define double @pick(double %x, i32 %w) {
entry:
  switch i32 %w, label %c [
    i32 0, label %a
    i32 1, label %b
  ]
a:
  br label %join
b:
  br label %join
c:
  br label %join
join:
  %fn = phi ptr [ @f, %a ], [ @g, %b ], [ @h, %c ]
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr %fn, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define double @pick(
; CHECK-DAG: call { double } @fz_grad_f(double %x, double 1.000000e+00)
; CHECK-DAG: call { double } @fz_grad_g(double %x, double 1.000000e+00)
; CHECK-DAG: call { double } @fz_grad_h(double %x, double 1.000000e+00)
; CHECK-NOT: @__enzyme_autodiff
; CHECK: {{^}}}
