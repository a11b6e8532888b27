; Memory adjoint helpers, written once for `{FP}` of `{SIZE}` bytes and instantiated
; for `double` (`_f64`), `float` (`_f32`), `half` (`_f16`) and `x86_fp80` (`_f80`): the
; reverse of memcpy, memmove, realloc.

declare ptr @malloc(i64)
declare void @free(ptr)
declare i64 @malloc_usable_size(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @__fz_memcpy_adj_{T}(ptr %dd, ptr %ds, i64 %nbytes) {
entry:
  %n = udiv i64 %nbytes, {SIZE}
  %z = icmp eq i64 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pd = getelementptr inbounds {FP}, ptr %dd, i64 %i
  %ps = getelementptr inbounds {FP}, ptr %ds, i64 %i
  %vd = load {FP}, ptr %pd
  %vs = load {FP}, ptr %ps
  %sum = fadd {FP} %vs, %vd
  store {FP} {ZERO}, ptr %pd
  store {FP} %sum, ptr %ps
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @__fz_memmove_adj_{T}(ptr %dd, ptr %ds, i64 %nbytes) {
entry:
  %tmp = call ptr @malloc(i64 %nbytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %dd, i64 %nbytes, i1 false)
  call void @llvm.memset.p0.i64(ptr %dd, i8 0, i64 %nbytes, i1 false)
  %n = udiv i64 %nbytes, {SIZE}
  %z = icmp eq i64 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pt = getelementptr inbounds {FP}, ptr %tmp, i64 %i
  %ps = getelementptr inbounds {FP}, ptr %ds, i64 %i
  %vt = load {FP}, ptr %pt
  %vs = load {FP}, ptr %ps
  %sum = fadd {FP} %vs, %vt
  store {FP} %sum, ptr %ps
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  call void @free(ptr %tmp)
  ret void
}

; Reverse of `new = realloc(old, n)`: the first min(old size, n) bytes of the new block
; came from the old one, so their adjoints flow back (the caller then releases the new
; shadow: `runtime/ir/shadows.ll`).
define void @__fz_realloc_adj_{T}(ptr %sold, ptr %snew, i64 %nnew) {
entry:
  %null = icmp eq ptr %sold, null
  br i1 %null, label %exit, label %body
body:
  %us = call i64 @malloc_usable_size(ptr %sold)
  %lt = icmp ult i64 %us, %nnew
  %m = select i1 %lt, i64 %us, i64 %nnew
  call void @__fz_memcpy_adj_{T}(ptr %snew, ptr %sold, i64 %m)
  br label %exit
exit:
  ret void
}

