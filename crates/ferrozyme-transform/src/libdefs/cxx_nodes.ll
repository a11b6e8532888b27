
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
  br i1 %119, label %361, label %120

120:                                              ; preds = %115
  %121 = load ptr, ptr %3, align 8
  %122 = icmp eq ptr %20, %121
  br i1 %122, label %357, label %123

123:                                              ; preds = %120, %352
  %124 = phi ptr [ %354, %352 ], [ %116, %120 ]
  %125 = phi ptr [ %353, %352 ], [ %20, %120 ]
  %126 = icmp eq ptr %125, null
  br i1 %126, label %130, label %127

127:                                              ; preds = %123
  %128 = load i32, ptr %125, align 8
  %129 = icmp eq i32 %128, 1
  br i1 %129, label %130, label %357

130:                                              ; preds = %123, %127
  %131 = getelementptr inbounds nuw i8, ptr %124, i64 16
  %132 = load ptr, ptr %131, align 8
  %133 = icmp eq ptr %125, %132
  br i1 %133, label %134, label %244

134:                                              ; preds = %130
  %135 = getelementptr inbounds nuw i8, ptr %124, i64 24
  %136 = load ptr, ptr %135, align 8
  %137 = load i32, ptr %136, align 8
  %138 = icmp eq i32 %137, 0
  br i1 %138, label %139, label %162

139:                                              ; preds = %134
  store i32 1, ptr %136, align 8
  store i32 0, ptr %124, align 8
  %140 = getelementptr inbounds nuw i8, ptr %136, i64 16
  %141 = load ptr, ptr %140, align 8
  store ptr %141, ptr %135, align 8
  %142 = icmp eq ptr %141, null
  br i1 %142, label %145, label %143

143:                                              ; preds = %139
  %144 = getelementptr inbounds nuw i8, ptr %141, i64 8
  store ptr %124, ptr %144, align 8
  br label %145

145:                                              ; preds = %143, %139
  %146 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %147 = load ptr, ptr %146, align 8
  %148 = getelementptr inbounds nuw i8, ptr %136, i64 8
  store ptr %147, ptr %148, align 8
  %149 = load ptr, ptr %3, align 8
  %150 = icmp eq ptr %124, %149
  br i1 %150, label %151, label %152

151:                                              ; preds = %145
  store ptr %136, ptr %3, align 8
  br label %160

152:                                              ; preds = %145
  %153 = load ptr, ptr %146, align 8
  %154 = getelementptr inbounds nuw i8, ptr %153, i64 16
  %155 = load ptr, ptr %154, align 8
  %156 = icmp eq ptr %124, %155
  br i1 %156, label %157, label %158

157:                                              ; preds = %152
  store ptr %136, ptr %154, align 8
  br label %160

158:                                              ; preds = %152
  %159 = getelementptr inbounds nuw i8, ptr %153, i64 24
  store ptr %136, ptr %159, align 8
  br label %160

160:                                              ; preds = %151, %157, %158
  store ptr %124, ptr %140, align 8
  store ptr %136, ptr %146, align 8
  %161 = load ptr, ptr %135, align 8
  br label %162

162:                                              ; preds = %160, %134
  %163 = phi ptr [ %161, %160 ], [ %136, %134 ]
  %164 = getelementptr inbounds nuw i8, ptr %163, i64 16
  %165 = load ptr, ptr %164, align 8
  %166 = icmp eq ptr %165, null
  br i1 %166, label %170, label %167

167:                                              ; preds = %162
  %168 = load i32, ptr %165, align 8
  %169 = icmp eq i32 %168, 1
  br i1 %169, label %170, label %180

170:                                              ; preds = %167, %162
  %171 = getelementptr inbounds nuw i8, ptr %163, i64 24
  %172 = load ptr, ptr %171, align 8
  %173 = icmp eq ptr %172, null
  br i1 %173, label %177, label %174

174:                                              ; preds = %170
  %175 = load i32, ptr %172, align 8
  %176 = icmp eq i32 %175, 1
  br i1 %176, label %177, label %180

177:                                              ; preds = %174, %170
  store i32 0, ptr %163, align 8
  %178 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %179 = load ptr, ptr %178, align 8
  br label %240

180:                                              ; preds = %174, %167
  %181 = getelementptr inbounds nuw i8, ptr %163, i64 24
  %182 = load ptr, ptr %181, align 8
  %183 = icmp eq ptr %182, null
  br i1 %183, label %187, label %184

