
; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local { double, double } @__fz_lib___muldc3(double noundef %0, double noundef %1, double noundef %2, double noundef %3) local_unnamed_addr {
  %5 = fmul double %0, %2
  %6 = fmul double %1, %3
  %7 = fmul double %0, %3
  %8 = fmul double %1, %2
  %9 = fsub double %5, %6
  %10 = fadd double %8, %7
  %11 = fcmp uno double %9, 0.000000e+00
  %12 = fcmp uno double %10, 0.000000e+00
  %13 = and i1 %11, %12
  br i1 %13, label %14, label %112

14:                                               ; preds = %4
  %15 = tail call double @llvm.fabs.f64(double %0)
  %16 = fcmp oeq double %15, 0x7FF0000000000000
  br i1 %16, label %20, label %17

17:                                               ; preds = %14
  %18 = tail call double @llvm.fabs.f64(double %1)
  %19 = fcmp oeq double %18, 0x7FF0000000000000
  br i1 %19, label %20, label %35

20:                                               ; preds = %17, %14
  %21 = phi double [ 0.000000e+00, %17 ], [ 1.000000e+00, %14 ]
  %22 = tail call double @copysign(double noundef %21, double noundef %0)
  %23 = tail call double @llvm.fabs.f64(double %1)
  %24 = fcmp oeq double %23, 0x7FF0000000000000
  %25 = select i1 %24, double 1.000000e+00, double 0.000000e+00
  %26 = tail call double @copysign(double noundef %25, double noundef %1)
  %27 = fcmp uno double %2, 0.000000e+00
  br i1 %27, label %28, label %30

28:                                               ; preds = %20
  %29 = tail call double @copysign(double noundef 0.000000e+00, double noundef %2)
  br label %30

30:                                               ; preds = %28, %20
  %31 = phi double [ %29, %28 ], [ %2, %20 ]
  %32 = fcmp uno double %3, 0.000000e+00
  br i1 %32, label %33, label %35

33:                                               ; preds = %30
  %34 = tail call double @copysign(double noundef 0.000000e+00, double noundef %3)
  br label %35

35:                                               ; preds = %30, %33, %17
  %36 = phi double [ %3, %17 ], [ %34, %33 ], [ %3, %30 ]
  %37 = phi double [ %2, %17 ], [ %31, %33 ], [ %31, %30 ]
  %38 = phi double [ %1, %17 ], [ %26, %33 ], [ %26, %30 ]
  %39 = phi double [ %0, %17 ], [ %22, %33 ], [ %22, %30 ]
  %40 = phi i32 [ 0, %17 ], [ 1, %33 ], [ 1, %30 ]
  %41 = tail call double @llvm.fabs.f64(double %37)
  %42 = fcmp oeq double %41, 0x7FF0000000000000
  br i1 %42, label %46, label %43

43:                                               ; preds = %35
  %44 = tail call double @llvm.fabs.f64(double %36)
  %45 = fcmp oeq double %44, 0x7FF0000000000000
  br i1 %45, label %46, label %61

46:                                               ; preds = %43, %35
  %47 = phi double [ 0.000000e+00, %43 ], [ 1.000000e+00, %35 ]
  %48 = tail call double @copysign(double noundef %47, double noundef %37)
  %49 = tail call double @llvm.fabs.f64(double %36)
  %50 = fcmp oeq double %49, 0x7FF0000000000000
  %51 = select i1 %50, double 1.000000e+00, double 0.000000e+00
  %52 = tail call double @copysign(double noundef %51, double noundef %36)
  %53 = fcmp uno double %39, 0.000000e+00
  br i1 %53, label %54, label %56

54:                                               ; preds = %46
  %55 = tail call double @copysign(double noundef 0.000000e+00, double noundef %39)
  br label %56

56:                                               ; preds = %54, %46
  %57 = phi double [ %55, %54 ], [ %39, %46 ]
  %58 = fcmp uno double %38, 0.000000e+00
  br i1 %58, label %59, label %61

59:                                               ; preds = %56
  %60 = tail call double @copysign(double noundef 0.000000e+00, double noundef %38)
  br label %61

61:                                               ; preds = %56, %59, %43
  %62 = phi double [ %36, %43 ], [ %52, %59 ], [ %52, %56 ]
  %63 = phi double [ %37, %43 ], [ %48, %59 ], [ %48, %56 ]
  %64 = phi double [ %38, %43 ], [ %60, %59 ], [ %38, %56 ]
  %65 = phi double [ %39, %43 ], [ %57, %59 ], [ %57, %56 ]
  %66 = phi i32 [ %40, %43 ], [ 1, %59 ], [ 1, %56 ]
  %67 = icmp eq i32 %66, 0
  br i1 %67, label %68, label %99

68:                                               ; preds = %61
  %69 = tail call double @llvm.fabs.f64(double %5)
  %70 = fcmp oeq double %69, 0x7FF0000000000000
  %71 = tail call double @llvm.fabs.f64(double %6)
  %72 = fcmp oeq double %71, 0x7FF0000000000000
  %73 = or i1 %70, %72
  %74 = tail call double @llvm.fabs.f64(double %7)
  %75 = fcmp oeq double %74, 0x7FF0000000000000
  %76 = or i1 %75, %73
  %77 = tail call double @llvm.fabs.f64(double %8)
  %78 = fcmp oeq double %77, 0x7FF0000000000000
  %79 = or i1 %78, %76
  br i1 %79, label %80, label %112

80:                                               ; preds = %68
  %81 = fcmp uno double %65, 0.000000e+00
  br i1 %81, label %82, label %84

82:                                               ; preds = %80
  %83 = tail call double @copysign(double noundef 0.000000e+00, double noundef %65)
  br label %84

84:                                               ; preds = %82, %80
  %85 = phi double [ %83, %82 ], [ %65, %80 ]
  %86 = fcmp uno double %64, 0.000000e+00
  br i1 %86, label %87, label %89

87:                                               ; preds = %84
  %88 = tail call double @copysign(double noundef 0.000000e+00, double noundef %64)
  br label %89

89:                                               ; preds = %87, %84
  %90 = phi double [ %88, %87 ], [ %64, %84 ]
  %91 = fcmp uno double %63, 0.000000e+00
  br i1 %91, label %92, label %94

92:                                               ; preds = %89
  %93 = tail call double @copysign(double noundef 0.000000e+00, double noundef %63)
  br label %94

94:                                               ; preds = %92, %89
  %95 = phi double [ %93, %92 ], [ %63, %89 ]
  %96 = fcmp uno double %62, 0.000000e+00
  br i1 %96, label %97, label %99

97:                                               ; preds = %94
  %98 = tail call double @copysign(double noundef 0.000000e+00, double noundef %62)
  br label %99

99:                                               ; preds = %61, %97, %94
  %100 = phi double [ %62, %61 ], [ %62, %94 ], [ %98, %97 ]
  %101 = phi double [ %63, %61 ], [ %95, %94 ], [ %95, %97 ]
  %102 = phi double [ %64, %61 ], [ %90, %94 ], [ %90, %97 ]
  %103 = phi double [ %65, %61 ], [ %85, %94 ], [ %85, %97 ]
  %104 = fmul double %101, %103
  %105 = fmul double %100, %102
  %106 = fsub double %104, %105
  %107 = fmul double %106, 0x7FF0000000000000
  %108 = fmul double %100, %103
  %109 = fmul double %101, %102
  %110 = fadd double %109, %108
  %111 = fmul double %110, 0x7FF0000000000000
  br label %112

112:                                              ; preds = %99, %68, %4
  %113 = phi double [ %9, %4 ], [ %107, %99 ], [ %9, %68 ]
  %114 = phi double [ %10, %4 ], [ %111, %99 ], [ %10, %68 ]
  %115 = insertvalue { double, double } poison, double %113, 0
  %116 = insertvalue { double, double } %115, double %114, 1
  ret { double, double } %116
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none))

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare double @copysign(double noundef, double noundef) local_unnamed_addr

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none))

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local { double, double } @__fz_lib___divdc3(double noundef %0, double noundef %1, double noundef %2, double noundef %3) local_unnamed_addr {
  %5 = tail call double @fabs(double noundef %2)
  %6 = tail call double @fabs(double noundef %3)
  %7 = fcmp olt double %5, %6
  br i1 %7, label %8, label %18

8:                                                ; preds = %4
  %9 = fdiv double %2, %3
  %10 = fmul double %2, %9
  %11 = fadd double %3, %10
  %12 = fmul double %0, %9
  %13 = fadd double %1, %12
  %14 = fdiv double %13, %11
  %15 = fmul double %1, %9
  %16 = fsub double %15, %0
  %17 = fdiv double %16, %11
  br label %28

18:                                               ; preds = %4
  %19 = fdiv double %3, %2
  %20 = fmul double %3, %19
  %21 = fadd double %2, %20
  %22 = fmul double %1, %19
  %23 = fadd double %0, %22
  %24 = fdiv double %23, %21
  %25 = fmul double %0, %19
  %26 = fsub double %1, %25
  %27 = fdiv double %26, %21
  br label %28

28:                                               ; preds = %18, %8
  %29 = phi double [ %14, %8 ], [ %24, %18 ]
  %30 = phi double [ %17, %8 ], [ %27, %18 ]
  %31 = fcmp uno double %29, 0.000000e+00
  %32 = fcmp uno double %30, 0.000000e+00
  %33 = and i1 %31, %32
  br i1 %33, label %34, label %92

34:                                               ; preds = %28
  %35 = fcmp oeq double %2, 0.000000e+00
  %36 = fcmp oeq double %3, 0.000000e+00
  %37 = and i1 %35, %36
  br i1 %37, label %38, label %46

38:                                               ; preds = %34
  %39 = fcmp uno double %0, 0.000000e+00
  %40 = fcmp uno double %1, 0.000000e+00
  %41 = and i1 %39, %40
  br i1 %41, label %46, label %42

42:                                               ; preds = %38
  %43 = tail call double @copysign(double noundef 0x7FF0000000000000, double noundef %2)
  %44 = fmul double %0, %43
  %45 = fmul double %1, %43
  br label %92

46:                                               ; preds = %38, %34
  %47 = tail call double @llvm.fabs.f64(double %0)
  %48 = fcmp une double %47, 0x7FF0000000000000
  %49 = tail call double @llvm.fabs.f64(double %1)
  %50 = fcmp une double %49, 0x7FF0000000000000
  %51 = and i1 %48, %50
  %52 = tail call double @llvm.fabs.f64(double %2)
  %53 = fcmp ueq double %52, 0x7FF0000000000000
  %54 = or i1 %51, %53
  %55 = tail call double @llvm.fabs.f64(double %3)
  %56 = fcmp ueq double %55, 0x7FF0000000000000
  %57 = or i1 %54, %56
  br i1 %57, label %71, label %58

58:                                               ; preds = %46
  %59 = select i1 %48, double 0.000000e+00, double 1.000000e+00
  %60 = tail call double @copysign(double noundef %59, double noundef %0)
  %61 = select i1 %50, double 0.000000e+00, double 1.000000e+00
  %62 = tail call double @copysign(double noundef %61, double noundef %1)
  %63 = fmul double %2, %60
  %64 = fmul double %3, %62
  %65 = fadd double %63, %64
  %66 = fmul double %65, 0x7FF0000000000000
  %67 = fmul double %2, %62
  %68 = fmul double %3, %60
  %69 = fsub double %67, %68
  %70 = fmul double %69, 0x7FF0000000000000
  br label %92

71:                                               ; preds = %46
  %72 = fcmp une double %52, 0x7FF0000000000000
  %73 = fcmp une double %55, 0x7FF0000000000000
  %74 = and i1 %72, %73
  %75 = fcmp ueq double %47, 0x7FF0000000000000
  %76 = or i1 %75, %74
  %77 = fcmp ueq double %49, 0x7FF0000000000000
  %78 = or i1 %77, %76
  br i1 %78, label %92, label %79

79:                                               ; preds = %71
  %80 = select i1 %72, double 0.000000e+00, double 1.000000e+00
  %81 = tail call double @copysign(double noundef %80, double noundef %2)
  %82 = select i1 %73, double 0.000000e+00, double 1.000000e+00
  %83 = tail call double @copysign(double noundef %82, double noundef %3)
  %84 = fmul double %0, %81
  %85 = fmul double %1, %83
  %86 = fadd double %84, %85
  %87 = fmul double %86, 0.000000e+00
  %88 = fmul double %1, %81
  %89 = fmul double %0, %83
  %90 = fsub double %88, %89
  %91 = fmul double %90, 0.000000e+00
  br label %92

92:                                               ; preds = %71, %42, %79, %58, %28
  %93 = phi double [ %66, %58 ], [ %87, %79 ], [ %44, %42 ], [ %29, %28 ], [ %29, %71 ]
  %94 = phi double [ %70, %58 ], [ %91, %79 ], [ %45, %42 ], [ %30, %28 ], [ %30, %71 ]
  %95 = insertvalue { double, double } poison, double %93, 0
  %96 = insertvalue { double, double } %95, double %94, 1
  ret { double, double } %96
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare double @fabs(double noundef) local_unnamed_addr

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local <2 x float> @__fz_lib___mulsc3(float noundef %0, float noundef %1, float noundef %2, float noundef %3) local_unnamed_addr {
  %5 = fpext float %0 to double
  %6 = fpext float %1 to double
  %7 = fpext float %2 to double
  %8 = fpext float %3 to double
  %9 = tail call { double, double } @__fz_lib___muldc3(double noundef %5, double noundef %6, double noundef %7, double noundef %8)
  %10 = extractvalue { double, double } %9, 0
  %11 = extractvalue { double, double } %9, 1
  %12 = fptrunc double %10 to float
  %13 = fptrunc double %11 to float
  %14 = insertelement <2 x float> poison, float %12, i64 0
  %15 = insertelement <2 x float> %14, float %13, i64 1
  ret <2 x float> %15
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local <2 x float> @__fz_lib___divsc3(float noundef %0, float noundef %1, float noundef %2, float noundef %3) local_unnamed_addr {
  %5 = fpext float %0 to double
  %6 = fpext float %1 to double
  %7 = fpext float %2 to double
  %8 = fpext float %3 to double
  %9 = tail call { double, double } @__fz_lib___divdc3(double noundef %5, double noundef %6, double noundef %7, double noundef %8)
  %10 = extractvalue { double, double } %9, 0
  %11 = extractvalue { double, double } %9, 1
  %12 = fptrunc double %10 to float
  %13 = fptrunc double %11 to float
  %14 = insertelement <2 x float> poison, float %12, i64 0
  %15 = insertelement <2 x float> %14, float %13, i64 1
  ret <2 x float> %15
}

; Function Attrs: nounwind
define dso_local double @__fz_lib_carg(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @atan2(double noundef %1, double noundef %0)
  ret double %3
}

; Function Attrs: nounwind
declare double @atan2(double noundef, double noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_cexp(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @exp(double noundef %0)
  %4 = tail call double @cos(double noundef %1)
  %5 = fmul double %3, %4
  %6 = tail call double @sin(double noundef %1)
  %7 = fmul double %3, %6
  %8 = insertvalue { double, double } poison, double %5, 0
  %9 = insertvalue { double, double } %8, double %7, 1
  ret { double, double } %9
}

; Function Attrs: nounwind
declare double @exp(double noundef) local_unnamed_addr

; Function Attrs: nounwind
declare double @cos(double noundef) local_unnamed_addr

; Function Attrs: nounwind
declare double @sin(double noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_clog(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @hypot(double noundef %0, double noundef %1)
  %4 = tail call double @log(double noundef %3)
  %5 = tail call double @atan2(double noundef %1, double noundef %0)
  %6 = insertvalue { double, double } poison, double %4, 0
  %7 = insertvalue { double, double } %6, double %5, 1
  ret { double, double } %7
}

; Function Attrs: nounwind
declare double @log(double noundef) local_unnamed_addr

; Function Attrs: nounwind
declare double @hypot(double noundef, double noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_csqrt(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = fcmp oeq double %0, 0.000000e+00
  %4 = fcmp oeq double %1, 0.000000e+00
  %5 = and i1 %3, %4
  br i1 %5, label %21, label %6

6:                                                ; preds = %2
  %7 = tail call double @fabs(double noundef %0)
  %8 = tail call double @hypot(double noundef %0, double noundef %1)
  %9 = fadd double %7, %8
  %10 = fmul double %9, 5.000000e-01
  %11 = tail call double @sqrt(double noundef %10)
  %12 = fcmp ult double %0, 0.000000e+00
  br i1 %12, label %16, label %13

13:                                               ; preds = %6
  %14 = fmul double %11, 2.000000e+00
  %15 = fdiv double %1, %14
  br label %21

16:                                               ; preds = %6
  %17 = tail call double @fabs(double noundef %1)
  %18 = fmul double %11, 2.000000e+00
  %19 = fdiv double %17, %18
  %20 = tail call double @copysign(double noundef %11, double noundef %1)
  br label %21

21:                                               ; preds = %13, %16, %2
  %22 = phi double [ 0.000000e+00, %2 ], [ %11, %13 ], [ %19, %16 ]
  %23 = phi double [ %1, %2 ], [ %15, %13 ], [ %20, %16 ]
  %24 = insertvalue { double, double } poison, double %22, 0
  %25 = insertvalue { double, double } %24, double %23, 1
  ret { double, double } %25
}

; Function Attrs: nounwind
declare double @sqrt(double noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_cpow(double noundef %0, double noundef %1, double noundef %2, double noundef %3) local_unnamed_addr {
  %5 = fcmp oeq double %0, 0.000000e+00
  %6 = fcmp oeq double %1, 0.000000e+00
  %7 = and i1 %5, %6
  br i1 %7, label %8, label %13

8:                                                ; preds = %4
  %9 = fcmp oeq double %2, 0.000000e+00
  %10 = fcmp oeq double %3, 0.000000e+00
  %11 = and i1 %9, %10
  %12 = select i1 %11, double 1.000000e+00, double 0.000000e+00
  br label %28

13:                                               ; preds = %4
  %14 = tail call double @hypot(double noundef %0, double noundef %1)
  %15 = tail call double @log(double noundef %14)
  %16 = tail call double @atan2(double noundef %1, double noundef %0)
  %17 = fmul double %2, %15
  %18 = fmul double %3, %16
  %19 = fsub double %17, %18
  %20 = fmul double %2, %16
  %21 = fmul double %3, %15
  %22 = fadd double %21, %20
  %23 = tail call double @exp(double noundef %19)
  %24 = tail call double @cos(double noundef %22)
  %25 = fmul double %23, %24
  %26 = tail call double @sin(double noundef %22)
  %27 = fmul double %23, %26
  br label %28

28:                                               ; preds = %13, %8
  %29 = phi double [ %12, %8 ], [ %25, %13 ]
  %30 = phi double [ 0.000000e+00, %8 ], [ %27, %13 ]
  %31 = insertvalue { double, double } poison, double %29, 0
  %32 = insertvalue { double, double } %31, double %30, 1
  ret { double, double } %32
}

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_csin(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @sin(double noundef %0)
  %4 = tail call double @cosh(double noundef %1)
  %5 = fmul double %3, %4
  %6 = tail call double @cos(double noundef %0)
  %7 = tail call double @sinh(double noundef %1)
  %8 = fmul double %6, %7
  %9 = insertvalue { double, double } poison, double %5, 0
  %10 = insertvalue { double, double } %9, double %8, 1
  ret { double, double } %10
}

; Function Attrs: nounwind
declare double @cosh(double noundef) local_unnamed_addr

; Function Attrs: nounwind
declare double @sinh(double noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_ccos(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @cos(double noundef %0)
  %4 = tail call double @cosh(double noundef %1)
  %5 = fmul double %3, %4
  %6 = tail call double @sin(double noundef %0)
  %7 = tail call double @sinh(double noundef %1)
  %8 = fneg double %7
  %9 = fmul double %6, %8
  %10 = insertvalue { double, double } poison, double %5, 0
  %11 = insertvalue { double, double } %10, double %9, 1
  ret { double, double } %11
}

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_ctan(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = fmul double %0, 2.000000e+00
  %4 = tail call double @cos(double noundef %3)
  %5 = fmul double %1, 2.000000e+00
  %6 = tail call double @cosh(double noundef %5)
  %7 = fadd double %4, %6
  %8 = tail call double @sin(double noundef %3)
  %9 = fdiv double %8, %7
  %10 = tail call double @sinh(double noundef %5)
  %11 = fdiv double %10, %7
  %12 = insertvalue { double, double } poison, double %9, 0
  %13 = insertvalue { double, double } %12, double %11, 1
  ret { double, double } %13
}

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_csinh(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @sinh(double noundef %0)
  %4 = tail call double @cos(double noundef %1)
  %5 = fmul double %3, %4
  %6 = tail call double @cosh(double noundef %0)
  %7 = tail call double @sin(double noundef %1)
  %8 = fmul double %6, %7
  %9 = insertvalue { double, double } poison, double %5, 0
  %10 = insertvalue { double, double } %9, double %8, 1
  ret { double, double } %10
}

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_ccosh(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = tail call double @cosh(double noundef %0)
  %4 = tail call double @cos(double noundef %1)
  %5 = fmul double %3, %4
  %6 = tail call double @sinh(double noundef %0)
  %7 = tail call double @sin(double noundef %1)
  %8 = fmul double %6, %7
  %9 = insertvalue { double, double } poison, double %5, 0
  %10 = insertvalue { double, double } %9, double %8, 1
  ret { double, double } %10
}

; Function Attrs: nounwind
define dso_local { double, double } @__fz_lib_ctanh(double noundef %0, double noundef %1) local_unnamed_addr {
  %3 = fmul double %0, 2.000000e+00
  %4 = tail call double @cosh(double noundef %3)
  %5 = fmul double %1, 2.000000e+00
  %6 = tail call double @cos(double noundef %5)
  %7 = fadd double %4, %6
  %8 = tail call double @sinh(double noundef %3)
  %9 = fdiv double %8, %7
  %10 = tail call double @sin(double noundef %5)
  %11 = fdiv double %10, %7
  %12 = insertvalue { double, double } poison, double %9, 0
  %13 = insertvalue { double, double } %12, double %11, 1
  ret { double, double } %13
}

; Function Attrs: nounwind
define dso_local float @__fz_lib_cabsf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = extractelement <2 x float> %0, i64 1
  %4 = tail call float @hypotf(float noundef %2, float noundef %3)
  ret float %4
}

; Function Attrs: nounwind
declare float @hypotf(float noundef, float noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local float @__fz_lib_cargf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 1
  %3 = extractelement <2 x float> %0, i64 0
  %4 = tail call float @atan2f(float noundef %2, float noundef %3)
  ret float %4
}

; Function Attrs: nounwind
declare float @atan2f(float noundef, float noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_cexpf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = tail call float @expf(float noundef %2)
  %4 = extractelement <2 x float> %0, i64 1
  %5 = tail call float @cosf(float noundef %4)
  %6 = fmul float %3, %5
  %7 = tail call float @sinf(float noundef %4)
  %8 = fmul float %3, %7
  %9 = insertelement <2 x float> poison, float %6, i64 0
  %10 = insertelement <2 x float> %9, float %8, i64 1
  ret <2 x float> %10
}

; Function Attrs: nounwind
declare float @expf(float noundef) local_unnamed_addr

; Function Attrs: nounwind
declare float @cosf(float noundef) local_unnamed_addr

; Function Attrs: nounwind
declare float @sinf(float noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_clogf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = extractelement <2 x float> %0, i64 1
  %4 = tail call float @hypotf(float noundef %2, float noundef %3)
  %5 = tail call float @logf(float noundef %4)
  %6 = tail call float @atan2f(float noundef %3, float noundef %2)
  %7 = insertelement <2 x float> poison, float %5, i64 0
  %8 = insertelement <2 x float> %7, float %6, i64 1
  ret <2 x float> %8
}

; Function Attrs: nounwind
declare float @logf(float noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_csqrtf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = extractelement <2 x float> %0, i64 1
  %4 = fpext float %3 to double
  %5 = fcmp oeq float %2, 0.000000e+00
  %6 = fcmp oeq float %3, 0.000000e+00
  %7 = and i1 %5, %6
  br i1 %7, label %24, label %8

8:                                                ; preds = %1
  %9 = fpext float %2 to double
  %10 = tail call double @fabs(double noundef %9)
  %11 = tail call double @hypot(double noundef %9, double noundef %4)
  %12 = fadd double %10, %11
  %13 = fmul double %12, 5.000000e-01
  %14 = tail call double @sqrt(double noundef %13)
  %15 = fcmp ult float %2, 0.000000e+00
  br i1 %15, label %19, label %16

16:                                               ; preds = %8
  %17 = fmul double %14, 2.000000e+00
  %18 = fdiv double %4, %17
  br label %24

19:                                               ; preds = %8
  %20 = tail call double @fabs(double noundef %4)
  %21 = fmul double %14, 2.000000e+00
  %22 = fdiv double %20, %21
  %23 = tail call double @copysign(double noundef %14, double noundef %4)
  br label %24

24:                                               ; preds = %1, %16, %19
  %25 = phi double [ 0.000000e+00, %1 ], [ %14, %16 ], [ %22, %19 ]
  %26 = phi double [ %4, %1 ], [ %18, %16 ], [ %23, %19 ]
  %27 = fptrunc double %25 to float
  %28 = fptrunc double %26 to float
  %29 = insertelement <2 x float> poison, float %27, i64 0
  %30 = insertelement <2 x float> %29, float %28, i64 1
  ret <2 x float> %30
}

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_cpowf(<2 x float> noundef %0, <2 x float> noundef %1) local_unnamed_addr {
  %3 = extractelement <2 x float> %0, i64 0
  %4 = extractelement <2 x float> %0, i64 1
  %5 = extractelement <2 x float> %1, i64 0
  %6 = extractelement <2 x float> %1, i64 1
  %7 = fcmp oeq float %3, 0.000000e+00
  %8 = fcmp oeq float %4, 0.000000e+00
  %9 = and i1 %7, %8
  br i1 %9, label %10, label %15

10:                                               ; preds = %2
  %11 = fcmp oeq float %5, 0.000000e+00
  %12 = fcmp oeq float %6, 0.000000e+00
  %13 = and i1 %11, %12
  %14 = select i1 %13, double 1.000000e+00, double 0.000000e+00
  br label %35

15:                                               ; preds = %2
  %16 = fpext float %6 to double
  %17 = fpext float %5 to double
  %18 = fpext float %4 to double
  %19 = fpext float %3 to double
  %20 = tail call double @hypot(double noundef %19, double noundef %18)
  %21 = tail call double @log(double noundef %20)
  %22 = tail call double @atan2(double noundef %18, double noundef %19)
  %23 = fmul double %21, %17
  %24 = fmul double %22, %16
  %25 = fsub double %23, %24
  %26 = fmul double %22, %17
  %27 = fmul double %21, %16
  %28 = fadd double %27, %26
  %29 = tail call double @exp(double noundef %25)
  %30 = tail call double @cos(double noundef %28)
  %31 = fmul double %29, %30
  %32 = tail call double @sin(double noundef %28)
  %33 = fmul double %29, %32
  %34 = fptrunc double %33 to float
  br label %35

35:                                               ; preds = %10, %15
  %36 = phi double [ %14, %10 ], [ %31, %15 ]
  %37 = phi float [ 0.000000e+00, %10 ], [ %34, %15 ]
  %38 = fptrunc double %36 to float
  %39 = insertelement <2 x float> poison, float %38, i64 0
  %40 = insertelement <2 x float> %39, float %37, i64 1
  ret <2 x float> %40
}

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_csinf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = fpext float %2 to double
  %4 = extractelement <2 x float> %0, i64 1
  %5 = fpext float %4 to double
  %6 = tail call double @sin(double noundef %3)
  %7 = tail call double @cosh(double noundef %5)
  %8 = fmul double %6, %7
  %9 = tail call double @cos(double noundef %3)
  %10 = tail call double @sinh(double noundef %5)
  %11 = fmul double %9, %10
  %12 = fptrunc double %8 to float
  %13 = fptrunc double %11 to float
  %14 = insertelement <2 x float> poison, float %12, i64 0
  %15 = insertelement <2 x float> %14, float %13, i64 1
  ret <2 x float> %15
}

; Function Attrs: nounwind
define dso_local <2 x float> @__fz_lib_ccosf(<2 x float> noundef %0) local_unnamed_addr {
  %2 = extractelement <2 x float> %0, i64 0
  %3 = fpext float %2 to double
  %4 = extractelement <2 x float> %0, i64 1
  %5 = fpext float %4 to double
  %6 = tail call double @cos(double noundef %3)
  %7 = tail call double @cosh(double noundef %5)
  %8 = fmul double %6, %7
  %9 = tail call double @sin(double noundef %3)
  %10 = tail call double @sinh(double noundef %5)
  %11 = fneg double %10
  %12 = fmul double %9, %11
  %13 = fptrunc double %8 to float
  %14 = fptrunc double %12 to float
  %15 = insertelement <2 x float> poison, float %13, i64 0
  %16 = insertelement <2 x float> %15, float %14, i64 1
  ret <2 x float> %16
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local { x86_fp80, x86_fp80 } @__fz_lib___mulxc3(x86_fp80 noundef %0, x86_fp80 noundef %1, x86_fp80 noundef %2, x86_fp80 noundef %3) local_unnamed_addr {
  %5 = fmul x86_fp80 %0, %2
  %6 = fmul x86_fp80 %1, %3
  %7 = fmul x86_fp80 %0, %3
  %8 = fmul x86_fp80 %1, %2
  %9 = fsub x86_fp80 %5, %6
  %10 = fadd x86_fp80 %8, %7
  %11 = fcmp uno x86_fp80 %9, 0xK00000000000000000000
  %12 = fcmp uno x86_fp80 %10, 0xK00000000000000000000
  %13 = and i1 %11, %12
  br i1 %13, label %14, label %112

14:                                               ; preds = %4
  %15 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %0)
  %16 = fcmp oeq x86_fp80 %15, 0xK7FFF8000000000000000
  br i1 %16, label %20, label %17

17:                                               ; preds = %14
  %18 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %1)
  %19 = fcmp oeq x86_fp80 %18, 0xK7FFF8000000000000000
  br i1 %19, label %20, label %35

20:                                               ; preds = %17, %14
  %21 = phi x86_fp80 [ 0xK00000000000000000000, %17 ], [ 0xK3FFF8000000000000000, %14 ]
  %22 = tail call x86_fp80 @copysignl(x86_fp80 noundef %21, x86_fp80 noundef %0)
  %23 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %1)
  %24 = fcmp oeq x86_fp80 %23, 0xK7FFF8000000000000000
  %25 = select i1 %24, x86_fp80 0xK3FFF8000000000000000, x86_fp80 0xK00000000000000000000
  %26 = tail call x86_fp80 @copysignl(x86_fp80 noundef %25, x86_fp80 noundef %1)
  %27 = fcmp uno x86_fp80 %2, 0xK00000000000000000000
  br i1 %27, label %28, label %30

28:                                               ; preds = %20
  %29 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %2)
  br label %30

30:                                               ; preds = %28, %20
  %31 = phi x86_fp80 [ %29, %28 ], [ %2, %20 ]
  %32 = fcmp uno x86_fp80 %3, 0xK00000000000000000000
  br i1 %32, label %33, label %35

33:                                               ; preds = %30
  %34 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %3)
  br label %35

35:                                               ; preds = %30, %33, %17
  %36 = phi x86_fp80 [ %3, %17 ], [ %34, %33 ], [ %3, %30 ]
  %37 = phi x86_fp80 [ %2, %17 ], [ %31, %33 ], [ %31, %30 ]
  %38 = phi x86_fp80 [ %1, %17 ], [ %26, %33 ], [ %26, %30 ]
  %39 = phi x86_fp80 [ %0, %17 ], [ %22, %33 ], [ %22, %30 ]
  %40 = phi i32 [ 0, %17 ], [ 1, %33 ], [ 1, %30 ]
  %41 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %37)
  %42 = fcmp oeq x86_fp80 %41, 0xK7FFF8000000000000000
  br i1 %42, label %46, label %43

43:                                               ; preds = %35
  %44 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %36)
  %45 = fcmp oeq x86_fp80 %44, 0xK7FFF8000000000000000
  br i1 %45, label %46, label %61

