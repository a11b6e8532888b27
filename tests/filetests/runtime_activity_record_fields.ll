; Decision: a record built by `insertvalue`s that holds an `enzyme_const` pointer (`%w`)
; next to a float (`%s`) and a differentiable pointer (`%out`), stored whole into memory
; that has a shadow (the caller's slot `%ret`), gets its shadow built field by field
; (`common::runtime_activity::record_fields_keeping_constant`, `own_records`; the
; `insertvalue` arms of `reverse/forward.rs` and `tangent/inst.rs`): the constant
; pointer is its own shadow (runtime activity), `%out`'s field gets `%out`'s shadow, the
; float's field its tangent in forward mode and a zero adjoint in reverse mode, the
; integer the primal's. The callees that read the pointers back (`@apply` field by
; field, `@apply_ld` loading the record whole and taking the pointers out with
; `extractvalue`) are differentiated under checks (`shadow != primal`).
; Why it matters: the shadow record had a null in the constant's field (the chain's
; first `insertvalue` has no shadow), `@apply`'s reverse sweep added `%w`'s adjoint
; through it: SIGSEGV in both modes, also for a record of pointers only
; (`{w, out, n}`: not the record num34 made its own shadow, which holds no shadowed
; pointer). And in reverse mode a float inserted after a shadowed pointer was copied
; as it is into the shadow record: the stored adjoint started at the primal value, so
; d/ds came out as the derivative plus s itself (1.918 + 1.3 = 3.218 below), silently.
; numba (NUMBA_OPT=0) and unoptimized Rust build their records this way; clang stores
; structs field by field or with memcpy (tests/c/1390, 1391 cover C).
; Written by hand (rec35); run natively with a C driver (w, x random in [-1, 1], n = 4,
; s = 1.3, out = s w x, result sum(out^2)): d/dx_i = 2 s^2 w_i^2 x_i and
; d/ds = 2 s sum(w_i x_i)^2 analytic and by finite differences, the tangent for
; (vx, vs) their dot product, w unchanged; @f, @f_heap and @f_ld (w, out, n only, s
; passed alone) in both modes.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=FWD
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=HEAP
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=PAIR
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=GUARD
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=GUARDLD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%ctx = type { ptr, double, ptr, i64 }
%pp = type { ptr, ptr, i64 }

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

