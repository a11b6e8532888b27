; Decision: the literal pointer `inttoptr (i64 8 to ptr)` (Rust's `NonNull::dangling()`,
; what an empty `Vec<f64>` or `Vec<usize>` holds) is not one object to type analysis. A
; copy of `x`'s doubles into a fresh buffer, or the dangling pointer when `n == 0`, and an
; index buffer of `i64`s that is dangling too when empty, stay apart: the copy is typed as
; doubles and its reverse adds the copy's adjoint back into `x`'s shadow.
; Why it matters: the constant is one value in the whole module; tracked like an
; instruction, it joined every empty buffer of the program with every other (a
; `Vec<Vec<f64>>` clone's length fields with its rows' doubles), and the derivative was
; refused as ambiguous or, when the joined facts left the copy untyped as floats,
; silently zero (rust15: `a.to_vec()` of a `Vec<Vec<f64>>` in a derivative gave a zero
; gradient in a release build).
;
; Written by hand after the IR rustc -O3 makes of `to_vec` and `Vec::with_capacity`:
; double f(const double *x, int64_t n) {
;   double *b = n ? malloc(8 n) : (double *)8; memcpy(b, x, 8 n);
;   int64_t *k = n ? malloc(8 n) : (int64_t *)8;
;   double s = 0; for (i < n) { k[i] = i; s += b[k[i]] * b[i]; } return s; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

define double @f(ptr %x, i64 %n) {
entry:
  %bytes = shl nuw i64 %n, 3
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %join, label %fresh

fresh:
  %p = call noalias ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p, ptr align 8 %x, i64 %bytes, i1 false)
  %q = call noalias ptr @malloc(i64 %bytes)
  br label %join

join:
  %b = phi ptr [ %p, %fresh ], [ inttoptr (i64 8 to ptr), %entry ]
  %k = phi ptr [ %q, %fresh ], [ inttoptr (i64 8 to ptr), %entry ]
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ 0, %join ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %join ], [ %s.next, %loop ]
  %kp = getelementptr inbounds i64, ptr %k, i64 %i
  store i64 %i, ptr %kp, align 8
  %j = load i64, ptr %kp, align 8
  %bj = getelementptr inbounds double, ptr %b, i64 %j
  %vj = load double, ptr %bj, align 8
  %bi = getelementptr inbounds double, ptr %b, i64 %i
  %vi = load double, ptr %bi, align 8
  %m = fmul double %vj, %vi
  %s.next = fadd double %s, %m
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi double [ 0.0, %join ], [ %s.next, %loop ]
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p, ptr align 8 %x, i64 %bytes, i1 false)
; CHECK-LABEL: {{^}}rev.fresh:
; CHECK: call void @__fz_memcpy_adj_f64(ptr {{%.*}}, ptr %x.shadow, i64 %bytes)
; CHECK-LABEL: define internal void @__fz_memcpy_adj_f64(