46:                                               ; preds = %43, %35
  %47 = phi x86_fp80 [ 0xK00000000000000000000, %43 ], [ 0xK3FFF8000000000000000, %35 ]
  %48 = tail call x86_fp80 @copysignl(x86_fp80 noundef %47, x86_fp80 noundef %37)
  %49 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %36)
  %50 = fcmp oeq x86_fp80 %49, 0xK7FFF8000000000000000
  %51 = select i1 %50, x86_fp80 0xK3FFF8000000000000000, x86_fp80 0xK00000000000000000000
  %52 = tail call x86_fp80 @copysignl(x86_fp80 noundef %51, x86_fp80 noundef %36)
  %53 = fcmp uno x86_fp80 %39, 0xK00000000000000000000
  br i1 %53, label %54, label %56

54:                                               ; preds = %46
  %55 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %39)
  br label %56

56:                                               ; preds = %54, %46
  %57 = phi x86_fp80 [ %55, %54 ], [ %39, %46 ]
  %58 = fcmp uno x86_fp80 %38, 0xK00000000000000000000
  br i1 %58, label %59, label %61

59:                                               ; preds = %56
  %60 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %38)
  br label %61

61:                                               ; preds = %56, %59, %43
  %62 = phi x86_fp80 [ %36, %43 ], [ %52, %59 ], [ %52, %56 ]
  %63 = phi x86_fp80 [ %37, %43 ], [ %48, %59 ], [ %48, %56 ]
  %64 = phi x86_fp80 [ %38, %43 ], [ %60, %59 ], [ %38, %56 ]
  %65 = phi x86_fp80 [ %39, %43 ], [ %57, %59 ], [ %57, %56 ]
  %66 = phi i32 [ %40, %43 ], [ 1, %59 ], [ 1, %56 ]
  %67 = icmp eq i32 %66, 0
  br i1 %67, label %68, label %99

