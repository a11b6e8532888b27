; Memory adjoint helpers, written once for `{FP}` of `{SIZE}` bytes and instantiated
; for `double` (`_f64`), `float` (`_f32`), `half` (`_f16`) and `x86_fp80` (`_f80`): the
; reverse of memcpy, memmove, realloc.

declare ptr @malloc(i64)
declare void @free(ptr)
declare i64 @malloc_usable_size(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

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
define void @__fz_realloc_adj_{T}(ptr %sold, ptr %snew, i64 %nnew, i64 %nold) {
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
  call void @__fz_memcpy_adj_{T}(ptr %snew, ptr %sold, i64 %m)
  br label %exit
exit:
  ret void
}


; Reverse of a memcpy/memmove of records that hold `{FP}` values next to pointers or
; integers: only the `{SIZE}`-byte slots whose bit is set in `%mask` (slot k of every
; `%period`-byte record, k < 64) carry adjoints. The other slots keep what the forward
; sweep copied (shadow pointers above all: adding them as floats would corrupt them).
; Overlapping buffers (memmove): the destination's adjoints are read from a copy and
; cleared before any is added to the source.
define void @__fz_copy_adj_strided_{T}(ptr %dd, ptr %ds, i64 %nbytes, i64 %period, i64 %mask) {
entry:
  %n = udiv i64 %nbytes, {SIZE}
  %per = udiv i64 %period, {SIZE}
  %none = icmp eq i64 %n, 0
  br i1 %none, label %exit, label %check
check:
  %ddi = ptrtoint ptr %dd to i64
  %dsi = ptrtoint ptr %ds to i64
  %de = add i64 %ddi, %nbytes
  %se = add i64 %dsi, %nbytes
  %o1 = icmp ult i64 %ddi, %se
  %o2 = icmp ult i64 %dsi, %de
  %ov = and i1 %o1, %o2
  br i1 %ov, label %copy, label %add
copy:
  %tmp = call ptr @malloc(i64 %nbytes)
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %dd, i64 %nbytes, i1 false)
  br label %clear
clear:
  %ci = phi i64 [ 0, %copy ], [ %ci1, %clear.next ]
  %ck = phi i64 [ 0, %copy ], [ %ck2, %clear.next ]
  %cbit = shl i64 1, %ck
  %cm = and i64 %mask, %cbit
  %con = icmp ne i64 %cm, 0
  br i1 %con, label %clear.slot, label %clear.next
clear.slot:
  %cpd = getelementptr inbounds {FP}, ptr %dd, i64 %ci
  store {FP} {ZERO}, ptr %cpd
  br label %clear.next
clear.next:
  %ci1 = add i64 %ci, 1
  %ck1 = add i64 %ck, 1
  %cwrap = icmp eq i64 %ck1, %per
  %ck2 = select i1 %cwrap, i64 0, i64 %ck1
  %cc = icmp ult i64 %ci1, %n
  br i1 %cc, label %clear, label %add
add:
  %from = phi ptr [ %dd, %check ], [ %tmp, %clear.next ]
  %direct = icmp eq ptr %from, %dd
  br label %loop
loop:
  %i = phi i64 [ 0, %add ], [ %i1, %next ]
  %k = phi i64 [ 0, %add ], [ %k2, %next ]
  %bit = shl i64 1, %k
  %m = and i64 %mask, %bit
  %on = icmp ne i64 %m, 0
  br i1 %on, label %slot, label %next
slot:
  %pf = getelementptr inbounds {FP}, ptr %from, i64 %i
  %pd = getelementptr inbounds {FP}, ptr %dd, i64 %i
  %ps = getelementptr inbounds {FP}, ptr %ds, i64 %i
  %vf = load {FP}, ptr %pf
  br i1 %direct, label %slot.zero, label %slot.add
slot.zero:
  store {FP} {ZERO}, ptr %pd
  br label %slot.add
slot.add:
  %vs = load {FP}, ptr %ps
  %sum = fadd {FP} %vs, %vf
  store {FP} %sum, ptr %ps
  br label %next
next:
  %i1 = add i64 %i, 1
  %k1 = add i64 %k, 1
  %wrap = icmp eq i64 %k1, %per
  %k2 = select i1 %wrap, i64 0, i64 %k1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  br i1 %direct, label %exit, label %release
release:
  call void @free(ptr %from)
  br label %exit
exit:
  ret void
}

; The forward sweep's copy of shadow memory for such records: only the slots whose bit is
; clear in `%mask` (pointers, integers: shadow pointers must follow the copy) and the
; bytes after the last whole slot; the float slots of the destination keep their
; adjoints. Overlapping buffers are walked in the direction memmove would take.
define void @__fz_copy_fwd_strided_{T}(ptr %dd, ptr %ds, i64 %nbytes, i64 %period, i64 %mask) {
entry:
  %n = udiv i64 %nbytes, {SIZE}
  %per = udiv i64 %period, {SIZE}
  %whole = mul i64 %n, {SIZE}
  %tail = sub i64 %nbytes, %whole
  %tailp = getelementptr inbounds i8, ptr %dd, i64 %whole
  %tails = getelementptr inbounds i8, ptr %ds, i64 %whole
  call void @llvm.memmove.p0.p0.i64(ptr %tailp, ptr %tails, i64 %tail, i1 false)
  %none = icmp eq i64 %n, 0
  br i1 %none, label %exit, label %dir
dir:
  %back = icmp ugt ptr %dd, %ds
  br label %loop
loop:
  %j = phi i64 [ 0, %dir ], [ %j1, %next ]
  %rev = sub i64 %n, 1
  %rj = sub i64 %rev, %j
  %i = select i1 %back, i64 %rj, i64 %j
  %k = urem i64 %i, %per
  %bit = shl i64 1, %k
  %m = and i64 %mask, %bit
  %float = icmp ne i64 %m, 0
  br i1 %float, label %next, label %slot
slot:
  %off = mul i64 %i, {SIZE}
  %pd = getelementptr inbounds i8, ptr %dd, i64 %off
  %ps = getelementptr inbounds i8, ptr %ds, i64 %off
  call void @llvm.memmove.p0.p0.i64(ptr %pd, ptr %ps, i64 {SIZE}, i1 false)
  br label %next
next:
  %j1 = add i64 %j, 1
  %c = icmp ult i64 %j1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
