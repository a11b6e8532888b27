
; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(write, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr noundef initializes((0, 16)) %0, ptr noundef %1) local_unnamed_addr {
  store ptr %1, ptr %0, align 8
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %4 = load ptr, ptr %3, align 8
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store ptr %4, ptr %5, align 8
  %6 = load ptr, ptr %3, align 8
  store ptr %0, ptr %6, align 8
  store ptr %0, ptr %3, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(write, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZNSt8__detail15_List_node_base9_M_unhookEv(ptr noundef readonly captures(none) %0) local_unnamed_addr {
  %2 = load ptr, ptr %0, align 8
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %4 = load ptr, ptr %3, align 8
  store ptr %2, ptr %4, align 8
  %5 = getelementptr inbounds nuw i8, ptr %2, i64 8
  store ptr %4, ptr %5, align 8
  ret void
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZNSt8__detail15_List_node_base10_M_reverseEv(ptr noundef captures(address) %0) local_unnamed_addr {
  br label %2

2:                                                ; preds = %2, %1
  %3 = phi ptr [ %0, %1 ], [ %4, %2 ]
  %4 = load ptr, ptr %3, align 8
  %5 = getelementptr inbounds nuw i8, ptr %3, i64 8
  %6 = load ptr, ptr %5, align 8
  store ptr %6, ptr %3, align 8
  store ptr %4, ptr %5, align 8
  %7 = icmp eq ptr %4, %0
  br i1 %7, label %8, label %2

8:                                                ; preds = %2
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(write, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_(ptr noundef %0, ptr noundef %1, ptr noundef %2) local_unnamed_addr {
  %4 = icmp eq ptr %0, %2
  br i1 %4, label %12, label %5

5:                                                ; preds = %3
  %6 = getelementptr inbounds nuw i8, ptr %2, i64 8
  %7 = load ptr, ptr %6, align 8
  %8 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %9 = load ptr, ptr %8, align 8
  %10 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %11 = load ptr, ptr %10, align 8
  store ptr %0, ptr %7, align 8
  store ptr %2, ptr %9, align 8
  store ptr %1, ptr %11, align 8
  store ptr %7, ptr %10, align 8
  store ptr %9, ptr %6, align 8
  store ptr %11, ptr %8, align 8
  br label %12

12:                                               ; preds = %3, %5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(write, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZNSt8__detail15_List_node_base4swapERS0_S1_(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load ptr, ptr %0, align 8
  %4 = icmp eq ptr %3, %0
  %5 = load ptr, ptr %1, align 8
  %6 = icmp eq ptr %5, %1
  %7 = select i1 %4, i1 true, i1 %6
  br i1 %7, label %19, label %8

8:                                                ; preds = %2
  %9 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %10 = load ptr, ptr %9, align 8
  store ptr %5, ptr %0, align 8
  %11 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %12 = load ptr, ptr %11, align 8
  store ptr %12, ptr %9, align 8
  store ptr %3, ptr %1, align 8
  store ptr %10, ptr %11, align 8
  %13 = load ptr, ptr %0, align 8
  %14 = getelementptr inbounds nuw i8, ptr %13, i64 8
  store ptr %0, ptr %14, align 8
  %15 = load ptr, ptr %9, align 8
  store ptr %0, ptr %15, align 8
  %16 = load ptr, ptr %1, align 8
  %17 = getelementptr inbounds nuw i8, ptr %16, i64 8
  store ptr %1, ptr %17, align 8
  %18 = load ptr, ptr %11, align 8
  store ptr %1, ptr %18, align 8
  br label %33

19:                                               ; preds = %2
  br i1 %4, label %26, label %20

20:                                               ; preds = %19
  store ptr %3, ptr %1, align 8
  %21 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %22 = load ptr, ptr %21, align 8
  %23 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store ptr %22, ptr %23, align 8
  %24 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store ptr %1, ptr %24, align 8
  %25 = load ptr, ptr %23, align 8
  store ptr %1, ptr %25, align 8
  store ptr %0, ptr %21, align 8
  store ptr %0, ptr %0, align 8
  br label %33

26:                                               ; preds = %19
  br i1 %6, label %33, label %27

27:                                               ; preds = %26
  store ptr %5, ptr %0, align 8
  %28 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %29 = load ptr, ptr %28, align 8
  %30 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store ptr %29, ptr %30, align 8
  %31 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store ptr %0, ptr %31, align 8
  %32 = load ptr, ptr %30, align 8
  store ptr %0, ptr %32, align 8
  store ptr %1, ptr %28, align 8
  store ptr %1, ptr %1, align 8
  br label %33

33:                                               ; preds = %20, %27, %26, %8
  ret void
}

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptr @__fz_lib__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr noundef readonly captures(address, ret: address, provenance) %0) local_unnamed_addr {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %3 = load ptr, ptr %2, align 8
  %4 = icmp eq ptr %3, null
  br i1 %4, label %10, label %5

5:                                                ; preds = %1, %5
  %6 = phi ptr [ %8, %5 ], [ %3, %1 ]
  %7 = getelementptr inbounds nuw i8, ptr %6, i64 16
  %8 = load ptr, ptr %7, align 8
  %9 = icmp eq ptr %8, null
  br i1 %9, label %22, label %5

10:                                               ; preds = %1, %10
  %11 = phi ptr [ %13, %10 ], [ %0, %1 ]
  %12 = getelementptr inbounds nuw i8, ptr %11, i64 8
  %13 = load ptr, ptr %12, align 8
  %14 = getelementptr inbounds nuw i8, ptr %13, i64 24
  %15 = load ptr, ptr %14, align 8
  %16 = icmp eq ptr %11, %15
  br i1 %16, label %10, label %17

17:                                               ; preds = %10
  %18 = getelementptr inbounds nuw i8, ptr %11, i64 24
  %19 = load ptr, ptr %18, align 8
  %20 = icmp eq ptr %19, %13
  %21 = select i1 %20, ptr %11, ptr %13
  br label %22

22:                                               ; preds = %5, %17
  %23 = phi ptr [ %21, %17 ], [ %6, %5 ]
  ret ptr %23
}

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptr @__fz_lib__ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base(ptr noundef readonly captures(address, ret: address, provenance) %0) local_unnamed_addr {
  %2 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %3 = load ptr, ptr %2, align 8
  %4 = icmp eq ptr %3, null
  br i1 %4, label %10, label %5

5:                                                ; preds = %1, %5
  %6 = phi ptr [ %8, %5 ], [ %3, %1 ]
  %7 = getelementptr inbounds nuw i8, ptr %6, i64 16
  %8 = load ptr, ptr %7, align 8
  %9 = icmp eq ptr %8, null
  br i1 %9, label %22, label %5

10:                                               ; preds = %1, %10
  %11 = phi ptr [ %13, %10 ], [ %0, %1 ]
  %12 = getelementptr inbounds nuw i8, ptr %11, i64 8
  %13 = load ptr, ptr %12, align 8
  %14 = getelementptr inbounds nuw i8, ptr %13, i64 24
  %15 = load ptr, ptr %14, align 8
  %16 = icmp eq ptr %11, %15
  br i1 %16, label %10, label %17

17:                                               ; preds = %10
  %18 = getelementptr inbounds nuw i8, ptr %11, i64 24
  %19 = load ptr, ptr %18, align 8
  %20 = icmp eq ptr %19, %13
  %21 = select i1 %20, ptr %11, ptr %13
  br label %22

22:                                               ; preds = %5, %17
  %23 = phi ptr [ %21, %17 ], [ %6, %5 ]
  ret ptr %23
}

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptr @__fz_lib__ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base(ptr noundef readonly captures(address) %0) local_unnamed_addr {
  %2 = load i32, ptr %0, align 8
  %3 = icmp eq i32 %2, 0
  br i1 %3, label %4, label %13

4:                                                ; preds = %1
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %6 = load ptr, ptr %5, align 8
  %7 = getelementptr inbounds nuw i8, ptr %6, i64 8
  %8 = load ptr, ptr %7, align 8
  %9 = icmp eq ptr %8, %0
  br i1 %9, label %10, label %13

10:                                               ; preds = %4
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %12 = load ptr, ptr %11, align 8
  br label %29

13:                                               ; preds = %4, %1
  %14 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %15 = load ptr, ptr %14, align 8
  %16 = icmp eq ptr %15, null
  br i1 %16, label %22, label %17

17:                                               ; preds = %13, %17
  %18 = phi ptr [ %20, %17 ], [ %15, %13 ]
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 24
  %20 = load ptr, ptr %19, align 8
  %21 = icmp eq ptr %20, null
  br i1 %21, label %29, label %17

22:                                               ; preds = %13, %22
  %23 = phi ptr [ %25, %22 ], [ %0, %13 ]
  %24 = getelementptr inbounds nuw i8, ptr %23, i64 8
  %25 = load ptr, ptr %24, align 8
  %26 = getelementptr inbounds nuw i8, ptr %25, i64 16
  %27 = load ptr, ptr %26, align 8
  %28 = icmp eq ptr %23, %27
  br i1 %28, label %22, label %29

29:                                               ; preds = %17, %22, %10
  %30 = phi ptr [ %12, %10 ], [ %25, %22 ], [ %18, %17 ]
  ret ptr %30
}

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptr @__fz_lib__ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base(ptr noundef readonly captures(address) %0) local_unnamed_addr {
  %2 = load i32, ptr %0, align 8
  %3 = icmp eq i32 %2, 0
  br i1 %3, label %4, label %13

4:                                                ; preds = %1
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %6 = load ptr, ptr %5, align 8
  %7 = getelementptr inbounds nuw i8, ptr %6, i64 8
  %8 = load ptr, ptr %7, align 8
  %9 = icmp eq ptr %8, %0
  br i1 %9, label %10, label %13

10:                                               ; preds = %4
  %11 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %12 = load ptr, ptr %11, align 8
  br label %29

13:                                               ; preds = %4, %1
  %14 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %15 = load ptr, ptr %14, align 8
  %16 = icmp eq ptr %15, null
  br i1 %16, label %22, label %17

17:                                               ; preds = %13, %17
  %18 = phi ptr [ %20, %17 ], [ %15, %13 ]
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 24
  %20 = load ptr, ptr %19, align 8
  %21 = icmp eq ptr %20, null
  br i1 %21, label %29, label %17

22:                                               ; preds = %13, %22
  %23 = phi ptr [ %25, %22 ], [ %0, %13 ]
  %24 = getelementptr inbounds nuw i8, ptr %23, i64 8
  %25 = load ptr, ptr %24, align 8
  %26 = getelementptr inbounds nuw i8, ptr %25, i64 16
  %27 = load ptr, ptr %26, align 8
  %28 = icmp eq ptr %23, %27
  br i1 %28, label %22, label %29

29:                                               ; preds = %17, %22, %10
  %30 = phi ptr [ %12, %10 ], [ %25, %22 ], [ %18, %17 ]
  ret ptr %30
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local void @__fz_lib__ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 noundef zeroext %0, ptr noundef initializes((0, 4), (8, 32)) %1, ptr noundef %2, ptr noundef captures(address) %3) local_unnamed_addr {
  %5 = getelementptr inbounds nuw i8, ptr %3, i64 8
  %6 = getelementptr inbounds nuw i8, ptr %1, i64 8
  store ptr %2, ptr %6, align 8
  %7 = getelementptr inbounds nuw i8, ptr %1, i64 16
  store ptr null, ptr %7, align 8
  %8 = getelementptr inbounds nuw i8, ptr %1, i64 24
  store ptr null, ptr %8, align 8
  store i32 0, ptr %1, align 8
  br i1 %0, label %9, label %19

9:                                                ; preds = %4
  %10 = getelementptr inbounds nuw i8, ptr %2, i64 16
  store ptr %1, ptr %10, align 8
  %11 = icmp eq ptr %2, %3
  br i1 %11, label %12, label %14

12:                                               ; preds = %9
  store ptr %1, ptr %5, align 8
  %13 = getelementptr inbounds nuw i8, ptr %3, i64 24
  store ptr %1, ptr %13, align 8
  br label %25

14:                                               ; preds = %9
  %15 = getelementptr inbounds nuw i8, ptr %3, i64 16
  %16 = load ptr, ptr %15, align 8
  %17 = icmp eq ptr %2, %16
  br i1 %17, label %18, label %25

18:                                               ; preds = %14
  store ptr %1, ptr %15, align 8
  br label %25

19:                                               ; preds = %4
  %20 = getelementptr inbounds nuw i8, ptr %2, i64 24
  store ptr %1, ptr %20, align 8
  %21 = getelementptr inbounds nuw i8, ptr %3, i64 24
  %22 = load ptr, ptr %21, align 8
  %23 = icmp eq ptr %2, %22
  br i1 %23, label %24, label %25

24:                                               ; preds = %19
  store ptr %1, ptr %21, align 8
  br label %25

25:                                               ; preds = %19, %24, %12, %18, %14
  %26 = load ptr, ptr %5, align 8
  %27 = icmp eq ptr %1, %26
  br i1 %27, label %116, label %28

28:                                               ; preds = %25
  %29 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %30 = load ptr, ptr %29, align 8
  %31 = load i32, ptr %30, align 8
  %32 = icmp eq i32 %31, 0
  br i1 %32, label %38, label %116

33:                                               ; preds = %111
  %34 = getelementptr inbounds nuw i8, ptr %112, i64 8
  %35 = load ptr, ptr %34, align 8
  %36 = load i32, ptr %35, align 8
  %37 = icmp eq i32 %36, 0
  br i1 %37, label %38, label %116

38:                                               ; preds = %28, %33
  %39 = phi ptr [ %35, %33 ], [ %30, %28 ]
  %40 = phi ptr [ %112, %33 ], [ %1, %28 ]
  %41 = getelementptr inbounds nuw i8, ptr %39, i64 8
  %42 = load ptr, ptr %41, align 8
  %43 = getelementptr inbounds nuw i8, ptr %42, i64 16
  %44 = load ptr, ptr %43, align 8
  %45 = icmp eq ptr %39, %44
  %46 = select i1 %45, i64 24, i64 16
  %47 = getelementptr inbounds nuw i8, ptr %42, i64 %46
  %48 = load ptr, ptr %47, align 8
  %49 = icmp eq ptr %48, null
  br i1 %49, label %54, label %50

50:                                               ; preds = %38
  %51 = load i32, ptr %48, align 8
  %52 = icmp eq i32 %51, 0
  br i1 %52, label %53, label %54

53:                                               ; preds = %50
  store i32 1, ptr %39, align 8
  store i32 1, ptr %48, align 8
  store i32 0, ptr %42, align 8
  br label %111

54:                                               ; preds = %50, %38
  %55 = getelementptr inbounds nuw i8, ptr %39, i64 %46
  %56 = load ptr, ptr %55, align 8
  %57 = icmp eq ptr %40, %56
  br i1 %57, label %58, label %83

58:                                               ; preds = %54
  %59 = select i1 %45, i64 24, i64 16
  %60 = getelementptr inbounds nuw i8, ptr %39, i64 %59
  %61 = load ptr, ptr %60, align 8
  %62 = select i1 %45, i64 16, i64 24
  %63 = getelementptr inbounds nuw i8, ptr %61, i64 %62
  %64 = load ptr, ptr %63, align 8
  store ptr %64, ptr %60, align 8
  %65 = load ptr, ptr %63, align 8
  %66 = icmp eq ptr %65, null
  br i1 %66, label %69, label %67

67:                                               ; preds = %58
  %68 = getelementptr inbounds nuw i8, ptr %65, i64 8
  store ptr %39, ptr %68, align 8
  br label %69

69:                                               ; preds = %67, %58
  %70 = load ptr, ptr %41, align 8
  %71 = getelementptr inbounds nuw i8, ptr %61, i64 8
  store ptr %70, ptr %71, align 8
  %72 = load ptr, ptr %5, align 8
  %73 = icmp eq ptr %39, %72
  br i1 %73, label %74, label %75

74:                                               ; preds = %69
  store ptr %61, ptr %5, align 8
  br label %82

75:                                               ; preds = %69
  %76 = load ptr, ptr %41, align 8
  %77 = getelementptr inbounds nuw i8, ptr %76, i64 16
  %78 = load ptr, ptr %77, align 8
  %79 = icmp eq ptr %39, %78
  %80 = select i1 %79, i64 16, i64 24
  %81 = getelementptr inbounds nuw i8, ptr %76, i64 %80
  store ptr %61, ptr %81, align 8
  br label %82

82:                                               ; preds = %74, %75
  store ptr %39, ptr %63, align 8
  store ptr %61, ptr %41, align 8
  br label %83

83:                                               ; preds = %82, %54
  %84 = phi ptr [ %39, %82 ], [ %40, %54 ]
  %85 = getelementptr inbounds nuw i8, ptr %84, i64 8
  %86 = load ptr, ptr %85, align 8
  store i32 1, ptr %86, align 8
  store i32 0, ptr %42, align 8
  %87 = select i1 %45, i64 16, i64 24
  %88 = getelementptr inbounds nuw i8, ptr %42, i64 %87
  %89 = load ptr, ptr %88, align 8
  %90 = getelementptr inbounds nuw i8, ptr %89, i64 %46
  %91 = load ptr, ptr %90, align 8
  store ptr %91, ptr %88, align 8
  %92 = load ptr, ptr %90, align 8
  %93 = icmp eq ptr %92, null
  br i1 %93, label %96, label %94

94:                                               ; preds = %83
  %95 = getelementptr inbounds nuw i8, ptr %92, i64 8
  store ptr %42, ptr %95, align 8
  br label %96

96:                                               ; preds = %94, %83
  %97 = getelementptr inbounds nuw i8, ptr %42, i64 8
  %98 = load ptr, ptr %97, align 8
  %99 = getelementptr inbounds nuw i8, ptr %89, i64 8
  store ptr %98, ptr %99, align 8
  %100 = load ptr, ptr %5, align 8
  %101 = icmp eq ptr %42, %100
  br i1 %101, label %102, label %103

102:                                              ; preds = %96
  store ptr %89, ptr %5, align 8
  br label %110

103:                                              ; preds = %96
  %104 = load ptr, ptr %97, align 8
  %105 = getelementptr inbounds nuw i8, ptr %104, i64 16
  %106 = load ptr, ptr %105, align 8
  %107 = icmp eq ptr %42, %106
  %108 = select i1 %107, i64 16, i64 24
  %109 = getelementptr inbounds nuw i8, ptr %104, i64 %108
  store ptr %89, ptr %109, align 8
  br label %110

110:                                              ; preds = %102, %103
  store ptr %42, ptr %90, align 8
  store ptr %89, ptr %97, align 8
  br label %111

111:                                              ; preds = %110, %53
  %112 = phi ptr [ %42, %53 ], [ %84, %110 ]
  %113 = load ptr, ptr %5, align 8
  %114 = icmp eq ptr %112, %113
  br i1 %114, label %115, label %33

115:                                              ; preds = %111
  br label %116

116:                                              ; preds = %33, %28, %115, %25
  %117 = phi ptr [ %26, %25 ], [ %113, %115 ], [ %26, %28 ], [ %113, %33 ]
  store i32 1, ptr %117, align 8
  ret void
}

; Function Attrs: nofree norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local noundef ptr @__fz_lib__ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(ptr noundef %0, ptr noundef captures(none) %1) local_unnamed_addr {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %4 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %5 = load ptr, ptr %4, align 8
  %6 = icmp eq ptr %5, null
  %7 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %8 = load ptr, ptr %7, align 8
  br i1 %6, label %19, label %9

9:                                                ; preds = %2
  %10 = icmp eq ptr %8, null
  br i1 %10, label %19, label %11

11:                                               ; preds = %9, %11
  %12 = phi ptr [ %14, %11 ], [ %8, %9 ]
  %13 = getelementptr inbounds nuw i8, ptr %12, i64 16
  %14 = load ptr, ptr %13, align 8
  %15 = icmp eq ptr %14, null
  br i1 %15, label %16, label %11

16:                                               ; preds = %11
  %17 = getelementptr inbounds nuw i8, ptr %12, i64 24
  %18 = load ptr, ptr %17, align 8
  br label %19

19:                                               ; preds = %2, %9, %16
  %20 = phi ptr [ %18, %16 ], [ %5, %9 ], [ %8, %2 ]
  %21 = phi ptr [ %12, %16 ], [ %0, %9 ], [ %0, %2 ]
  %22 = icmp eq ptr %21, %0
  br i1 %22, label %61, label %23

23:                                               ; preds = %19
  %24 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store ptr %21, ptr %24, align 8
  %25 = getelementptr inbounds nuw i8, ptr %21, i64 16
  store ptr %5, ptr %25, align 8
  %26 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %27 = load ptr, ptr %26, align 8
  %28 = icmp eq ptr %21, %27
  br i1 %28, label %41, label %29

29:                                               ; preds = %23
  %30 = getelementptr inbounds nuw i8, ptr %21, i64 8
  %31 = load ptr, ptr %30, align 8
  %32 = icmp eq ptr %20, null
  br i1 %32, label %35, label %33

33:                                               ; preds = %29
  %34 = getelementptr inbounds nuw i8, ptr %20, i64 8
  store ptr %31, ptr %34, align 8
  br label %35

35:                                               ; preds = %33, %29
  %36 = load ptr, ptr %30, align 8
  %37 = getelementptr inbounds nuw i8, ptr %36, i64 16
  store ptr %20, ptr %37, align 8
  %38 = getelementptr inbounds nuw i8, ptr %21, i64 24
  store ptr %27, ptr %38, align 8
  %39 = load ptr, ptr %26, align 8
  %40 = getelementptr inbounds nuw i8, ptr %39, i64 8
  store ptr %21, ptr %40, align 8
  br label %41

41:                                               ; preds = %23, %35
  %42 = phi ptr [ %31, %35 ], [ %21, %23 ]
  %43 = load ptr, ptr %3, align 8
  %44 = icmp eq ptr %43, %0
  br i1 %44, label %45, label %46

45:                                               ; preds = %41
  store ptr %21, ptr %3, align 8
  br label %55

46:                                               ; preds = %41
  %47 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %48 = load ptr, ptr %47, align 8
  %49 = getelementptr inbounds nuw i8, ptr %48, i64 16
  %50 = load ptr, ptr %49, align 8
  %51 = icmp eq ptr %50, %0
  br i1 %51, label %52, label %53

52:                                               ; preds = %46
  store ptr %21, ptr %49, align 8
  br label %55

53:                                               ; preds = %46
  %54 = getelementptr inbounds nuw i8, ptr %48, i64 24
  store ptr %21, ptr %54, align 8
  br label %55

55:                                               ; preds = %52, %53, %45
  %56 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %57 = load ptr, ptr %56, align 8
  %58 = getelementptr inbounds nuw i8, ptr %21, i64 8
  store ptr %57, ptr %58, align 8
  %59 = load i32, ptr %21, align 8
  %60 = load i32, ptr %0, align 8
  store i32 %60, ptr %21, align 8
  store i32 %59, ptr %0, align 8
  br label %115

61:                                               ; preds = %19
  %62 = getelementptr inbounds nuw i8, ptr %21, i64 8
  %63 = load ptr, ptr %62, align 8
  %64 = icmp eq ptr %20, null
  br i1 %64, label %67, label %65

65:                                               ; preds = %61
  %66 = getelementptr inbounds nuw i8, ptr %20, i64 8
  store ptr %63, ptr %66, align 8
  br label %67

67:                                               ; preds = %65, %61
  %68 = load ptr, ptr %3, align 8
  %69 = icmp eq ptr %68, %0
  br i1 %69, label %70, label %71

70:                                               ; preds = %67
  store ptr %20, ptr %3, align 8
  br label %80

71:                                               ; preds = %67
  %72 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %73 = load ptr, ptr %72, align 8
  %74 = getelementptr inbounds nuw i8, ptr %73, i64 16
  %75 = load ptr, ptr %74, align 8
  %76 = icmp eq ptr %75, %0
  br i1 %76, label %77, label %78

77:                                               ; preds = %71
  store ptr %20, ptr %74, align 8
  br label %80

78:                                               ; preds = %71
  %79 = getelementptr inbounds nuw i8, ptr %73, i64 24
  store ptr %20, ptr %79, align 8
  br label %80

80:                                               ; preds = %77, %78, %70
  %81 = getelementptr inbounds nuw i8, ptr %1, i64 16
  %82 = load ptr, ptr %81, align 8
  %83 = icmp eq ptr %82, %0
  br i1 %83, label %84, label %98

84:                                               ; preds = %80
  %85 = getelementptr inbounds nuw i8, ptr %0, i64 24
  %86 = load ptr, ptr %85, align 8
  %87 = icmp eq ptr %86, null
  br i1 %87, label %93, label %88

88:                                               ; preds = %84, %88
  %89 = phi ptr [ %91, %88 ], [ %20, %84 ]
  %90 = getelementptr inbounds nuw i8, ptr %89, i64 16
  %91 = load ptr, ptr %90, align 8
  %92 = icmp eq ptr %91, null
  br i1 %92, label %96, label %88

93:                                               ; preds = %84
  %94 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %95 = load ptr, ptr %94, align 8
  br label %96

96:                                               ; preds = %88, %93
  %97 = phi ptr [ %95, %93 ], [ %89, %88 ]
  store ptr %97, ptr %81, align 8
  br label %98

98:                                               ; preds = %96, %80
  %99 = getelementptr inbounds nuw i8, ptr %1, i64 24
  %100 = load ptr, ptr %99, align 8
  %101 = icmp eq ptr %100, %0
  br i1 %101, label %102, label %115

102:                                              ; preds = %98
  %103 = load ptr, ptr %4, align 8
  %104 = icmp eq ptr %103, null
  br i1 %104, label %110, label %105

105:                                              ; preds = %102, %105
  %106 = phi ptr [ %108, %105 ], [ %20, %102 ]
  %107 = getelementptr inbounds nuw i8, ptr %106, i64 24
  %108 = load ptr, ptr %107, align 8
  %109 = icmp eq ptr %108, null
  br i1 %109, label %113, label %105

110:                                              ; preds = %102
  %111 = getelementptr inbounds nuw i8, ptr %0, i64 8
  %112 = load ptr, ptr %111, align 8
  br label %113

113:                                              ; preds = %105, %110
  %114 = phi ptr [ %112, %110 ], [ %106, %105 ]
  store ptr %114, ptr %99, align 8
  br label %115

115:                                              ; preds = %98, %113, %55
  %116 = phi ptr [ %42, %55 ], [ %63, %113 ], [ %63, %98 ]
  %117 = phi ptr [ %0, %55 ], [ %21, %113 ], [ %21, %98 ]
  %118 = load i32, ptr %117, align 8
  %119 = icmp eq i32 %118, 0
  br i1 %119, label %256, label %120

120:                                              ; preds = %115, %248
  %121 = phi ptr [ %249, %248 ], [ %116, %115 ]
  %122 = phi ptr [ %250, %248 ], [ %20, %115 ]
  %123 = load ptr, ptr %3, align 8
  %124 = icmp eq ptr %122, %123
  br i1 %124, label %252, label %125

125:                                              ; preds = %120
  %126 = icmp eq ptr %122, null
  br i1 %126, label %130, label %127

127:                                              ; preds = %125
  %128 = load i32, ptr %122, align 8
  %129 = icmp eq i32 %128, 1
  br i1 %129, label %130, label %252

130:                                              ; preds = %125, %127
  %131 = getelementptr inbounds nuw i8, ptr %121, i64 16
  %132 = load ptr, ptr %131, align 8
  %133 = icmp eq ptr %122, %132
  %134 = select i1 %133, i64 24, i64 16
  %135 = getelementptr inbounds nuw i8, ptr %121, i64 %134
  %136 = load ptr, ptr %135, align 8
  %137 = load i32, ptr %136, align 8
  %138 = icmp eq i32 %137, 0
  br i1 %138, label %139, label %166

139:                                              ; preds = %130
  store i32 1, ptr %136, align 8
  store i32 0, ptr %121, align 8
  %140 = select i1 %133, i64 24, i64 16
  %141 = getelementptr inbounds nuw i8, ptr %121, i64 %140
  %142 = load ptr, ptr %141, align 8
  %143 = select i1 %133, i64 16, i64 24
  %144 = getelementptr inbounds nuw i8, ptr %142, i64 %143
  %145 = load ptr, ptr %144, align 8
  store ptr %145, ptr %141, align 8
  %146 = load ptr, ptr %144, align 8
  %147 = icmp eq ptr %146, null
  br i1 %147, label %150, label %148

148:                                              ; preds = %139
  %149 = getelementptr inbounds nuw i8, ptr %146, i64 8
  store ptr %121, ptr %149, align 8
  br label %150

150:                                              ; preds = %148, %139
  %151 = getelementptr inbounds nuw i8, ptr %121, i64 8
  %152 = load ptr, ptr %151, align 8
  %153 = getelementptr inbounds nuw i8, ptr %142, i64 8
  store ptr %152, ptr %153, align 8
  %154 = load ptr, ptr %3, align 8
  %155 = icmp eq ptr %121, %154
  br i1 %155, label %156, label %157

156:                                              ; preds = %150
  store ptr %142, ptr %3, align 8
  br label %164

157:                                              ; preds = %150
  %158 = load ptr, ptr %151, align 8
  %159 = getelementptr inbounds nuw i8, ptr %158, i64 16
  %160 = load ptr, ptr %159, align 8
  %161 = icmp eq ptr %121, %160
  %162 = select i1 %161, i64 16, i64 24
  %163 = getelementptr inbounds nuw i8, ptr %158, i64 %162
  store ptr %142, ptr %163, align 8
  br label %164

164:                                              ; preds = %156, %157
  store ptr %121, ptr %144, align 8
  store ptr %142, ptr %151, align 8
  %165 = load ptr, ptr %135, align 8
  br label %166

166:                                              ; preds = %164, %130
  %167 = phi ptr [ %165, %164 ], [ %136, %130 ]
  %168 = select i1 %133, i64 16, i64 24
  %169 = getelementptr inbounds nuw i8, ptr %167, i64 %168
  %170 = load ptr, ptr %169, align 8
  %171 = getelementptr inbounds nuw i8, ptr %167, i64 %134
  %172 = load ptr, ptr %171, align 8
  %173 = icmp eq ptr %170, null
  br i1 %173, label %177, label %174

174:                                              ; preds = %166
  %175 = load i32, ptr %170, align 8
  %176 = icmp eq i32 %175, 1
  br i1 %176, label %177, label %185

177:                                              ; preds = %174, %166
  %178 = icmp eq ptr %172, null
  br i1 %178, label %182, label %179

179:                                              ; preds = %177
  %180 = load i32, ptr %172, align 8
  %181 = icmp eq i32 %180, 1
  br i1 %181, label %182, label %185

182:                                              ; preds = %179, %177
  store i32 0, ptr %167, align 8
  %183 = getelementptr inbounds nuw i8, ptr %121, i64 8
  %184 = load ptr, ptr %183, align 8
  br label %248

185:                                              ; preds = %179, %174
  %186 = icmp eq ptr %172, null
  br i1 %186, label %190, label %187

187:                                              ; preds = %185
  %188 = load i32, ptr %172, align 8
  %189 = icmp eq i32 %188, 1
  br i1 %189, label %190, label %216

190:                                              ; preds = %187, %185
  store i32 1, ptr %170, align 8
  store i32 0, ptr %167, align 8
  %191 = select i1 %133, i64 16, i64 24
  %192 = getelementptr inbounds nuw i8, ptr %167, i64 %191
  %193 = load ptr, ptr %192, align 8
  %194 = getelementptr inbounds nuw i8, ptr %193, i64 %134
  %195 = load ptr, ptr %194, align 8
  store ptr %195, ptr %192, align 8
  %196 = load ptr, ptr %194, align 8
  %197 = icmp eq ptr %196, null
  br i1 %197, label %200, label %198

198:                                              ; preds = %190
  %199 = getelementptr inbounds nuw i8, ptr %196, i64 8
  store ptr %167, ptr %199, align 8
  br label %200

200:                                              ; preds = %198, %190
  %201 = getelementptr inbounds nuw i8, ptr %167, i64 8
  %202 = load ptr, ptr %201, align 8
  %203 = getelementptr inbounds nuw i8, ptr %193, i64 8
  store ptr %202, ptr %203, align 8
  %204 = load ptr, ptr %3, align 8
  %205 = icmp eq ptr %167, %204
  br i1 %205, label %206, label %207

206:                                              ; preds = %200
  store ptr %193, ptr %3, align 8
  br label %214

207:                                              ; preds = %200
  %208 = load ptr, ptr %201, align 8
  %209 = getelementptr inbounds nuw i8, ptr %208, i64 16
  %210 = load ptr, ptr %209, align 8
  %211 = icmp eq ptr %167, %210
  %212 = select i1 %211, i64 16, i64 24
  %213 = getelementptr inbounds nuw i8, ptr %208, i64 %212
  store ptr %193, ptr %213, align 8
  br label %214

214:                                              ; preds = %206, %207
  store ptr %167, ptr %194, align 8
  store ptr %193, ptr %201, align 8
  %215 = load ptr, ptr %135, align 8
  br label %216

216:                                              ; preds = %214, %187
  %217 = phi ptr [ %215, %214 ], [ %167, %187 ]
  %218 = load i32, ptr %121, align 8
  store i32 %218, ptr %217, align 8
  store i32 1, ptr %121, align 8
  %219 = getelementptr inbounds nuw i8, ptr %217, i64 %134
  %220 = load ptr, ptr %219, align 8
  %221 = icmp eq ptr %220, null
  br i1 %221, label %223, label %222

222:                                              ; preds = %216
  store i32 1, ptr %220, align 8
  br label %223

223:                                              ; preds = %222, %216
  %224 = select i1 %133, i64 24, i64 16
  %225 = getelementptr inbounds nuw i8, ptr %121, i64 %224
  %226 = load ptr, ptr %225, align 8
  %227 = getelementptr inbounds nuw i8, ptr %226, i64 %168
  %228 = load ptr, ptr %227, align 8
  store ptr %228, ptr %225, align 8
  %229 = load ptr, ptr %227, align 8
  %230 = icmp eq ptr %229, null
  br i1 %230, label %233, label %231

231:                                              ; preds = %223
  %232 = getelementptr inbounds nuw i8, ptr %229, i64 8
  store ptr %121, ptr %232, align 8
  br label %233

233:                                              ; preds = %231, %223
  %234 = getelementptr inbounds nuw i8, ptr %121, i64 8
  %235 = load ptr, ptr %234, align 8
  %236 = getelementptr inbounds nuw i8, ptr %226, i64 8
  store ptr %235, ptr %236, align 8
  %237 = load ptr, ptr %3, align 8
  %238 = icmp eq ptr %121, %237
  br i1 %238, label %239, label %240

239:                                              ; preds = %233
  store ptr %226, ptr %3, align 8
  br label %247

240:                                              ; preds = %233
  %241 = load ptr, ptr %234, align 8
  %242 = getelementptr inbounds nuw i8, ptr %241, i64 16
  %243 = load ptr, ptr %242, align 8
  %244 = icmp eq ptr %121, %243
  %245 = select i1 %244, i64 16, i64 24
  %246 = getelementptr inbounds nuw i8, ptr %241, i64 %245
  store ptr %226, ptr %246, align 8
  br label %247

247:                                              ; preds = %239, %240
  store ptr %121, ptr %227, align 8
  store ptr %226, ptr %234, align 8
  br label %248

248:                                              ; preds = %182, %247
  %249 = phi ptr [ %184, %182 ], [ %121, %247 ]
  %250 = phi ptr [ %121, %182 ], [ %122, %247 ]
  %251 = phi i1 [ true, %182 ], [ false, %247 ]
  br i1 %251, label %120, label %252

252:                                              ; preds = %248, %120, %127
  %253 = phi ptr [ %250, %248 ], [ %122, %127 ], [ %122, %120 ]
  %254 = icmp eq ptr %253, null
  br i1 %254, label %256, label %255

255:                                              ; preds = %252
  store i32 1, ptr %253, align 8
  br label %256

256:                                              ; preds = %252, %255, %115
  ret ptr %117
}



