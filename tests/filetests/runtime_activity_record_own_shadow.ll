; Decision: a record without a shadow, holding only pointers and integers, one of them a
; constant pointer (`%data`, an `enzyme_const` argument), stored whole into memory that
; has a shadow (the caller's slot `%ret`) is its own shadow (runtime activity,
; `common::runtime_activity::stores_record_keeping_constant`): the shadow slot gets the
; record itself, as it would get `%data` stored alone, and `dot`'s accesses through the
; pointer read back out of the view are guarded by `shadow != primal`. The shadow slot
; used to get `zeroinitializer`: `dot` read the data pointer's shadow back as null and
; the reverse sweep added `x`'s adjoint through it (SIGSEGV at 0 + 8 i), in both
; reverse and forward mode. numba compiles `np.empty` and 2-D array arguments this way
; at NUMBA_OPT=0 (`impl_carray` builds the array struct of a constant argument in a
; local, loads it whole and stores it into its return slot; python/tests/
; test_front34_users.py, found by front34). Written by hand (num34) after that module;
; the derivative run natively gives d/dw = x and the tangent sum x_i v_i.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=FWD
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=GUARD

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%view = type { ptr, i64, ptr }

@enzyme_const = external global i32
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

; numba's unoptimized impl_carray: the record of a constant array built in a local,
; read back whole and stored whole into the caller's slot.
define internal void @view_of(ptr %ret, ptr %data, i64 %n) noinline {
entry:
  %t = alloca { ptr, i64 }, align 8
  store { ptr, i64 } zeroinitializer, ptr %t, align 8
  %f0 = getelementptr inbounds { ptr, i64 }, ptr %t, i32 0, i32 0
  store ptr %data, ptr %f0, align 8
  %f1 = getelementptr inbounds { ptr, i64 }, ptr %t, i32 0, i32 1
  store i64 %n, ptr %f1, align 8
  %rec = load { ptr, i64 }, ptr %t, align 8
  store { ptr, i64 } %rec, ptr %ret, align 8
  ret void
}

; s = sum_i data[i] * w[i], both read back out of the view
define internal double @dot(ptr %v) noinline {
entry:
  %dp = getelementptr inbounds %view, ptr %v, i32 0, i32 0
  %data = load ptr, ptr %dp, align 8
  %np = getelementptr inbounds %view, ptr %v, i32 0, i32 1
  %n = load i64, ptr %np, align 8
  %wp = getelementptr inbounds %view, ptr %v, i32 0, i32 2
  %w = load ptr, ptr %wp, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %a = getelementptr inbounds double, ptr %data, i64 %i
  %x = load double, ptr %a, align 8
  %b = getelementptr inbounds double, ptr %w, i64 %i
  %y = load double, ptr %b, align 8
  %p = fmul double %x, %y
  %s1 = fadd double %s, %p
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret double %s1
}

define double @f(ptr %x, ptr %w, i64 %n) noinline {
entry:
  %v = alloca %view, align 8
  call void @view_of(ptr %v, ptr %x, i64 %n)
  %wp = getelementptr inbounds %view, ptr %v, i32 0, i32 2
  store ptr %w, ptr %wp, align 8
  %s = call double @dot(ptr %v)
  ret double %s
}

define void @grad(ptr %x, ptr %w, ptr %dw, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_const, ptr %x, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, i64 %n)
  ret void
}

declare double @__enzyme_fwddiff(ptr, ...)

define double @tangent(ptr %x, ptr %w, ptr %dw, i64 %n) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_const, ptr %x, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, i64 %n)
  ret double %t
}

; CHECK-LABEL: define internal { ptr } @fz_aug_view_of
; CHECK: store { ptr, i64 } %[[REC:[^,]+]], ptr %ret, align 8
; CHECK-NEXT: store { ptr, i64 } %[[REC]], ptr %ret.shadow, align 8
; CHECK-NOT: zeroinitializer, ptr %ret.shadow
; CHECK-LABEL: define internal void @fz_rev_view_of

; FWD-LABEL: define internal void @fz_fwd_view_of
; FWD: store { ptr, i64 } %[[REC:[^,]+]], ptr %ret, align 8
; FWD-NEXT: store { ptr, i64 } %[[REC]], ptr %ret.d0, align 8

; GUARD-LABEL: define internal void @fz_rev_dot
; GUARD: icmp ne ptr
; GUARD: call <1 x double> @llvm.masked.load.v1f64.p0
; GUARD: call void @llvm.masked.store.v1f64.p0
