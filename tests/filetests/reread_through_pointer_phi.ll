; Decision: a load through a pointer phi (a pointer the loop advances, as Rust's slice
; iterators and `split_at` do) is re-read in the reverse sweep when no write after it
; can change its memory, and a store through a `Vec`'s pointer (a phi of the allocation
; and the dangling `inttoptr (i64 8 to ptr)` of an empty `Vec`) writes that allocation
; only (reverse/memory.rs: `underlying` follows phis and selects, addresses in the null
; page point to no object).
; Why it matters: both were "unknown" objects, so the store counted as a write to every
; object and each load of the argument got a tape entry per iteration: the Rust GMM's
; triangle `*o += l * xc` taped every `l` of the parameters (branch gmmrust15).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @products(ptr %l, ptr %x, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %scratch, label %alloc

alloc:
  %bytes = shl nuw i64 %n, 3
  %buf = call noalias ptr @malloc(i64 %bytes)
  br label %scratch

scratch:
  %y = phi ptr [ inttoptr (i64 8 to ptr), %entry ], [ %buf, %alloc ]
  br i1 %empty, label %exit, label %body

body:
  %i = phi i64 [ 0, %scratch ], [ %i.next, %body ]
  %p = phi ptr [ %l, %scratch ], [ %p.next, %body ]
  %s = phi double [ 0.000000e+00, %scratch ], [ %s.next, %body ]
  %lv = load double, ptr %p, align 8
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %px, align 8
  %prod = fmul double %lv, %xv
  %py = getelementptr inbounds double, ptr %y, i64 %i
  store double %prod, ptr %py, align 8
  %s.next = call double @llvm.fmuladd.f64(double %prod, double %prod, double %s)
  %p.next = getelementptr inbounds i8, ptr %p, i64 8
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %body

exit:
  %r = phi double [ 0.000000e+00, %scratch ], [ %s.next, %body ]
  ret double %r
}

declare noalias ptr @malloc(i64)
declare double @llvm.fmuladd.f64(double, double, double)

define void @grad(ptr %l, ptr %dl, ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @products, ptr %l, ptr %dl, ptr %x, ptr %dx, i64 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_products(
; The forward loop tapes the walked pointer (and its shadow), not what it loads.
; CHECK-LABEL: {{^}}body:
; CHECK-NOT: store double %lv, ptr
; CHECK-NOT: store double %xv, ptr
; CHECK: {{^}}exit:
; The reverse loop re-reads l through the pointer.
; CHECK-LABEL: {{^}}rev.body:
; CHECK: [[P:%fz.cached[0-9]*]] = load ptr
; CHECK-NEXT: load double, ptr [[P]]
; CHECK: {{^}}}
