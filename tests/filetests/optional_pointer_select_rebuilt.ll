; Decision: an optional pointer kept in an integer, `inttoptr (select c, ptrtoint q, 0)`
; (tests/c/851 at -O0 once the pass promotes the `uintptr_t` slot), or a phi of such
; arms (`g`: the volatile store keeps the branch), is rebuilt as the select or phi of the pointers (`q` and null) before
; differentiation (intptr.rs `merged_pointers`), so the loads through it reach `q`'s
; shadow. Before sweep19 the shadow of `q` was pruned (only a `ptrtoint` used it), the
; audit passed the integer as clean, and d/dx[1] was a silent 0. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@seen = global i32 0, align 4

define double @f(ptr %x, i32 %some) {
entry:
  %c = icmp ne i32 %some, 0
  %q = getelementptr inbounds double, ptr %x, i64 1
  %qi = ptrtoint ptr %q to i64
  %slot = select i1 %c, i64 %qi, i64 0
  %p = inttoptr i64 %slot to ptr
  %nz = icmp ne ptr %p, null
  br i1 %nz, label %use, label %done

use:
  %v = load double, ptr %p, align 8
  %m = fmul double %v, %v
  br label %done

done:
  %r = phi double [ %m, %use ], [ 0.0, %entry ]
  ret double %r
}

define double @g(ptr %x, i32 %some) {
entry:
  %c = icmp ne i32 %some, 0
  br i1 %c, label %have, label %join

have:
  store volatile i32 1, ptr @seen, align 4
  %q = getelementptr inbounds double, ptr %x, i64 1
  %qi = ptrtoint ptr %q to i64
  br label %join

join:
  %slot = phi i64 [ %qi, %have ], [ 0, %entry ]
  %p = inttoptr i64 %slot to ptr
  %nz = icmp ne ptr %p, null
  br i1 %nz, label %use, label %done

use:
  %v = load double, ptr %p, align 8
  %m = fmul double %v, %v
  br label %done

done:
  %r = phi double [ %m, %use ], [ 0.0, %join ]
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i32 %some) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %some)
  %b = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %0, ptr %x, ptr %dx, i32 %some)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %[[S:[0-9]+]] = getelementptr inbounds double, ptr %x.shadow, i64 1
; CHECK: %[[P:[0-9]+]] = select i1 %c, ptr %q, ptr null
; CHECK: %[[PS:[0-9]+]] = select i1 %c, ptr %[[S]], ptr null
; CHECK-NOT: inttoptr
; CHECK: load double, ptr %[[P]]
; CHECK: store double %{{[0-9]+}}, ptr %[[PS]]
; CHECK-LABEL: define internal void @fz_grad_g(
; CHECK: %[[GS:[0-9]+]] = getelementptr inbounds double, ptr %x.shadow, i64 1
; CHECK: %[[GP:[0-9]+]] = phi ptr [ %q, %have ], [ null, %entry ]
; CHECK: %.shadow = phi ptr [ %[[GS]], %have ], [ null, %entry ]
; CHECK-NOT: inttoptr
; CHECK: store double %{{[0-9]+}}, ptr %.shadow