68:                                               ; preds = %61
  %69 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %5)
  %70 = fcmp oeq x86_fp80 %69, 0xK7FFF8000000000000000
  %71 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %6)
  %72 = fcmp oeq x86_fp80 %71, 0xK7FFF8000000000000000
  %73 = or i1 %70, %72
  %74 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %7)
  %75 = fcmp oeq x86_fp80 %74, 0xK7FFF8000000000000000
  %76 = or i1 %75, %73
  %77 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %8)
  %78 = fcmp oeq x86_fp80 %77, 0xK7FFF8000000000000000
  %79 = or i1 %78, %76
  br i1 %79, label %80, label %112

80:                                               ; preds = %68
  %81 = fcmp uno x86_fp80 %65, 0xK00000000000000000000
  br i1 %81, label %82, label %84

82:                                               ; preds = %80
  %83 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %65)
  br label %84

84:                                               ; preds = %82, %80
  %85 = phi x86_fp80 [ %83, %82 ], [ %65, %80 ]
  %86 = fcmp uno x86_fp80 %64, 0xK00000000000000000000
  br i1 %86, label %87, label %89

87:                                               ; preds = %84
  %88 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %64)
  br label %89

89:                                               ; preds = %87, %84
  %90 = phi x86_fp80 [ %88, %87 ], [ %64, %84 ]
  %91 = fcmp uno x86_fp80 %63, 0xK00000000000000000000
  br i1 %91, label %92, label %94

