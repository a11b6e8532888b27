; A `long *` access (scalar `!tbaa` {long, long, 0}) to memory type analysis merged with a
; `double` stays refused: the tag of a punning access names the punning type, so only a
; struct-path member tag types an integer access over such memory
; (tests/filetests/list_size_struct_tbaa.ll is the same module with member tags).
; EXPECT-ERROR: cannot-deduce-type
; EXPECT-ERROR: an integer access to differentiable memory whose type is ambiguous

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @f(ptr %x) {
entry:
  %h = alloca [24 x i8], align 8
  %n = call ptr @malloc(i64 24)
  %x0 = load double, ptr %x, align 8, !tbaa !20
  %sq = fmul double %x0, %x0
  %nv = getelementptr inbounds i8, ptr %n, i64 16
  store double %sq, ptr %nv, align 8, !tbaa !20
  store ptr %h, ptr %n, align 8, !tbaa !13
  store ptr %n, ptr %h, align 8, !tbaa !13
  %hs = getelementptr inbounds i8, ptr %h, i64 16
  store i64 0, ptr %hs, align 8, !tbaa !14
  %saved = load i64, ptr %hs, align 8, !tbaa !25
  %inc = add i64 %saved, 1
  store i64 %inc, ptr %hs, align 8, !tbaa !25
  store i64 %saved, ptr %hs, align 8, !tbaa !25
  %first = load ptr, ptr %h, align 8, !tbaa !13
  br label %loop

loop:
  %p = phi ptr [ %first, %entry ], [ %next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %pv = getelementptr inbounds i8, ptr %p, i64 16
  %v = load double, ptr %pv, align 8, !tbaa !20
  %acc.next = fadd double %acc, %v
  %next = load ptr, ptr %p, align 8, !tbaa !13
  %done = icmp eq ptr %next, %h
  br i1 %done, label %exit, label %loop

exit:
  call void @free(ptr %n)
  ret double %acc.next
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!10 = !{!"_ZTSNSt8__detail15_List_node_baseE", !11, i64 0, !11, i64 8}
!11 = !{!"p1 _ZTSNSt8__detail15_List_node_baseE", !12, i64 0}
!12 = !{!"any pointer", !7, i64 0}
!13 = !{!10, !11, i64 0}
!14 = !{!15, !16, i64 16}
!15 = !{!"_ZTSNSt8__detail17_List_node_headerE", !10, i64 0, !16, i64 16}
!16 = !{!"long", !7, i64 0}
!20 = !{!21, !21, i64 0}
!21 = !{!"double", !7, i64 0}
!22 = !{!23, !16, i64 16}
!23 = !{!"_ZTSNSt7__cxx1110_List_baseIdSaIdEEE", !24, i64 0}
!24 = !{!"_ZTSNSt7__cxx1110_List_baseIdSaIdEE10_List_implE", !15, i64 0}
!25 = !{!16, !16, i64 0}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %saved = load i64, ptr %hs, align 8
; CHECK: store i64 %saved, ptr %hs, align 8
; CHECK: fmul double
