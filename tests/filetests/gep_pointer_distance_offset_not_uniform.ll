; Decision: a `getelementptr i8, p, (ptrtoint end - ptrtoint begin)` (the byte distance
; between two pointers into an array, where `std::vector::_M_realloc_insert` places the
; new element in the new buffer) does not send g's facts back to the base as "every
; offset": the distance is a whole number of elements, and an element may mix types
; (`std::pair<double, int>`: a double at +0, an int at +8). Seen one store at a time, g's
; facts looked uniform (only the double), the base became "double everywhere", which
; met the int at +8 and left the pair's int Anything.
; Why it matters: every access of the pair's int was refused with cannot-deduce-type
; (tests/cxx/115, `std::priority_queue<std::pair<double, int>>`, at -O1..-O3) although
; no access is ambiguous.
;
; struct P { double d; int i; };
; double f(const double *x, struct P *b, struct P *e) {    // e - b elements, appended at
;   long bytes = (char *)e - (char *)b;                    // the end of a new buffer
;   struct P *nb = malloc(bytes + 16);
;   struct P *slot = (struct P *)((char *)nb + bytes);
;   slot->d = *x; slot->i = b->i;
;   memcpy(nb, b, bytes);
;   double s = 0;
;   for (struct P *p = nb; p != slot + 1; p++) s += p->d * p->i;
;   free(nb);
;   return s;
; }
; (clang-22 -O2 shape, written by hand, metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr %x, ptr %b, ptr %e) {
entry:
  %ei = ptrtoint ptr %e to i64
  %bi = ptrtoint ptr %b to i64
  %bytes = sub i64 %ei, %bi
  %size = add i64 %bytes, 16
  %nb = call noalias ptr @malloc(i64 %size)
  %slot = getelementptr inbounds i8, ptr %nb, i64 %bytes
  %xv = load double, ptr %x, align 8
  store double %xv, ptr %slot, align 8
  %bi.p = getelementptr inbounds nuw i8, ptr %b, i64 8
  %b.i = load i32, ptr %bi.p, align 8
  %slot.i = getelementptr inbounds nuw i8, ptr %slot, i64 8
  store i32 %b.i, ptr %slot.i, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %nb, ptr align 8 %b, i64 %bytes, i1 false)
  %end = getelementptr inbounds nuw i8, ptr %slot, i64 16
  br label %loop

loop:
  %p = phi ptr [ %nb, %entry ], [ %p.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %d = load double, ptr %p, align 8
  %ip = getelementptr inbounds nuw i8, ptr %p, i64 8
  %i = load i32, ptr %ip, align 8
  %fi = sitofp i32 %i to double
  %m = fmul double %d, %fi
  %s.next = fadd double %s, %m
  %p.next = getelementptr inbounds nuw i8, ptr %p, i64 16
  %done = icmp eq ptr %p.next, %end
  br i1 %done, label %exit, label %loop

exit:
  call void @free(ptr %nb)
  ret double %s.next
}

define void @grad(ptr %x, ptr %dx, ptr %b, ptr %db, ptr %e) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %0, ptr %b, ptr %db, i32 %1, ptr %e)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %i = load i32, ptr %ip