92:                                               ; preds = %89
  %93 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %63)
  br label %94

94:                                               ; preds = %92, %89
  %95 = phi x86_fp80 [ %93, %92 ], [ %63, %89 ]
  %96 = fcmp uno x86_fp80 %62, 0xK00000000000000000000
  br i1 %96, label %97, label %99

97:                                               ; preds = %94
  %98 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK00000000000000000000, x86_fp80 noundef %62)
  br label %99

99:                                               ; preds = %61, %97, %94
  %100 = phi x86_fp80 [ %62, %61 ], [ %62, %94 ], [ %98, %97 ]
  %101 = phi x86_fp80 [ %63, %61 ], [ %95, %94 ], [ %95, %97 ]
  %102 = phi x86_fp80 [ %64, %61 ], [ %90, %94 ], [ %90, %97 ]
  %103 = phi x86_fp80 [ %65, %61 ], [ %85, %94 ], [ %85, %97 ]
  %104 = fmul x86_fp80 %101, %103
  %105 = fmul x86_fp80 %100, %102
  %106 = fsub x86_fp80 %104, %105
  %107 = fmul x86_fp80 %106, 0xK7FFF8000000000000000
  %108 = fmul x86_fp80 %100, %103
  %109 = fmul x86_fp80 %101, %102
  %110 = fadd x86_fp80 %109, %108
  %111 = fmul x86_fp80 %110, 0xK7FFF8000000000000000
  br label %112

