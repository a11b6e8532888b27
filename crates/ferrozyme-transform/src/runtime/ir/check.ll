; A pointer read from global memory has no shadow (nothing told us where its adjoint
; memory is): stop with a message instead of writing derivatives through null.

declare i64 @write(i32, ptr, i64)
declare i64 @strlen(ptr)
declare void @abort()

define void @__fz_check_shadow(i1 %bad, ptr %msg) alwaysinline {
entry:
  br i1 %bad, label %fail, label %ok, !prof !0
fail:
  %n = call i64 @strlen(ptr %msg)
  %w = call i64 @write(i32 2, ptr %msg, i64 %n)
  call void @abort()
  unreachable
ok:
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 2000}
