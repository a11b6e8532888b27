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

; `__fz_move_adj_bytes`, the reverse of `memcpy`/`memmove(dst, src, n)` of bytes whose
; type analysis saw conflicting facts (a `HashMap`'s entries, keys beside values, moved
; when its table rehashes): the forward sweep copied the shadow bytes with the primal
; ones; here the destination's adjoint bytes go back to the source and are cleared.
; Nothing says where a float starts or how wide it is, so they are moved, never added:
; word by word (4 bytes, the tail byte by byte) a non-zero destination word goes to a
; source word that is zero; where both hold non-zero bits (both copies carry a
; derivative, or a shadow pointer was copied) the run stops with a message rather than
; give a wrong derivative. A destination above the source is walked upwards, one below it
; downwards, so that an overlapping `memmove`'s words are read before they are written.

@__fz_move_msg = private constant [240 x i8] c"ferrozyme: bytes of unknown type were copied (memcpy/memmove) and both the copy and the original carry a derivative or a pointer's shadow; they cannot be added without knowing the float type. Build the container outside or give it a type.\0A\00"

declare void @abort()
declare i64 @write(i32, ptr, i64)

; One unit (`i32` word or `i8` byte) of the reverse move at `d` (destination) and `s`.
define internal void @__fz_move_adj_word(ptr %d, ptr %s) alwaysinline {
entry:
  %v = load i32, ptr %d, align 1
  %nz = icmp ne i32 %v, 0
  br i1 %nz, label %move, label %done
move:
  %w = load i32, ptr %s, align 1
  %free = icmp eq i32 %w, 0
  br i1 %free, label %put, label %stop, !prof !1
put:
  store i32 0, ptr %d, align 1
  store i32 %v, ptr %s, align 1
  br label %done
stop:
  %n = call i64 @write(i32 2, ptr @__fz_move_msg, i64 239)
  call void @abort()
  unreachable
done:
  ret void
}

define internal void @__fz_move_adj_byte(ptr %d, ptr %s) alwaysinline {
entry:
  %v = load i8, ptr %d, align 1
  %nz = icmp ne i8 %v, 0
  br i1 %nz, label %move, label %done
move:
  %w = load i8, ptr %s, align 1
  %free = icmp eq i8 %w, 0
  br i1 %free, label %put, label %stop, !prof !1
put:
  store i8 0, ptr %d, align 1
  store i8 %v, ptr %s, align 1
  br label %done
stop:
  %n = call i64 @write(i32 2, ptr @__fz_move_msg, i64 239)
  call void @abort()
  unreachable
done:
  ret void
}

define void @__fz_move_adj_bytes(ptr %sd, ptr %ss, i64 %n) {
entry:
  %same = icmp eq ptr %sd, %ss
  %none = icmp eq i64 %n, 0
  %skip = or i1 %same, %none
  br i1 %skip, label %exit, label %start
start:
  %words = lshr i64 %n, 2
  %wbytes = shl i64 %words, 2
  %up = icmp ugt ptr %sd, %ss
  br i1 %up, label %up.words, label %down.tail
; Upwards: words 0..words, then the tail bytes.
up.words:
  %k = phi i64 [ 0, %start ], [ %k.next, %up.word ]
  %k.end = icmp eq i64 %k, %wbytes
  br i1 %k.end, label %up.tail, label %up.word
up.word:
  %dk = getelementptr i8, ptr %sd, i64 %k
  %sk = getelementptr i8, ptr %ss, i64 %k
  call void @__fz_move_adj_word(ptr %dk, ptr %sk)
  %k.next = add i64 %k, 4
  br label %up.words
up.tail:
  %j = phi i64 [ %wbytes, %up.words ], [ %j.next, %up.byte ]
  %j.end = icmp eq i64 %j, %n
  br i1 %j.end, label %exit, label %up.byte
up.byte:
  %dj = getelementptr i8, ptr %sd, i64 %j
  %sj = getelementptr i8, ptr %ss, i64 %j
  call void @__fz_move_adj_byte(ptr %dj, ptr %sj)
  %j.next = add i64 %j, 1
  br label %up.tail
; Downwards: the tail bytes from the last, then the words from the last.
down.tail:
  %t = phi i64 [ %n, %start ], [ %t.prev, %down.byte ]
  %t.end = icmp eq i64 %t, %wbytes
  br i1 %t.end, label %down.words, label %down.byte
down.byte:
  %t.prev = add i64 %t, -1
  %dt = getelementptr i8, ptr %sd, i64 %t.prev
  %st = getelementptr i8, ptr %ss, i64 %t.prev
  call void @__fz_move_adj_byte(ptr %dt, ptr %st)
  br label %down.tail
down.words:
  %m = phi i64 [ %wbytes, %down.tail ], [ %m.prev, %down.word ]
  %m.end = icmp eq i64 %m, 0
  br i1 %m.end, label %exit, label %down.word
down.word:
  %m.prev = add i64 %m, -4
  %dm = getelementptr i8, ptr %sd, i64 %m.prev
  %sm = getelementptr i8, ptr %ss, i64 %m.prev
  call void @__fz_move_adj_word(ptr %dm, ptr %sm)
  br label %down.words
exit:
  ret void
}

!1 = !{!"branch_weights", i32 2000, i32 1}