112:                                              ; preds = %99, %68, %4
  %113 = phi x86_fp80 [ %9, %4 ], [ %107, %99 ], [ %9, %68 ]
  %114 = phi x86_fp80 [ %10, %4 ], [ %111, %99 ], [ %10, %68 ]
  %115 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %113, 0
  %116 = insertvalue { x86_fp80, x86_fp80 } %115, x86_fp80 %114, 1
  ret { x86_fp80, x86_fp80 } %116
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare x86_fp80 @copysignl(x86_fp80 noundef, x86_fp80 noundef) local_unnamed_addr

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
define dso_local { x86_fp80, x86_fp80 } @__fz_lib___divxc3(x86_fp80 noundef %0, x86_fp80 noundef %1, x86_fp80 noundef %2, x86_fp80 noundef %3) local_unnamed_addr {
  %5 = tail call x86_fp80 @fabsl(x86_fp80 noundef %2)
  %6 = tail call x86_fp80 @fabsl(x86_fp80 noundef %3)
  %7 = fcmp olt x86_fp80 %5, %6
  br i1 %7, label %8, label %18

8:                                                ; preds = %4
  %9 = fdiv x86_fp80 %2, %3
  %10 = fmul x86_fp80 %2, %9
  %11 = fadd x86_fp80 %3, %10
  %12 = fmul x86_fp80 %0, %9
  %13 = fadd x86_fp80 %1, %12
  %14 = fdiv x86_fp80 %13, %11
  %15 = fmul x86_fp80 %1, %9
  %16 = fsub x86_fp80 %15, %0
  %17 = fdiv x86_fp80 %16, %11
  br label %28

18:                                               ; preds = %4
  %19 = fdiv x86_fp80 %3, %2
  %20 = fmul x86_fp80 %3, %19
  %21 = fadd x86_fp80 %2, %20
  %22 = fmul x86_fp80 %1, %19
  %23 = fadd x86_fp80 %0, %22
  %24 = fdiv x86_fp80 %23, %21
  %25 = fmul x86_fp80 %0, %19
  %26 = fsub x86_fp80 %1, %25
  %27 = fdiv x86_fp80 %26, %21
  br label %28

28:                                               ; preds = %18, %8
  %29 = phi x86_fp80 [ %17, %8 ], [ %27, %18 ]
  %30 = phi x86_fp80 [ %14, %8 ], [ %24, %18 ]
  %31 = fcmp uno x86_fp80 %30, 0xK00000000000000000000
  %32 = fcmp uno x86_fp80 %29, 0xK00000000000000000000
  %33 = and i1 %32, %31
  br i1 %33, label %34, label %92

34:                                               ; preds = %28
  %35 = fcmp oeq x86_fp80 %2, 0xK00000000000000000000
  %36 = fcmp oeq x86_fp80 %3, 0xK00000000000000000000
  %37 = and i1 %35, %36
  br i1 %37, label %38, label %46

38:                                               ; preds = %34
  %39 = fcmp uno x86_fp80 %0, 0xK00000000000000000000
  %40 = fcmp uno x86_fp80 %1, 0xK00000000000000000000
  %41 = and i1 %39, %40
  br i1 %41, label %46, label %42

42:                                               ; preds = %38
  %43 = tail call x86_fp80 @copysignl(x86_fp80 noundef 0xK7FFF8000000000000000, x86_fp80 noundef %2)
  %44 = fmul x86_fp80 %0, %43
  %45 = fmul x86_fp80 %1, %43
  br label %92

46:                                               ; preds = %38, %34
  %47 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %0)
  %48 = fcmp une x86_fp80 %47, 0xK7FFF8000000000000000
  %49 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %1)
  %50 = fcmp une x86_fp80 %49, 0xK7FFF8000000000000000
  %51 = and i1 %48, %50
  %52 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %2)
  %53 = fcmp ueq x86_fp80 %52, 0xK7FFF8000000000000000
  %54 = or i1 %51, %53
  %55 = tail call x86_fp80 @llvm.fabs.f80(x86_fp80 %3)
  %56 = fcmp ueq x86_fp80 %55, 0xK7FFF8000000000000000
  %57 = or i1 %54, %56
  br i1 %57, label %71, label %58

58:                                               ; preds = %46
  %59 = select i1 %48, x86_fp80 0xK00000000000000000000, x86_fp80 0xK3FFF8000000000000000
  %60 = tail call x86_fp80 @copysignl(x86_fp80 noundef %59, x86_fp80 noundef %0)
  %61 = select i1 %50, x86_fp80 0xK00000000000000000000, x86_fp80 0xK3FFF8000000000000000
  %62 = tail call x86_fp80 @copysignl(x86_fp80 noundef %61, x86_fp80 noundef %1)
  %63 = fmul x86_fp80 %2, %60
  %64 = fmul x86_fp80 %3, %62
  %65 = fadd x86_fp80 %63, %64
  %66 = fmul x86_fp80 %65, 0xK7FFF8000000000000000
  %67 = fmul x86_fp80 %2, %62
  %68 = fmul x86_fp80 %3, %60
  %69 = fsub x86_fp80 %67, %68
  %70 = fmul x86_fp80 %69, 0xK7FFF8000000000000000
  br label %92

71:                                               ; preds = %46
  %72 = fcmp une x86_fp80 %52, 0xK7FFF8000000000000000
  %73 = fcmp une x86_fp80 %55, 0xK7FFF8000000000000000
  %74 = and i1 %72, %73
  %75 = fcmp ueq x86_fp80 %47, 0xK7FFF8000000000000000
  %76 = or i1 %75, %74
  %77 = fcmp ueq x86_fp80 %49, 0xK7FFF8000000000000000
  %78 = or i1 %77, %76
  br i1 %78, label %92, label %79

79:                                               ; preds = %71
  %80 = select i1 %72, x86_fp80 0xK00000000000000000000, x86_fp80 0xK3FFF8000000000000000
  %81 = tail call x86_fp80 @copysignl(x86_fp80 noundef %80, x86_fp80 noundef %2)
  %82 = select i1 %73, x86_fp80 0xK00000000000000000000, x86_fp80 0xK3FFF8000000000000000
  %83 = tail call x86_fp80 @copysignl(x86_fp80 noundef %82, x86_fp80 noundef %3)
  %84 = fmul x86_fp80 %0, %81
  %85 = fmul x86_fp80 %1, %83
  %86 = fadd x86_fp80 %84, %85
  %87 = fmul x86_fp80 %86, 0xK00000000000000000000
  %88 = fmul x86_fp80 %1, %81
  %89 = fmul x86_fp80 %0, %83
  %90 = fsub x86_fp80 %88, %89
  %91 = fmul x86_fp80 %90, 0xK00000000000000000000
  br label %92

92:                                               ; preds = %71, %42, %79, %58, %28
  %93 = phi x86_fp80 [ %70, %58 ], [ %91, %79 ], [ %45, %42 ], [ %29, %28 ], [ %29, %71 ]
  %94 = phi x86_fp80 [ %66, %58 ], [ %87, %79 ], [ %44, %42 ], [ %30, %28 ], [ %30, %71 ]
  %95 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %94, 0
  %96 = insertvalue { x86_fp80, x86_fp80 } %95, x86_fp80 %93, 1
  ret { x86_fp80, x86_fp80 } %96
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare x86_fp80 @fabsl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local x86_fp80 @__fz_lib_cabsl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @hypotl(x86_fp80 noundef %2, x86_fp80 noundef %4)
  ret x86_fp80 %5
}

; Function Attrs: nounwind
declare x86_fp80 @hypotl(x86_fp80 noundef, x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local x86_fp80 @__fz_lib_cargl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %3 = load x86_fp80, ptr %2, align 16
  %4 = load x86_fp80, ptr %0, align 16
  %5 = tail call x86_fp80 @atan2l(x86_fp80 noundef %3, x86_fp80 noundef %4)
  ret x86_fp80 %5
}

; Function Attrs: nounwind
declare x86_fp80 @atan2l(x86_fp80 noundef, x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_cexpl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = tail call x86_fp80 @expl(x86_fp80 noundef %2)
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %5 = load x86_fp80, ptr %4, align 16
  %6 = tail call x86_fp80 @cosl(x86_fp80 noundef %5)
  %7 = fmul x86_fp80 %3, %6
  %8 = tail call x86_fp80 @sinl(x86_fp80 noundef %5)
  %9 = fmul x86_fp80 %3, %8
  %10 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %7, 0
  %11 = insertvalue { x86_fp80, x86_fp80 } %10, x86_fp80 %9, 1
  ret { x86_fp80, x86_fp80 } %11
}

; Function Attrs: nounwind
declare x86_fp80 @expl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
declare x86_fp80 @cosl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
declare x86_fp80 @sinl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_clogl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @hypotl(x86_fp80 noundef %2, x86_fp80 noundef %4)
  %6 = tail call x86_fp80 @logl(x86_fp80 noundef %5)
  %7 = tail call x86_fp80 @atan2l(x86_fp80 noundef %4, x86_fp80 noundef %2)
  %8 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %6, 0
  %9 = insertvalue { x86_fp80, x86_fp80 } %8, x86_fp80 %7, 1
  ret { x86_fp80, x86_fp80 } %9
}

; Function Attrs: nounwind
declare x86_fp80 @logl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_csqrtl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fcmp oeq x86_fp80 %2, 0xK00000000000000000000
  %6 = fcmp oeq x86_fp80 %4, 0xK00000000000000000000
  %7 = select i1 %5, i1 %6, i1 false
  br i1 %7, label %23, label %8

