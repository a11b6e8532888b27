
; Function Attrs: nofree norecurse nosync nounwind memory(none)
define dso_local double @__fz_digamma(double noundef %0) local_unnamed_addr {
  %2 = fcmp uno double %0, 0.000000e+00
  br i1 %2, label %49, label %3

3:                                                ; preds = %1
  %4 = fcmp ole double %0, 0.000000e+00
  %5 = tail call double @llvm.floor.f64(double %0)
  %6 = fcmp oeq double %0, %5
  %7 = and i1 %4, %6
  br i1 %7, label %49, label %8

8:                                                ; preds = %3
  %9 = fcmp olt double %0, 0.000000e+00
  br i1 %9, label %10, label %15

10:                                               ; preds = %8
  %11 = fmul double %0, 0x400921FB54442D18
  %12 = tail call double @llvm.tan.f64(double %11)
  %13 = fdiv double 0xC00921FB54442D18, %12
  %14 = fsub double 1.000000e+00, %0
  br label %15

15:                                               ; preds = %10, %8
  %16 = phi double [ %13, %10 ], [ 0.000000e+00, %8 ]
  %17 = phi double [ %14, %10 ], [ %0, %8 ]
  %18 = fcmp olt double %17, 1.000000e+01
  br i1 %18, label %19, label %26

19:                                               ; preds = %15, %19
  %20 = phi double [ %24, %19 ], [ %17, %15 ]
  %21 = phi double [ %23, %19 ], [ %16, %15 ]
  %22 = fdiv double 1.000000e+00, %20
  %23 = fsub double %21, %22
  %24 = fadd double %20, 1.000000e+00
  %25 = fcmp olt double %24, 1.000000e+01
  br i1 %25, label %19, label %26

26:                                               ; preds = %19, %15
  %27 = phi double [ %16, %15 ], [ %23, %19 ]
  %28 = phi double [ %17, %15 ], [ %24, %19 ]
  %29 = fmul double %28, %28
  %30 = fdiv double 1.000000e+00, %29
  %31 = fmul double %30, 0x3FB5555555555555
  %32 = fsub double 0x3F95995995995996, %31
  %33 = fmul double %30, %32
  %34 = fadd double %33, 0xBF7F07C1F07C1F08
  %35 = fmul double %30, %34
  %36 = fadd double %35, 0x3F71111111111111
  %37 = fmul double %30, %36
  %38 = fadd double %37, 0xBF70410410410410
  %39 = fmul double %30, %38
  %40 = fadd double %39, 0x3F81111111111111
  %41 = fmul double %30, %40
  %42 = fadd double %41, 0xBFB5555555555555
  %43 = fmul double %30, %42
  %44 = tail call double @llvm.log.f64(double %28)
  %45 = fadd double %27, %44
  %46 = fdiv double 5.000000e-01, %28
  %47 = fsub double %45, %46
  %48 = fadd double %47, %43
  br label %49

49:                                               ; preds = %1, %3, %26
  %50 = phi double [ %48, %26 ], [ 0x7FF8000000000000, %3 ], [ 0x7FF8000000000000, %1 ]
  ret double %50
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.floor.f64(double)

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.tan.f64(double)

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.log.f64(double)