; the same with the record of pointers loaded whole and taken apart
define internal void @apply_ld(ptr %c, double %s, ptr %x) noinline {
entry:
  %r = load %pp, ptr %c, align 8
  %w = extractvalue %pp %r, 0
  %out = extractvalue %pp %r, 1
  %n = extractvalue %pp %r, 2
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

; numba's impl_carray shape: a helper stores the record whole into the caller's slot;
; the float goes in after the differentiable pointer
define internal void @build(ptr %ret, ptr %w, double %s, ptr %out, i64 %n) noinline {
entry:
  %r0 = insertvalue %ctx undef, ptr %w, 0
  %r1 = insertvalue %ctx %r0, ptr %out, 2
  %r2 = insertvalue %ctx %r1, double %s, 1
  %r3 = insertvalue %ctx %r2, i64 %n, 3
  store %ctx %r3, ptr %ret, align 8
  ret void
}

define double @f(ptr %w, ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %slot = alloca %ctx, align 8
  call void @build(ptr %slot, ptr %w, double %s, ptr %out, i64 %n)
  call void @apply(ptr %slot, ptr %x)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

; the record stored whole into a heap context
define double @f_heap(ptr %w, ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %h = call ptr @malloc(i64 32)
  %r0 = insertvalue %ctx undef, ptr %w, 0
  %r1 = insertvalue %ctx %r0, double %s, 1
  %r2 = insertvalue %ctx %r1, ptr %out, 2
  %r3 = insertvalue %ctx %r2, i64 %n, 3
  store %ctx %r3, ptr %h, align 8
  call void @apply(ptr %h, ptr %x)
  call void @free(ptr %h)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

; a record of pointers only, one constant, one differentiable
define double @f_ld(ptr %w, ptr %x, ptr %out, double %s, i64 %n) noinline {
entry:
  %h = call ptr @malloc(i64 24)
  %r0 = insertvalue %pp undef, ptr %w, 0
  %r1 = insertvalue %pp %r0, ptr %out, 1
  %r2 = insertvalue %pp %r1, i64 %n, 2
  store %pp %r2, ptr %h, align 8
  call void @apply_ld(ptr %h, double %s, ptr %x)
  call void @free(ptr %h)
  %t = call double @sumsq(ptr %out, i64 %n)
  ret double %t
}

define double @grad(ptr %w, ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent(ptr %w, ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @grad_heap(ptr %w, ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f_heap, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent_heap(ptr %w, ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f_heap, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @grad_ld(ptr %w, ptr %x, ptr %dx, ptr %out, ptr %dout, double %s, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f_ld, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, ptr @enzyme_const, i64 %n)
  ret double %r
}

define double @tangent_ld(ptr %w, ptr %x, ptr %vx, ptr %out, ptr %dout, double %s, double %vs, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f_ld, ptr @enzyme_const, ptr %w, ptr @enzyme_dup, ptr %x, ptr %vx, ptr @enzyme_dup, ptr %out, ptr %dout, double %s, double %vs, ptr @enzyme_const, i64 %n)
  ret double %r
}

; The shadow record in the augmented forward sweep: %w itself, %out's shadow, a zero
; adjoint for s, n as it is.
; CHECK-LABEL: define internal { ptr } @fz_aug_build
; CHECK: [[S0:%[0-9]+]] = insertvalue %ctx zeroinitializer, ptr %w, 0
; CHECK: [[S1:%[0-9]+]] = insertvalue %ctx [[S0]], ptr %out.shadow, 2
; CHECK: [[S2:%[0-9]+]] = insertvalue %ctx [[S1]], double 0.000000e+00, 1
; CHECK: [[S3:%[0-9]+]] = insertvalue %ctx [[S2]], i64 %n, 3
; CHECK: store %ctx [[S3]], ptr %ret.shadow
; CHECK-LABEL: define internal {{.*}} @fz_rev_build

; Forward mode: the tangent record holds %w itself and s's tangent.
; FWD-LABEL: define internal void @fz_fwd_build
; FWD: [[T0:%[0-9]+]] = insertvalue %ctx zeroinitializer, ptr %w, 0
; FWD: [[T1:%[0-9]+]] = insertvalue %ctx [[T0]], ptr %out.d0, 2
; FWD: [[T2:%[0-9]+]] = insertvalue %ctx [[T1]], double %s.d0, 1
; FWD: store %ctx {{%[0-9]+}}, ptr %ret.d0

; The record in a heap block: its shadow block gets the same field-by-field record.
; HEAP-LABEL: define internal { double } @fz_grad_f_heap
; HEAP: [[H0:%[0-9]+]] = insertvalue %ctx zeroinitializer, ptr %w, 0
; HEAP: [[H1:%[0-9]+]] = insertvalue %ctx [[H0]], double 0.000000e+00, 1
; HEAP: [[H2:%[0-9]+]] = insertvalue %ctx [[H1]], ptr %out.shadow, 2
; HEAP-NOT: insertvalue %ctx zeroinitializer, ptr %out.shadow
; HEAP: store %ctx {{%[0-9]+}}, ptr {{%[0-9]+}}
; PAIR-LABEL: define internal { double } @fz_grad_f_ld
; PAIR: [[P0:%[0-9]+]] = insertvalue %pp zeroinitializer, ptr %w, 0
; PAIR: insertvalue %pp [[P0]], ptr %out.shadow, 1

; The callees reading the pointers back are under checks: the adjoint of w[i] goes
; nowhere when w's shadow is w (masked), in both shapes.
; GUARDLD-LABEL: define internal {{.*}} @fz_rev_apply_ld
; GUARDLD: icmp ne ptr
; GUARDLD: call <1 x double> @llvm.masked.load.v1f64.p0
; GUARD-LABEL: define internal void @fz_rev_apply.nest
; GUARD: icmp ne ptr
; GUARD: call <1 x double> @llvm.masked.load.v1f64.p0