184:                                              ; preds = %180
  %185 = load i32, ptr %182, align 8
  %186 = icmp eq i32 %185, 1
  br i1 %186, label %187, label %210

187:                                              ; preds = %184, %180
  store i32 1, ptr %165, align 8
  store i32 0, ptr %163, align 8
  %188 = getelementptr inbounds nuw i8, ptr %165, i64 24
  %189 = load ptr, ptr %188, align 8
  store ptr %189, ptr %164, align 8
  %190 = icmp eq ptr %189, null
  br i1 %190, label %193, label %191

191:                                              ; preds = %187
  %192 = getelementptr inbounds nuw i8, ptr %189, i64 8
  store ptr %163, ptr %192, align 8
  br label %193

193:                                              ; preds = %191, %187
  %194 = getelementptr inbounds nuw i8, ptr %163, i64 8
  %195 = load ptr, ptr %194, align 8
  %196 = getelementptr inbounds nuw i8, ptr %165, i64 8
  store ptr %195, ptr %196, align 8
  %197 = load ptr, ptr %3, align 8
  %198 = icmp eq ptr %163, %197
  br i1 %198, label %199, label %200

199:                                              ; preds = %193
  store ptr %165, ptr %3, align 8
  br label %208

200:                                              ; preds = %193
  %201 = load ptr, ptr %194, align 8
  %202 = getelementptr inbounds nuw i8, ptr %201, i64 24
  %203 = load ptr, ptr %202, align 8
  %204 = icmp eq ptr %163, %203
  br i1 %204, label %205, label %206

205:                                              ; preds = %200
  store ptr %165, ptr %202, align 8
  br label %208

206:                                              ; preds = %200
  %207 = getelementptr inbounds nuw i8, ptr %201, i64 16
  store ptr %165, ptr %207, align 8
  br label %208

208:                                              ; preds = %199, %205, %206
  store ptr %163, ptr %188, align 8
  store ptr %165, ptr %194, align 8
  %209 = load ptr, ptr %135, align 8
  br label %210

210:                                              ; preds = %208, %184
  %211 = phi ptr [ %209, %208 ], [ %163, %184 ]
  %212 = load i32, ptr %124, align 8
  store i32 %212, ptr %211, align 8
  store i32 1, ptr %124, align 8
  %213 = getelementptr inbounds nuw i8, ptr %211, i64 24
  %214 = load ptr, ptr %213, align 8
  %215 = icmp eq ptr %214, null
  br i1 %215, label %217, label %216

216:                                              ; preds = %210
  store i32 1, ptr %214, align 8
  br label %217

217:                                              ; preds = %216, %210
  %218 = load ptr, ptr %135, align 8
  %219 = getelementptr inbounds nuw i8, ptr %218, i64 16
  %220 = load ptr, ptr %219, align 8
  store ptr %220, ptr %135, align 8
  %221 = icmp eq ptr %220, null
  br i1 %221, label %224, label %222

222:                                              ; preds = %217
  %223 = getelementptr inbounds nuw i8, ptr %220, i64 8
  store ptr %124, ptr %223, align 8
  br label %224

224:                                              ; preds = %222, %217
  %225 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %226 = load ptr, ptr %225, align 8
  %227 = getelementptr inbounds nuw i8, ptr %218, i64 8
  store ptr %226, ptr %227, align 8
  %228 = load ptr, ptr %3, align 8
  %229 = icmp eq ptr %124, %228
  br i1 %229, label %230, label %231

230:                                              ; preds = %224
  store ptr %218, ptr %3, align 8
  br label %239

231:                                              ; preds = %224
  %232 = load ptr, ptr %225, align 8
  %233 = getelementptr inbounds nuw i8, ptr %232, i64 16
  %234 = load ptr, ptr %233, align 8
  %235 = icmp eq ptr %124, %234
  br i1 %235, label %236, label %237

236:                                              ; preds = %231
  store ptr %218, ptr %233, align 8
  br label %239

237:                                              ; preds = %231
  %238 = getelementptr inbounds nuw i8, ptr %232, i64 24
  store ptr %218, ptr %238, align 8
  br label %239

239:                                              ; preds = %230, %236, %237
  store ptr %124, ptr %219, align 8
  store ptr %218, ptr %225, align 8
  br label %240

240:                                              ; preds = %177, %239
  %241 = phi ptr [ %124, %177 ], [ %125, %239 ]
  %242 = phi ptr [ %179, %177 ], [ %124, %239 ]
  %243 = phi i1 [ true, %177 ], [ false, %239 ]
  br i1 %243, label %352, label %357

