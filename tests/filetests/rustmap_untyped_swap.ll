; Decision: a swap of two `i64` chunks of memory type analysis cannot type (the buffer is
; read as `double` at offset 0 and moved as integers at run-time byte offsets: Anything)
; is differentiated whatever the bytes are (rustmap, `activity/untyped_swap.rs`,
; `reverse/untyped_moves.rs`): the loads are marked shadowed, so the forward sweep swaps
; the shadow bytes with the primal ones, and the reverse sweep swaps them back at the
; swap's last store (`swap.shadow` loads), with no `fadd` and no clearing of either
; adjoint. Refused before rustmap (cannot-deduce-type on all four accesses).
; Why it matters: hashbrown's `swap_chunk` when a `HashMap<usize, f64>` rehashes in
; place moves its entries, keys beside values, this way.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %a.shadow = load i64
; CHECK: %b.shadow = load i64
; CHECK: store i64 %b.shadow
; CHECK: store i64 %a.shadow
; CHECK: %swap.shadow = load i64
; CHECK-NEXT: %swap.shadow1 = load i64
; CHECK-NEXT: store i64 %swap.shadow1,
; CHECK-NEXT: store i64 %swap.shadow,

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)

define double @f(ptr %x, i64 %i, i64 %j) {
entry:
  %p = getelementptr inbounds i8, ptr %x, i64 %i
  %q = getelementptr inbounds i8, ptr %x, i64 %j
  %a = load i64, ptr %p, align 8
  %b = load i64, ptr %q, align 8
  store i64 %b, ptr %p, align 8
  store i64 %a, ptr %q, align 8
  %v = load double, ptr %x, align 8
  %m = fmul double %v, %v
  ret double %m
}

define void @grad(ptr %x, ptr %dx, i64 %i, i64 %j) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, i64 %i, i32 %1, i64 %j)
  ret void
}
