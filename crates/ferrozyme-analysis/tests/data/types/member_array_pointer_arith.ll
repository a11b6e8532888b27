; tests/c/1266 at -O1, reduced: a struct copied whole into a local (`cell t = cs[i]`),
; its member arrays indexed by pointer arithmetic as -O1 and up write it (`gep i32, %t,
; k` for t.node[k], `gep double, (gep i8, %t, 48), j` for t.x[j]: no array type, no
; bound), and a member array filled through a `double *` helper (`fill(t.w)`).
%struct.cell = type { [4 x i32], [4 x double], [3 x double], i32 }

define double @use(ptr %cs, i64 %k, i64 %j) {
entry:
  %t = alloca %struct.cell, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %cs, i64 80, i1 false)
  %x = getelementptr inbounds nuw i8, ptr %t, i64 48
  %kindp = getelementptr inbounds nuw i8, ptr %t, i64 72
  %kind = load i32, ptr %kindp, align 8
  %np = getelementptr inbounds nuw i32, ptr %t, i64 %k
  %n = load i32, ptr %np, align 4
  %xj = getelementptr inbounds double, ptr %x, i64 %j
  %v = load double, ptr %xj, align 8
  %w = getelementptr inbounds nuw i8, ptr %t, i64 16
  call void @fill(ptr %w, i32 %n)
  call void @llvm.memcpy.p0.p0.i64(ptr %cs, ptr %t, i64 80, i1 false)
  ret double %v
}

define void @fill(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr inbounds nuw double, ptr %p, i64 %i
  store double 1.0, ptr %q, align 8
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp eq i64 %i1, 4
  br i1 %c, label %done, label %loop
done:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
