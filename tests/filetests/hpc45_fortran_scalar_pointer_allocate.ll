; Decision: flang's ALLOCATE and DEALLOCATE of a scalar POINTER to a derived type
; (`_FortranAPointerAllocate(desc, ...)`, `_FortranAPointerDeallocate(desc, ...)`) whose
; descriptor alloca has flang's rank-0 type (no `[rank x [3 x i64]]` dimensions, the
; addendum's type-description pointer at offset 24) go, inside the clone being
; differentiated, to the scalar implementations `__fz_f18_pointer_allocate_scalar` and
; `__fz_f18_pointer_deallocate_scalar`, which read no dimensions.
; Why it matters: the generic implementations read an array's first dimension (integers)
; at offset 24, where a scalar's descriptor holds the type description's address; type
; analysis then found a pointer and integers at the same bytes of the descriptor, and of
; the node whose `next` component is such a descriptor, and typed none of it
; (cannot-deduce-type at the node's stores: tests/fortran/111, 118; this reduced function
; is small enough to be typed either way: the filetest records the decision).
;
; Reduced from flang-22 -O2 of `allocate (p); p%v = x * x; p%k = 3; p%next => null();
; f = p%v` with `type node; real(8) :: v; integer :: k; type(node),
; pointer :: next; end type`, then `q => p; p => p%next; deallocate (q)` as a list is
; freed.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

@_QMmEXdtXnode = external constant [512 x i8]
@enzyme_dup = external global i32
@src = private constant [4 x i8] c"f.f\00"

declare i32 @_FortranAPointerAllocate(ptr, i1, ptr, ptr, i32, ptr)
declare i32 @_FortranAPointerDeallocate(ptr, i1, ptr, ptr, i32)
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)

define void @f(ptr %x, ptr %res) {
entry:
  %d = alloca { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }, align 8
  %q = alloca { ptr, i64, i32, i8, i8, i8, i8, ptr, [1 x i64] }, align 8
  store ptr null, ptr %d, align 8
  %d1 = getelementptr inbounds i8, ptr %d, i64 8
  store i64 56, ptr %d1, align 8
  %d2 = getelementptr inbounds i8, ptr %d, i64 16
  store i32 20240719, ptr %d2, align 8
  %d3 = getelementptr inbounds i8, ptr %d, i64 20
  store i8 0, ptr %d3, align 4
  %d4 = getelementptr inbounds i8, ptr %d, i64 21
  store i8 42, ptr %d4, align 1
  %d5 = getelementptr inbounds i8, ptr %d, i64 22
  store i8 1, ptr %d5, align 2
  %d6 = getelementptr inbounds i8, ptr %d, i64 23
  store i8 1, ptr %d6, align 1
  %d7 = getelementptr inbounds i8, ptr %d, i64 24
  store ptr @_QMmEXdtXnode, ptr %d7, align 8
  %d8 = getelementptr inbounds i8, ptr %d, i64 32
  store i64 0, ptr %d8, align 8
  %a = call i32 @_FortranAPointerAllocate(ptr %d, i1 false, ptr null, ptr @src, i32 3, ptr null)
  %p = load ptr, ptr %d, align 8
  %xv = load double, ptr %x, align 8
  %sq = fmul double %xv, %xv
  store double %sq, ptr %p, align 8
  %pk = getelementptr i8, ptr %p, i64 8
  store i32 3, ptr %pk, align 8
  ; p%next => null(): the component descriptor's base address and fields
  %pn = getelementptr i8, ptr %p, i64 16
  store ptr null, ptr %pn, align 8
  %pn1 = getelementptr i8, ptr %p, i64 24
  store i64 56, ptr %pn1, align 8
  %pn2 = getelementptr i8, ptr %p, i64 32
  store i32 20240719, ptr %pn2, align 8
  %pn7 = getelementptr i8, ptr %p, i64 40
  store ptr @_QMmEXdtXnode, ptr %pn7, align 8
  %v = load double, ptr %p, align 8
  store double %v, ptr %res, align 8
  ; q => p, then p => p%next: flang copies the descriptors (40 bytes)
  call void @llvm.memmove.p0.p0.i32(ptr align 8 %q, ptr align 8 %d, i32 40, i1 false)
  call void @llvm.memmove.p0.p0.i32(ptr align 8 %d, ptr align 1 %pn, i32 40, i1 false)
  %b = call i32 @_FortranAPointerDeallocate(ptr %q, i1 false, ptr null, ptr @src, i32 5)
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %res, ptr %dres) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %res, ptr %dres)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: @__fz_f18_pointer_allocate(
; CHECK: @{{.*}}__fz_f18_pointer_allocate_scalar(
; CHECK: @{{.*}}__fz_f18_pointer_deallocate_scalar(
