
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
  br i1 %27, label %168, label %28

28:                                               ; preds = %25
  %29 = getelementptr inbounds nuw i8, ptr %1, i64 8
  %30 = load ptr, ptr %29, align 8
  %31 = load i32, ptr %30, align 8
  %32 = icmp eq i32 %31, 0
  br i1 %32, label %38, label %168

33:                                               ; preds = %163
  %34 = getelementptr inbounds nuw i8, ptr %164, i64 8
  %35 = load ptr, ptr %34, align 8
  %36 = load i32, ptr %35, align 8
  %37 = icmp eq i32 %36, 0
  br i1 %37, label %38, label %168

38:                                               ; preds = %28, %33
  %39 = phi ptr [ %35, %33 ], [ %30, %28 ]
  %40 = phi ptr [ %164, %33 ], [ %1, %28 ]
  %41 = getelementptr inbounds nuw i8, ptr %39, i64 8
  %42 = load ptr, ptr %41, align 8
  %43 = getelementptr inbounds nuw i8, ptr %42, i64 16
  %44 = load ptr, ptr %43, align 8
  %45 = icmp eq ptr %39, %44
  br i1 %45, label %46, label %105

46:                                               ; preds = %38
  %47 = getelementptr inbounds nuw i8, ptr %42, i64 24
  %48 = load ptr, ptr %47, align 8
  %49 = icmp eq ptr %48, null
  br i1 %49, label %54, label %50

50:                                               ; preds = %46
  %51 = load i32, ptr %48, align 8
  %52 = icmp eq i32 %51, 0
  br i1 %52, label %53, label %54

53:                                               ; preds = %50
  store i32 1, ptr %39, align 8
  store i32 1, ptr %48, align 8
  store i32 0, ptr %42, align 8
  br label %163

54:                                               ; preds = %50, %46
  %55 = getelementptr inbounds nuw i8, ptr %39, i64 24
  %56 = load ptr, ptr %55, align 8
  %57 = icmp eq ptr %40, %56
  br i1 %57, label %58, label %79

58:                                               ; preds = %54
  %59 = getelementptr inbounds nuw i8, ptr %56, i64 16
  %60 = load ptr, ptr %59, align 8
  store ptr %60, ptr %55, align 8
  %61 = icmp eq ptr %60, null
  br i1 %61, label %64, label %62

62:                                               ; preds = %58
  %63 = getelementptr inbounds nuw i8, ptr %60, i64 8
  store ptr %39, ptr %63, align 8
  br label %64

64:                                               ; preds = %62, %58
  %65 = load ptr, ptr %41, align 8
  %66 = getelementptr inbounds nuw i8, ptr %56, i64 8
  store ptr %65, ptr %66, align 8
  %67 = load ptr, ptr %5, align 8
  %68 = icmp eq ptr %39, %67
  br i1 %68, label %69, label %70

69:                                               ; preds = %64
  store ptr %56, ptr %5, align 8
  br label %78

70:                                               ; preds = %64
  %71 = load ptr, ptr %41, align 8
  %72 = getelementptr inbounds nuw i8, ptr %71, i64 16
  %73 = load ptr, ptr %72, align 8
  %74 = icmp eq ptr %39, %73
  br i1 %74, label %75, label %76

75:                                               ; preds = %70
  store ptr %56, ptr %72, align 8
  br label %78

76:                                               ; preds = %70
  %77 = getelementptr inbounds nuw i8, ptr %71, i64 24
  store ptr %56, ptr %77, align 8
  br label %78

78:                                               ; preds = %69, %75, %76
  store ptr %39, ptr %59, align 8
  store ptr %56, ptr %41, align 8
  br label %79

79:                                               ; preds = %78, %54
  %80 = phi ptr [ %39, %78 ], [ %40, %54 ]
  %81 = getelementptr inbounds nuw i8, ptr %80, i64 8
  %82 = load ptr, ptr %81, align 8
  store i32 1, ptr %82, align 8
  store i32 0, ptr %42, align 8
  %83 = load ptr, ptr %43, align 8
  %84 = getelementptr inbounds nuw i8, ptr %83, i64 24
  %85 = load ptr, ptr %84, align 8
  store ptr %85, ptr %43, align 8
  %86 = icmp eq ptr %85, null
  br i1 %86, label %89, label %87

87:                                               ; preds = %79
  %88 = getelementptr inbounds nuw i8, ptr %85, i64 8
  store ptr %42, ptr %88, align 8
  br label %89

89:                                               ; preds = %87, %79
  %90 = getelementptr inbounds nuw i8, ptr %42, i64 8
  %91 = load ptr, ptr %90, align 8
  %92 = getelementptr inbounds nuw i8, ptr %83, i64 8
  store ptr %91, ptr %92, align 8
  %93 = load ptr, ptr %5, align 8
  %94 = icmp eq ptr %42, %93
  br i1 %94, label %95, label %96

95:                                               ; preds = %89
  store ptr %83, ptr %5, align 8
  br label %104

96:                                               ; preds = %89
  %97 = load ptr, ptr %90, align 8
  %98 = getelementptr inbounds nuw i8, ptr %97, i64 24
  %99 = load ptr, ptr %98, align 8
  %100 = icmp eq ptr %42, %99
  br i1 %100, label %101, label %102

101:                                              ; preds = %96
  store ptr %83, ptr %98, align 8
  br label %104

