; Decision: an `i64` load that type analysis cannot type (value and memory Unknown)
; through a pointer that has a shadow, whose value is only compared (`llvm.ucmp`, Rust's
; `Ord::cmp` of integers), moves no bits: `reverse/check.rs` accepts it
; (`untyped_computed_on`; `computed_on` counts `llvm.ucmp`/`llvm.scmp` as comparisons).
; The derivative is generated.
; Why it matters: a `BTreeMap<usize, f64>` built by the caller and passed as `Const`
; (`w.range(2..5)`, `w.get(&i)`): at -O2 the range's bounds live in a `[16 x i8]`
; alloca (byte buffers always get a shadow) and the search's key pointer is a `phi` of
; that alloca and the node's key array, so every key comparison was a cannot-deduce-type
; error (rust30, tests/rust-probe/src/containers.rs `sparse_weighted`).
;
; Reduced by hand from rustc 1.95 -O2 (cargo ferrozyme's before-ad module).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare i8 @llvm.ucmp.i8.i64(i64, i64)

define double @lookup(ptr %keys, ptr %vals, ptr %x, i64 %n) {
entry:
  %b = alloca [16 x i8], align 8
  store i64 2, ptr %b, align 8
  %b8 = getelementptr inbounds i8, ptr %b, i64 8
  store i64 5, ptr %b8, align 8
  br label %loop

loop:
  %kp = phi ptr [ %b, %entry ], [ %nk, %loop ]
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %acc = phi double [ 0.000000e+00, %entry ], [ %acc2, %loop ]
  %key = load i64, ptr %kp, align 8
  %c = call i8 @llvm.ucmp.i8.i64(i64 %i, i64 %key)
  %lt = icmp eq i8 %c, -1
  %vp = getelementptr inbounds double, ptr %vals, i64 %i
  %w = load double, ptr %vp, align 8
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %xp, align 8
  %t = fmul double %w, %xv
  %t2 = select i1 %lt, double %t, double 0.000000e+00
  %acc2 = fadd double %acc, %t2
  %nk = getelementptr inbounds i64, ptr %keys, i64 %i
  %inext = add i64 %i, 1
  %done = icmp eq i64 %inext, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc2
}

define void @grad(ptr %keys, ptr %vals, ptr %x, ptr %dx, i64 %n) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @lookup, i32 %c, ptr %keys, i32 %c, ptr %vals, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @fz_grad_lookup(
; CHECK: call i8 @llvm.ucmp.i8.i64
; CHECK: fmul double
; CHECK: ret void