8:                                                ; preds = %1
  %9 = tail call x86_fp80 @fabsl(x86_fp80 noundef %2)
  %10 = tail call x86_fp80 @hypotl(x86_fp80 noundef %2, x86_fp80 noundef %4)
  %11 = fadd x86_fp80 %9, %10
  %12 = fmul x86_fp80 %11, 0xK3FFE8000000000000000
  %13 = tail call x86_fp80 @sqrtl(x86_fp80 noundef %12)
  %14 = fcmp ult x86_fp80 %2, 0xK00000000000000000000
  br i1 %14, label %18, label %15

15:                                               ; preds = %8
  %16 = fmul x86_fp80 %13, 0xK40008000000000000000
  %17 = fdiv x86_fp80 %4, %16
  br label %23

18:                                               ; preds = %8
  %19 = tail call x86_fp80 @fabsl(x86_fp80 noundef %4)
  %20 = fmul x86_fp80 %13, 0xK40008000000000000000
  %21 = fdiv x86_fp80 %19, %20
  %22 = tail call x86_fp80 @copysignl(x86_fp80 noundef %13, x86_fp80 noundef %4)
  br label %23

23:                                               ; preds = %15, %18, %1
  %24 = phi x86_fp80 [ 0xK00000000000000000000, %1 ], [ %13, %15 ], [ %21, %18 ]
  %25 = phi x86_fp80 [ %4, %1 ], [ %17, %15 ], [ %22, %18 ]
  %26 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %24, 0
  %27 = insertvalue { x86_fp80, x86_fp80 } %26, x86_fp80 %25, 1
  ret { x86_fp80, x86_fp80 } %27
}

; Function Attrs: nounwind
declare x86_fp80 @sqrtl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_cpowl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0, ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %1) local_unnamed_addr {
  %3 = load x86_fp80, ptr %0, align 16
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %5 = load x86_fp80, ptr %4, align 16
  %6 = load x86_fp80, ptr %1, align 16
  %7 = getelementptr inbounds nuw i8, ptr %1, i64 16
  %8 = load x86_fp80, ptr %7, align 16
  %9 = fcmp oeq x86_fp80 %3, 0xK00000000000000000000
  %10 = fcmp oeq x86_fp80 %5, 0xK00000000000000000000
  %11 = select i1 %9, i1 %10, i1 false
  br i1 %11, label %12, label %17

12:                                               ; preds = %2
  %13 = fcmp oeq x86_fp80 %6, 0xK00000000000000000000
  %14 = fcmp oeq x86_fp80 %8, 0xK00000000000000000000
  %15 = select i1 %13, i1 %14, i1 false
  %16 = select i1 %15, x86_fp80 0xK3FFF8000000000000000, x86_fp80 0xK00000000000000000000
  br label %32

17:                                               ; preds = %2
  %18 = tail call x86_fp80 @hypotl(x86_fp80 noundef %3, x86_fp80 noundef %5)
  %19 = tail call x86_fp80 @logl(x86_fp80 noundef %18)
  %20 = tail call x86_fp80 @atan2l(x86_fp80 noundef %5, x86_fp80 noundef %3)
  %21 = fmul x86_fp80 %6, %19
  %22 = fmul x86_fp80 %8, %20
  %23 = fsub x86_fp80 %21, %22
  %24 = fmul x86_fp80 %6, %20
  %25 = fmul x86_fp80 %8, %19
  %26 = fadd x86_fp80 %25, %24
  %27 = tail call x86_fp80 @expl(x86_fp80 noundef %23)
  %28 = tail call x86_fp80 @cosl(x86_fp80 noundef %26)
  %29 = fmul x86_fp80 %27, %28
  %30 = tail call x86_fp80 @sinl(x86_fp80 noundef %26)
  %31 = fmul x86_fp80 %27, %30
  br label %32

32:                                               ; preds = %17, %12
  %33 = phi x86_fp80 [ %16, %12 ], [ %29, %17 ]
  %34 = phi x86_fp80 [ 0xK00000000000000000000, %12 ], [ %31, %17 ]
  %35 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %33, 0
  %36 = insertvalue { x86_fp80, x86_fp80 } %35, x86_fp80 %34, 1
  ret { x86_fp80, x86_fp80 } %36
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_csinl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @sinl(x86_fp80 noundef %2)
  %6 = tail call x86_fp80 @coshl(x86_fp80 noundef %4)
  %7 = fmul x86_fp80 %5, %6
  %8 = tail call x86_fp80 @cosl(x86_fp80 noundef %2)
  %9 = tail call x86_fp80 @sinhl(x86_fp80 noundef %4)
  %10 = fmul x86_fp80 %8, %9
  %11 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %7, 0
  %12 = insertvalue { x86_fp80, x86_fp80 } %11, x86_fp80 %10, 1
  ret { x86_fp80, x86_fp80 } %12
}

