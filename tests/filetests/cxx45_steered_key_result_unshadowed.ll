; crash45/map46: `upper(&x)` only compares the active key with the entries of a table the
; user declared inactive (`pick` -> `less`, three calls deep), so the entry pointer it
; returns is constant: `upper`'s own derivative proves it and returns a null shadow. `f`'s
; analysis used to ask `upper` one level shallower and get "shadowed" at the depth limit
; (the gradient added `d_ret * x` into `null + 8`, then crash45's `__fz_check_shadow`
; stopped there). Now the top-level analysis asks again at the callee's own depth and
; agrees: the entry has no shadow in `f`, no check is needed, and the reverse sweep adds
; `d_ret * val` into x's adjoint only (tests/cxx/518 runs at -O0, -O2 and REF).
;
; struct entry { double key, val; };  struct table { struct entry *e; int n; };
; struct table T;  void *__enzyme_inactive_global[] = {(void *)&T};
; int less(const double *a, const double *b) { return *a < *b; }
; const struct entry *pick(const struct entry *e, const double *key, const struct entry *hit)
;   { return less(key, &e->key) ? e : hit; }
; const struct entry *search(const struct entry *b, int n, const double *key) {
;   const struct entry *hit = b + n - 1;
;   for (int i = n - 1; i >= 0; i--) hit = pick(b + i, key, hit);
;   return hit; }
; const struct entry *upper(const double *key) { return search(T.e, T.n, key); }
; double f(double x) { const struct entry *e = upper(&x); return e->val * x; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (every helper noinline; clang-22 -O0 -Xclang -disable-O0-optnone, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-NOT: __fz_check_shadow
; CHECK-LABEL: define internal { double } @fz_grad_f(
; CHECK: %[[AUG:[0-9]+]] = call { ptr, ptr, ptr } @fz_aug_upper
; CHECK-NEXT: %[[P:[0-9]+]] = extractvalue { ptr, ptr, ptr } %[[AUG]], 0
; CHECK-NEXT: %[[S:[0-9]+]] = extractvalue { ptr, ptr, ptr } %[[AUG]], 1
; CHECK-NOT: __fz_check_shadow
; CHECK-NOT: %[[S]]
; CHECK: call void @fz_rev_upper
; CHECK: ret { double }

%struct.table = type { ptr, i32 }
%struct.entry = type { double, double }

@T = dso_local global %struct.table zeroinitializer, align 8
@__enzyme_inactive_global = dso_local global [1 x ptr] [ptr @T], align 8

; Function Attrs: noinline nounwind uwtable
define dso_local i32 @less(ptr noundef %a, ptr noundef %b) {
entry:
  %a.addr = alloca ptr, align 8
  %b.addr = alloca ptr, align 8
  store ptr %a, ptr %a.addr, align 8
  store ptr %b, ptr %b.addr, align 8
  %0 = load ptr, ptr %a.addr, align 8
  %1 = load double, ptr %0, align 8
  %2 = load ptr, ptr %b.addr, align 8
  %3 = load double, ptr %2, align 8
  %cmp = fcmp olt double %1, %3
  %conv = zext i1 %cmp to i32
  ret i32 %conv
}

; Function Attrs: noinline nounwind uwtable
define dso_local ptr @pick(ptr noundef %e, ptr noundef %key, ptr noundef %hit) {
entry:
  %e.addr = alloca ptr, align 8
  %key.addr = alloca ptr, align 8
  %hit.addr = alloca ptr, align 8
  store ptr %e, ptr %e.addr, align 8
  store ptr %key, ptr %key.addr, align 8
  store ptr %hit, ptr %hit.addr, align 8
  %0 = load ptr, ptr %key.addr, align 8
  %1 = load ptr, ptr %e.addr, align 8
  %key1 = getelementptr inbounds nuw %struct.entry, ptr %1, i32 0, i32 0
  %call = call i32 @less(ptr noundef %0, ptr noundef %key1)
  %tobool = icmp ne i32 %call, 0
  br i1 %tobool, label %cond.true, label %cond.false

cond.true:                                        ; preds = %entry
  %2 = load ptr, ptr %e.addr, align 8
  br label %cond.end

cond.false:                                       ; preds = %entry
  %3 = load ptr, ptr %hit.addr, align 8
  br label %cond.end

cond.end:                                         ; preds = %cond.false, %cond.true
  %cond = phi ptr [ %2, %cond.true ], [ %3, %cond.false ]
  ret ptr %cond
}

; Function Attrs: noinline nounwind uwtable
define dso_local ptr @search(ptr noundef %b, i32 noundef %n, ptr noundef %key) {
entry:
  %b.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %key.addr = alloca ptr, align 8
  %hit = alloca ptr, align 8
  %i = alloca i32, align 4
  store ptr %b, ptr %b.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  store ptr %key, ptr %key.addr, align 8
  %0 = load ptr, ptr %b.addr, align 8
  %1 = load i32, ptr %n.addr, align 4
  %idx.ext = sext i32 %1 to i64
  %add.ptr = getelementptr inbounds %struct.entry, ptr %0, i64 %idx.ext
  %add.ptr1 = getelementptr inbounds %struct.entry, ptr %add.ptr, i64 -1
  store ptr %add.ptr1, ptr %hit, align 8
  %2 = load i32, ptr %n.addr, align 4
  %sub = sub nsw i32 %2, 1
  store i32 %sub, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %3 = load i32, ptr %i, align 4
  %cmp = icmp sge i32 %3, 0
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %4 = load ptr, ptr %b.addr, align 8
  %5 = load i32, ptr %i, align 4
  %idx.ext2 = sext i32 %5 to i64
  %add.ptr3 = getelementptr inbounds %struct.entry, ptr %4, i64 %idx.ext2
  %6 = load ptr, ptr %key.addr, align 8
  %7 = load ptr, ptr %hit, align 8
  %call = call ptr @pick(ptr noundef %add.ptr3, ptr noundef %6, ptr noundef %7)
  store ptr %call, ptr %hit, align 8
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %8 = load i32, ptr %i, align 4
  %dec = add nsw i32 %8, -1
  store i32 %dec, ptr %i, align 4
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %9 = load ptr, ptr %hit, align 8
  ret ptr %9
}

; Function Attrs: noinline nounwind uwtable
define dso_local ptr @upper(ptr noundef %key) {
entry:
  %key.addr = alloca ptr, align 8
  store ptr %key, ptr %key.addr, align 8
  %0 = load ptr, ptr @T, align 8
  %1 = load i32, ptr getelementptr inbounds nuw (%struct.table, ptr @T, i32 0, i32 1), align 8
  %2 = load ptr, ptr %key.addr, align 8
  %call = call ptr @search(ptr noundef %0, i32 noundef %1, ptr noundef %2)
  ret ptr %call
}

; Function Attrs: noinline nounwind uwtable
define dso_local double @f(double noundef %x) {
entry:
  %x.addr = alloca double, align 8
  %e = alloca ptr, align 8
  store double %x, ptr %x.addr, align 8
  %call = call ptr @upper(ptr noundef %x.addr)
  store ptr %call, ptr %e, align 8
  %0 = load ptr, ptr %e, align 8
  %val = getelementptr inbounds nuw %struct.entry, ptr %0, i32 0, i32 1
  %1 = load double, ptr %val, align 8
  %2 = load double, ptr %x.addr, align 8
  %mul = fmul double %1, %2
  ret double %mul
}

; Function Attrs: noinline nounwind uwtable
define dso_local double @grad(double noundef %x) {
entry:
  %x.addr = alloca double, align 8
  store double %x, ptr %x.addr, align 8
  %0 = load double, ptr %x.addr, align 8
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @f, double noundef %0)
  ret double %call
}

declare double @__enzyme_autodiff(ptr noundef, ...)

