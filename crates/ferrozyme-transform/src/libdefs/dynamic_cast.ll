
; Function Attrs: noinline nounwind
define dso_local i64 @__fz_lib_dynamic_cast_offset(ptr noundef %0, ptr noundef %1, ptr noundef %2, i64 noundef %3) local_unnamed_addr {
  %5 = tail call ptr @__dynamic_cast(ptr noundef %0, ptr noundef %1, ptr noundef %2, i64 noundef %3)
  %6 = icmp eq ptr %5, null
  %7 = ptrtoint ptr %5 to i64
  %8 = ptrtoint ptr %0 to i64
  %9 = sub i64 %7, %8
  %10 = select i1 %6, i64 -9223372036854775808, i64 %9
  ret i64 %10
}

declare ptr @__dynamic_cast(ptr noundef, ptr noundef, ptr noundef, i64 noundef) local_unnamed_addr

; Function Attrs: nounwind
define dso_local ptr @__fz_lib___dynamic_cast(ptr noundef %0, ptr noundef %1, ptr noundef %2, i64 noundef %3) local_unnamed_addr {
  %5 = tail call i64 @__fz_lib_dynamic_cast_offset(ptr noundef %0, ptr noundef %1, ptr noundef %2, i64 noundef %3)
  %6 = icmp eq i64 %5, -9223372036854775808
  %7 = getelementptr inbounds i8, ptr %0, i64 %5
  %8 = select i1 %6, ptr null, ptr %7
  ret ptr %8
}



