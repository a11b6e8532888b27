; tests/c/1266 at -O1 (clang-22 -O1, metadata and attributes dropped): an `int *` helper
; given a cell's own address (`set_ints(cs[i].node, ..)`, node the first member) fills
; node[0..3] in a counted loop (`gep i32, %v, i` with i from 0 while i + 1 != 4: no
; array type, no bound in the GEP), beside `double *` helpers on the cell's member arrays,
; and the differentiated function copies cells whole. Analysed before its caller's facts
; reach its parameter, the helper's pointer arithmetic sent "every offset: Integer" over
; the whole cell, which met the doubles at the copies. The loop's bound keeps the ints in
; the first 16 bytes.
%struct.cell = type { [4 x i32], [4 x double], [3 x double], i32 }

define internal fastcc void @copy_in(ptr noundef writeonly captures(none) %0, ptr noundef readonly captures(none) %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 0, %2 ], [ %9, %4 ]
  %6 = getelementptr inbounds nuw double, ptr %1, i64 %5
  %7 = load double, ptr %6, align 8
  %8 = getelementptr inbounds nuw double, ptr %0, i64 %5
  store double %7, ptr %8, align 8
  %9 = add nuw nsw i64 %5, 1
  %10 = icmp eq i64 %9, 4
  br i1 %10, label %3, label %4
}
define internal fastcc void @set_ints(ptr noundef writeonly captures(none) %v, i32 noundef %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 0, %2 ], [ %10, %4 ]
  %6 = trunc i64 %5 to i32
  %7 = add i32 %1, %6
  %8 = srem i32 %7, 5
  %9 = getelementptr inbounds nuw i32, ptr %v, i64 %5
  store i32 %8, ptr %9, align 4
  %10 = add nuw nsw i64 %5, 1
  %11 = icmp eq i64 %10, 4
  br i1 %11, label %3, label %4
}
define internal fastcc void @scale(ptr noundef captures(none) %0, double noundef %1) {
  br label %4

3:                                                ; preds = %4
  ret void

4:                                                ; preds = %2, %4
  %5 = phi i64 [ 0, %2 ], [ %9, %4 ]
  %6 = getelementptr inbounds nuw double, ptr %0, i64 %5
  %7 = load double, ptr %6, align 8
  %8 = fmul double %1, %7
  store double %8, ptr %6, align 8
  %9 = add nuw nsw i64 %5, 1
  %10 = icmp eq i64 %9, 3
  br i1 %10, label %3, label %4
}
define dso_local double @assemble(ptr noundef captures(none) %0, ptr noundef readonly captures(none) %1, double noundef %2, i32 noundef %3) {
  %t = alloca %struct.cell, align 8
  %6 = icmp sgt i32 %3, 0
  br i1 %6, label %7, label %9

7:                                                ; preds = %4
  %8 = zext nneg i32 %3 to i64
  br label %18

9:                                                ; preds = %18, %4
  %10 = icmp sgt i32 %3, 0
  br i1 %10, label %11, label %30

11:                                               ; preds = %9
  %12 = getelementptr inbounds nuw i8, ptr %t, i64 16
  %13 = getelementptr inbounds nuw i8, ptr %t, i64 48
  %14 = getelementptr inbounds nuw i8, ptr %t, i64 72
  %15 = getelementptr inbounds nuw i8, ptr %t, i64 16
  %16 = getelementptr inbounds nuw i8, ptr %t, i64 48
  %17 = zext nneg i32 %3 to i64
  br label %35

18:                                               ; preds = %7, %18
  %19 = phi i64 [ 0, %7 ], [ %28, %18 ]
  %20 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %19
  %21 = getelementptr inbounds nuw i8, ptr %20, i64 16
  %22 = getelementptr inbounds nuw double, ptr %1, i64 %19
  tail call fastcc void @copy_in(ptr noundef nonnull %21, ptr noundef %22)
  %23 = trunc nuw nsw i64 %19 to i32
  tail call fastcc void @set_ints(ptr noundef %20, i32 noundef %23)
  %24 = getelementptr inbounds nuw i8, ptr %20, i64 48
  tail call fastcc void @scale(ptr noundef nonnull %24, double noundef %2)
  %25 = trunc nuw nsw i64 %19 to i32
  %26 = and i32 %25, 1
  %27 = getelementptr inbounds nuw i8, ptr %20, i64 72
  store i32 %26, ptr %27, align 8
  %28 = add nuw nsw i64 %19, 1
  %29 = icmp eq i64 %28, %8
  br i1 %29, label %9, label %18

30:                                               ; preds = %42, %9
  %31 = phi double [ 0.000000e+00, %9 ], [ %60, %42 ]
  %32 = icmp sgt i32 %3, 0
  br i1 %32, label %33, label %63

33:                                               ; preds = %30
  %34 = zext nneg i32 %3 to i64
  br label %65

35:                                               ; preds = %11, %42
  %36 = phi i64 [ 0, %11 ], [ %46, %42 ]
  %37 = phi double [ 0.000000e+00, %11 ], [ %60, %42 ]
  call void @llvm.lifetime.start.p0(ptr nonnull %t)
  %38 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %36
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %t, ptr noundef nonnull align 8 dereferenceable(80) %38, i64 80, i1 false)
  %39 = load i32, ptr %14, align 8
  %40 = add nsw i32 %39, 1
  %41 = sitofp i32 %40 to double
  br label %48

