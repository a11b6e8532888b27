; Decision: a constant pointer kept in a record that does not come from an `enzyme_const`
; parameter is its own shadow too (runtime activity), like rec35's parameters: a constant
; global table's address (`@TABLE`), one read out of a constant table of pointers
; (`@ROWS`), in a record built by `insertvalue`s and stored whole into shadowed memory
; (`@build` into the caller's slot, `@f_rows` into a heap context) or returned by value
; (`@mk`). The clone's instsimplify folds the first insertion into a constant record
; (`{ptr @TABLE, double undef, ...}`): its shadow record keeps the table's address and
; zeroes the float (`RuntimeActivity::record_constants`). The caller of `@build` (which
; stores the table into the slot it is handed) and of `@mk` puts its reads under checks
; (`hands_memory_to_constant_keeper`, `returns_record_keeping_constant`), so `@apply`
; is differentiated with `shadow != primal` guards.
; Why it matters: the shadow record had a null in the table's field, or (the caller not
; under checks) the table itself, and `@apply`'s reverse sweep added w[i]'s adjoint
; through it: SIGSEGV in all three functions, reverse and forward mode.
; Written by hand (rec36); run natively with a C driver (x random in [-1, 1], n = 4,
; s = 1.3, w = TABLE, out = s w x, result sum(out^2)): d/dx_i = 2 s^2 w_i^2 x_i and
; d/ds = 2 s sum(w_i x_i)^2 analytic and by finite differences, the tangent for
; (vx, vs = 0.7) their dot product: @f, @f_rows and @f_ret pass in both modes.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=FWD
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=ROWS
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=RET
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=GUARD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%ctx = type { ptr, double, ptr, i64 }

@TABLE = private unnamed_addr constant [4 x double] [double 5.000000e-01, double -1.250000e+00, double 2.000000e+00, double 7.500000e-01], align 16
@ROWS = private unnamed_addr constant [2 x ptr] [ptr @TABLE, ptr getelementptr inbounds (i8, ptr @TABLE, i64 8)], align 16
@enzyme_const = external global i32
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

; out[i] = s * w[i] * x[i], the fields read back one by one
define internal void @apply(ptr %c, ptr %x) noinline {
entry:
  %wp = getelementptr inbounds %ctx, ptr %c, i32 0, i32 0
  %w = load ptr, ptr %wp, align 8
  %sp = getelementptr inbounds %ctx, ptr %c, i32 0, i32 1
  %s = load double, ptr %sp, align 8
  %op = getelementptr inbounds %ctx, ptr %c, i32 0, i32 2
  %out = load ptr, ptr %op, align 8
  %np = getelementptr inbounds %ctx, ptr %c, i32 0, i32 3
  %n = load i64, ptr %np, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %a = getelementptr inbounds double, ptr %w, i64 %i
  %wi = load double, ptr %a, align 8
  %b = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %b, align 8
  %p = fmul double %s, %wi
  %q = fmul double %p, %xi
  %o = getelementptr inbounds double, ptr %out, i64 %i
  store double %q, ptr %o, align 8
  %i1 = add nuw i64 %i, 1
  %cnd = icmp ult i64 %i1, %n
  br i1 %cnd, label %loop, label %done
done:
  ret void
}

define internal double @sumsq(ptr %out, i64 %n) noinline {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %t = phi double [ 0.0, %entry ], [ %t1, %loop ]
  %o = getelementptr inbounds double, ptr %out, i64 %i
  %v = load double, ptr %o, align 8
  %sq = fmul double %v, %v
  %t1 = fadd double %t, %sq
  %i1 = add nuw i64 %i, 1
  %cnd = icmp ult i64 %i1, %n
  br i1 %cnd, label %loop, label %done
done:
  ret double %t1
}

; numba's shape: a helper stores the record whole into the caller's slot; the constant
; table's address goes in first (the clone folds that insertion into a constant record)
define internal void @build(ptr %ret, double %s, ptr %out, i64 %n) noinline {
entry:
  %r0 = insertvalue %ctx undef, ptr @TABLE, 0
  %r1 = insertvalue %ctx %r0, ptr %out, 2
  %r2 = insertvalue %ctx %r1, double %s, 1
  %r3 = insertvalue %ctx %r2, i64 %n, 3
  store %ctx %r3, ptr %ret, align 8
  ret void
}

