; Pointer slots (activity/copy_slots.rs) and what callees write into them
; (activity/local_stores.rs). Written by hand.

declare ptr @malloc(i64)

; Reads the slot only.
define internal double @peek(ptr %it) {
  %p = load ptr, ptr %it
  %v = load double, ptr %p
  ret double %v
}

; Puts a fresh allocation into the slot: anything.
define internal void @fresh(ptr %it) {
  %m = call ptr @malloc(i64 8)
  store ptr %m, ptr %it
  ret void
}

; Copies what `src` points to into the slot.
define internal void @assign(ptr %it, ptr %src) {
  %p = load ptr, ptr %src
  store ptr %p, ptr %it
  ret void
}

; Stores the slot's own address elsewhere: the slot escapes.
define internal void @leak(ptr %it, ptr %out) {
  store ptr %it, ptr %out
  ret void
}

define double @slots(ptr %c, ptr %d, ptr %out) {
  %read = alloca ptr
  store ptr %c, ptr %read
  %r = call double @peek(ptr %read)
  %fresh = alloca ptr
  store ptr %c, ptr %fresh
  call void @fresh(ptr %fresh)
  %from_d = alloca ptr
  %dslot = alloca ptr
  store ptr %d, ptr %dslot
  store ptr %c, ptr %from_d
  call void @assign(ptr %from_d, ptr %dslot)
  %from_c = alloca ptr
  %cslot = alloca ptr
  store ptr %c, ptr %cslot
  store ptr %c, ptr %from_c
  call void @assign(ptr %from_c, ptr %cslot)
  %leaked = alloca ptr
  store ptr %c, ptr %leaked
  call void @leak(ptr %leaked, ptr %out)
  %copy = alloca ptr
  call void @llvm.memcpy.p0.p0.i64(ptr %copy, ptr %dslot, i64 8, i1 false)
  ret double %r
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