42:                                               ; preds = %48
  %43 = load double, ptr %15, align 8
  %44 = load double, ptr %16, align 8
  %45 = fadd double %43, %44
  store double %45, ptr %16, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %38, ptr noundef nonnull align 8 dereferenceable(80) %t, i64 80, i1 false)
  call void @llvm.lifetime.end.p0(ptr nonnull %t)
  %46 = add nuw nsw i64 %36, 1
  %47 = icmp eq i64 %46, %17
  br i1 %47, label %30, label %35

48:                                               ; preds = %35, %48
  %49 = phi i64 [ 0, %35 ], [ %61, %48 ]
  %50 = phi double [ %37, %35 ], [ %60, %48 ]
  %51 = getelementptr inbounds nuw double, ptr %12, i64 %49
  %52 = load double, ptr %51, align 8
  %53 = getelementptr inbounds nuw i32, ptr %t, i64 %49
  %54 = load i32, ptr %53, align 4
  %55 = srem i32 %54, 3
  %56 = sext i32 %55 to i64
  %57 = getelementptr inbounds double, ptr %13, i64 %56
  %58 = load double, ptr %57, align 8
  %59 = fmul double %52, %58
  %60 = tail call double @llvm.fmuladd.f64(double %59, double %41, double %50)
  %61 = add nuw nsw i64 %49, 1
  %62 = icmp eq i64 %61, 4
  br i1 %62, label %42, label %48

63:                                               ; preds = %65, %30
  %64 = phi double [ %31, %30 ], [ %71, %65 ]
  ret double %64

65:                                               ; preds = %33, %65
  %66 = phi i64 [ 0, %33 ], [ %72, %65 ]
  %67 = phi double [ %31, %33 ], [ %71, %65 ]
  %68 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %66
  %69 = getelementptr inbounds nuw i8, ptr %68, i64 48
  %70 = load double, ptr %69, align 8
  %71 = tail call double @llvm.fmuladd.f64(double %70, double %70, double %67)
  %72 = add nuw nsw i64 %66, 1
  %73 = icmp eq i64 %72, %34
  br i1 %73, label %63, label %65
}

