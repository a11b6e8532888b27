; Decision: a 128-bit integer read from differentiable memory and used as a number (a
; `u128` count beside the doubles of a struct, multiplied, truncated and converted with
; `uitofp`) is not floating-point data moved inside an integer: the wide-integer audit
; (`audit/wide_ints.rs`) lets it through, and the derivative scales by the count.
; Why it matters: the audit refuses a pair of doubles moved as one `i128`, whose bits
; become doubles again; integer arithmetic on a genuine `u128` field must not be refused.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
entry:
  %x = load double, ptr %p, align 16
  %q = getelementptr i8, ptr %p, i64 16
  %k = load i128, ptr %q, align 16
  %k3 = mul i128 %k, 3
  %t = trunc i128 %k3 to i64
  %c = uitofp i64 %t to double
  %r = fmul double %x, %c
  ret double %r
}

define void @grad(ptr %p, ptr %dp) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: load i128
; CHECK: uitofp
; CHECK: rev.entry:
; CHECK: fmul double %d_ret, %c
; CHECK: store double {{.*}}, ptr %p.shadow
