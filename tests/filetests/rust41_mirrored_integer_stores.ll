; Decision: an integer store into shadowed memory whose bytes type analysis knows are an
; integer is mirrored into the shadow memory (rust41, `common/mirrored_ints.rs`): a
; vector header `{cap, ptr, len}` passed `enzyme_dup` keeps the primal's length in its
; shadow, so the caller can use and release the shadow like the primal. The length's
; address (offset 16) has no shadow of its own (no float is reached through it): its
; shadow is the same GEP on the header's shadow. Forward mode stores the length where an
; integer's zero tangent went before; reverse mode's store is deferred past the reverse
; sweep (a final store) and mirrored there, at the same byte offset from the shadow base.
; Why it matters: a Rust `Vec<f64>` grown inside (`push`) was dropped by the caller with
; its old length and capacity, and a size-checking global allocator aborted.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal { double } @fz_grad_push(
; CHECK: %n = add i64 %len, 1
; CHECK: store i64 %n, ptr %lenp
; CHECK: [[OFF:%[0-9]+]] = sub i64
; CHECK-NEXT: [[S:%[0-9]+]] = getelementptr i8, ptr %v.shadow, i64 [[OFF]]
; CHECK-NEXT: store i64 %n, ptr [[S]]
; CHECK-LABEL: define internal { double, double } @fz_fwd_push(
; CHECK: store i64 %n, ptr %lenp
; CHECK-NEXT: [[T:%[0-9]+]] = getelementptr inbounds i8, ptr %v.d0, i64 16
; CHECK-NEXT: store i64 %n, ptr [[T]]

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define double @push(ptr %v, double %a) {
entry:
  %lenp = getelementptr inbounds i8, ptr %v, i64 16
  %len = load i64, ptr %lenp, align 8
  %bufp = getelementptr inbounds i8, ptr %v, i64 8
  %buf = load ptr, ptr %bufp, align 8
  %slot = getelementptr inbounds double, ptr %buf, i64 %len
  %sq = fmul double %a, %a
  store double %sq, ptr %slot, align 8
  %n = add i64 %len, 1
  store i64 %n, ptr %lenp, align 8
  ret double %sq
}

define double @grad(ptr %v, ptr %dv, double %a) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @push, ptr @enzyme_dup, ptr %v, ptr %dv, double %a)
  ret double %r
}

define double @tangent(ptr %v, ptr %dv, double %a, double %da) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @push, ptr @enzyme_dup, ptr %v, ptr %dv, double %a, double %da)
  ret double %r
}