define double @f(ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %slot = alloca %ctx, align 8
  call void @build(ptr %slot, double %s, ptr %out, i64 %n)
  call void @apply(ptr %slot, ptr %x)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

; the table's address read out of a constant table of pointers, the record built in a
; heap context
define double @f_rows(ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %w = load ptr, ptr @ROWS, align 8
  %h = call ptr @malloc(i64 32)
  %r0 = insertvalue %ctx poison, double %s, 1
  %r1 = insertvalue %ctx %r0, ptr %w, 0
  %r2 = insertvalue %ctx %r1, ptr %out, 2
  %r3 = insertvalue %ctx %r2, i64 %n, 3
  store %ctx %r3, ptr %h, align 8
  call void @apply(ptr %h, ptr %x)
  call void @free(ptr %h)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

; a record returned by value (unoptimized Rust's and clang -O0's `{ptr, double}`)
define internal { ptr, double } @mk(double %s) noinline {
entry:
  %r0 = insertvalue { ptr, double } undef, ptr @TABLE, 0
  %r1 = insertvalue { ptr, double } %r0, double %s, 1
  ret { ptr, double } %r1
}

define double @f_ret(ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %slot = alloca %ctx, align 8
  %r = call { ptr, double } @mk(double %s)
  %w = extractvalue { ptr, double } %r, 0
  %s2 = extractvalue { ptr, double } %r, 1
  store ptr %w, ptr %slot, align 8
  %sp = getelementptr inbounds %ctx, ptr %slot, i32 0, i32 1
  store double %s2, ptr %sp, align 8
  %op = getelementptr inbounds %ctx, ptr %slot, i32 0, i32 2
  store ptr %out, ptr %op, align 8
  %np = getelementptr inbounds %ctx, ptr %slot, i32 0, i32 3
  store i64 %n, ptr %np, align 8
  call void @apply(ptr %slot, ptr %x)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

define double @grad_f(ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent_f(ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @grad_f_rows(ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f_rows, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent_f_rows(ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f_rows, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @grad_f_ret(ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f_ret, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent_f_ret(ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f_ret, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

; The shadow record in the augmented forward sweep: the table itself, %out's shadow, a
; zero adjoint for s, n as it is.
; CHECK-LABEL: define internal { ptr } @fz_aug_build
; CHECK: [[S0:%[0-9]+]] = insertvalue %ctx { ptr @TABLE, double 0.000000e+00, ptr null, i64 undef }, ptr %out.shadow, 2
; CHECK: [[S1:%[0-9]+]] = insertvalue %ctx [[S0]], double 0.000000e+00, 1
; CHECK: [[S2:%[0-9]+]] = insertvalue %ctx [[S1]], i64 %n, 3
; CHECK: store %ctx [[S2]], ptr %ret.shadow

; Forward mode: the tangent record holds the table itself and s's tangent.
; FWD-LABEL: define internal void @fz_fwd_build
; FWD: [[T0:%[0-9]+]] = insertvalue %ctx { ptr @TABLE, double 0.000000e+00, ptr null, i64 undef }, ptr %out.d0, 2
; FWD: insertvalue %ctx [[T0]], double %s.d0, 1

; The address read out of @ROWS (folded to @TABLE) inserted after the float.
; ROWS-LABEL: define internal { double } @fz_grad_f_rows
; ROWS: [[R0:%[0-9]+]] = insertvalue %ctx zeroinitializer, double 0.000000e+00, 1
; ROWS: [[R1:%[0-9]+]] = insertvalue %ctx [[R0]], ptr @TABLE, 0
; ROWS: insertvalue %ctx [[R1]], ptr %out.shadow, 2

; The record returned by value: its tangent holds the table.
; RET-LABEL: define internal { { ptr, double }, { ptr, double } } @fz_fwd_mk
; RET: insertvalue { ptr, double } { ptr @TABLE, double 0.000000e+00 }, double %s.d0, 1

; The kernel reading the record is under checks: w[i]'s adjoint goes nowhere when w's
; shadow is w (masked).
; GUARD-LABEL: define internal void @fz_rev_apply.nest
; GUARD: icmp ne ptr
; GUARD: call <1 x double> @llvm.masked.load.v1f64.p0
