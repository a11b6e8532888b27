; Decision: a `getelementptr nuw` with a variable index into rows of 24 bytes, followed by
; a constant step of a whole row or more (`s->pos[i][2]` with `pos` at +8, as -O2 writes
; it: `gep [3 x double], s, i` then `+24`), types the double at its first offset (+24)
; in the base, not at its residue modulo the row (+0); a conflict that exists only at the
; GEP's own offsets (element 0 is the struct's leading int, element 1 a row's last
; double) is not sent back to the base.
; Why it matters: the residue +0 is the struct's leading `int n`, read to bound the loop:
; it became Anything and the whole function was refused with cannot-deduce-type
; (tests/c/681 at -O1..-O3) although no access is ambiguous.
;
; typedef struct { int n; double pos[5][3]; } sys;
; double energy(const sys *s) {
;   double e = 0;
;   for (int i = 0; i < s->n; i++) e += s->pos[i][2] * s->pos[i][0];
;   return e;
; }
; void grad(sys *s, sys *ds) { __enzyme_autodiff((void *)energy, enzyme_dup, s, ds); }
; (clang-22 -O2 shape, written by hand, metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4

define double @energy(ptr %s) {
entry:
  %n = load i32, ptr %s, align 8
  %pos = getelementptr inbounds nuw i8, ptr %s, i64 8
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %e = phi double [ 0.0, %entry ], [ %e.next, %loop ]
  %row = getelementptr inbounds nuw [3 x double], ptr %s, i64 %i
  %p2 = getelementptr inbounds nuw i8, ptr %row, i64 24
  %z = load double, ptr %p2, align 8
  %row0 = getelementptr inbounds nuw [3 x double], ptr %pos, i64 %i
  %x = load double, ptr %row0, align 8
  %m = fmul double %z, %x
  %e.next = fadd double %e, %m
  %i.next = add nuw nsw i64 %i, 1
  %n64 = zext nneg i32 %n to i64
  %more = icmp ult i64 %i.next, %n64
  br i1 %more, label %loop, label %exit

exit:
  %r = phi double [ 0.0, %entry ], [ %e.next, %loop ]
  ret double %r
}

define void @grad(ptr %s, ptr %ds) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @energy, i32 %0, ptr %s, ptr %ds)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_energy(ptr %s, ptr %s.shadow, double %d_ret)
; CHECK: %n = load i32, ptr %s
; CHECK-LABEL: {{^}}rev.loop:
; CHECK: [[ROW:%.*]] = getelementptr inbounds nuw [3 x double], ptr %s.shadow, i64 [[I:%.*]]
; CHECK-NEXT: [[Z:%.*]] = getelementptr inbounds nuw i8, ptr [[ROW]], i64 24
; CHECK-NEXT: [[OLD:%.*]] = load double, ptr [[Z]]
; CHECK-NEXT: [[NEW:%.*]] = fadd nsz double [[OLD]],
; CHECK-NEXT: store double [[NEW]], ptr [[Z]]