244:                                              ; preds = %130
  %245 = load i32, ptr %132, align 8
  %246 = icmp eq i32 %245, 0
  br i1 %246, label %247, label %270

247:                                              ; preds = %244
  store i32 1, ptr %132, align 8
  store i32 0, ptr %124, align 8
  %248 = getelementptr inbounds nuw i8, ptr %132, i64 24
  %249 = load ptr, ptr %248, align 8
  store ptr %249, ptr %131, align 8
  %250 = icmp eq ptr %249, null
  br i1 %250, label %253, label %251

251:                                              ; preds = %247
  %252 = getelementptr inbounds nuw i8, ptr %249, i64 8
  store ptr %124, ptr %252, align 8
  br label %253

253:                                              ; preds = %251, %247
  %254 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %255 = load ptr, ptr %254, align 8
  %256 = getelementptr inbounds nuw i8, ptr %132, i64 8
  store ptr %255, ptr %256, align 8
  %257 = load ptr, ptr %3, align 8
  %258 = icmp eq ptr %124, %257
  br i1 %258, label %259, label %260

259:                                              ; preds = %253
  store ptr %132, ptr %3, align 8
  br label %268

260:                                              ; preds = %253
  %261 = load ptr, ptr %254, align 8
  %262 = getelementptr inbounds nuw i8, ptr %261, i64 24
  %263 = load ptr, ptr %262, align 8
  %264 = icmp eq ptr %124, %263
  br i1 %264, label %265, label %266

265:                                              ; preds = %260
  store ptr %132, ptr %262, align 8
  br label %268

266:                                              ; preds = %260
  %267 = getelementptr inbounds nuw i8, ptr %261, i64 16
  store ptr %132, ptr %267, align 8
  br label %268

268:                                              ; preds = %259, %265, %266
  store ptr %124, ptr %248, align 8
  store ptr %132, ptr %254, align 8
  %269 = load ptr, ptr %131, align 8
  br label %270

270:                                              ; preds = %268, %244
  %271 = phi ptr [ %269, %268 ], [ %132, %244 ]
  %272 = getelementptr inbounds nuw i8, ptr %271, i64 24
  %273 = load ptr, ptr %272, align 8
  %274 = icmp eq ptr %273, null
  br i1 %274, label %278, label %275

275:                                              ; preds = %270
  %276 = load i32, ptr %273, align 8
  %277 = icmp eq i32 %276, 1
  br i1 %277, label %278, label %288

278:                                              ; preds = %275, %270
  %279 = getelementptr inbounds nuw i8, ptr %271, i64 16
  %280 = load ptr, ptr %279, align 8
  %281 = icmp eq ptr %280, null
  br i1 %281, label %285, label %282

282:                                              ; preds = %278
  %283 = load i32, ptr %280, align 8
  %284 = icmp eq i32 %283, 1
  br i1 %284, label %285, label %288

285:                                              ; preds = %282, %278
  store i32 0, ptr %271, align 8
  %286 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %287 = load ptr, ptr %286, align 8
  br label %348

288:                                              ; preds = %282, %275
  %289 = getelementptr inbounds nuw i8, ptr %271, i64 16
  %290 = load ptr, ptr %289, align 8
  %291 = icmp eq ptr %290, null
  br i1 %291, label %295, label %292

292:                                              ; preds = %288
  %293 = load i32, ptr %290, align 8
  %294 = icmp eq i32 %293, 1
  br i1 %294, label %295, label %318

295:                                              ; preds = %292, %288
  store i32 1, ptr %273, align 8
  store i32 0, ptr %271, align 8
  %296 = getelementptr inbounds nuw i8, ptr %273, i64 16
  %297 = load ptr, ptr %296, align 8
  store ptr %297, ptr %272, align 8
  %298 = icmp eq ptr %297, null
  br i1 %298, label %301, label %299

299:                                              ; preds = %295
  %300 = getelementptr inbounds nuw i8, ptr %297, i64 8
  store ptr %271, ptr %300, align 8
  br label %301

301:                                              ; preds = %299, %295
  %302 = getelementptr inbounds nuw i8, ptr %271, i64 8
  %303 = load ptr, ptr %302, align 8
  %304 = getelementptr inbounds nuw i8, ptr %273, i64 8
  store ptr %303, ptr %304, align 8
  %305 = load ptr, ptr %3, align 8
  %306 = icmp eq ptr %271, %305
  br i1 %306, label %307, label %308

