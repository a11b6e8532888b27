define double @pick(ptr %a, ptr %b, i1 %c) {
entry:
  %x = load double, ptr %a, align 8
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  %bq = getelementptr inbounds i8, ptr %b, i64 8
  store i64 3, ptr %b, align 8, !tbaa !5
  br label %join
join:
  %p = phi ptr [ %a, %then ], [ %b, %else ]
  %y = load double, ptr %p, align 8
  %s = select i1 %c, ptr %a, ptr %bq
  ret double %y
}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!3 = !{!"long", !1, i64 0}
!5 = !{!3, !3, i64 0}