; Function Attrs: nounwind
declare x86_fp80 @coshl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
declare x86_fp80 @sinhl(x86_fp80 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_ccosl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @cosl(x86_fp80 noundef %2)
  %6 = tail call x86_fp80 @coshl(x86_fp80 noundef %4)
  %7 = fmul x86_fp80 %5, %6
  %8 = tail call x86_fp80 @sinl(x86_fp80 noundef %2)
  %9 = tail call x86_fp80 @sinhl(x86_fp80 noundef %4)
  %10 = fneg x86_fp80 %9
  %11 = fmul x86_fp80 %8, %10
  %12 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %7, 0
  %13 = insertvalue { x86_fp80, x86_fp80 } %12, x86_fp80 %11, 1
  ret { x86_fp80, x86_fp80 } %13
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_ctanl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fmul x86_fp80 %2, 0xK40008000000000000000
  %6 = tail call x86_fp80 @cosl(x86_fp80 noundef %5)
  %7 = fmul x86_fp80 %4, 0xK40008000000000000000
  %8 = tail call x86_fp80 @coshl(x86_fp80 noundef %7)
  %9 = fadd x86_fp80 %6, %8
  %10 = tail call x86_fp80 @sinl(x86_fp80 noundef %5)
  %11 = fdiv x86_fp80 %10, %9
  %12 = tail call x86_fp80 @sinhl(x86_fp80 noundef %7)
  %13 = fdiv x86_fp80 %12, %9
  %14 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %11, 0
  %15 = insertvalue { x86_fp80, x86_fp80 } %14, x86_fp80 %13, 1
  ret { x86_fp80, x86_fp80 } %15
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_csinhl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @sinhl(x86_fp80 noundef %2)
  %6 = tail call x86_fp80 @cosl(x86_fp80 noundef %4)
  %7 = fmul x86_fp80 %5, %6
  %8 = tail call x86_fp80 @coshl(x86_fp80 noundef %2)
  %9 = tail call x86_fp80 @sinl(x86_fp80 noundef %4)
  %10 = fmul x86_fp80 %8, %9
  %11 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %7, 0
  %12 = insertvalue { x86_fp80, x86_fp80 } %11, x86_fp80 %10, 1
  ret { x86_fp80, x86_fp80 } %12
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_ccoshl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = tail call x86_fp80 @coshl(x86_fp80 noundef %2)
  %6 = tail call x86_fp80 @cosl(x86_fp80 noundef %4)
  %7 = fmul x86_fp80 %5, %6
  %8 = tail call x86_fp80 @sinhl(x86_fp80 noundef %2)
  %9 = tail call x86_fp80 @sinl(x86_fp80 noundef %4)
  %10 = fmul x86_fp80 %8, %9
  %11 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %7, 0
  %12 = insertvalue { x86_fp80, x86_fp80 } %11, x86_fp80 %10, 1
  ret { x86_fp80, x86_fp80 } %12
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_ctanhl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fmul x86_fp80 %2, 0xK40008000000000000000
  %6 = tail call x86_fp80 @coshl(x86_fp80 noundef %5)
  %7 = fmul x86_fp80 %4, 0xK40008000000000000000
  %8 = tail call x86_fp80 @cosl(x86_fp80 noundef %7)
  %9 = fadd x86_fp80 %6, %8
  %10 = tail call x86_fp80 @sinhl(x86_fp80 noundef %5)
  %11 = fdiv x86_fp80 %10, %9
  %12 = tail call x86_fp80 @sinl(x86_fp80 noundef %7)
  %13 = fdiv x86_fp80 %12, %9
  %14 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %11, 0
  %15 = insertvalue { x86_fp80, x86_fp80 } %14, x86_fp80 %13, 1
  ret { x86_fp80, x86_fp80 } %15
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_casinhl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fcmp olt x86_fp80 %2, 0xK00000000000000000000
  %6 = fneg x86_fp80 %2
  %7 = fneg x86_fp80 %4
  %8 = select i1 %5, x86_fp80 %7, x86_fp80 %4
  %9 = select i1 %5, x86_fp80 %6, x86_fp80 %2
  %10 = fmul x86_fp80 %9, %9
  %11 = fmul x86_fp80 %8, %8
  %12 = fsub x86_fp80 %10, %11
  %13 = fadd x86_fp80 %12, 0xK3FFF8000000000000000
  %14 = fmul x86_fp80 %9, 0xK40008000000000000000
  %15 = fmul x86_fp80 %8, %14
  %16 = fcmp oeq x86_fp80 %13, 0xK00000000000000000000
  %17 = fcmp oeq x86_fp80 %15, 0xK00000000000000000000
  %18 = and i1 %17, %16
  br i1 %18, label %34, label %19

19:                                               ; preds = %1
  %20 = tail call x86_fp80 @fabsl(x86_fp80 noundef %13)
  %21 = tail call x86_fp80 @hypotl(x86_fp80 noundef %13, x86_fp80 noundef %15)
  %22 = fadd x86_fp80 %20, %21
  %23 = fmul x86_fp80 %22, 0xK3FFE8000000000000000
  %24 = tail call x86_fp80 @sqrtl(x86_fp80 noundef %23)
  %25 = fcmp ult x86_fp80 %13, 0xK00000000000000000000
  br i1 %25, label %29, label %26

26:                                               ; preds = %19
  %27 = fmul x86_fp80 %24, 0xK40008000000000000000
  %28 = fdiv x86_fp80 %15, %27
  br label %34

29:                                               ; preds = %19
  %30 = tail call x86_fp80 @fabsl(x86_fp80 noundef %15)
  %31 = fmul x86_fp80 %24, 0xK40008000000000000000
  %32 = fdiv x86_fp80 %30, %31
  %33 = tail call x86_fp80 @copysignl(x86_fp80 noundef %24, x86_fp80 noundef %15)
  br label %34

34:                                               ; preds = %1, %26, %29
  %35 = phi x86_fp80 [ 0xK00000000000000000000, %1 ], [ %24, %26 ], [ %32, %29 ]
  %36 = phi x86_fp80 [ %15, %1 ], [ %28, %26 ], [ %33, %29 ]
  %37 = fadd x86_fp80 %9, %35
  %38 = fadd x86_fp80 %8, %36
  %39 = tail call x86_fp80 @hypotl(x86_fp80 noundef %37, x86_fp80 noundef %38)
  %40 = tail call x86_fp80 @logl(x86_fp80 noundef %39)
  %41 = tail call x86_fp80 @atan2l(x86_fp80 noundef %38, x86_fp80 noundef %37)
  %42 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %40, 0
  %43 = insertvalue { x86_fp80, x86_fp80 } %42, x86_fp80 %41, 1
  %44 = fneg x86_fp80 %40
  %45 = fneg x86_fp80 %41
  %46 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %44, 0
  %47 = insertvalue { x86_fp80, x86_fp80 } %46, x86_fp80 %45, 1
  %48 = select i1 %5, { x86_fp80, x86_fp80 } %47, { x86_fp80, x86_fp80 } %43
  ret { x86_fp80, x86_fp80 } %48
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_casinl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = alloca { x86_fp80, x86_fp80 }, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fneg x86_fp80 %4
  %6 = load x86_fp80, ptr %0, align 16
  call void @llvm.lifetime.start.p0(ptr nonnull %2)
  %7 = getelementptr inbounds nuw i8, ptr %2, i64 16
  store x86_fp80 %5, ptr %2, align 16
  store x86_fp80 %6, ptr %7, align 16
  %8 = tail call { x86_fp80, x86_fp80 } @__fz_lib_casinhl(ptr noundef nonnull byval({ x86_fp80, x86_fp80 }) align 16 %2)
  %9 = extractvalue { x86_fp80, x86_fp80 } %8, 0
  %10 = extractvalue { x86_fp80, x86_fp80 } %8, 1
  call void @llvm.lifetime.end.p0(ptr nonnull %2)
  %11 = fneg x86_fp80 %9
  %12 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %10, 0
  %13 = insertvalue { x86_fp80, x86_fp80 } %12, x86_fp80 %11, 1
  ret { x86_fp80, x86_fp80 } %13
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_cacosl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = alloca { x86_fp80, x86_fp80 }, align 16
  %3 = load x86_fp80, ptr %0, align 16
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %5 = load x86_fp80, ptr %4, align 16
  %6 = fneg x86_fp80 %5
  call void @llvm.lifetime.start.p0(ptr nonnull %2)
  %7 = getelementptr inbounds nuw i8, ptr %2, i64 16
  store x86_fp80 %6, ptr %2, align 16
  store x86_fp80 %3, ptr %7, align 16
  %8 = tail call { x86_fp80, x86_fp80 } @__fz_lib_casinhl(ptr noundef nonnull byval({ x86_fp80, x86_fp80 }) align 16 %2)
  %9 = extractvalue { x86_fp80, x86_fp80 } %8, 0
  %10 = extractvalue { x86_fp80, x86_fp80 } %8, 1
  call void @llvm.lifetime.end.p0(ptr nonnull %2)
  %11 = fsub x86_fp80 0xK3FFFC90FDAA22168C235, %10
  %12 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %11, 0
  %13 = insertvalue { x86_fp80, x86_fp80 } %12, x86_fp80 %9, 1
  ret { x86_fp80, x86_fp80 } %13
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_cacoshl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fadd x86_fp80 %2, 0xK3FFF8000000000000000
  %6 = fcmp oeq x86_fp80 %5, 0xK00000000000000000000
  %7 = fcmp oeq x86_fp80 %4, 0xK00000000000000000000
  %8 = select i1 %6, i1 %7, i1 false
  br i1 %8, label %24, label %9

9:                                                ; preds = %1
  %10 = tail call x86_fp80 @fabsl(x86_fp80 noundef %5)
  %11 = tail call x86_fp80 @hypotl(x86_fp80 noundef %5, x86_fp80 noundef %4)
  %12 = fadd x86_fp80 %10, %11
  %13 = fmul x86_fp80 %12, 0xK3FFE8000000000000000
  %14 = tail call x86_fp80 @sqrtl(x86_fp80 noundef %13)
  %15 = fcmp ult x86_fp80 %5, 0xK00000000000000000000
  br i1 %15, label %19, label %16

16:                                               ; preds = %9
  %17 = fmul x86_fp80 %14, 0xK40008000000000000000
  %18 = fdiv x86_fp80 %4, %17
  br label %24

19:                                               ; preds = %9
  %20 = tail call x86_fp80 @fabsl(x86_fp80 noundef %4)
  %21 = fmul x86_fp80 %14, 0xK40008000000000000000
  %22 = fdiv x86_fp80 %20, %21
  %23 = tail call x86_fp80 @copysignl(x86_fp80 noundef %14, x86_fp80 noundef %4)
  br label %24

24:                                               ; preds = %1, %16, %19
  %25 = phi x86_fp80 [ 0xK00000000000000000000, %1 ], [ %14, %16 ], [ %22, %19 ]
  %26 = phi x86_fp80 [ %4, %1 ], [ %18, %16 ], [ %23, %19 ]
  %27 = fadd x86_fp80 %2, 0xKBFFF8000000000000000
  %28 = fcmp oeq x86_fp80 %27, 0xK00000000000000000000
  %29 = select i1 %28, i1 %7, i1 false
  br i1 %29, label %45, label %30

30:                                               ; preds = %24
  %31 = tail call x86_fp80 @fabsl(x86_fp80 noundef %27)
  %32 = tail call x86_fp80 @hypotl(x86_fp80 noundef %27, x86_fp80 noundef %4)
  %33 = fadd x86_fp80 %31, %32
  %34 = fmul x86_fp80 %33, 0xK3FFE8000000000000000
  %35 = tail call x86_fp80 @sqrtl(x86_fp80 noundef %34)
  %36 = fcmp ult x86_fp80 %27, 0xK00000000000000000000
  br i1 %36, label %40, label %37

37:                                               ; preds = %30
  %38 = fmul x86_fp80 %35, 0xK40008000000000000000
  %39 = fdiv x86_fp80 %4, %38
  br label %45

40:                                               ; preds = %30
  %41 = tail call x86_fp80 @fabsl(x86_fp80 noundef %4)
  %42 = fmul x86_fp80 %35, 0xK40008000000000000000
  %43 = fdiv x86_fp80 %41, %42
  %44 = tail call x86_fp80 @copysignl(x86_fp80 noundef %35, x86_fp80 noundef %4)
  br label %45

45:                                               ; preds = %24, %37, %40
  %46 = phi x86_fp80 [ 0xK00000000000000000000, %24 ], [ %35, %37 ], [ %43, %40 ]
  %47 = phi x86_fp80 [ %4, %24 ], [ %39, %37 ], [ %44, %40 ]
  %48 = fmul x86_fp80 %25, %46
  %49 = fmul x86_fp80 %26, %47
  %50 = fsub x86_fp80 %48, %49
  %51 = fmul x86_fp80 %25, %47
  %52 = fmul x86_fp80 %26, %46
  %53 = fadd x86_fp80 %52, %51
  %54 = fadd x86_fp80 %2, %50
  %55 = fadd x86_fp80 %4, %53
  %56 = tail call x86_fp80 @hypotl(x86_fp80 noundef %54, x86_fp80 noundef %55)
  %57 = tail call x86_fp80 @logl(x86_fp80 noundef %56)
  %58 = tail call x86_fp80 @atan2l(x86_fp80 noundef %55, x86_fp80 noundef %54)
  %59 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %57, 0
  %60 = insertvalue { x86_fp80, x86_fp80 } %59, x86_fp80 %58, 1
  ret { x86_fp80, x86_fp80 } %60
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_catanhl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = load x86_fp80, ptr %0, align 16
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %4 = load x86_fp80, ptr %3, align 16
  %5 = fadd x86_fp80 %2, 0xK3FFF8000000000000000
  %6 = tail call x86_fp80 @hypotl(x86_fp80 noundef %5, x86_fp80 noundef %4)
  %7 = tail call x86_fp80 @logl(x86_fp80 noundef %6)
  %8 = tail call x86_fp80 @atan2l(x86_fp80 noundef %4, x86_fp80 noundef %5)
  %9 = fsub x86_fp80 0xK3FFF8000000000000000, %2
  %10 = fneg x86_fp80 %4
  %11 = tail call x86_fp80 @hypotl(x86_fp80 noundef %9, x86_fp80 noundef %10)
  %12 = tail call x86_fp80 @logl(x86_fp80 noundef %11)
  %13 = tail call x86_fp80 @atan2l(x86_fp80 noundef %10, x86_fp80 noundef %9)
  %14 = fsub x86_fp80 %7, %12
  %15 = fmul x86_fp80 %14, 0xK3FFE8000000000000000
  %16 = fsub x86_fp80 %8, %13
  %17 = fmul x86_fp80 %16, 0xK3FFE8000000000000000
  %18 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %15, 0
  %19 = insertvalue { x86_fp80, x86_fp80 } %18, x86_fp80 %17, 1
  ret { x86_fp80, x86_fp80 } %19
}

