; Rust's allocator entry points have IR (rustc's allocator shim), and every Vec of the
; program calls them: one grows a buffer of doubles, another one of integers. Type
; analysis must treat them as the allocation table says, not link the two callers'
; buffers through `__rust_realloc`'s parameters.
declare ptr @_RNvCsfLfy6EI15iL_7___rustc13___rdl_realloc(ptr, i64, i64, i64)
declare ptr @_RNvCsfLfy6EI15iL_7___rustc11___rdl_alloc(i64, i64)
declare void @_RNvCsfLfy6EI15iL_7___rustc13___rdl_dealloc(ptr, i64, i64)

define ptr @_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc(ptr %p, i64 %old, i64 %align, i64 %new) {
  %r = tail call ptr @_RNvCsfLfy6EI15iL_7___rustc13___rdl_realloc(ptr %p, i64 %old, i64 %align, i64 %new)
  ret ptr %r
}

define ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64 %n, i64 %align) {
  %r = tail call ptr @_RNvCsfLfy6EI15iL_7___rustc11___rdl_alloc(i64 %n, i64 %align)
  ret ptr %r
}

define void @_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc(ptr %p, i64 %n, i64 %align) {
  tail call void @_RNvCsfLfy6EI15iL_7___rustc13___rdl_dealloc(ptr %p, i64 %n, i64 %align)
  ret void
}

define double @floats(ptr %buf, double %x) {
  %grown = call ptr @_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc(ptr %buf, i64 8, i64 8, i64 16)
  %slot = getelementptr inbounds i8, ptr %grown, i64 8
  store double %x, ptr %slot, align 8
  %y = load double, ptr %grown, align 8
  %fresh = call ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64 8, i64 8)
  store double %y, ptr %fresh, align 8
  call void @_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc(ptr %fresh, i64 8, i64 8)
  ret double %y
}

define i64 @ints(ptr %buf, i64 %k) {
  %grown = call ptr @_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc(ptr %buf, i64 8, i64 8, i64 16)
  %slot = getelementptr inbounds i8, ptr %grown, i64 8
  store i64 %k, ptr %slot, align 8
  %y = load i64, ptr %grown, align 8
  %z = mul i64 %y, %k
  %fresh = call ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64 8, i64 8)
  store i64 %z, ptr %fresh, align 8
  call void @_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc(ptr %fresh, i64 8, i64 8)
  ret i64 %z
}