; The derivative's copy of @assemble, as the pass prepares it (`sroa,mem2reg,instsimplify,
; simplifycfg,loop(loop-unroll-full),sroa,instsimplify,simplifycfg`): analysed with the
; original joining its scope, where c32 left -O1 refused.
define internal double @assemble.clone(ptr noundef captures(none) %0, ptr noundef readonly captures(none) %1, double noundef %2, i32 noundef %3) {
  %t = alloca %struct.cell, align 8
  %5 = icmp sgt i32 %3, 0
  br i1 %5, label %6, label %.loopexit2

6:                                                ; preds = %4
  %7 = zext nneg i32 %3 to i64
  br label %16

.loopexit2:                                       ; preds = %16, %4
  %8 = icmp sgt i32 %3, 0
  br i1 %8, label %9, label %.loopexit1

9:                                                ; preds = %.loopexit2
  %10 = getelementptr inbounds nuw i8, ptr %t, i64 16
  %11 = getelementptr inbounds nuw i8, ptr %t, i64 48
  %12 = getelementptr inbounds nuw i8, ptr %t, i64 72
  %13 = getelementptr inbounds nuw i8, ptr %t, i64 16
  %14 = getelementptr inbounds nuw i8, ptr %t, i64 48
  %15 = zext nneg i32 %3 to i64
  br label %32

16:                                               ; preds = %16, %6
  %17 = phi i64 [ 0, %6 ], [ %26, %16 ]
  %18 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %17
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 16
  %20 = getelementptr inbounds nuw double, ptr %1, i64 %17
  tail call fastcc void @copy_in(ptr noundef nonnull %19, ptr noundef %20)
  %21 = trunc nuw nsw i64 %17 to i32
  tail call fastcc void @set_ints(ptr noundef %18, i32 noundef %21)
  %22 = getelementptr inbounds nuw i8, ptr %18, i64 48
  tail call fastcc void @scale(ptr noundef nonnull %22, double noundef %2)
  %23 = trunc nuw nsw i64 %17 to i32
  %24 = and i32 %23, 1
  %25 = getelementptr inbounds nuw i8, ptr %18, i64 72
  store i32 %24, ptr %25, align 8
  %26 = add nuw nsw i64 %17, 1
  %27 = icmp eq i64 %26, %7
  br i1 %27, label %.loopexit2, label %16

.loopexit1:                                       ; preds = %32, %.loopexit2
  %28 = phi double [ 0.000000e+00, %.loopexit2 ], [ %76, %32 ]
  %29 = icmp sgt i32 %3, 0
  br i1 %29, label %30, label %.loopexit

30:                                               ; preds = %.loopexit1
  %31 = zext nneg i32 %3 to i64
  br label %83

32:                                               ; preds = %32, %9
  %33 = phi i64 [ 0, %9 ], [ %80, %32 ]
  %34 = phi double [ 0.000000e+00, %9 ], [ %76, %32 ]
  call void @llvm.lifetime.start.p0(ptr nonnull %t)
  %35 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %33
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %t, ptr noundef nonnull align 8 dereferenceable(80) %35, i64 80, i1 false)
  %36 = load i32, ptr %12, align 8
  %37 = add nsw i32 %36, 1
  %38 = sitofp i32 %37 to double
  %39 = load double, ptr %10, align 8
  %40 = load i32, ptr %t, align 4
  %41 = srem i32 %40, 3
  %42 = sext i32 %41 to i64
  %43 = getelementptr inbounds double, ptr %11, i64 %42
  %44 = load double, ptr %43, align 8
  %45 = fmul double %39, %44
  %46 = tail call double @llvm.fmuladd.f64(double %45, double %38, double %34)
  %47 = getelementptr inbounds nuw double, ptr %10, i64 1
  %48 = load double, ptr %47, align 8
  %49 = getelementptr inbounds nuw i32, ptr %t, i64 1
  %50 = load i32, ptr %49, align 4
  %51 = srem i32 %50, 3
  %52 = sext i32 %51 to i64
  %53 = getelementptr inbounds double, ptr %11, i64 %52
  %54 = load double, ptr %53, align 8
  %55 = fmul double %48, %54
  %56 = tail call double @llvm.fmuladd.f64(double %55, double %38, double %46)
  %57 = getelementptr inbounds nuw double, ptr %10, i64 2
  %58 = load double, ptr %57, align 8
  %59 = getelementptr inbounds nuw i32, ptr %t, i64 2
  %60 = load i32, ptr %59, align 4
  %61 = srem i32 %60, 3
  %62 = sext i32 %61 to i64
  %63 = getelementptr inbounds double, ptr %11, i64 %62
  %64 = load double, ptr %63, align 8
  %65 = fmul double %58, %64
  %66 = tail call double @llvm.fmuladd.f64(double %65, double %38, double %56)
  %67 = getelementptr inbounds nuw double, ptr %10, i64 3
  %68 = load double, ptr %67, align 8
  %69 = getelementptr inbounds nuw i32, ptr %t, i64 3
  %70 = load i32, ptr %69, align 4
  %71 = srem i32 %70, 3
  %72 = sext i32 %71 to i64
  %73 = getelementptr inbounds double, ptr %11, i64 %72
  %74 = load double, ptr %73, align 8
  %75 = fmul double %68, %74
  %76 = tail call double @llvm.fmuladd.f64(double %75, double %38, double %66)
  %77 = load double, ptr %13, align 8
  %78 = load double, ptr %14, align 8
  %79 = fadd double %77, %78
  store double %79, ptr %14, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(80) %35, ptr noundef nonnull align 8 dereferenceable(80) %t, i64 80, i1 false)
  call void @llvm.lifetime.end.p0(ptr nonnull %t)
  %80 = add nuw nsw i64 %33, 1
  %81 = icmp eq i64 %80, %15
  br i1 %81, label %.loopexit1, label %32

.loopexit:                                        ; preds = %83, %.loopexit1
  %82 = phi double [ %28, %.loopexit1 ], [ %89, %83 ]
  ret double %82

83:                                               ; preds = %83, %30
  %84 = phi i64 [ 0, %30 ], [ %90, %83 ]
  %85 = phi double [ %28, %30 ], [ %89, %83 ]
  %86 = getelementptr inbounds nuw %struct.cell, ptr %0, i64 %84
  %87 = getelementptr inbounds nuw i8, ptr %86, i64 48
  %88 = load double, ptr %87, align 8
  %89 = tail call double @llvm.fmuladd.f64(double %88, double %88, double %85)
  %90 = add nuw nsw i64 %84, 1
  %91 = icmp eq i64 %90, %31
  br i1 %91, label %.loopexit, label %83
}

; The helper's loop on its own (no caller): four ints from the parameter on.
define void @set_four(ptr %v, i32 %base) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %t = trunc i64 %i to i32
  %a = add i32 %base, %t
  %q = getelementptr inbounds nuw i32, ptr %v, i64 %i
  %r = srem i32 %a, 5
  store i32 %r, ptr %q, align 4
  %i1 = add nuw i64 %i, 1
  %done = icmp eq i64 %i1, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)
declare double @llvm.fmuladd.f64(double, double, double)
