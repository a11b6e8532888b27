; Decision: in forward mode, a phi of pointers whose shadowed incoming values meet
; `getelementptr (null, n)` (an empty std::vector's end: its null begin plus its size)
; is not a mixed-activity error: such a pointer is never dereferenced, and its tangent
; lane is null, as reverse mode already treats it (the same for an `undef` incoming
; value, -O1's on a path that does not use the pointer: cxx/108 at -O1).
; Why it matters: `std::vector<double> xs(x, x + n); xs.resize(2 * n, 1.0);` at -O2 has
; this phi for `xs`'s end, and `__enzyme_fwddiff` of it was refused ("a phi merges
; pointers to constant (enzyme_const) and duplicated memory") while `__enzyme_autodiff`
; compiled (tests/cxx/108 at -O1, 111 at -O2/-O3).
;
; double last_sq(const double *x, long n): a copy of x in a {begin, end} pair, its last
; element squared (the vector's begin/end and its range constructor, by hand)
; (written by hand in the shape clang -O2 gives the vector's range constructor)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @last_sq(ptr %x, i64 %n) {
entry:
  %vec = alloca { ptr, ptr }, align 8
  %bytes = shl nsw i64 %n, 3
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %e, label %ne

e:
  %endnull = getelementptr inbounds nuw i8, ptr null, i64 %bytes
  br label %j

ne:
  %buf = call noalias ptr @malloc(i64 %bytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %x, i64 %bytes, i1 false)
  %end = getelementptr inbounds nuw i8, ptr %buf, i64 %bytes
  br label %j

j:
  %b = phi ptr [ null, %e ], [ %buf, %ne ]
  %p = phi ptr [ %endnull, %e ], [ %end, %ne ]
  store ptr %b, ptr %vec, align 8
  %endslot = getelementptr inbounds nuw i8, ptr %vec, i64 8
  store ptr %p, ptr %endslot, align 8
  %none = icmp eq ptr %b, %p
  br i1 %none, label %zero, label %read

read:
  %pe = load ptr, ptr %endslot, align 8
  %lastp = getelementptr inbounds double, ptr %pe, i64 -1
  %v = load double, ptr %lastp, align 8
  %sq = fmul double %v, %v
  call void @free(ptr %b)
  ret double %sq

zero:
  ret double 0.0
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @tangent(ptr %x, ptr %dx, i64 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @last_sq, i32 %0, ptr %x, ptr %dx, i32 %1, i64 %n)
  ret double %t
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_fwd_last_sq(ptr %x, ptr %x.d0, i64 %n)
; CHECK: %p = phi ptr [ %endnull, %e ], [ %end, %ne ]
; CHECK-NEXT: %p.d0 = phi ptr [ null, %e ], [ {{%.*}}, %ne ]
; CHECK: load double, ptr
; CHECK: ret { double, double }
