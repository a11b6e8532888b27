; EXPECT-ERROR: bad-autodiff-call
; EXPECT-ERROR: argument 1 of `loss` (module `shape34`) is an assumed-shape array
; EXPECT-ERROR: differentiate a wrapper with explicit-shape dummies
; A Fortran main differentiating a routine whose dummy is assumed-shape:
;   module shape34; contains; subroutine loss(x, f); real(8), intent(in) :: x(:)
;     real(8), intent(out) :: f; f = sum(x**2); end subroutine; end module
;   program p; use ferrozyme; use shape34; real(8) :: x(5), dx(5), f, df
;     call __enzyme_autodiff(loss, enzyme_dup, x, dx, enzyme_dup, f, df)
; `use ferrozyme` declares the hook `external`, so flang passes x's address where `loss`
; reads a descriptor (base address, extent, stride: the "descriptor member" loads): the
; derivative read the array's values as extents and segfaulted (tests/fortran/34 before
; fortran_dummies.rs). Now the call is rejected, naming the argument and the wrapper to
; write. Reduced from flang-22 -O2 output.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = common global i32 0
@_QFEx = internal global [5 x double] zeroinitializer
@_QFEdx = internal global [5 x double] zeroinitializer

define void @_QMshape34Ploss(ptr noalias readonly captures(none) %0, ptr noalias writeonly captures(none) %1) {
  %3 = getelementptr i8, ptr %0, i64 32
  %4 = load i64, ptr %3, align 8, !tbaa !0
  %5 = getelementptr i8, ptr %0, i64 40
  %6 = load i64, ptr %5, align 8, !tbaa !0
  %7 = load ptr, ptr %0, align 8, !tbaa !0
  %8 = icmp sgt i64 %4, 0
  br i1 %8, label %loop, label %done

loop:
  %i = phi i64 [ 0, %2 ], [ %i.next, %loop ]
  %s = phi double [ 0.000000e+00, %2 ], [ %s.next, %loop ]
  %off = mul i64 %i, %6
  %p = getelementptr i8, ptr %7, i64 %off
  %v = load double, ptr %p, align 8, !tbaa !4
  %sq = fmul contract double %v, %v
  %s.next = fadd contract double %s, %sq
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp eq i64 %i.next, %4
  br i1 %c, label %done, label %loop

done:
  %r = phi double [ 0.000000e+00, %2 ], [ %s.next, %loop ]
  store double %r, ptr %1, align 8, !tbaa !4
  ret void
}

define void @_QQmain() {
  %f = alloca double, align 8
  %df = alloca double, align 8
  store double 1.000000e+00, ptr %df, align 8
  call void @__enzyme_autodiff_(ptr nonnull @_QMshape34Ploss, ptr nonnull @enzyme_dup, ptr nonnull @_QFEx, ptr nonnull @_QFEdx, ptr nonnull @enzyme_dup, ptr nonnull %f, ptr nonnull %df)
  ret void
}

declare void @__enzyme_autodiff_(ptr, ptr, ptr, ptr, ptr, ptr, ptr)

!0 = !{!1, !1, i64 0}
!1 = !{!"descriptor member", !2, i64 0}
!2 = !{!"any access", !3, i64 0}
!3 = !{!"Flang function root _QMshape34Ploss"}
!4 = !{!5, !5, i64 0}
!5 = !{!"any data access", !2, i64 0}
