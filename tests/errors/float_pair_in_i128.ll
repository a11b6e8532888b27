; EXPECT-ERROR: unsupported-instruction
; EXPECT-ERROR: in function `pick`
; EXPECT-ERROR: floating-point data moved as one `i128` integer
; EXPECT-ERROR: its bits become floating-point data again
; EXPECT-ERROR: in function `copy_pair`
; EXPECT-ERROR: stored whole into differentiable memory
; EXPECT-ERROR: move the floats as floats
; EXPECT-ERROR: in function `pun`
; A pair of doubles (Rust's `(f64, f64)`, a 16-byte struct or enum payload) moved as one
; i128, the way rustc and SROA merge a 16-byte value: loaded as i128, selected, stored
; and reread as doubles (`pick`), or copied whole between differentiable memory
; (`copy_pair`). Type analysis and activity see an integer, so the derivatives were a
; silent zero; the audit (audit/wide_ints.rs) refuses until shadows follow wide integers.
; `pun` is rustc 1.95's `--emit=llvm-ir -O` of
;   #[inline(never)] fn swap_halves(b: u128) -> u128 { b.rotate_left(64) }
;   pub fn pun(p: &(f64, f64)) -> f64 {
;       let bits: u128 = unsafe { std::mem::transmute(*p) };
;       let q: (f64, f64) = unsafe { std::mem::transmute(swap_halves(bits)) };
;       q.0 * q.1 * q.1
;   }
; (attributes and metadata removed): the pair put together from two i64 loads with
; zext/shl/or, through a call, split with trunc/lshr and bitcast.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @pick(ptr %x, ptr %y, i1 %c) {
entry:
  %s = alloca [16 x i8], align 16
  %a = load i128, ptr %x, align 8
  %b = load i128, ptr %y, align 8
  %p = select i1 %c, i128 %a, i128 %b
  store i128 %p, ptr %s, align 16
  %d0 = load double, ptr %s, align 16
  %g = getelementptr i8, ptr %s, i64 8
  %d1 = load double, ptr %g, align 8
  %r = fmul double %d0, %d1
  ret double %r
}

define double @copy_pair(ptr %x, ptr %out) {
entry:
  %a = load i128, ptr %x, align 8
  store i128 %a, ptr %out, align 8
  %d0 = load double, ptr %out, align 8
  %r = fmul double %d0, %d0
  ret double %r
}

define internal i128 @swap_halves(i128 %b) {
start:
  %0 = tail call i128 @llvm.fshl.i128(i128 %b, i128 %b, i128 64)
  ret i128 %0
}
declare i128 @llvm.fshl.i128(i128, i128, i128)

define double @pun(ptr %p) {
start:
  %_3.03 = load i64, ptr %p, align 8
  %0 = getelementptr inbounds nuw i8, ptr %p, i64 8
  %_3.14 = load i64, ptr %0, align 8
  %.sroa.4.0.insert.ext = zext i64 %_3.14 to i128
  %.sroa.4.0.insert.shift = shl nuw i128 %.sroa.4.0.insert.ext, 64
  %.sroa.0.0.insert.ext = zext i64 %_3.03 to i128
  %.sroa.0.0.insert.insert = or disjoint i128 %.sroa.4.0.insert.shift, %.sroa.0.0.insert.ext
  %_5 = tail call fastcc i128 @swap_halves(i128 %.sroa.0.0.insert.insert)
  %.sroa.01.0.extract.trunc = trunc i128 %_5 to i64
  %1 = bitcast i64 %.sroa.01.0.extract.trunc to double
  %.sroa.42.0.extract.shift = lshr i128 %_5, 64
  %.sroa.42.0.extract.trunc = trunc nuw i128 %.sroa.42.0.extract.shift to i64
  %2 = bitcast i64 %.sroa.42.0.extract.trunc to double
  %_6 = fmul double %1, %2
  %_0 = fmul double %_6, %2
  ret double %_0
}

define void @grad_pun(ptr %p, ptr %dp) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @pun, i32 %0, ptr %p, ptr %dp)
  ret void
}

define void @grad_pick(ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %y, ptr %dy, i1 %c)
  ret void
}

define void @grad_copy(ptr %x, ptr %dx, ptr %o, ptr %do) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @copy_pair, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %o, ptr %do)
  ret void
}
