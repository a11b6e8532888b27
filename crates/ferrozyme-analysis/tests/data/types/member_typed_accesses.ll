; Accesses typed by what they name, not by the memory's merged facts (stl24):
; struct-path `!tbaa` members, -O0 struct GEPs, and -O0 copies of a struct local.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.hdr = type { ptr, ptr, i64 }
%union.u = type { ptr, ptr, i64 }
%struct.vec3 = type { double, double, double }
%struct.rec = type { double, i32, float }
%struct.buf = type { [16 x i8] }
%union.pair = type { double, double, double }

define void @tbaa(ptr %p) {
  %s = getelementptr inbounds i8, ptr %p, i64 16
  %member = load i64, ptr %s, align 8, !tbaa !22
  %scalar = load i64, ptr %s, align 8, !tbaa !25
  %dmember = load i64, ptr %s, align 8, !tbaa !26
  %narrow = load i32, ptr %s, align 8, !tbaa !22
  store i64 %member, ptr %s, align 8, !tbaa !22
  ret void
}

define void @geps(ptr %p) {
  %s = getelementptr inbounds %struct.hdr, ptr %p, i32 0, i32 2
  %size = load i64, ptr %s, align 8
  %narrow = load i32, ptr %s, align 8
  %u = getelementptr inbounds %union.u, ptr %p, i32 0, i32 2
  %usize = load i64, ptr %u, align 8
  %bytes = getelementptr inbounds i8, ptr %p, i64 16
  %raw = load i64, ptr %bytes, align 8
  ret void
}

define void @copies(ptr %src) {
  %v = alloca %struct.vec3, align 8
  %r = alloca %struct.rec, align 8
  %b = alloca %struct.buf, align 8
  %w = alloca %union.pair, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %v, ptr %src, i64 24, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %v, ptr %src, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %r, ptr %src, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %src, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %w, ptr %src, i64 24, i1 false)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!10 = !{!"_ZTSNSt8__detail15_List_node_baseE", !11, i64 0, !11, i64 8}
!11 = !{!"p1 _ZTSNSt8__detail15_List_node_baseE", !12, i64 0}
!12 = !{!"any pointer", !7, i64 0}
!15 = !{!"_ZTSNSt8__detail17_List_node_headerE", !10, i64 0, !16, i64 16}
!16 = !{!"long", !7, i64 0}
!21 = !{!"double", !7, i64 0}
!22 = !{!15, !16, i64 16}
!25 = !{!16, !16, i64 0}
!26 = !{!27, !21, i64 16}
!27 = !{!"S", !11, i64 0, !11, i64 8, !21, i64 16}
