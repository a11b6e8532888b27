
; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local void @__fz_lib_matrixmultiply_dgemm(i64 noundef %0, i64 noundef %1, i64 noundef %2, double noundef %3, ptr noundef readonly captures(none) %4, i64 noundef %5, i64 noundef %6, ptr noundef readonly captures(none) %7, i64 noundef %8, i64 noundef %9, double noundef %10, ptr noundef captures(none) %11, i64 noundef %12, i64 noundef %13) local_unnamed_addr {
  %15 = icmp eq i64 %0, 0
  br i1 %15, label %27, label %16

16:                                               ; preds = %14
  %17 = icmp eq i64 %2, 0
  %18 = icmp eq i64 %1, 0
  %19 = fcmp oeq double %10, 0.000000e+00
  br label %20

20:                                               ; preds = %16, %33
  %21 = phi i64 [ 0, %16 ], [ %34, %33 ]
  br i1 %17, label %33, label %22

22:                                               ; preds = %20
  %23 = mul nsw i64 %21, %5
  %24 = getelementptr double, ptr %4, i64 %23
  %25 = mul nsw i64 %21, %12
  %26 = getelementptr double, ptr %11, i64 %25
  br label %28

27:                                               ; preds = %33, %14
  ret void

28:                                               ; preds = %22, %58
  %29 = phi i64 [ 0, %22 ], [ %60, %58 ]
  br i1 %18, label %36, label %30

30:                                               ; preds = %28
  %31 = mul nsw i64 %29, %9
  %32 = getelementptr double, ptr %7, i64 %31
  br label %41

33:                                               ; preds = %58, %20
  %34 = add nuw i64 %21, 1
  %35 = icmp eq i64 %34, %0
  br i1 %35, label %27, label %20

36:                                               ; preds = %41, %28
  %37 = phi double [ 0.000000e+00, %28 ], [ %51, %41 ]
  %38 = mul nsw i64 %29, %13
  %39 = getelementptr double, ptr %26, i64 %38
  %40 = fmul double %3, %37
  br i1 %19, label %58, label %54

41:                                               ; preds = %30, %41
  %42 = phi i64 [ 0, %30 ], [ %52, %41 ]
  %43 = phi double [ 0.000000e+00, %30 ], [ %51, %41 ]
  %44 = mul nsw i64 %42, %6
  %45 = getelementptr double, ptr %24, i64 %44
  %46 = load double, ptr %45, align 8
  %47 = mul nsw i64 %42, %8
  %48 = getelementptr double, ptr %32, i64 %47
  %49 = load double, ptr %48, align 8
  %50 = fmul double %46, %49
  %51 = fadd double %43, %50
  %52 = add nuw i64 %42, 1
  %53 = icmp eq i64 %52, %1
  br i1 %53, label %36, label %41

54:                                               ; preds = %36
  %55 = load double, ptr %39, align 8
  %56 = fmul double %10, %55
  %57 = fadd double %40, %56
  br label %58

58:                                               ; preds = %36, %54
  %59 = phi double [ %57, %54 ], [ %40, %36 ]
  store double %59, ptr %39, align 8
  %60 = add nuw i64 %29, 1
  %61 = icmp eq i64 %60, %2
  br i1 %61, label %33, label %28
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local void @__fz_lib_matrixmultiply_sgemm(i64 noundef %0, i64 noundef %1, i64 noundef %2, float noundef %3, ptr noundef readonly captures(none) %4, i64 noundef %5, i64 noundef %6, ptr noundef readonly captures(none) %7, i64 noundef %8, i64 noundef %9, float noundef %10, ptr noundef captures(none) %11, i64 noundef %12, i64 noundef %13) local_unnamed_addr {
  %15 = icmp eq i64 %0, 0
  br i1 %15, label %27, label %16

16:                                               ; preds = %14
  %17 = icmp eq i64 %2, 0
  %18 = icmp eq i64 %1, 0
  %19 = fcmp oeq float %10, 0.000000e+00
  br label %20

20:                                               ; preds = %16, %33
  %21 = phi i64 [ 0, %16 ], [ %34, %33 ]
  br i1 %17, label %33, label %22

22:                                               ; preds = %20
  %23 = mul nsw i64 %21, %5
  %24 = getelementptr float, ptr %4, i64 %23
  %25 = mul nsw i64 %21, %12
  %26 = getelementptr float, ptr %11, i64 %25
  br label %28

27:                                               ; preds = %33, %14
  ret void

28:                                               ; preds = %22, %58
  %29 = phi i64 [ 0, %22 ], [ %60, %58 ]
  br i1 %18, label %36, label %30

30:                                               ; preds = %28
  %31 = mul nsw i64 %29, %9
  %32 = getelementptr float, ptr %7, i64 %31
  br label %41

33:                                               ; preds = %58, %20
  %34 = add nuw i64 %21, 1
  %35 = icmp eq i64 %34, %0
  br i1 %35, label %27, label %20

36:                                               ; preds = %41, %28
  %37 = phi float [ 0.000000e+00, %28 ], [ %51, %41 ]
  %38 = mul nsw i64 %29, %13
  %39 = getelementptr float, ptr %26, i64 %38
  %40 = fmul float %3, %37
  br i1 %19, label %58, label %54

41:                                               ; preds = %30, %41
  %42 = phi i64 [ 0, %30 ], [ %52, %41 ]
  %43 = phi float [ 0.000000e+00, %30 ], [ %51, %41 ]
  %44 = mul nsw i64 %42, %6
  %45 = getelementptr float, ptr %24, i64 %44
  %46 = load float, ptr %45, align 4
  %47 = mul nsw i64 %42, %8
  %48 = getelementptr float, ptr %32, i64 %47
  %49 = load float, ptr %48, align 4
  %50 = fmul float %46, %49
  %51 = fadd float %43, %50
  %52 = add nuw i64 %42, 1
  %53 = icmp eq i64 %52, %1
  br i1 %53, label %36, label %41

54:                                               ; preds = %36
  %55 = load float, ptr %39, align 4
  %56 = fmul float %10, %55
  %57 = fadd float %40, %56
  br label %58

58:                                               ; preds = %36, %54
  %59 = phi float [ %57, %54 ], [ %40, %36 ]
  store float %59, ptr %39, align 4
  %60 = add nuw i64 %29, 1
  %61 = icmp eq i64 %60, %2
  br i1 %61, label %33, label %28
}



