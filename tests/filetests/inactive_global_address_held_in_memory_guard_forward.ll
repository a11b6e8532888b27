; Decision: forward mode guards a pointer read back from memory holding the address of a
; global declared inactive like reverse mode does (inactive_global_address_held_in_memory_guard):
; in `get`, the tangent of `h->s` is null (an inactive global has no shadow) while the
; pointer is not, so the program stops with the message naming `G` before the tangent of
; `h->s->data` is read through the null pointer; `cnt`, reading only an int through it,
; gets no check.
; Why it matters: `__enzyme_fwddiff` of tests/c/674's function crashed too (g674).
;
; The source of inactive_global_address_held_in_memory_guard.ll with
; `__enzyme_fwddiff((void *)f, x, 1.0)` in `grad` (clang-22 -O2, attributes and metadata
; removed).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
%struct.S = type { ptr, i32 }

@G = dso_local global %struct.S zeroinitializer, align 8
@__enzyme_inactive_global = dso_local local_unnamed_addr global [1 x ptr] [ptr @G], align 8

define dso_local i32 @cnt(ptr noundef readonly captures(none) %h) local_unnamed_addr {
entry:
  %0 = load ptr, ptr %h, align 8
  %n = getelementptr inbounds nuw i8, ptr %0, i64 8
  %1 = load i32, ptr %n, align 8
  ret i32 %1
}

define dso_local double @get(ptr noundef readonly captures(none) %h, i32 noundef %i) local_unnamed_addr {
entry:
  %0 = load ptr, ptr %h, align 8
  %1 = load ptr, ptr %0, align 8
  %idxprom = sext i32 %i to i64
  %arrayidx = getelementptr inbounds double, ptr %1, i64 %idxprom
  %2 = load double, ptr %arrayidx, align 8
  ret double %2
}

define dso_local double @f(double noundef %x) {
entry:
  %call = tail call dereferenceable_or_null(16) ptr @malloc(i64 noundef 16)
  store ptr @G, ptr %call, align 8
  %call2 = tail call double @get(ptr noundef nonnull %call, i32 noundef 0)
  %mul = fmul double %x, %call2
  %0 = tail call double @llvm.fmuladd.f64(double %mul, double %x, double 0.000000e+00)
  %call2.1 = tail call double @get(ptr noundef nonnull %call, i32 noundef 1)
  %mul.1 = fmul double %x, %call2.1
  %1 = tail call double @llvm.fmuladd.f64(double %mul.1, double %x, double %0)
  %call2.2 = tail call double @get(ptr noundef nonnull %call, i32 noundef 2)
  %mul.2 = fmul double %x, %call2.2
  %2 = tail call double @llvm.fmuladd.f64(double %mul.2, double %x, double %1)
  %call4 = tail call i32 @cnt(ptr noundef nonnull %call)
  %conv = sitofp i32 %call4 to double
  %mul5 = fmul double %2, %conv
  tail call void @free(ptr noundef nonnull %call)
  ret double %mul5
}

declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

define dso_local double @grad(double noundef %x) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, double noundef %x, double noundef 1.000000e+00)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read here is the address of global `G`, declared inactive (__enzyme_inactive_global)
; CHECK-LABEL: define internal { double, double } @fz_fwd_get(ptr %h, ptr %h.d0, i32 %i)
; CHECK: [[P:%.*]] = load ptr, ptr %h
; CHECK: [[S:%.*]] = load ptr, ptr %h.d0
; CHECK: [[NOSH:%.*]] = icmp eq ptr [[S]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
; CHECK: load ptr, ptr [[S]]
; CHECK-LABEL: define internal { i32 } @fz_fwd_cnt(
; CHECK-NOT: __fz_check_shadow
; CHECK: ret { i32 }