307:                                              ; preds = %301
  store ptr %273, ptr %3, align 8
  br label %316

308:                                              ; preds = %301
  %309 = load ptr, ptr %302, align 8
  %310 = getelementptr inbounds nuw i8, ptr %309, i64 16
  %311 = load ptr, ptr %310, align 8
  %312 = icmp eq ptr %271, %311
  br i1 %312, label %313, label %314

313:                                              ; preds = %308
  store ptr %273, ptr %310, align 8
  br label %316

314:                                              ; preds = %308
  %315 = getelementptr inbounds nuw i8, ptr %309, i64 24
  store ptr %273, ptr %315, align 8
  br label %316

316:                                              ; preds = %307, %313, %314
  store ptr %271, ptr %296, align 8
  store ptr %273, ptr %302, align 8
  %317 = load ptr, ptr %131, align 8
  br label %318

318:                                              ; preds = %316, %292
  %319 = phi ptr [ %317, %316 ], [ %271, %292 ]
  %320 = load i32, ptr %124, align 8
  store i32 %320, ptr %319, align 8
  store i32 1, ptr %124, align 8
  %321 = getelementptr inbounds nuw i8, ptr %319, i64 16
  %322 = load ptr, ptr %321, align 8
  %323 = icmp eq ptr %322, null
  br i1 %323, label %325, label %324

324:                                              ; preds = %318
  store i32 1, ptr %322, align 8
  br label %325

325:                                              ; preds = %324, %318
  %326 = load ptr, ptr %131, align 8
  %327 = getelementptr inbounds nuw i8, ptr %326, i64 24
  %328 = load ptr, ptr %327, align 8
  store ptr %328, ptr %131, align 8
  %329 = icmp eq ptr %328, null
  br i1 %329, label %332, label %330

330:                                              ; preds = %325
  %331 = getelementptr inbounds nuw i8, ptr %328, i64 8
  store ptr %124, ptr %331, align 8
  br label %332

332:                                              ; preds = %330, %325
  %333 = getelementptr inbounds nuw i8, ptr %124, i64 8
  %334 = load ptr, ptr %333, align 8
  %335 = getelementptr inbounds nuw i8, ptr %326, i64 8
  store ptr %334, ptr %335, align 8
  %336 = load ptr, ptr %3, align 8
  %337 = icmp eq ptr %124, %336
  br i1 %337, label %338, label %339

338:                                              ; preds = %332
  store ptr %326, ptr %3, align 8
  br label %347

339:                                              ; preds = %332
  %340 = load ptr, ptr %333, align 8
  %341 = getelementptr inbounds nuw i8, ptr %340, i64 24
  %342 = load ptr, ptr %341, align 8
  %343 = icmp eq ptr %124, %342
  br i1 %343, label %344, label %345

344:                                              ; preds = %339
  store ptr %326, ptr %341, align 8
  br label %347

345:                                              ; preds = %339
  %346 = getelementptr inbounds nuw i8, ptr %340, i64 16
  store ptr %326, ptr %346, align 8
  br label %347

347:                                              ; preds = %338, %344, %345
  store ptr %124, ptr %327, align 8
  store ptr %326, ptr %333, align 8
  br label %348

348:                                              ; preds = %285, %347
  %349 = phi ptr [ %124, %285 ], [ %125, %347 ]
  %350 = phi ptr [ %287, %285 ], [ %124, %347 ]
  %351 = phi i1 [ true, %285 ], [ false, %347 ]
  br i1 %351, label %352, label %357

352:                                              ; preds = %348, %240
  %353 = phi ptr [ %241, %240 ], [ %349, %348 ]
  %354 = phi ptr [ %242, %240 ], [ %350, %348 ]
  %355 = load ptr, ptr %3, align 8
  %356 = icmp eq ptr %353, %355
  br i1 %356, label %357, label %123

357:                                              ; preds = %127, %352, %240, %348, %120
  %358 = phi ptr [ %20, %120 ], [ %125, %127 ], [ %241, %240 ], [ %353, %352 ], [ %349, %348 ]
  %359 = icmp eq ptr %358, null
  br i1 %359, label %361, label %360

360:                                              ; preds = %357
  store i32 1, ptr %358, align 8
  br label %361

361:                                              ; preds = %357, %360, %115
  ret ptr %117
}



