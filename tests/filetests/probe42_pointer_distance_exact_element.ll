; Decision: a `getelementptr i8, p, (ptrtoint end - ptrtoint begin)` whose distance the
; code also divides exactly by a constant (`ashr exact %bytes, 5`: `std::vector` counts
; its elements so when `_M_realloc_insert` grows it) is a whole number of 32-byte
; elements; the new element's stores fill one with doubles (offsets 0, 8, 16, 24), so
; the new buffer holds doubles at every offset and the `memmove` of the old elements into
; it is moved as doubles. A record that mixes types (`std::pair<double, int>`,
; filetests/gep_pointer_distance_offset_not_uniform) or is known only in part never
; fills an element so and learns nothing (as before).
; Why it matters: `std::unique_ptr<std::vector<Pt>>` (Pt = `{std::array<double, 3>,
; double}`) filled by `push_back` then moved into a `std::shared_ptr`, and a
; `std::vector<double>` inside an `std::unordered_map` node, were refused at -O1..-O3
; with cannot-deduce-type at the reallocation's memmove (the old buffer's type is not
; visible there: the vector object's pointee slot had turned opaque). tests/cxx/489.
;
; struct Pt { double p[4]; };
; double f(const double *x, struct Pt *b, struct Pt *e) {
;   long bytes = (char *)e - (char *)b;
;   long n = bytes / 32;                              /* ashr exact */
;   struct Pt *nb = malloc(bytes + 32);
;   struct Pt *slot = (struct Pt *)((char *)nb + bytes);
;   for (int k = 0; k < 4; k++) slot->p[k] = x[k];
;   memmove(nb, b, bytes);
;   double s = slot->p[0] * slot->p[3] * n;
;   free(nb);
;   return s;
; }
; (the clang-22 -O2 shape, written by hand, metadata removed)
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
  %n = ashr exact i64 %bytes, 5
  %size = add i64 %bytes, 32
  %nb = call noalias ptr @malloc(i64 %size)
  %slot = getelementptr inbounds i8, ptr %nb, i64 %bytes
  %x01 = load <2 x double>, ptr %x, align 8
  store <2 x double> %x01, ptr %slot, align 8
  %x2p = getelementptr inbounds nuw i8, ptr %x, i64 16
  %x2 = load double, ptr %x2p, align 8
  %s2 = getelementptr inbounds nuw i8, ptr %slot, i64 16
  store double %x2, ptr %s2, align 8
  %x3p = getelementptr inbounds nuw i8, ptr %x, i64 24
  %x3 = load double, ptr %x3p, align 8
  %s3 = getelementptr inbounds nuw i8, ptr %slot, i64 24
  store double %x3, ptr %s3, align 8
  call void @llvm.memmove.p0.p0.i64(ptr align 8 %nb, ptr align 8 %b, i64 %bytes, i1 false)
  %v0 = load double, ptr %slot, align 8
  %v3 = load double, ptr %s3, align 8
  %m = fmul double %v0, %v3
  %nf = sitofp i64 %n to double
  %s = fmul double %m, %nf
  call void @free(ptr %nb)
  ret double %s
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
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

; The derivative exists and moves the old elements' adjoints back as doubles.
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: call void @__fz_memmove_adj_f64(ptr %{{[0-9]+}}, ptr %b.shadow, i64 %bytes)