102:                                              ; preds = %96
  %103 = getelementptr inbounds nuw i8, ptr %97, i64 16
  store ptr %83, ptr %103, align 8
  br label %104

104:                                              ; preds = %95, %101, %102
  store ptr %42, ptr %84, align 8
  store ptr %83, ptr %90, align 8
  br label %163

105:                                              ; preds = %38
  %106 = icmp eq ptr %44, null
  br i1 %106, label %111, label %107

107:                                              ; preds = %105
  %108 = load i32, ptr %44, align 8
  %109 = icmp eq i32 %108, 0
  br i1 %109, label %110, label %111

110:                                              ; preds = %107
  store i32 1, ptr %39, align 8
  store i32 1, ptr %44, align 8
  store i32 0, ptr %42, align 8
  br label %163

111:                                              ; preds = %107, %105
  %112 = getelementptr inbounds nuw i8, ptr %39, i64 16
  %113 = load ptr, ptr %112, align 8
  %114 = icmp eq ptr %40, %113
  br i1 %114, label %115, label %136

115:                                              ; preds = %111
  %116 = getelementptr inbounds nuw i8, ptr %113, i64 24
  %117 = load ptr, ptr %116, align 8
  store ptr %117, ptr %112, align 8
  %118 = icmp eq ptr %117, null
  br i1 %118, label %121, label %119

119:                                              ; preds = %115
  %120 = getelementptr inbounds nuw i8, ptr %117, i64 8
  store ptr %39, ptr %120, align 8
  br label %121

121:                                              ; preds = %119, %115
  %122 = load ptr, ptr %41, align 8
  %123 = getelementptr inbounds nuw i8, ptr %113, i64 8
  store ptr %122, ptr %123, align 8
  %124 = load ptr, ptr %5, align 8
  %125 = icmp eq ptr %39, %124
  br i1 %125, label %126, label %127

126:                                              ; preds = %121
  store ptr %113, ptr %5, align 8
  br label %135

127:                                              ; preds = %121
  %128 = load ptr, ptr %41, align 8
  %129 = getelementptr inbounds nuw i8, ptr %128, i64 24
  %130 = load ptr, ptr %129, align 8
  %131 = icmp eq ptr %39, %130
  br i1 %131, label %132, label %133

132:                                              ; preds = %127
  store ptr %113, ptr %129, align 8
  br label %135

133:                                              ; preds = %127
  %134 = getelementptr inbounds nuw i8, ptr %128, i64 16
  store ptr %113, ptr %134, align 8
  br label %135

135:                                              ; preds = %126, %132, %133
  store ptr %39, ptr %116, align 8
  store ptr %113, ptr %41, align 8
  br label %136

136:                                              ; preds = %135, %111
  %137 = phi ptr [ %39, %135 ], [ %40, %111 ]
  %138 = getelementptr inbounds nuw i8, ptr %137, i64 8
  %139 = load ptr, ptr %138, align 8
  store i32 1, ptr %139, align 8
  store i32 0, ptr %42, align 8
  %140 = getelementptr inbounds nuw i8, ptr %42, i64 24
  %141 = load ptr, ptr %140, align 8
  %142 = getelementptr inbounds nuw i8, ptr %141, i64 16
  %143 = load ptr, ptr %142, align 8
  store ptr %143, ptr %140, align 8
  %144 = icmp eq ptr %143, null
  br i1 %144, label %147, label %145

145:                                              ; preds = %136
  %146 = getelementptr inbounds nuw i8, ptr %143, i64 8
  store ptr %42, ptr %146, align 8
  br label %147

147:                                              ; preds = %145, %136
  %148 = getelementptr inbounds nuw i8, ptr %42, i64 8
  %149 = load ptr, ptr %148, align 8
  %150 = getelementptr inbounds nuw i8, ptr %141, i64 8
  store ptr %149, ptr %150, align 8
  %151 = load ptr, ptr %5, align 8
  %152 = icmp eq ptr %42, %151
  br i1 %152, label %153, label %154

153:                                              ; preds = %147
  store ptr %141, ptr %5, align 8
  br label %162

154:                                              ; preds = %147
  %155 = load ptr, ptr %148, align 8
  %156 = getelementptr inbounds nuw i8, ptr %155, i64 16
  %157 = load ptr, ptr %156, align 8
  %158 = icmp eq ptr %42, %157
  br i1 %158, label %159, label %160

159:                                              ; preds = %154
  store ptr %141, ptr %156, align 8
  br label %162

160:                                              ; preds = %154
  %161 = getelementptr inbounds nuw i8, ptr %155, i64 24
  store ptr %141, ptr %161, align 8
  br label %162

162:                                              ; preds = %153, %159, %160
  store ptr %42, ptr %142, align 8
  store ptr %141, ptr %148, align 8
  br label %163

163:                                              ; preds = %110, %162, %53, %104
  %164 = phi ptr [ %80, %104 ], [ %42, %53 ], [ %42, %110 ], [ %137, %162 ]
  %165 = load ptr, ptr %5, align 8
  %166 = icmp eq ptr %164, %165
  br i1 %166, label %167, label %33

167:                                              ; preds = %163
  br label %168

168:                                              ; preds = %33, %28, %167, %25
  %169 = phi ptr [ %26, %25 ], [ %165, %167 ], [ %26, %28 ], [ %165, %33 ]
  store i32 1, ptr %169, align 8
  ret void
}



