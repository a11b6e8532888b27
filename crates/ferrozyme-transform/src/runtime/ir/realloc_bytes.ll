; `__fz_realloc_adj_bytes`, the reverse of `new = realloc(old, n)` for memory holding
; several floating-point types (or contents type analysis cannot tell): the adjoints of
; the first min(old size, n) bytes move back byte for byte. Adding them is not needed:
; every use of the old block came before the `realloc`, so the reverse sweep reaches
; this point before any adjoint lands in the old block's shadow (it is still all zeros,
; or holds only the shadow pointers the forward sweep copied).

declare void @free(ptr)
declare i64 @malloc_usable_size(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @__fz_realloc_adj_bytes(ptr %sold, ptr %snew, i64 %nnew, i64 %nold) {
entry:
  %null = icmp eq ptr %sold, null
  br i1 %null, label %exit, label %body
body:
  ; %nold: the old block's size, -1 when the call does not say (the C library's
  ; `realloc`: its usable size; `__rust_realloc` passes it).
  %unknown = icmp eq i64 %nold, -1
  br i1 %unknown, label %usable, label %sized
usable:
  %uu = call i64 @malloc_usable_size(ptr %sold)
  br label %sized
sized:
  %us = phi i64 [ %uu, %usable ], [ %nold, %body ]
  %lt = icmp ult i64 %us, %nnew
  %m = select i1 %lt, i64 %us, i64 %nnew
  call void @llvm.memcpy.p0.p0.i64(ptr %sold, ptr %snew, i64 %m, i1 false)
  br label %exit
exit:
  ret void
}

; `__fz_realloc_fwd_bytes`, the forward sweep's part of `new = realloc(old, n)` for memory
; holding pointers next to its floats: the new shadow (zeroed) takes the old shadow's
; first min(old size, n) bytes, so shadow pointers stored before the `realloc` are still
; there after it (adjoint slots are zero then, or are copied back by
; `__fz_realloc_adj_bytes` in the reverse sweep).
define void @__fz_realloc_fwd_bytes(ptr %sold, ptr %snew, i64 %nnew, i64 %nold) {
entry:
  %null = icmp eq ptr %sold, null
  br i1 %null, label %exit, label %body
body:
  ; %nold: the old block's size, -1 when the call does not say (the C library's
  ; `realloc`: its usable size; `__rust_realloc` passes it).
  %unknown = icmp eq i64 %nold, -1
  br i1 %unknown, label %usable, label %sized
usable:
  %uu = call i64 @malloc_usable_size(ptr %sold)
  br label %sized
sized:
  %us = phi i64 [ %uu, %usable ], [ %nold, %body ]
  %lt = icmp ult i64 %us, %nnew
  %m = select i1 %lt, i64 %us, i64 %nnew
  call void @llvm.memcpy.p0.p0.i64(ptr %snew, ptr %sold, i64 %m, i1 false)
  br label %exit
exit:
  ret void
}
