; Decision: an empty struct `{}` (Rust's zero-sized fields: the allocator of a `Vec`, in
; rustc's `{ { { i64, ptr, {} }, {} }, i64 }` for a `Vec<f64>` element) is a sized type of
; 0 bytes to type analysis. A GEP that steps over such elements has a stride (24 here),
; so what the loads through a clone's elements say (each row holds doubles) reaches the
; clone's buffer, the row pointers stored into it, and the rows' fresh buffers: the copy
; of each row is typed as doubles and its reverse adds the copy's adjoint back into the
; source row's shadow.
; Why it matters: taken for unsized, the element type made every such GEP unfollowable,
; and `a.to_vec()` of a `Vec<Vec<f64>>` inside a derivative was refused with
; cannot-deduce-type at the `memcpy` of `Vec<f64>::clone` (rust15, front16).
;
; Written by hand after the IR rustc -O3 makes of `a.to_vec()` then
; `m.iter().map(|r| r[0] * r[1]).sum()` (rows of at least two elements, n >= 1):
; the clone's elements are written through `{ [3 x i64] }` GEPs and read through the
; `Vec` type with its zero-sized fields; an empty row gets the dangling pointer.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

define double @cloned_products(ptr %a, i64 %n) {
entry:
  %bytes = mul nuw i64 %n, 24
  %m = call noalias ptr @malloc(i64 %bytes)
  br label %copy

copy:
  %i = phi i64 [ 0, %entry ], [ %i.next, %store ]
  %src = getelementptr inbounds nuw { { { i64, ptr, {} }, {} }, i64 }, ptr %a, i64 %i
  %srcp = getelementptr inbounds nuw i8, ptr %src, i64 8
  %row = load ptr, ptr %srcp, align 8
  %srcl = getelementptr inbounds nuw i8, ptr %src, i64 16
  %len = load i64, ptr %srcl, align 8
  %rb = shl nuw i64 %len, 3
  %empty = icmp eq i64 %len, 0
  br i1 %empty, label %store, label %fresh

fresh:
  %new = call noalias ptr @malloc(i64 %rb)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %new, ptr align 8 %row, i64 %rb, i1 false)
  br label %store

store:
  %buf = phi ptr [ %new, %fresh ], [ inttoptr (i64 8 to ptr), %copy ]
  %dst = getelementptr inbounds nuw { [3 x i64] }, ptr %m, i64 %i
  store i64 %len, ptr %dst, align 8
  %dstp = getelementptr inbounds nuw i8, ptr %dst, i64 8
  store ptr %buf, ptr %dstp, align 8
  %dstl = getelementptr inbounds nuw i8, ptr %dst, i64 16
  store i64 %len, ptr %dstl, align 8
  %i.next = add nuw i64 %i, 1
  %copied = icmp eq i64 %i.next, %n
  br i1 %copied, label %sum, label %copy

sum:
  %j = phi i64 [ 0, %store ], [ %j.next, %sum ]
  %s = phi double [ 0.0, %store ], [ %s.next, %sum ]
  %e = getelementptr inbounds nuw { { { i64, ptr, {} }, {} }, i64 }, ptr %m, i64 %j
  %ep = getelementptr i8, ptr %e, i64 8
  %r = load ptr, ptr %ep, align 8
  %v0 = load double, ptr %r, align 8
  %r1 = getelementptr inbounds nuw i8, ptr %r, i64 8
  %v1 = load double, ptr %r1, align 8
  %p = fmul double %v0, %v1
  %s.next = fadd double %s, %p
  %j.next = add nuw i64 %j, 1
  %done = icmp eq i64 %j.next, %n
  br i1 %done, label %exit, label %sum

exit:
  ret double %s.next
}

define void @grad(ptr %a, ptr %da, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @cloned_products, i32 %d, ptr %a, ptr %da, i32 %c, i64 %n)
  ret void
}
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_cloned_products(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %new, ptr align 8 %row, i64 %rb, i1 false)
; CHECK: call void @__fz_memcpy_adj_f64(ptr {{%.*}}, ptr {{%.*}}, i64 {{%.*}})
; CHECK-LABEL: define internal void @__fz_memcpy_adj_f64(
