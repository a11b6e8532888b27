; Decision: an `i64` load from memory that also holds a `double` at the same offset (an
; enum whose variants keep a float where another keeps a `Vec`'s length), used as a loop
; bound and passed to a `noreturn` call (Rust's `panic_bounds_check(index, len)`), is
; only computed on: the run ends on the panic's path, so the length moves no bits the
; derivative reads (`reverse/check.rs`, `computed_on` with `never_returns`). The
; derivative is generated.
; Why it matters: `enum Shape { Circle { r: f64 }, Polygon(Vec<f64>), .. }` with `v[i]`
; indexing in the polygon's arm was a cannot-deduce-type error in `Vec::len` (rust30,
; tests/rust-probe `RichShape::area`; now `scientist32.rs`, rustpy32).
;
; Reduced by hand from rustc 1.95 -O3 (cargo ferrozyme's before-ad module).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@enzyme_dup = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare void @panic_bounds_check(i64, i64) #0

define double @area(ptr %s) {
entry:
  %tag = load i64, ptr %s, align 8
  %is_circle = icmp eq i64 %tag, 0
  br i1 %is_circle, label %circle, label %poly

circle:
  %rp = getelementptr inbounds i8, ptr %s, i64 8
  %r = load double, ptr %rp, align 8
  %a = fmul double %r, %r
  br label %exit

poly:
  %lp = getelementptr inbounds i8, ptr %s, i64 8
  %len = load i64, ptr %lp, align 8
  %p16 = getelementptr inbounds i8, ptr %s, i64 16
  %data = load ptr, ptr %p16, align 8
  %n = lshr i64 %len, 1
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ 0, %poly ], [ %i1, %body ]
  %acc = phi double [ 0.000000e+00, %poly ], [ %acc1, %body ]
  %j = shl i64 %i, 1
  %in = icmp ult i64 %j, %len
  br i1 %in, label %body, label %oob

oob:
  call void @panic_bounds_check(i64 %j, i64 %len) #0
  unreachable

body:
  %vp = getelementptr inbounds double, ptr %data, i64 %j
  %v = load double, ptr %vp, align 8
  %i1 = add i64 %i, 1
  %k = urem i64 %i1, %n
  %k2 = shl i64 %k, 1
  %wp = getelementptr inbounds double, ptr %data, i64 %k2
  %w = load double, ptr %wp, align 8
  %v2 = fmul double %v, %w
  %acc1 = fadd double %acc, %v2
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit

exit:
  %res = phi double [ %a, %circle ], [ 0.000000e+00, %poly ], [ %acc1, %body ]
  ret double %res
}

define void @grad(ptr %s, ptr %ds) {
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @area, i32 %d, ptr %s, ptr %ds)
  ret void
}

attributes #0 = { cold noreturn }

; CHECK-LABEL: define internal void @fz_grad_area(
; CHECK: call void @panic_bounds_check
; CHECK: fmul double
; CHECK: ret void
