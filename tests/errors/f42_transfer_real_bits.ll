; EXPECT-ERROR: missing-derivative
; EXPECT-ERROR: _FortranATransferSize
; EXPECT-ERROR: TRANSFER reinterprets the bytes of its source
; EXPECT-ERROR: TRANSFER only integer, logical or character data
; `b = transfer(x, 0_8, n)` of an active real(8) array inside the differentiated routine
; (flang-22 -O2 keeps the call: `_FortranATransferSize(result, source, mold, file, line,
; size)` allocates an integer(8) result and writes its address into the result
; descriptor). The bits of a real carry no derivative into integers and back, so the
; call is refused by name with its own reason and help line (the general help said to
; compile with -O2, which already keeps the call). Reduced by hand from flang-22 -O2.
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @_FortranATransferSize(ptr, ptr, ptr, ptr, i32, i64)
declare void @free(ptr)

define void @loss(ptr %x, ptr %f) {
entry:
  %res = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %src = alloca { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] }, align 8
  %mold = alloca { ptr, i64, i32, i8, i8, i8, i8 }, align 8
  %m = alloca i64, align 8
  store i64 0, ptr %m, align 8
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr null, i64 8, i32 20240719, i8 1, i8 10, i8 2, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 0, i64 8]] }, ptr %res, align 8
  %d = insertvalue { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } { ptr undef, i64 8, i32 20240719, i8 1, i8 28, i8 0, i8 0, [1 x [3 x i64]] [[3 x i64] [i64 1, i64 3, i64 8]] }, ptr %x, 0
  store { ptr, i64, i32, i8, i8, i8, i8, [1 x [3 x i64]] } %d, ptr %src, align 8
  %md = insertvalue { ptr, i64, i32, i8, i8, i8, i8 } { ptr undef, i64 8, i32 20240719, i8 0, i8 10, i8 0, i8 0 }, ptr %m, 0
  store { ptr, i64, i32, i8, i8, i8, i8 } %md, ptr %mold, align 8
  call void @_FortranATransferSize(ptr %res, ptr %src, ptr %mold, ptr null, i32 10, i64 3)
  %base = load ptr, ptr %res, align 8
  %b = load i64, ptr %base, align 8
  %y = bitcast i64 %b to double
  %sq = fmul double %y, %y
  store double %sq, ptr %f, align 8
  call void @free(ptr %base)
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %f, ptr %df) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @loss, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %f, ptr %df)
  ret void
}