; Function Attrs: nounwind
define dso_local { x86_fp80, x86_fp80 } @__fz_lib_catanl(ptr noundef readonly byval({ x86_fp80, x86_fp80 }) align 16 captures(none) %0) local_unnamed_addr {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %3 = load x86_fp80, ptr %2, align 16
  %4 = load x86_fp80, ptr %0, align 16
  %5 = fsub x86_fp80 0xK3FFF8000000000000000, %3
  %6 = tail call x86_fp80 @hypotl(x86_fp80 noundef %5, x86_fp80 noundef %4)
  %7 = tail call x86_fp80 @logl(x86_fp80 noundef %6)
  %8 = tail call x86_fp80 @atan2l(x86_fp80 noundef %4, x86_fp80 noundef %5)
  %9 = fadd x86_fp80 %3, 0xK3FFF8000000000000000
  %10 = fneg x86_fp80 %4
  %11 = tail call x86_fp80 @hypotl(x86_fp80 noundef %9, x86_fp80 noundef %10)
  %12 = tail call x86_fp80 @logl(x86_fp80 noundef %11)
  %13 = tail call x86_fp80 @atan2l(x86_fp80 noundef %10, x86_fp80 noundef %9)
  %14 = fsub x86_fp80 %7, %12
  %15 = fsub x86_fp80 %8, %13
  %16 = fmul x86_fp80 %15, 0xK3FFE8000000000000000
  %17 = fmul x86_fp80 %14, 0xKBFFE8000000000000000
  %18 = insertvalue { x86_fp80, x86_fp80 } poison, x86_fp80 %16, 0
  %19 = insertvalue { x86_fp80, x86_fp80 } %18, x86_fp80 %17, 1
  ret { x86_fp80, x86_fp80 } %19
}

; Function Attrs: nounwind
define dso_local void @__fz_lib_qsort(ptr noundef %0, i64 noundef %1, i64 noundef %2, ptr noundef readonly captures(none) %3) local_unnamed_addr {
  %5 = icmp ult i64 %1, 2
  %6 = icmp eq i64 %2, 0
  %7 = or i1 %5, %6
  br i1 %7, label %95, label %8

8:                                                ; preds = %4
  %9 = tail call noalias ptr @malloc(i64 noundef %2)
  %10 = icmp eq ptr %9, null
  br i1 %10, label %11, label %12

11:                                               ; preds = %8
  tail call void @abort()
  unreachable

12:                                               ; preds = %8
  %13 = add i64 %1, -2
  %14 = lshr i64 %13, 1
  %15 = add nuw nsw i64 %14, 1
  %16 = add i64 %1, -1
  br label %19

17:                                               ; preds = %53
  %18 = add i64 %1, -1
  br label %56

19:                                               ; preds = %12, %53
  %20 = phi i64 [ %15, %12 ], [ %21, %53 ]
  %21 = add nsw i64 %20, -1
  %22 = shl nuw i64 %21, 1
  %23 = icmp ult i64 %22, %16
  br i1 %23, label %24, label %53

24:                                               ; preds = %19, %48
  %25 = phi i64 [ %51, %48 ], [ %22, %19 ]
  %26 = phi i64 [ %46, %48 ], [ %21, %19 ]
  %27 = or disjoint i64 %25, 1
  %28 = mul i64 %26, %2
  %29 = getelementptr inbounds nuw i8, ptr %0, i64 %28
  %30 = mul i64 %27, %2
  %31 = getelementptr inbounds nuw i8, ptr %0, i64 %30
  %32 = tail call i32 %3(ptr noundef %29, ptr noundef nonnull %31)
  %33 = icmp slt i32 %32, 0
  %34 = select i1 %33, i64 %27, i64 %26
  %35 = add nuw i64 %25, 2
  %36 = icmp ugt i64 %35, %16
  br i1 %36, label %45, label %37

37:                                               ; preds = %24
  %38 = mul i64 %34, %2
  %39 = getelementptr inbounds nuw i8, ptr %0, i64 %38
  %40 = mul i64 %35, %2
  %41 = getelementptr inbounds nuw i8, ptr %0, i64 %40
  %42 = tail call i32 %3(ptr noundef %39, ptr noundef %41)
  %43 = icmp slt i32 %42, 0
  %44 = select i1 %43, i64 %35, i64 %34
  br label %45

45:                                               ; preds = %37, %24
  %46 = phi i64 [ %34, %24 ], [ %44, %37 ]
  %47 = icmp eq i64 %46, %26
  br i1 %47, label %53, label %48

48:                                               ; preds = %45
  %49 = mul i64 %46, %2
  %50 = getelementptr inbounds nuw i8, ptr %0, i64 %49
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %9, ptr noundef nonnull align 1 dereferenceable(1) %29, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %29, ptr noundef nonnull align 1 dereferenceable(1) %50, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %50, ptr noundef nonnull align 1 dereferenceable(1) %9, i64 range(i64 1, 0) %2, i1 false)
  %51 = shl i64 %46, 1
  %52 = icmp ult i64 %51, %16
  br i1 %52, label %24, label %53

53:                                               ; preds = %45, %48, %19
  %54 = icmp eq i64 %21, 0
  br i1 %54, label %17, label %19

55:                                               ; preds = %92
  tail call void @free(ptr noundef nonnull %9)
  br label %95

56:                                               ; preds = %17, %92
  %57 = phi i64 [ %93, %92 ], [ %18, %17 ]
  %58 = phi i64 [ %57, %92 ], [ %1, %17 ]
  %59 = mul i64 %57, %2
  %60 = getelementptr inbounds nuw i8, ptr %0, i64 %59
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %9, ptr noundef nonnull align 1 dereferenceable(1) %0, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %0, ptr noundef nonnull align 1 dereferenceable(1) %60, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %60, ptr noundef nonnull align 1 dereferenceable(1) %9, i64 range(i64 1, 0) %2, i1 false)
  %61 = add i64 %58, -2
  %62 = icmp eq i64 %61, 0
  br i1 %62, label %92, label %63

63:                                               ; preds = %56, %87
  %64 = phi i64 [ %90, %87 ], [ 0, %56 ]
  %65 = phi i64 [ %85, %87 ], [ 0, %56 ]
  %66 = or disjoint i64 %64, 1
  %67 = mul i64 %65, %2
  %68 = getelementptr inbounds nuw i8, ptr %0, i64 %67
  %69 = mul i64 %66, %2
  %70 = getelementptr inbounds nuw i8, ptr %0, i64 %69
  %71 = tail call i32 %3(ptr noundef nonnull %68, ptr noundef nonnull %70)
  %72 = icmp slt i32 %71, 0
  %73 = select i1 %72, i64 %66, i64 %65
  %74 = add nuw i64 %64, 2
  %75 = icmp ugt i64 %74, %61
  br i1 %75, label %84, label %76

76:                                               ; preds = %63
  %77 = mul i64 %73, %2
  %78 = getelementptr inbounds nuw i8, ptr %0, i64 %77
  %79 = mul i64 %74, %2
  %80 = getelementptr inbounds nuw i8, ptr %0, i64 %79
  %81 = tail call i32 %3(ptr noundef nonnull %78, ptr noundef nonnull %80)
  %82 = icmp slt i32 %81, 0
  %83 = select i1 %82, i64 %74, i64 %73
  br label %84

84:                                               ; preds = %76, %63
  %85 = phi i64 [ %73, %63 ], [ %83, %76 ]
  %86 = icmp eq i64 %85, %65
  br i1 %86, label %92, label %87

87:                                               ; preds = %84
  %88 = mul i64 %85, %2
  %89 = getelementptr inbounds nuw i8, ptr %0, i64 %88
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %9, ptr noundef nonnull align 1 dereferenceable(1) %68, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %68, ptr noundef nonnull align 1 dereferenceable(1) %89, i64 range(i64 1, 0) %2, i1 false)
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 dereferenceable(1) %89, ptr noundef nonnull align 1 dereferenceable(1) %9, i64 range(i64 1, 0) %2, i1 false)
  %90 = shl i64 %85, 1
  %91 = icmp ult i64 %90, %61
  br i1 %91, label %63, label %92

92:                                               ; preds = %84, %87, %56
  %93 = add i64 %57, -1
  %94 = icmp eq i64 %93, 0
  br i1 %94, label %55, label %56

95:                                               ; preds = %4, %55
  ret void
}

; Function Attrs: nounwind
declare noalias ptr @malloc(i64 noundef) local_unnamed_addr

; Function Attrs: noreturn nounwind
declare void @abort() local_unnamed_addr

; Function Attrs: nounwind
declare void @free(ptr noundef) local_unnamed_addr

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fabs.f64(double)

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare x86_fp80 @llvm.fabs.f80(x86_fp80)



