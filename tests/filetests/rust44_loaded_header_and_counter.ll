; Decision (rust44, `common/mirrored_ints.rs`): an integer stored into a buffer's header
; reached through a pointer loaded from the caller's memory (`struct Acc { v: &mut
; Vec<f64>, w: f64 }` passed `enzyme_dup`, the inner `Vec`s of a `Vec<Vec<f64>>`) is
; mirrored into the shadow header as one an argument points to is (rust41/rust43): the
; shadow of the `len` address is the same GEP on the loaded shadow pointer, into the sink
; slot where that is null. Before, reverse mode left the caller's shadow `Vec` its old
; length and capacity over the grown shadow buffer, and forward mode stored a zero tangent
; there (`store i64 0`). And forward mode writes an integer's zero tangent only where
; reverse mode clears the adjoint: a counter whose bytes type analysis knows nothing of
; (`@count`, a Rust `&mut usize` without TBAA) keeps the user's shadow (`%k.d0` is never
; stored), as in reverse mode (tests/c/1512).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal { double } @fz_grad_push_held(
; CHECK: %v.shadow = load ptr, ptr %h.shadow
; CHECK: store i64 %n, ptr %lenp
; CHECK-NEXT: [[S:%[0-9]+]] = getelementptr inbounds i8, ptr %v.shadow, i64 16
; CHECK-NEXT: [[REAL:%[0-9]+]] = icmp ne ptr %v.shadow, null
; CHECK-NEXT: [[A:%[0-9]+]] = select i1 [[REAL]], ptr [[S]], ptr @__fz_sink_slot
; CHECK-NEXT: store i64 %n, ptr [[A]]
; CHECK-LABEL: define internal { double, double } @fz_fwd_count(
; CHECK-NOT: store i64 {{.*}}, ptr %k.d0
; CHECK: ret { double, double }
; CHECK-LABEL: define internal { double, double } @fz_fwd_push_held(
; CHECK: %v.d0 = load ptr, ptr %h.d0
; CHECK: store i64 %n, ptr %lenp
; CHECK-NEXT: [[T:%[0-9]+]] = getelementptr inbounds i8, ptr %v.d0, i64 16
; CHECK-NEXT: [[TREAL:%[0-9]+]] = icmp ne ptr %v.d0, null
; CHECK-NEXT: [[TA:%[0-9]+]] = select i1 [[TREAL]], ptr [[T]], ptr @__fz_sink_slot
; CHECK-NEXT: store i64 %n, ptr [[TA]]

@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; `struct Acc { v: &mut Vec<f64>, w: f64 }`: the vector's header behind a loaded pointer.
define double @push_held(ptr %h, double %a) {
entry:
  %v = load ptr, ptr %h, align 8
  %wp = getelementptr inbounds i8, ptr %h, i64 8
  %w = load double, ptr %wp, align 8
  %lenp = getelementptr inbounds i8, ptr %v, i64 16
  %len = load i64, ptr %lenp, align 8
  %bufp = getelementptr inbounds i8, ptr %v, i64 8
  %buf = load ptr, ptr %bufp, align 8
  %slot = getelementptr inbounds double, ptr %buf, i64 %len
  %aw = fmul double %a, %w
  store double %aw, ptr %slot, align 8
  %n = add i64 %len, 1
  store i64 %n, ptr %lenp, align 8
  ret double %aw
}

define double @grad_held(ptr %h, ptr %dh, double %a) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @push_held, ptr @enzyme_dup, ptr %h, ptr %dh, double %a)
  ret double %r
}

define double @tangent_held(ptr %h, ptr %dh, double %a, double %da) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @push_held, ptr @enzyme_dup, ptr %h, ptr %dh, double %a, double %da)
  ret double %r
}

; A counter beside a buffer, its bytes of unknown type (no TBAA: Rust's `&mut usize`).
define double @count(ptr %k, ptr %x) {
entry:
  %c = load i64, ptr %k, align 8
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %k, align 8
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  ret double %sq
}

define double @tangent_count(ptr %k, ptr %dk, ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @count, ptr @enzyme_dup, ptr %k, ptr %dk, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret double %r
}
