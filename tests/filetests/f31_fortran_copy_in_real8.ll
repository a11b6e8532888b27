; Decision: flang's copy-in/copy-out of a real(8) variable whose descriptor the IR builds
; with the real(8) type code (`_FortranACopyInAssign(temp, var)` /
; `_FortranACopyOutAssign(var, temp)` of a strided section passed to an explicit-shape
; dummy) go, inside the clone being differentiated, to real(8)-only implementations
; (`__fz_f18_copy_in_assign_r8`, `__fz_f18_copy_out_assign_r8`). The variable's descriptor
; is also handed to `_FortranAIsContiguous`, and -O2 picks the temporary or the variable
; with a `phi` it only loads the base address from: both only read the type.
; Why it matters: the generic implementations also move floats (behind run-time tests of
; the type code), which type analysis sees; the variable, also filled by a `memcpy` from
; flang's temporary of an elemental result, then looked like doubles and floats at once,
; and the `memcpy` was refused (cannot-deduce-type: tests/fortran/86 at -O2).
;
; Reduced from flang-22 -O2: b = 2 * x (through a heap temporary copied with memcpy),
; then b(1:4:2) passed to a dummy that squares it (inlined), res = b(1) + b(2) + b(3).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%desc1 = type { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }

@enzyme_dup = external global i32
@src = private constant [4 x i8] c"f.f\00"

declare i1 @_FortranAIsContiguous(ptr)
declare void @_FortranACopyInAssign(ptr, ptr, ptr, i32)
declare void @_FortranACopyOutAssign(ptr, ptr, ptr, i32)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %x, ptr %res) {
entry:
  %b = alloca [4 x double], align 8
  %d = alloca %desc1, align 8
  %t = alloca %desc1, align 8
  %d2 = alloca %desc1, align 8
  %tmp = call ptr @malloc(i64 32)
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i1, %fill ]
  %xp = getelementptr double, ptr %x, i64 %i
  %xv = load double, ptr %xp, align 8
  %y = fmul double %xv, 2.000000e+00
  %tp = getelementptr double, ptr %tmp, i64 %i
  store double %y, ptr %tp, align 8
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 4
  br i1 %more, label %fill, label %copied

copied:
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %b, ptr align 8 %tmp, i64 32, i1 false)
  call void @free(ptr %tmp)
  store ptr %b, ptr %d, align 8
  %f1 = getelementptr inbounds i8, ptr %d, i64 8
  store i64 8, ptr %f1, align 8
  %f2 = getelementptr inbounds i8, ptr %d, i64 16
  store i32 20240719, ptr %f2, align 8
  %f3 = getelementptr inbounds i8, ptr %d, i64 20
  store i8 1, ptr %f3, align 4
  %f4 = getelementptr inbounds i8, ptr %d, i64 21
  store i8 28, ptr %f4, align 1
  %f5 = getelementptr inbounds i8, ptr %d, i64 22
  store i8 0, ptr %f5, align 2
  %f6 = getelementptr inbounds i8, ptr %d, i64 23
  store i8 0, ptr %f6, align 1
  %f7 = getelementptr inbounds i8, ptr %d, i64 24
  store i64 1, ptr %f7, align 8
  %f8 = getelementptr inbounds i8, ptr %d, i64 32
  store i64 2, ptr %f8, align 8
  %f9 = getelementptr inbounds i8, ptr %d, i64 40
  store i64 16, ptr %f9, align 8
  %contig = call i1 @_FortranAIsContiguous(ptr %d)
  br i1 %contig, label %use, label %copy_in

copy_in:
  call void @_FortranACopyInAssign(ptr %t, ptr %d, ptr @src, i32 3)
  br label %use

use:
  %which = phi ptr [ %t, %copy_in ], [ %d, %copied ]
  %base = load ptr, ptr %which, align 8
  %a0 = load double, ptr %base, align 8
  %s0 = fmul double %a0, %a0
  store double %s0, ptr %base, align 8
  %p1 = getelementptr double, ptr %base, i64 1
  %a1 = load double, ptr %p1, align 8
  %s1 = fmul double %a1, %a1
  store double %s1, ptr %p1, align 8
  br i1 %contig, label %done, label %copy_out

copy_out:
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d2, ptr align 8 %d, i64 48, i1 false)
  call void @_FortranACopyOutAssign(ptr %d2, ptr %t, ptr @src, i32 3)
  br label %done

done:
  %b1 = getelementptr double, ptr %b, i64 1
  %b2 = getelementptr double, ptr %b, i64 2
  %v0 = load double, ptr %b, align 8
  %v1 = load double, ptr %b1, align 8
  %v2 = load double, ptr %b2, align 8
  %r0 = fadd double %v0, %v1
  %r1 = fadd double %r0, %v2
  store double %r1, ptr %res, align 8
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %res, ptr %dres) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %res, ptr %dres)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK-NOT: @_FortranACopyInAssign(
; CHECK: @fz_aug___fz_f18_copy_in_assign_r8(ptr %t, ptr %t.shadow, ptr %d, ptr %d.shadow,
; CHECK: @fz_aug___fz_f18_copy_out_assign_r8(
; CHECK: @fz_rev___fz_f18_copy_out_assign_r8(
; CHECK: @fz_rev___fz_f18_copy_in_assign_r8(
; CHECK-LABEL: define
