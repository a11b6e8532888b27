; Functions that update their argument in place or not (activity/local_stores.rs
; `may_update_param_in_place`, used by custom/wrappers.rs before running a registered
; forward rule once per lane). Written by hand.

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @opaque(ptr)

; x[0] = x[0] * x[0], -O0 style: the parameter goes through its home slot.
define void @square_o0(ptr %x) {
  %x.addr = alloca ptr
  store ptr %x, ptr %x.addr
  %p = load ptr, ptr %x.addr
  %v = load double, ptr %p
  %m = fmul double %v, %v
  %q = load ptr, ptr %x.addr
  store double %m, ptr %q
  ret void
}

; y[1] = x[1] ^ 3: reads x, writes y.
define void @cube(ptr %x, ptr %y) {
  %xp = getelementptr double, ptr %x, i64 1
  %v = load double, ptr %xp
  %a = fmul double %v, %v
  %b = fmul double %a, %v
  %yp = getelementptr double, ptr %y, i64 1
  store double %b, ptr %yp
  ret void
}

; Reads x through a callee and writes it by memcpy: in place.
define void @through_call(ptr %x, ptr %tmp) {
  call void @cube(ptr %x, ptr %tmp)
  call void @llvm.memcpy.p0.p0.i64(ptr %x, ptr %tmp, i64 16, i1 false)
  ret void
}

; Hands x to a function without IR: unknown, so yes.
define void @opaque_use(ptr %x) {
  call void @opaque(ptr %x)
  ret void
}
