; Decision: a GEP's index bounded by the bounds check on the only way into its block
; (`icmp ult %len, 4`), and a counted loop's end bounded the same way, bound the bytes
; the GEP reaches in type analysis (front46: `int_range::guarded_range`).
; Why it matters: rustc indexes `s.vals[s.len]` of `struct Fixed { vals: [f64; 4], len:
; usize }` as `getelementptr double, ptr %s, i64 %len`, with no array in the type.
; Unbounded, type analysis spread the doubles over every offset of the struct, so `len`
; (offset 32) read Anything: the reverse sweep cleared the shadow's `len` as an adjoint
; (`load`, `store double 0.0` at `%s.shadow + 32`) and forward mode stored a zero tangent
; there (`store i64 0`), so the caller's shadow struct lost its length (the gradient was
; right). The base binary does both; now the shadow's integer stays the user's, as for
; other records' integer fields (`common/mirrored_ints.rs`).
;
; (rustc -O's IR of `fill`, tests/rust-probe/tests/front46_users.rs, simplified)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@enzyme_const = external global i32

; fn fill(x: &[f64], s: &mut Fixed) -> f64 {
;     for &a in x { s.vals[s.len] = a * a; s.len += 1; }
;     s.vals[..s.len].iter().map(|v| v.sin()).sum()
; }
define double @fill(ptr %x, i64 %n, ptr %s) {
entry:
  %end = getelementptr inbounds nuw double, ptr %x, i64 %n
  %empty = icmp eq i64 %n, 0
  %lenp = getelementptr inbounds nuw i8, ptr %s, i64 32
  %len0 = load i64, ptr %lenp, align 8
  br i1 %empty, label %pushed, label %check

check:
  %len = phi i64 [ %len1, %push ], [ %len0, %entry ]
  %xp = phi ptr [ %xn, %push ], [ %x, %entry ]
  %ok = icmp ult i64 %len, 4
  br i1 %ok, label %push, label %oob

pushed:
  %k = phi i64 [ %len0, %entry ], [ %len1, %push ]
  %fits = icmp ult i64 %k, 5
  br i1 %fits, label %sum.pre, label %oob2

push:
  %a = load double, ptr %xp, align 8
  %xn = getelementptr inbounds nuw i8, ptr %xp, i64 8
  %slot = getelementptr inbounds nuw double, ptr %s, i64 %len
  %sq = fmul double %a, %a
  store double %sq, ptr %slot, align 8
  %l = load i64, ptr %lenp, align 8
  %len1 = add i64 %l, 1
  store i64 %len1, ptr %lenp, align 8
  %done = icmp eq ptr %xn, %end
  br i1 %done, label %pushed, label %check

oob:
  call void @panic_bounds_check(i64 %len, i64 4)
  unreachable

oob2:
  call void @panic_bounds_check(i64 %k, i64 4)
  unreachable

sum.pre:
  %none = icmp eq i64 %k, 0
  br i1 %none, label %exit, label %sum

sum:
  %i = phi i64 [ %i1, %sum ], [ 0, %sum.pre ]
  %acc = phi double [ %acc1, %sum ], [ -0.0, %sum.pre ]
  %vp = getelementptr inbounds nuw double, ptr %s, i64 %i
  %v = load double, ptr %vp, align 8
  %sv = call double @llvm.sin.f64(double %v)
  %acc1 = fadd double %acc, %sv
  %i1 = add nuw nsw i64 %i, 1
  %last = icmp eq i64 %i1, %k
  br i1 %last, label %exit, label %sum

exit:
  %r = phi double [ -0.0, %sum.pre ], [ %acc1, %sum ]
  ret double %r
}

declare void @panic_bounds_check(i64, i64) noreturn
declare double @llvm.sin.f64(double)

define double @grad(ptr %x, ptr %dx, i64 %n, ptr %s, ptr %ds) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @fill, i32 %e, ptr %x, ptr %dx, i32 %c, i64 %n, i32 %e, ptr %s, ptr %ds)
  ret double %d
}

define double @tangent(ptr %x, ptr %dx, i64 %n, ptr %s, ptr %ds) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @fill, i32 %e, ptr %x, ptr %dx, i32 %c, i64 %n, i32 %e, ptr %s, ptr %ds)
  ret double %t
}

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_fill(
; CHECK-NOT: getelementptr inbounds nuw i8, ptr %s.shadow, i64 32
; CHECK: store double %sq, ptr %slot
; CHECK-NOT: getelementptr inbounds nuw i8, ptr %s.shadow, i64 32
; CHECK-LABEL: define internal { double, double } @fz_fwd_fill(
; CHECK-NOT: store i64 0
; CHECK: store i64 %len1, ptr %lenp
; CHECK-NOT: store i64 0
; CHECK: ret { double, double }
