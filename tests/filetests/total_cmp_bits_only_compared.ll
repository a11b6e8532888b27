; Decision: an `i64` load of a differentiated `double`'s bits whose value and memory both
; have conflicting facts ("Anything": the callee reads the memory as an integer, the caller
; as a double), whose value is only computed on and compared, moves no bits:
; `reverse/check.rs` accepts it (`untyped_computed_on`, front43). The derivative is
; generated, the comparison kept in the augmented primal.
; Why it matters: Rust's `f64::total_cmp` called out of line on a slice's elements
; (`x.iter().min_by(|a, b| a.total_cmp(b))`) reads each float's bits as an `i64` to
; compare them; it was a cannot-deduce-type error (front43, tests/rust-probe/tests/
; front43_users.rs `extremes`), while `x.iter().copied().min_by(..)` was differentiated.
;
; Reduced by hand from rustc 1.95 -O2 (cargo ferrozyme's before-ad module: `min_by` with
; `total_cmp` inlined, the running minimum's bits carried by a `phi` and a `select`).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)

define double @model(ptr %v, i64 %n) {
entry:
  %first = load i64, ptr %v, align 8
  %rest = getelementptr inbounds i8, ptr %v, i64 8
  br label %loop

loop:
  %lobits = phi i64 [ %first, %entry ], [ %lobits2, %loop ]
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %lo = phi ptr [ %v, %entry ], [ %lo2, %loop ]
  %p = getelementptr inbounds double, ptr %rest, i64 %i
  %bits = load i64, ptr %p, align 8
  %as = ashr i64 %lobits, 63
  %am = lshr i64 %as, 1
  %ak = xor i64 %am, %lobits
  %bs = ashr i64 %bits, 63
  %bm = lshr i64 %bs, 1
  %bk = xor i64 %bm, %bits
  %gt = icmp sgt i64 %ak, %bk
  %lobits2 = select i1 %gt, i64 %bits, i64 %lobits
  %lo2 = select i1 %gt, ptr %p, ptr %lo
  %inext = add i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop

exit:
  %m = load double, ptr %lo2, align 8
  %v0 = load double, ptr %v, align 8
  %sq = fmul double %m, %v0
  ret double %sq
}

define void @grad(ptr %v, ptr %dv, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @model, i32 %d, ptr %v, ptr %dv, i32 %c, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_model(
; CHECK: icmp sgt i64
; CHECK: fmul double
; CHECK: ret void
