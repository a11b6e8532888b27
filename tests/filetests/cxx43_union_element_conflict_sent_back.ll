; Decision: a conflict met in a `getelementptr nuw %V, %a, %i` (an element of a buffer
; of unions: an `int` stored by the caller through one index, a `double` by a callee
; through another) goes back to the buffer `%a` when the buffer's own elements hold no
; float there (their fold is Integer): `%a` holds Anything at offset 0, and the copy of
; its elements into `%b` moves the adjoint bytes back (`__fz_move_adj_bytes`).
; Why it matters: `std::vector<std::variant<int, double>>` grown past its capacity
; through `--ad-before-opt` (tests/cxx/498): the `int` alternative's facts reached the
; buffer first, the `double` alternative's conflict was kept in the element pointer, the
; buffer was typed Integer, and the relocation's `memcpy` moved no adjoint: the gradient
; of every relocated element was lost, silently. The session's base binary emits no
; shadow copy and no adjoint move for the `memcpy` here.
;
; union V { int i; double d; } with a tag byte at 8 (16 bytes);
; void put_double(V *p, double v) { p->d = v; }          /* noinline */
; void f(const double *x, V **out, long i, long j, long n) {
;   V *a = malloc(1024);  a[j].i = 7; a[j].tag = 0;
;   put_double(&a[i], x[0] * x[0]); a[i].tag = 1;
;   V *b = malloc(1024);  for (long k = 0; k < n; k++) memcpy(&b[k], &a[k], 16);
;   free(a); *out = b;
; }
; (written by hand, in the shape clang-22 -O0 gives the vector's relocation)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%V = type { [8 x i8], i8, [7 x i8] }

@enzyme_dup = external global i32, align 4

define void @f(ptr %x, ptr %out, i64 %i, i64 %j, i64 %n) {
entry:
  %a = call noalias ptr @malloc(i64 1024)
  %ej = getelementptr inbounds nuw %V, ptr %a, i64 %j
  store i32 7, ptr %ej, align 8
  %ejt = getelementptr inbounds nuw i8, ptr %ej, i64 8
  store i8 0, ptr %ejt, align 8
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  %ei = getelementptr inbounds nuw %V, ptr %a, i64 %i
  call void @put_double(ptr %ei, double %sq)
  %eit = getelementptr inbounds nuw i8, ptr %ei, i64 8
  store i8 1, ptr %eit, align 8
  %b = call noalias ptr @malloc(i64 1024)
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %d = getelementptr inbounds nuw %V, ptr %b, i64 %k
  %s = getelementptr inbounds nuw %V, ptr %a, i64 %k
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 16, i1 false)
  %k1 = add nuw i64 %k, 1
  %c = icmp ult i64 %k1, %n
  br i1 %c, label %loop, label %exit

exit:
  call void @free(ptr %a)
  store ptr %b, ptr %out, align 8
  ret void
}

define void @put_double(ptr %p, double %v) noinline {
entry:
  store double %v, ptr %p, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %i, i64 %j, i64 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %out, ptr %dout, i64 %i, i64 %j, i64 %n)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; The forward sweep copies the element's shadow bytes; the reverse sweep moves its
; adjoint bytes back to the source's shadow.
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 16, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %{{[0-9]+}}, ptr align 8 %{{[0-9]+}}, i64 16, i1 false)
; CHECK: call void @__fz_move_adj_bytes(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 16)
