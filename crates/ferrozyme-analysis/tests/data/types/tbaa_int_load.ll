; An i64 copy of a double, as instcombine makes of `*q = *p` on doubles.
define void @copy(ptr %p, ptr %q) {
  %bits = load i64, ptr %p, align 8, !tbaa !1
  store i64 %bits, ptr %q, align 8
  ret void
}

; Without TBAA: the i64 learns from the memory it was loaded from.
define void @copy2(ptr %p, ptr %q) {
  %d = load double, ptr %p, align 8
  %bits = load i64, ptr %p, align 8
  store i64 %bits, ptr %q, align 8
  %c = bitcast i64 %bits to double
  %w = bitcast i64 %bits to <2 x i32>
  ret void
}

!0 = !{!"Simple C/C++ TBAA"}
!3 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"double", !3, i64 0}
!1 = !{!2, !2, i64 0}
