; A callee filling doubles through a pointer into a member array, `fill(base[i].pos, 3)`
; (c31, tests/c/1192): its every-offset double covers the array, not the `int id` after it;
; `fill(&fr.m[0][0], 9)` fills a 2-D member array flat and must type all nine doubles.
; From tests/data/types/member_array_fill.c: clang-22 -O0 -S -emit-llvm.

%struct.particle = type { [3 x double], [3 x double], double, i32 }
%struct.frame = type { i32, [3 x [3 x double]], i32 }

@base = internal global [2 x %struct.particle] zeroinitializer, align 16
@fr = internal global %struct.frame zeroinitializer, align 8

define dso_local void @fill(ptr noundef %x, i32 noundef %n) {
entry:
  %x.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %i = alloca i32, align 4
  store ptr %x, ptr %x.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4
  %1 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %2 = load i32, ptr %i, align 4
  %conv = sitofp i32 %2 to double
  %mul = fmul double 5.000000e-01, %conv
  %3 = load ptr, ptr %x.addr, align 8
  %4 = load i32, ptr %i, align 4
  %idxprom = sext i32 %4 to i64
  %arrayidx = getelementptr inbounds double, ptr %3, i64 %idxprom
  store double %mul, ptr %arrayidx, align 8
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %5 = load i32, ptr %i, align 4
  %inc = add nsw i32 %5, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond

for.end:                                          ; preds = %for.cond
  ret void
}

define dso_local i32 @setup() {
entry:
  %i = alloca i32, align 4
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4
  %cmp = icmp slt i32 %0, 2
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %1 = load i32, ptr %i, align 4
  %idxprom = sext i32 %1 to i64
  %arrayidx = getelementptr inbounds [2 x %struct.particle], ptr @base, i64 0, i64 %idxprom
  %pos = getelementptr inbounds nuw %struct.particle, ptr %arrayidx, i32 0, i32 0
  %arraydecay = getelementptr inbounds [3 x double], ptr %pos, i64 0, i64 0
  call void @fill(ptr noundef %arraydecay, i32 noundef 3)
  %2 = load i32, ptr %i, align 4
  %idxprom1 = sext i32 %2 to i64
  %arrayidx2 = getelementptr inbounds [2 x %struct.particle], ptr @base, i64 0, i64 %idxprom1
  %vel = getelementptr inbounds nuw %struct.particle, ptr %arrayidx2, i32 0, i32 1
  %arraydecay3 = getelementptr inbounds [3 x double], ptr %vel, i64 0, i64 0
  call void @fill(ptr noundef %arraydecay3, i32 noundef 3)
  %3 = load i32, ptr %i, align 4
  %idxprom4 = sext i32 %3 to i64
  %arrayidx5 = getelementptr inbounds [2 x %struct.particle], ptr @base, i64 0, i64 %idxprom4
  %mass = getelementptr inbounds nuw %struct.particle, ptr %arrayidx5, i32 0, i32 2
  store double 1.000000e+00, ptr %mass, align 16
  %4 = load i32, ptr %i, align 4
  %5 = load i32, ptr %i, align 4
  %idxprom6 = sext i32 %5 to i64
  %arrayidx7 = getelementptr inbounds [2 x %struct.particle], ptr @base, i64 0, i64 %idxprom6
  %id = getelementptr inbounds nuw %struct.particle, ptr %arrayidx7, i32 0, i32 3
  store i32 %4, ptr %id, align 8
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %6 = load i32, ptr %i, align 4
  %inc = add nsw i32 %6, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond

for.end:                                          ; preds = %for.cond
  store i32 1, ptr @fr, align 8
  call void @fill(ptr noundef getelementptr inbounds nuw (%struct.frame, ptr @fr, i32 0, i32 1), i32 noundef 9)
  store i32 2, ptr getelementptr inbounds nuw (%struct.frame, ptr @fr, i32 0, i32 2), align 8
  %7 = load i32, ptr getelementptr inbounds nuw (%struct.particle, ptr getelementptr inbounds ([2 x %struct.particle], ptr @base, i64 0, i64 1), i32 0, i32 3), align 8
  %8 = load i32, ptr getelementptr inbounds nuw (%struct.frame, ptr @fr, i32 0, i32 2), align 8
  %add = add nsw i32 %7, %8
  ret i32 %add
}



