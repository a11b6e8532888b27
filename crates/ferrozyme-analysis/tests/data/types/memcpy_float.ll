define void @cp(ptr %dst, ptr %src, i64 %n) {
  %x = load float, ptr %src, align 4
  %y = fmul float %x, %x
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false)
  ret void
}

; The element type only comes from !tbaa.struct.
define void @cp2(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false), !tbaa.struct !10
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"double", !1, i64 0}
!3 = !{!"int", !1, i64 0}
!4 = !{!2, !2, i64 0}
!5 = !{!3, !3, i64 0}
!10 = !{i64 0, i64 8, !4, i64 8, i64 4, !5}
