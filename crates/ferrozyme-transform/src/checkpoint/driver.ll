
%struct.EnzymeCkptStats = type { i64, i64, i64, i64, i64, i64 }
%struct.EnzymeCkptAction = type { i32, i64, i64, i64 }
%struct.EnzymeCkptRegion = type { ptr, i64, i32, i32 }
%struct.fz_fp_state = type { ptr, i64, i32, i32 }
%struct.fzck_frame = type { i64, i64, i64, i64, i64, i32 }

@.str = private unnamed_addr constant [14 x i8] c"out of memory\00", align 1
@.str.1 = private unnamed_addr constant [23 x i8] c"FERROZYME_CKPT_VERBOSE\00", align 1
@.str.2 = private unnamed_addr constant [52 x i8] c"the scheme's version is not ENZYME_CKPT_ABI_VERSION\00", align 1
@.str.3 = private unnamed_addr constant [65 x i8] c"a while loop needs a scheme with set_nsteps (EnzymeCkptStoreAll)\00", align 1
@.str.4 = private unnamed_addr constant [56 x i8] c"the scheme gave an action the forward sweep cannot take\00", align 1
@.str.5 = private unnamed_addr constant [56 x i8] c"the scheme gave an action the reverse sweep cannot take\00", align 1
@.str.6 = private unnamed_addr constant [22 x i8] c"FERROZYME_TAPE_BUDGET\00", align 1
@__fz_ckpt_auto_checkpointed_loops = dso_local local_unnamed_addr global i64 0, align 8
@stderr = external local_unnamed_addr global ptr, align 8
@.str.7 = private unnamed_addr constant [87 x i8] c"ferrozyme: loop of %lld steps, estimated tape %.0f bytes (%lld a step), budget %s: %s\0A\00", align 1
@.str.8 = private unnamed_addr constant [13 x i8] c"checkpointed\00", align 1
@.str.9 = private unnamed_addr constant [6 x i8] c"taped\00", align 1
@__fz_ckpt_auto_taped_loops = dso_local local_unnamed_addr global i64 0, align 8
@.str.10 = private unnamed_addr constant [8 x i8] c"adjoint\00", align 1
@.str.11 = private unnamed_addr constant [8 x i8] c"tangent\00", align 1
@__fz_ckpt_marked_stats = weak dso_local global %struct.EnzymeCkptStats zeroinitializer, align 8
@__fz_ckpt_marked_loops = weak dso_local local_unnamed_addr global i64 0, align 8
@EnzymeCkptRevolve = internal constant { i32, [4 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { i32 1, [4 x i8] zeroinitializer, ptr @fzck_revolve_init, ptr @fzck_next, ptr @fzck_store, ptr @fzck_restore, ptr null, ptr @fzck_finalize, ptr null, ptr null, ptr null }, align 8
@.str.13 = private unnamed_addr constant [76 x i8] c"Revolve needs the number of steps (use EnzymeCkptStoreAll for a while loop)\00", align 1
@.str.14 = private unnamed_addr constant [31 x i8] c"out of memory for the schedule\00", align 1
@.str.15 = private unnamed_addr constant [59 x i8] c"enzyme checkpoint: %s iteration=%lld start=%lld slot=%lld\0A\00", align 1
@fzck_flag_name.names.rel = internal unnamed_addr constant [8 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.16 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.17 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.18 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.19 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.20 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.21 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.22 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.23 to i64), i64 ptrtoint (ptr @fzck_flag_name.names.rel to i64)) to i32)], align 4
@.str.16 = private unnamed_addr constant [5 x i8] c"none\00", align 1
@.str.17 = private unnamed_addr constant [6 x i8] c"store\00", align 1
@.str.18 = private unnamed_addr constant [8 x i8] c"restore\00", align 1
@.str.19 = private unnamed_addr constant [8 x i8] c"forward\00", align 1
@.str.20 = private unnamed_addr constant [11 x i8] c"firstuturn\00", align 1
@.str.21 = private unnamed_addr constant [6 x i8] c"uturn\00", align 1
@.str.22 = private unnamed_addr constant [6 x i8] c"error\00", align 1
@.str.23 = private unnamed_addr constant [5 x i8] c"done\00", align 1
@.str.24 = private unnamed_addr constant [27 x i8] c"store into a slot below -2\00", align 1
@.str.25 = private unnamed_addr constant [33 x i8] c"out of memory for snapshot slots\00", align 1
@.str.26 = private unnamed_addr constant [3 x i8] c"wb\00", align 1
@.str.27 = private unnamed_addr constant [45 x i8] c"cannot open a spill file in config.spill_dir\00", align 1
@.str.28 = private unnamed_addr constant [28 x i8] c"short write to a spill file\00", align 1
@.str.29 = private unnamed_addr constant [29 x i8] c"out of memory for a snapshot\00", align 1
@.str.30 = private unnamed_addr constant [81 x i8] c"snapshots of device memory (a region in another address space) are not supported\00", align 1
@.str.31 = private unnamed_addr constant [22 x i8] c"%s/fzckpt_%p_%lld.bin\00", align 1
@.str.32 = private unnamed_addr constant [41 x i8] c"restore of a slot that holds no snapshot\00", align 1
@.str.33 = private unnamed_addr constant [3 x i8] c"rb\00", align 1
@.str.34 = private unnamed_addr constant [25 x i8] c"cannot open a spill file\00", align 1
@.str.35 = private unnamed_addr constant [29 x i8] c"short read from a spill file\00", align 1
@.str.36 = private unnamed_addr constant [110 x i8] c"enzyme checkpoint: %lld forward steps, %lld taped steps, %lld stores, %lld restores, %lld slots (%llu bytes)\0A\00", align 1
@EnzymeCkptPeriodic = internal constant { i32, [4 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { i32 1, [4 x i8] zeroinitializer, ptr @fzck_periodic_init, ptr @fzck_next, ptr @fzck_store, ptr @fzck_restore, ptr null, ptr @fzck_finalize, ptr null, ptr null, ptr null }, align 8
@.str.38 = private unnamed_addr constant [91 x i8] c"periodic checkpointing needs the number of steps (use EnzymeCkptStoreAll for a while loop)\00", align 1
@.str.39 = private unnamed_addr constant [23 x i8] c"enzyme checkpoint: %s\0A\00", align 1
@EnzymeCkptStoreAll = internal constant { i32, [4 x i8], ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr } { i32 1, [4 x i8] zeroinitializer, ptr @fzck_store_all_init, ptr @fzck_next, ptr @fzck_store, ptr @fzck_restore, ptr @fzck_set_nsteps, ptr @fzck_finalize, ptr null, ptr null, ptr null }, align 8
@.str.41 = private unnamed_addr constant [56 x i8] c"set_nsteps of a schedule that knows its number of steps\00", align 1
@.str.42 = private unnamed_addr constant [44 x i8] c"the scheme has neither store nor save_state\00", align 1
@.str.43 = private unnamed_addr constant [46 x i8] c"the scheme has neither restore nor load_state\00", align 1
@.str.44 = private unnamed_addr constant [45 x i8] c"out of memory for the fixed point's snapshot\00", align 1
@.str.45 = private unnamed_addr constant [193 x i8] c"ferrozyme: __enzyme_fixed_point: the %s iteration stopped after %lld iterations without converging (squared norm of the update %g, first %g, reduction asked %g): the derivative is approximate\0A\00", align 1
@llvm.compiler.used = appending global [1 x ptr] [ptr @__enzyme_checkpoint_builtin], section "llvm.metadata"

; Function Attrs: nounwind uwtable
define weak dso_local ptr @__enzyme_checkpoint_builtin(i64 noundef %mode) #0 {
entry:
  %cmp = icmp eq i64 %mode, 2
  %cond = select i1 %cmp, ptr @EnzymeCkptRevolve, ptr @EnzymeCkptPeriodic
  ret ptr %cond
}

; Function Attrs: nounwind uwtable
define dso_local nonnull ptr @__fz_ckpt_forward(ptr noundef %scheme, ptr noundef %data, i64 noundef %start, i64 noundef %n, ptr noundef readonly captures(none) %regions, i64 noundef %nregions, ptr noundef readonly captures(none) %step, ptr noundef %env) local_unnamed_addr #0 {
entry:
  %a = alloca %struct.EnzymeCkptAction, align 8
  %call = tail call noalias dereferenceable_or_null(104) ptr @calloc(i64 noundef 1, i64 noundef 104) #21
  call void @llvm.lifetime.start.p0(ptr nonnull %a) #22
  %tobool.not = icmp eq ptr %call, null
  br i1 %tobool.not, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str)
  unreachable

if.end:                                           ; preds = %entry
  %cmp = icmp slt i64 %n, 0
  %n.lobit = lshr i64 %n, 63
  %conv = trunc nuw nsw i64 %n.lobit to i32
  %is_while = getelementptr inbounds nuw i8, ptr %call, i64 80
  store i32 %conv, ptr %is_while, align 8, !tbaa !9
  %cond = select i1 %cmp, i64 0, i64 %start
  %start3 = getelementptr inbounds nuw i8, ptr %call, i64 56
  store i64 %cond, ptr %start3, align 8, !tbaa !18
  %n4 = getelementptr inbounds nuw i8, ptr %call, i64 64
  store i64 %n, ptr %n4, align 8, !tbaa !19
  %nregions5 = getelementptr inbounds nuw i8, ptr %call, i64 96
  store i64 %nregions, ptr %nregions5, align 8, !tbaa !20
  %cond10 = tail call i64 @llvm.umax.i64(i64 %nregions, i64 1)
  %mul = mul i64 %cond10, 24
  %call11 = tail call noalias ptr @malloc(i64 noundef %mul) #23
  %regions12 = getelementptr inbounds nuw i8, ptr %call, i64 88
  store ptr %call11, ptr %regions12, align 8, !tbaa !21
  %tobool14.not = icmp eq ptr %call11, null
  br i1 %tobool14.not, label %if.then15, label %for.cond.preheader

for.cond.preheader:                               ; preds = %if.end
  %cmp17200.not = icmp eq i64 %nregions, 0
  br i1 %cmp17200.not, label %for.end, label %for.body

if.then15:                                        ; preds = %if.end
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str)
  unreachable

for.body:                                         ; preds = %for.cond.preheader, %for.body
  %r.0202 = phi i64 [ %inc, %for.body ], [ 0, %for.cond.preheader ]
  %bytes.0201 = phi i64 [ %add, %for.body ], [ 0, %for.cond.preheader ]
  %arrayidx = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %call11, i64 %r.0202
  %arrayidx20 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %r.0202
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(24) %arrayidx, ptr noundef nonnull align 8 dereferenceable(24) %arrayidx20, i64 24, i1 false), !tbaa.struct !22
  %bytes22 = getelementptr inbounds nuw i8, ptr %arrayidx20, i64 8
  %0 = load i64, ptr %bytes22, align 8, !tbaa !25
  %add = add i64 %0, %bytes.0201
  %inc = add nuw i64 %r.0202, 1
  %exitcond.not = icmp eq i64 %inc, %nregions
  br i1 %exitcond.not, label %for.end, label %for.body, !llvm.loop !27

for.end:                                          ; preds = %for.body, %for.cond.preheader
  %bytes.0.lcssa = phi i64 [ 0, %for.cond.preheader ], [ %add, %for.body ]
  %tobool23.not = icmp eq ptr %scheme, null
  br i1 %tobool23.not, label %if.then24, label %if.end50

if.then24:                                        ; preds = %for.end
  %call25 = tail call ptr @getenv(ptr noundef nonnull @.str.1) #22
  %tobool26.not = icmp eq ptr %call25, null
  br i1 %tobool26.not, label %cond.end30, label %cond.true27

cond.true27:                                      ; preds = %if.then24
  %call.i = tail call i64 @strtol(ptr noundef nonnull captures(none) %call25, ptr noundef null, i32 noundef 10) #22
  %conv.i = trunc i64 %call.i to i32
  br label %cond.end30

cond.end30:                                       ; preds = %if.then24, %cond.true27
  %cond31 = phi i32 [ %conv.i, %cond.true27 ], [ 0, %if.then24 ]
  %own = getelementptr inbounds nuw i8, ptr %call, i64 16
  %verbose = getelementptr inbounds nuw i8, ptr %call, i64 24
  store i32 %cond31, ptr %verbose, align 8, !tbaa !30
  %tobool32.not = icmp eq ptr %data, null
  %tobool38.not = icmp sgt i64 %n, -1
  br i1 %tobool32.not, label %if.else, label %land.lhs.true

land.lhs.true:                                    ; preds = %cond.end30
  br i1 %tobool38.not, label %if.then35, label %cond.end42

if.then35:                                        ; preds = %land.lhs.true
  %arrayidx.i = getelementptr inbounds nuw i8, ptr %data, i64 8
  %1 = load i64, ptr %arrayidx.i, align 8, !tbaa !24
  %stats.i = getelementptr inbounds nuw i8, ptr %call, i64 48
  store ptr @__fz_ckpt_marked_stats, ptr %stats.i, align 8, !tbaa !31
  %2 = load i64, ptr @__fz_ckpt_marked_loops, align 8, !tbaa !24
  %inc.i = add nsw i64 %2, 1
  store i64 %inc.i, ptr @__fz_ckpt_marked_loops, align 8, !tbaa !24
  %3 = load i64, ptr %data, align 8, !tbaa !24
  switch i64 %3, label %sw.default.i [
    i64 3, label %fz_marked.exit
    i64 2, label %sw.bb3.i
    i64 4, label %sw.bb3.i
  ]

sw.bb3.i:                                         ; preds = %if.then35, %if.then35
  %cmp.i.i = icmp sgt i64 %1, 0
  br i1 %cmp.i.i, label %enzyme_ckpt_binomial_slots.exit.i, label %cond.false.i.i

cond.false.i.i:                                   ; preds = %sw.bb3.i
  %cmp.i.i.i = icmp eq i64 %n, 0
  br i1 %cmp.i.i.i, label %enzyme_ckpt_binomial_slots.exit.i, label %if.end.i.i.i

if.end.i.i.i:                                     ; preds = %cond.false.i.i
  %4 = tail call i64 @llvm.umin.i64(i64 %n, i64 3037000499)
  br label %while.body.i.i.i

while.body.i.i.i:                                 ; preds = %while.body.i.i.i, %if.end.i.i.i
  %hi.021.i.i.i = phi i64 [ %4, %if.end.i.i.i ], [ %hi.1.i.i.i, %while.body.i.i.i ]
  %lo.020.i.i.i = phi i64 [ 0, %if.end.i.i.i ], [ %lo.1.i.i.i, %while.body.i.i.i ]
  %reass.sub.i.i.i = add i64 %hi.021.i.i.i, 1
  %add.i.i.i = sub i64 %reass.sub.i.i.i, %lo.020.i.i.i
  %div19.i.i.i = lshr i64 %add.i.i.i, 1
  %add3.i.i.i = add nsw i64 %div19.i.i.i, %lo.020.i.i.i
  %mul.i.i.i = mul nsw i64 %add3.i.i.i, %add3.i.i.i
  %cmp4.not.i.i.i = icmp sgt i64 %mul.i.i.i, %n
  %sub6.i.i.i = add nsw i64 %add3.i.i.i, -1
  %lo.1.i.i.i = select i1 %cmp4.not.i.i.i, i64 %lo.020.i.i.i, i64 %add3.i.i.i
  %hi.1.i.i.i = select i1 %cmp4.not.i.i.i, i64 %sub6.i.i.i, i64 %hi.021.i.i.i
  %cmp2.i.i.i = icmp slt i64 %lo.1.i.i.i, %hi.1.i.i.i
  br i1 %cmp2.i.i.i, label %while.body.i.i.i, label %enzyme_ckpt_binomial_slots.exit.i, !llvm.loop !32

enzyme_ckpt_binomial_slots.exit.i:                ; preds = %while.body.i.i.i, %cond.false.i.i, %sw.bb3.i
  %cond.i.i = phi i64 [ %1, %sw.bb3.i ], [ 0, %cond.false.i.i ], [ %lo.1.i.i.i, %while.body.i.i.i ]
  %cmp1.i.i = icmp slt i64 %1, 1
  %5 = tail call i64 @llvm.smax.i64(i64 %cond.i.i, i64 2)
  %spec.store.select.i.i = select i1 %cmp1.i.i, i64 %5, i64 %cond.i.i
  %cmp3.i.i.not = icmp eq i64 %n, 0
  %6 = tail call i64 @llvm.smin.i64(i64 %spec.store.select.i.i, i64 %n)
  %s.0.i.i = select i1 %cmp3.i.i.not, i64 %spec.store.select.i.i, i64 %6
  %cond12.i.i = tail call range(i64 1, -9223372036854775808) i64 @llvm.smax.i64(i64 %s.0.i.i, i64 1)
  br label %fz_marked.exit

sw.default.i:                                     ; preds = %if.then35
  %cmp.i = icmp sgt i64 %1, 0
  br i1 %cmp.i, label %fz_marked.exit, label %cond.false.i

cond.false.i:                                     ; preds = %sw.default.i
  %cmp.i.i.i.i = icmp eq i64 %n, 0
  br i1 %cmp.i.i.i.i, label %enzyme_ckpt_isqrt.exit.thread.i.i.i, label %if.end.i.i.i.i

if.end.i.i.i.i:                                   ; preds = %cond.false.i
  %7 = tail call i64 @llvm.umin.i64(i64 %n, i64 3037000499)
  br label %while.body.i.i.i.i

while.body.i.i.i.i:                               ; preds = %while.body.i.i.i.i, %if.end.i.i.i.i
  %hi.021.i.i.i.i = phi i64 [ %7, %if.end.i.i.i.i ], [ %hi.1.i.i.i.i, %while.body.i.i.i.i ]
  %lo.020.i.i.i.i = phi i64 [ 0, %if.end.i.i.i.i ], [ %lo.1.i.fr.i.i.i, %while.body.i.i.i.i ]
  %reass.sub.i.i.i.i = add nsw i64 %hi.021.i.i.i.i, 1
  %add.i.i.i.i = sub i64 %reass.sub.i.i.i.i, %lo.020.i.i.i.i
  %div19.i.i.i.i = lshr i64 %add.i.i.i.i, 1
  %add3.i.i.i.i = add nsw i64 %div19.i.i.i.i, %lo.020.i.i.i.i
  %mul.i.i.i.i = mul nsw i64 %add3.i.i.i.i, %add3.i.i.i.i
  %cmp4.not.i.i.i.i = icmp samesign ugt i64 %mul.i.i.i.i, %n
  %sub6.i.i.i.i = add nsw i64 %add3.i.i.i.i, -1
  %lo.1.i.i.i.i = select i1 %cmp4.not.i.i.i.i, i64 %lo.020.i.i.i.i, i64 %add3.i.i.i.i
  %lo.1.i.fr.i.i.i = freeze i64 %lo.1.i.i.i.i
  %hi.1.i.i.i.i = select i1 %cmp4.not.i.i.i.i, i64 %sub6.i.i.i.i, i64 %hi.021.i.i.i.i
  %cmp2.i.i.i.i = icmp slt i64 %lo.1.i.fr.i.i.i, %hi.1.i.i.i.i
  br i1 %cmp2.i.i.i.i, label %while.body.i.i.i.i, label %enzyme_ckpt_isqrt.exit.i.i.i, !llvm.loop !32

enzyme_ckpt_isqrt.exit.i.i.i:                     ; preds = %while.body.i.i.i.i
  %cmp3.i.i.i = icmp slt i64 %lo.1.i.fr.i.i.i, 1
  br i1 %cmp3.i.i.i, label %enzyme_ckpt_isqrt.exit.thread.i.i.i, label %enzyme_ckpt_periodic_segments.exit.i

enzyme_ckpt_isqrt.exit.thread.i.i.i:              ; preds = %enzyme_ckpt_isqrt.exit.i.i.i, %cond.false.i
  br label %enzyme_ckpt_periodic_segments.exit.i

enzyme_ckpt_periodic_segments.exit.i:             ; preds = %enzyme_ckpt_isqrt.exit.thread.i.i.i, %enzyme_ckpt_isqrt.exit.i.i.i
  %8 = phi i64 [ 1, %enzyme_ckpt_isqrt.exit.thread.i.i.i ], [ %lo.1.i.fr.i.i.i, %enzyme_ckpt_isqrt.exit.i.i.i ]
  %div8.i.i.i = udiv i64 %n, %8
  %rem.i.i.i = urem i64 %n, %8
  %cmp.i17.i = icmp ne i64 %rem.i.i.i, 0
  %conv1.i.i = zext i1 %cmp.i17.i to i64
  %add.i.i = add nuw nsw i64 %div8.i.i.i, %conv1.i.i
  br label %fz_marked.exit

fz_marked.exit:                                   ; preds = %if.then35, %enzyme_ckpt_binomial_slots.exit.i, %sw.default.i, %enzyme_ckpt_periodic_segments.exit.i
  %cond.sink.i = phi i64 [ 1, %if.then35 ], [ %cond12.i.i, %enzyme_ckpt_binomial_slots.exit.i ], [ %add.i.i, %enzyme_ckpt_periodic_segments.exit.i ], [ %1, %sw.default.i ]
  %retval.0.i = phi ptr [ @EnzymeCkptStoreAll, %if.then35 ], [ @EnzymeCkptRevolve, %enzyme_ckpt_binomial_slots.exit.i ], [ @EnzymeCkptPeriodic, %enzyme_ckpt_periodic_segments.exit.i ], [ @EnzymeCkptPeriodic, %sw.default.i ]
  store i64 %cond.sink.i, ptr %own, align 8, !tbaa !33
  br label %if.end50

if.else:                                          ; preds = %cond.end30
  br i1 %tobool38.not, label %cond.false40, label %cond.end42

cond.false40:                                     ; preds = %if.else
  %call.i169 = tail call ptr @getenv(ptr noundef nonnull @.str.6) #22
  %tobool.not.i = icmp eq ptr %call.i169, null
  br i1 %tobool.not.i, label %for.cond.i.preheader, label %land.lhs.true.i

for.cond.i.preheader:                             ; preds = %land.lhs.true.i, %cond.false40
  br label %for.cond.i

land.lhs.true.i:                                  ; preds = %cond.false40
  %9 = load i8, ptr %call.i169, align 1, !tbaa !34
  %tobool1.not.i = icmp eq i8 %9, 0
  br i1 %tobool1.not.i, label %for.cond.i.preheader, label %if.then.i

if.then.i:                                        ; preds = %land.lhs.true.i
  %call2.i = tail call i64 @strtoull(ptr noundef nonnull captures(none) %call.i169, ptr noundef null, i32 noundef 10) #22
  %tobool3.not.i = icmp eq i64 %bytes.0.lcssa, 0
  br i1 %tobool3.not.i, label %cond.end.i, label %cond.true.i

cond.true.i:                                      ; preds = %if.then.i
  %div.i = udiv i64 %call2.i, %bytes.0.lcssa
  br label %cond.end.i

cond.end.i:                                       ; preds = %cond.true.i, %if.then.i
  %cond.i = phi i64 [ %div.i, %cond.true.i ], [ %n, %if.then.i ]
  %cond8.i = tail call i64 @llvm.smax.i64(i64 %cond.i, i64 1)
  br label %cond.end42

for.cond.i:                                       ; preds = %for.cond.i.preheader, %for.cond.i
  %s.0.i = phi i64 [ %inc.i171, %for.cond.i ], [ 0, %for.cond.i.preheader ]
  %mul.i = mul nuw nsw i64 %s.0.i, %s.0.i
  %cmp9.i = icmp slt i64 %mul.i, %n
  %inc.i171 = add nuw nsw i64 %s.0.i, 1
  br i1 %cmp9.i, label %for.cond.i, label %for.end.i, !llvm.loop !35

for.end.i:                                        ; preds = %for.cond.i
  %cond16.i = tail call i64 @llvm.umax.i64(i64 %s.0.i, i64 1)
  br label %cond.end42

cond.end42:                                       ; preds = %land.lhs.true, %for.end.i, %cond.end.i, %if.else
  %cond43 = phi i64 [ %cond16.i, %for.end.i ], [ 1, %if.else ], [ %cond8.i, %cond.end.i ], [ 1, %land.lhs.true ]
  store i64 %cond43, ptr %own, align 8, !tbaa !33
  %tobool46.not = icmp sgt i64 %n, -1
  %cond47 = select i1 %tobool46.not, ptr @EnzymeCkptRevolve, ptr @EnzymeCkptStoreAll
  br label %if.end50

if.end50:                                         ; preds = %fz_marked.exit, %cond.end42, %for.end
  %data.addr.0 = phi ptr [ %data, %for.end ], [ %own, %cond.end42 ], [ %own, %fz_marked.exit ]
  %scheme.addr.1 = phi ptr [ %scheme, %for.end ], [ %cond47, %cond.end42 ], [ %retval.0.i, %fz_marked.exit ]
  %10 = load i32, ptr %scheme.addr.1, align 8, !tbaa !36
  %cmp51.not = icmp eq i32 %10, 1
  br i1 %cmp51.not, label %if.end54, label %if.then53

if.then53:                                        ; preds = %if.end50
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.2)
  unreachable

if.end54:                                         ; preds = %if.end50
  store ptr %scheme.addr.1, ptr %call, align 8, !tbaa !38
  %init = getelementptr inbounds nuw i8, ptr %scheme.addr.1, i64 8
  %11 = load ptr, ptr %init, align 8, !tbaa !39
  %call56 = tail call ptr %11(ptr noundef %data.addr.0, i64 noundef %n, i64 noundef %bytes.0.lcssa) #22
  %state = getelementptr inbounds nuw i8, ptr %call, i64 8
  store ptr %call56, ptr %state, align 8, !tbaa !40
  %next_action = getelementptr inbounds nuw i8, ptr %scheme.addr.1, i64 16
  %startiteration = getelementptr inbounds nuw i8, ptr %a, i64 16
  %iteration64 = getelementptr inbounds nuw i8, ptr %a, i64 8
  %set_nsteps = getelementptr inbounds nuw i8, ptr %scheme.addr.1, i64 40
  %cpnum60 = getelementptr inbounds nuw i8, ptr %a, i64 24
  br label %for.cond57

for.cond57:                                       ; preds = %sw.epilog, %if.end54
  %12 = phi ptr [ %.pre, %sw.epilog ], [ %call56, %if.end54 ]
  %13 = load ptr, ptr %next_action, align 8, !tbaa !41
  call void %13(ptr noundef %12, ptr noundef nonnull %a) #22
  %14 = load i32, ptr %a, align 8, !tbaa !42
  switch i32 %14, label %sw.default [
    i32 1, label %sw.bb
    i32 2, label %sw.bb59
    i32 3, label %sw.bb62
    i32 4, label %sw.bb92
    i32 7, label %sw.bb100
  ]

sw.bb:                                            ; preds = %for.cond57
  %15 = load i64, ptr %cpnum60, align 8, !tbaa !44
  %16 = load i64, ptr %iteration64, align 8, !tbaa !45
  %17 = load ptr, ptr %call, align 8, !tbaa !38
  %save_state.i = getelementptr inbounds nuw i8, ptr %17, i64 56
  %18 = load ptr, ptr %save_state.i, align 8, !tbaa !46
  %tobool.not.i172 = icmp eq ptr %18, null
  br i1 %tobool.not.i172, label %if.else.i, label %if.then.i173

if.then.i173:                                     ; preds = %sw.bb
  %19 = load ptr, ptr %state, align 8, !tbaa !40
  call void %18(ptr noundef %19, i64 noundef %15, i64 noundef %16, ptr noundef %env) #22
  br label %sw.epilog

if.else.i:                                        ; preds = %sw.bb
  %store.i = getelementptr inbounds nuw i8, ptr %17, i64 24
  %20 = load ptr, ptr %store.i, align 8, !tbaa !47
  %tobool4.not.i = icmp eq ptr %20, null
  br i1 %tobool4.not.i, label %if.else9.i, label %if.then5.i

if.then5.i:                                       ; preds = %if.else.i
  %21 = load ptr, ptr %state, align 8, !tbaa !40
  %22 = load ptr, ptr %regions12, align 8, !tbaa !21
  %23 = load i64, ptr %nregions5, align 8, !tbaa !20
  call void %20(ptr noundef %21, i64 noundef %15, i64 noundef %16, ptr noundef %22, i64 noundef %23) #22
  br label %sw.epilog

if.else9.i:                                       ; preds = %if.else.i
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.42)
  unreachable

sw.bb59:                                          ; preds = %for.cond57
  %24 = load i64, ptr %cpnum60, align 8, !tbaa !44
  %25 = load i64, ptr %iteration64, align 8, !tbaa !45
  %26 = load ptr, ptr %call, align 8, !tbaa !38
  %load_state.i = getelementptr inbounds nuw i8, ptr %26, i64 64
  %27 = load ptr, ptr %load_state.i, align 8, !tbaa !48
  %tobool.not.i174 = icmp eq ptr %27, null
  br i1 %tobool.not.i174, label %if.else.i177, label %if.then.i175

if.then.i175:                                     ; preds = %sw.bb59
  %28 = load ptr, ptr %state, align 8, !tbaa !40
  call void %27(ptr noundef %28, i64 noundef %24, i64 noundef %25, ptr noundef %env) #22
  br label %sw.epilog

if.else.i177:                                     ; preds = %sw.bb59
  %restore.i = getelementptr inbounds nuw i8, ptr %26, i64 32
  %29 = load ptr, ptr %restore.i, align 8, !tbaa !49
  %tobool4.not.i178 = icmp eq ptr %29, null
  br i1 %tobool4.not.i178, label %if.else9.i183, label %if.then5.i179

if.then5.i179:                                    ; preds = %if.else.i177
  %30 = load ptr, ptr %state, align 8, !tbaa !40
  %31 = load ptr, ptr %regions12, align 8, !tbaa !21
  %32 = load i64, ptr %nregions5, align 8, !tbaa !20
  call void %29(ptr noundef %30, i64 noundef %24, i64 noundef %25, ptr noundef %31, i64 noundef %32) #22
  br label %sw.epilog

if.else9.i183:                                    ; preds = %if.else.i177
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.43)
  unreachable

sw.bb62:                                          ; preds = %for.cond57
  %33 = load i64, ptr %startiteration, align 8, !tbaa !50
  %34 = load i64, ptr %iteration64, align 8, !tbaa !45
  %cmp65203 = icmp slt i64 %33, %34
  br i1 %cmp65203, label %for.body67, label %sw.epilog

for.body67:                                       ; preds = %sw.bb62, %for.inc89
  %j.0204 = phi i64 [ %inc90, %for.inc89 ], [ %33, %sw.bb62 ]
  %35 = load i64, ptr %start3, align 8, !tbaa !18
  %add69 = add nsw i64 %35, %j.0204
  %call70 = call i32 %step(i64 noundef %add69, ptr noundef %env) #22
  %36 = load i32, ptr %is_while, align 8, !tbaa !9
  %tobool72.not = icmp eq i32 %36, 0
  br i1 %tobool72.not, label %for.inc89, label %land.lhs.true73

land.lhs.true73:                                  ; preds = %for.body67
  %37 = load i64, ptr %n4, align 8, !tbaa !19
  %cmp75 = icmp sgt i64 %37, -1
  %tobool78 = icmp ne i32 %call70, 0
  %or.cond = select i1 %cmp75, i1 true, i1 %tobool78
  br i1 %or.cond, label %for.inc89, label %if.then79

if.then79:                                        ; preds = %land.lhs.true73
  %add80 = add nsw i64 %j.0204, 1
  store i64 %add80, ptr %n4, align 8, !tbaa !19
  %38 = load ptr, ptr %set_nsteps, align 8, !tbaa !51
  %tobool82.not = icmp eq ptr %38, null
  br i1 %tobool82.not, label %if.then83, label %cleanup

if.then83:                                        ; preds = %if.then79
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.3)
  unreachable

cleanup:                                          ; preds = %if.then79
  %39 = load ptr, ptr %state, align 8, !tbaa !40
  call void %38(ptr noundef %39, i64 noundef %add80) #22
  br label %sw.epilog

for.inc89:                                        ; preds = %land.lhs.true73, %for.body67
  %inc90 = add nsw i64 %j.0204, 1
  %40 = load i64, ptr %iteration64, align 8, !tbaa !45
  %cmp65 = icmp slt i64 %inc90, %40
  br i1 %cmp65, label %for.body67, label %sw.epilog, !llvm.loop !52

sw.bb92:                                          ; preds = %for.cond57
  %41 = load i64, ptr %iteration64, align 8, !tbaa !45
  %turn = getelementptr inbounds nuw i8, ptr %call, i64 72
  store i64 %41, ptr %turn, align 8, !tbaa !53
  %sub = add nsw i64 %41, -1
  %42 = load ptr, ptr %call, align 8, !tbaa !38
  %save_state.i184 = getelementptr inbounds nuw i8, ptr %42, i64 56
  %43 = load ptr, ptr %save_state.i184, align 8, !tbaa !46
  %tobool.not.i185 = icmp eq ptr %43, null
  br i1 %tobool.not.i185, label %if.else.i188, label %if.then.i186

if.then.i186:                                     ; preds = %sw.bb92
  %44 = load ptr, ptr %state, align 8, !tbaa !40
  call void %43(ptr noundef %44, i64 noundef -2, i64 noundef %sub, ptr noundef %env) #22
  br label %fz_save.exit196

if.else.i188:                                     ; preds = %sw.bb92
  %store.i189 = getelementptr inbounds nuw i8, ptr %42, i64 24
  %45 = load ptr, ptr %store.i189, align 8, !tbaa !47
  %tobool4.not.i190 = icmp eq ptr %45, null
  br i1 %tobool4.not.i190, label %if.else9.i195, label %if.then5.i191

if.then5.i191:                                    ; preds = %if.else.i188
  %46 = load ptr, ptr %state, align 8, !tbaa !40
  %47 = load ptr, ptr %regions12, align 8, !tbaa !21
  %48 = load i64, ptr %nregions5, align 8, !tbaa !20
  call void %45(ptr noundef %46, i64 noundef -2, i64 noundef %sub, ptr noundef %47, i64 noundef %48) #22
  br label %fz_save.exit196

if.else9.i195:                                    ; preds = %if.else.i188
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.42)
  unreachable

fz_save.exit196:                                  ; preds = %if.then.i186, %if.then5.i191
  %49 = load i64, ptr %start3, align 8, !tbaa !18
  %50 = load i64, ptr %iteration64, align 8, !tbaa !45
  %add97 = add i64 %49, -1
  %sub98 = add i64 %add97, %50
  %call99 = call i32 %step(i64 noundef %sub98, ptr noundef %env) #22
  br label %cleanup101

sw.bb100:                                         ; preds = %for.cond57
  %done = getelementptr inbounds nuw i8, ptr %call, i64 84
  store i32 1, ptr %done, align 4, !tbaa !54
  br label %cleanup101

sw.default:                                       ; preds = %for.cond57
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.4)
  unreachable

sw.epilog:                                        ; preds = %for.inc89, %sw.bb62, %cleanup, %if.then5.i179, %if.then.i175, %if.then5.i, %if.then.i173
  %.pre = load ptr, ptr %state, align 8, !tbaa !40
  br label %for.cond57, !llvm.loop !55

cleanup101:                                       ; preds = %sw.bb100, %fz_save.exit196
  call void @llvm.lifetime.end.p0(ptr nonnull %a) #22
  ret ptr %call
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #1

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @calloc(i64 noundef, i64 noundef) local_unnamed_addr #2

; Function Attrs: cold inlinehint nofree noreturn nounwind uwtable
define internal fastcc void @fzck_fail(ptr noundef %msg) unnamed_addr #3 {
entry:
  %0 = load ptr, ptr @stderr, align 8, !tbaa !56
  %call = tail call i32 (ptr, ptr, ...) @fprintf(ptr noundef %0, ptr noundef nonnull @.str.39, ptr noundef %msg) #24
  tail call void @abort() #25
  unreachable
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr #4

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #5

; Function Attrs: nofree nounwind memory(read)
declare noundef ptr @getenv(ptr noundef captures(none)) local_unnamed_addr #6

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #1

; Function Attrs: nounwind uwtable
define dso_local void @__fz_ckpt_reverse(ptr noundef captures(none) %handle, ptr noundef readonly captures(none) %step, ptr noundef readonly captures(none) %grad, ptr noundef %env) local_unnamed_addr #0 {
entry:
  %a = alloca %struct.EnzymeCkptAction, align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %a) #22
  %done = getelementptr inbounds nuw i8, ptr %handle, i64 84
  %0 = load i32, ptr %done, align 4, !tbaa !54
  %tobool.not = icmp eq i32 %0, 0
  br i1 %tobool.not, label %if.then, label %if.end21

if.then:                                          ; preds = %entry
  %n = getelementptr inbounds nuw i8, ptr %handle, i64 64
  %1 = load i64, ptr %n, align 8, !tbaa !19
  %2 = load ptr, ptr %handle, align 8, !tbaa !38
  %save_state.i = getelementptr inbounds nuw i8, ptr %2, i64 56
  %3 = load ptr, ptr %save_state.i, align 8, !tbaa !46
  %tobool.not.i = icmp eq ptr %3, null
  br i1 %tobool.not.i, label %if.else.i, label %if.then.i

if.then.i:                                        ; preds = %if.then
  %state.i = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %4 = load ptr, ptr %state.i, align 8, !tbaa !40
  tail call void %3(ptr noundef %4, i64 noundef -1, i64 noundef %1, ptr noundef %env) #22
  br label %fz_save.exit

if.else.i:                                        ; preds = %if.then
  %store.i = getelementptr inbounds nuw i8, ptr %2, i64 24
  %5 = load ptr, ptr %store.i, align 8, !tbaa !47
  %tobool4.not.i = icmp eq ptr %5, null
  br i1 %tobool4.not.i, label %if.else9.i, label %if.then5.i

if.then5.i:                                       ; preds = %if.else.i
  %state8.i = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %6 = load ptr, ptr %state8.i, align 8, !tbaa !40
  %regions.i = getelementptr inbounds nuw i8, ptr %handle, i64 88
  %7 = load ptr, ptr %regions.i, align 8, !tbaa !21
  %nregions.i = getelementptr inbounds nuw i8, ptr %handle, i64 96
  %8 = load i64, ptr %nregions.i, align 8, !tbaa !20
  tail call void %5(ptr noundef %6, i64 noundef -1, i64 noundef %1, ptr noundef %7, i64 noundef %8) #22
  br label %fz_save.exit

if.else9.i:                                       ; preds = %if.else.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.42)
  unreachable

fz_save.exit:                                     ; preds = %if.then.i, %if.then5.i
  %turn = getelementptr inbounds nuw i8, ptr %handle, i64 72
  %9 = load i64, ptr %turn, align 8, !tbaa !53
  %sub = add nsw i64 %9, -1
  %10 = load ptr, ptr %handle, align 8, !tbaa !38
  %load_state.i = getelementptr inbounds nuw i8, ptr %10, i64 64
  %11 = load ptr, ptr %load_state.i, align 8, !tbaa !48
  %tobool.not.i52 = icmp eq ptr %11, null
  br i1 %tobool.not.i52, label %if.else.i55, label %if.then.i53

if.then.i53:                                      ; preds = %fz_save.exit
  %state.i54 = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %12 = load ptr, ptr %state.i54, align 8, !tbaa !40
  tail call void %11(ptr noundef %12, i64 noundef -2, i64 noundef %sub, ptr noundef %env) #22
  br label %fz_load.exit

if.else.i55:                                      ; preds = %fz_save.exit
  %restore.i = getelementptr inbounds nuw i8, ptr %10, i64 32
  %13 = load ptr, ptr %restore.i, align 8, !tbaa !49
  %tobool4.not.i56 = icmp eq ptr %13, null
  br i1 %tobool4.not.i56, label %if.else9.i61, label %if.then5.i57

if.then5.i57:                                     ; preds = %if.else.i55
  %state8.i58 = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %14 = load ptr, ptr %state8.i58, align 8, !tbaa !40
  %regions.i59 = getelementptr inbounds nuw i8, ptr %handle, i64 88
  %15 = load ptr, ptr %regions.i59, align 8, !tbaa !21
  %nregions.i60 = getelementptr inbounds nuw i8, ptr %handle, i64 96
  %16 = load i64, ptr %nregions.i60, align 8, !tbaa !20
  tail call void %13(ptr noundef %14, i64 noundef -2, i64 noundef %sub, ptr noundef %15, i64 noundef %16) #22
  br label %fz_load.exit

if.else9.i61:                                     ; preds = %if.else.i55
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.43)
  unreachable

fz_load.exit:                                     ; preds = %if.then.i53, %if.then5.i57
  %start = getelementptr inbounds nuw i8, ptr %handle, i64 56
  %17 = load i64, ptr %start, align 8, !tbaa !18
  %18 = load i64, ptr %turn, align 8, !tbaa !53
  %add = add i64 %17, -1
  %sub2 = add i64 %add, %18
  tail call void %grad(i64 noundef %sub2, ptr noundef %env) #22
  %state = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %iteration16 = getelementptr inbounds nuw i8, ptr %a, i64 8
  %startiteration = getelementptr inbounds nuw i8, ptr %a, i64 16
  %cpnum6 = getelementptr inbounds nuw i8, ptr %a, i64 24
  %regions.i84 = getelementptr inbounds nuw i8, ptr %handle, i64 88
  %nregions.i85 = getelementptr inbounds nuw i8, ptr %handle, i64 96
  br label %for.cond

for.cond:                                         ; preds = %sw.epilog, %fz_load.exit
  %19 = load ptr, ptr %handle, align 8, !tbaa !38
  %next_action = getelementptr inbounds nuw i8, ptr %19, i64 16
  %20 = load ptr, ptr %next_action, align 8, !tbaa !41
  %21 = load ptr, ptr %state, align 8, !tbaa !40
  call void %20(ptr noundef %21, ptr noundef nonnull %a) #22
  %22 = load i32, ptr %a, align 8, !tbaa !42
  switch i32 %22, label %sw.default [
    i32 7, label %for.end19
    i32 1, label %sw.bb
    i32 2, label %sw.bb5
    i32 3, label %sw.bb8
    i32 5, label %sw.bb14
  ]

sw.bb:                                            ; preds = %for.cond
  %23 = load i64, ptr %cpnum6, align 8, !tbaa !44
  %24 = load i64, ptr %iteration16, align 8, !tbaa !45
  %25 = load ptr, ptr %handle, align 8, !tbaa !38
  %save_state.i62 = getelementptr inbounds nuw i8, ptr %25, i64 56
  %26 = load ptr, ptr %save_state.i62, align 8, !tbaa !46
  %tobool.not.i63 = icmp eq ptr %26, null
  br i1 %tobool.not.i63, label %if.else.i66, label %if.then.i64

if.then.i64:                                      ; preds = %sw.bb
  %27 = load ptr, ptr %state, align 8, !tbaa !40
  call void %26(ptr noundef %27, i64 noundef %23, i64 noundef %24, ptr noundef %env) #22
  br label %sw.epilog

if.else.i66:                                      ; preds = %sw.bb
  %store.i67 = getelementptr inbounds nuw i8, ptr %25, i64 24
  %28 = load ptr, ptr %store.i67, align 8, !tbaa !47
  %tobool4.not.i68 = icmp eq ptr %28, null
  br i1 %tobool4.not.i68, label %if.else9.i73, label %if.then5.i69

if.then5.i69:                                     ; preds = %if.else.i66
  %29 = load ptr, ptr %state, align 8, !tbaa !40
  %30 = load ptr, ptr %regions.i84, align 8, !tbaa !21
  %31 = load i64, ptr %nregions.i85, align 8, !tbaa !20
  call void %28(ptr noundef %29, i64 noundef %23, i64 noundef %24, ptr noundef %30, i64 noundef %31) #22
  br label %sw.epilog

if.else9.i73:                                     ; preds = %if.else.i66
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.42)
  unreachable

sw.bb5:                                           ; preds = %for.cond
  %32 = load i64, ptr %cpnum6, align 8, !tbaa !44
  %33 = load i64, ptr %iteration16, align 8, !tbaa !45
  %34 = load ptr, ptr %handle, align 8, !tbaa !38
  %load_state.i75 = getelementptr inbounds nuw i8, ptr %34, i64 64
  %35 = load ptr, ptr %load_state.i75, align 8, !tbaa !48
  %tobool.not.i76 = icmp eq ptr %35, null
  br i1 %tobool.not.i76, label %if.else.i79, label %if.then.i77

if.then.i77:                                      ; preds = %sw.bb5
  %36 = load ptr, ptr %state, align 8, !tbaa !40
  call void %35(ptr noundef %36, i64 noundef %32, i64 noundef %33, ptr noundef %env) #22
  br label %sw.epilog

if.else.i79:                                      ; preds = %sw.bb5
  %restore.i80 = getelementptr inbounds nuw i8, ptr %34, i64 32
  %37 = load ptr, ptr %restore.i80, align 8, !tbaa !49
  %tobool4.not.i81 = icmp eq ptr %37, null
  br i1 %tobool4.not.i81, label %if.else9.i86, label %if.then5.i82

if.then5.i82:                                     ; preds = %if.else.i79
  %38 = load ptr, ptr %state, align 8, !tbaa !40
  %39 = load ptr, ptr %regions.i84, align 8, !tbaa !21
  %40 = load i64, ptr %nregions.i85, align 8, !tbaa !20
  call void %37(ptr noundef %38, i64 noundef %32, i64 noundef %33, ptr noundef %39, i64 noundef %40) #22
  br label %sw.epilog

if.else9.i86:                                     ; preds = %if.else.i79
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.43)
  unreachable

sw.bb8:                                           ; preds = %for.cond
  %41 = load i64, ptr %startiteration, align 8, !tbaa !50
  %42 = load i64, ptr %iteration16, align 8, !tbaa !45
  %cmp11104 = icmp slt i64 %41, %42
  br i1 %cmp11104, label %for.body, label %sw.epilog

for.body:                                         ; preds = %sw.bb8, %for.body
  %j.0105 = phi i64 [ %inc, %for.body ], [ %41, %sw.bb8 ]
  %43 = load i64, ptr %start, align 8, !tbaa !18
  %add13 = add nsw i64 %43, %j.0105
  %call = call i32 %step(i64 noundef %add13, ptr noundef %env) #22
  %inc = add nsw i64 %j.0105, 1
  %44 = load i64, ptr %iteration16, align 8, !tbaa !45
  %cmp11 = icmp slt i64 %inc, %44
  br i1 %cmp11, label %for.body, label %sw.epilog, !llvm.loop !58

sw.bb14:                                          ; preds = %for.cond
  %45 = load i64, ptr %start, align 8, !tbaa !18
  %46 = load i64, ptr %iteration16, align 8, !tbaa !45
  %add17 = add i64 %45, -1
  %sub18 = add i64 %add17, %46
  call void %grad(i64 noundef %sub18, ptr noundef %env) #22
  br label %sw.epilog

sw.default:                                       ; preds = %for.cond
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.5)
  unreachable

sw.epilog:                                        ; preds = %for.body, %sw.bb8, %if.then5.i82, %if.then.i77, %if.then5.i69, %if.then.i64, %sw.bb14
  br label %for.cond, !llvm.loop !59

for.end19:                                        ; preds = %for.cond
  %47 = load i64, ptr %n, align 8, !tbaa !19
  %48 = load ptr, ptr %handle, align 8, !tbaa !38
  %load_state.i88 = getelementptr inbounds nuw i8, ptr %48, i64 64
  %49 = load ptr, ptr %load_state.i88, align 8, !tbaa !48
  %tobool.not.i89 = icmp eq ptr %49, null
  br i1 %tobool.not.i89, label %if.else.i92, label %if.then.i90

if.then.i90:                                      ; preds = %for.end19
  %50 = load ptr, ptr %state, align 8, !tbaa !40
  call void %49(ptr noundef %50, i64 noundef -1, i64 noundef %47, ptr noundef %env) #22
  br label %if.end21

if.else.i92:                                      ; preds = %for.end19
  %restore.i93 = getelementptr inbounds nuw i8, ptr %48, i64 32
  %51 = load ptr, ptr %restore.i93, align 8, !tbaa !49
  %tobool4.not.i94 = icmp eq ptr %51, null
  br i1 %tobool4.not.i94, label %if.else9.i99, label %if.then5.i95

if.then5.i95:                                     ; preds = %if.else.i92
  %52 = load ptr, ptr %state, align 8, !tbaa !40
  %53 = load ptr, ptr %regions.i84, align 8, !tbaa !21
  %54 = load i64, ptr %nregions.i85, align 8, !tbaa !20
  call void %51(ptr noundef %52, i64 noundef -1, i64 noundef %47, ptr noundef %53, i64 noundef %54) #22
  br label %if.end21

if.else9.i99:                                     ; preds = %if.else.i92
  call fastcc void @fzck_fail(ptr noundef nonnull @.str.43)
  unreachable

if.end21:                                         ; preds = %if.then5.i95, %if.then.i90, %entry
  %55 = load ptr, ptr %handle, align 8, !tbaa !38
  %finalize = getelementptr inbounds nuw i8, ptr %55, i64 48
  %56 = load ptr, ptr %finalize, align 8, !tbaa !60
  %state23 = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %57 = load ptr, ptr %state23, align 8, !tbaa !40
  call void %56(ptr noundef %57) #22
  %regions = getelementptr inbounds nuw i8, ptr %handle, i64 88
  %58 = load ptr, ptr %regions, align 8, !tbaa !21
  call void @free(ptr noundef %58) #22
  call void @free(ptr noundef nonnull %handle) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %a) #22
  ret void
}

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr #7

; Function Attrs: nofree nounwind uwtable
define dso_local range(i32 0, 2) i32 @__fz_ckpt_auto_use(i64 noundef %n, i64 noundef %step_tape) local_unnamed_addr #8 {
entry:
  %call = tail call ptr @getenv(ptr noundef nonnull @.str.6) #22
  %call1 = tail call ptr @getenv(ptr noundef nonnull @.str.1) #22
  %cond = tail call i64 @llvm.smax.i64(i64 %n, i64 0)
  %conv = uitofp nneg i64 %cond to double
  %cmp2 = icmp sgt i64 %step_tape, 0
  %cond7 = select i1 %cmp2, i64 %step_tape, i64 8
  %conv8 = uitofp nneg i64 %cond7 to double
  %mul = fmul double %conv, %conv8
  %tobool.not = icmp eq ptr %call, null
  br i1 %tobool.not, label %cleanup, label %lor.lhs.false

lor.lhs.false:                                    ; preds = %entry
  %0 = load i8, ptr %call, align 1, !tbaa !34
  %tobool9.not = icmp eq i8 %0, 0
  br i1 %tobool9.not, label %cleanup, label %if.end

if.end:                                           ; preds = %lor.lhs.false
  %cmp10 = icmp sgt i64 %n, 1
  br i1 %cmp10, label %land.end, label %if.end18

land.end:                                         ; preds = %if.end
  %call12 = tail call i64 @strtoull(ptr noundef nonnull captures(none) %call, ptr noundef null, i32 noundef 10) #22
  %conv13 = uitofp i64 %call12 to double
  %cmp14 = fcmp ogt double %mul, %conv13
  br i1 %cmp14, label %if.then17, label %if.end18

if.then17:                                        ; preds = %land.end
  %1 = load i64, ptr @__fz_ckpt_auto_checkpointed_loops, align 8, !tbaa !24
  %inc = add nsw i64 %1, 1
  store i64 %inc, ptr @__fz_ckpt_auto_checkpointed_loops, align 8, !tbaa !24
  br label %if.end18

if.end18:                                         ; preds = %if.end, %if.then17, %land.end
  %land.ext44 = phi i32 [ 0, %land.end ], [ 1, %if.then17 ], [ 0, %if.end ]
  %cond25 = phi ptr [ @.str.9, %land.end ], [ @.str.8, %if.then17 ], [ @.str.9, %if.end ]
  %tobool19.not = icmp eq ptr %call1, null
  br i1 %tobool19.not, label %cleanup, label %land.lhs.true

land.lhs.true:                                    ; preds = %if.end18
  %call.i = tail call i64 @strtol(ptr noundef nonnull captures(none) %call1, ptr noundef null, i32 noundef 10) #22
  %conv.i = trunc i64 %call.i to i32
  %cmp21 = icmp sgt i32 %conv.i, 0
  br i1 %cmp21, label %if.then23, label %cleanup

if.then23:                                        ; preds = %land.lhs.true
  %2 = load ptr, ptr @stderr, align 8, !tbaa !56
  %call26 = tail call i32 (ptr, ptr, ...) @fprintf(ptr noundef %2, ptr noundef nonnull @.str.7, i64 noundef %n, double noundef %mul, i64 noundef %step_tape, ptr noundef nonnull %call, ptr noundef nonnull %cond25) #24
  br label %cleanup

cleanup:                                          ; preds = %if.end18, %land.lhs.true, %if.then23, %entry, %lor.lhs.false
  %retval.0 = phi i32 [ 0, %entry ], [ 0, %lor.lhs.false ], [ %land.ext44, %if.then23 ], [ %land.ext44, %land.lhs.true ], [ %land.ext44, %if.end18 ]
  ret i32 %retval.0
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn
declare i64 @strtoull(ptr noundef readonly, ptr noundef captures(none), i32 noundef) local_unnamed_addr #9

; Function Attrs: nofree nounwind
declare noundef i32 @fprintf(ptr noundef captures(none), ptr noundef readonly captures(none), ...) local_unnamed_addr #10

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(readwrite, argmem: none, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable
define dso_local void @__fz_ckpt_auto_taped() local_unnamed_addr #11 {
entry:
  %0 = load i64, ptr @__fz_ckpt_auto_taped_loops, align 8, !tbaa !24
  %inc = add nsw i64 %0, 1
  store i64 %inc, ptr @__fz_ckpt_auto_taped_loops, align 8, !tbaa !24
  ret void
}

; Function Attrs: nounwind uwtable
define dso_local noalias nonnull ptr @__fz_fp_forward(ptr noundef readonly captures(none) %regions, i64 noundef %nregions, ptr noundef readonly captures(none) %step, ptr noundef %env) local_unnamed_addr #0 {
entry:
  %call = tail call noalias dereferenceable_or_null(32) ptr @calloc(i64 noundef 1, i64 noundef 32) #21
  %tobool.not = icmp eq ptr %call, null
  br i1 %tobool.not, label %if.then, label %while.cond

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str)
  unreachable

while.cond:                                       ; preds = %entry, %while.cond
  %i.0 = phi i64 [ %inc, %while.cond ], [ 0, %entry ]
  %call1 = tail call i32 %step(i64 noundef %i.0, ptr noundef %env) #22
  %tobool2.not = icmp eq i32 %call1, 0
  %inc = add nuw nsw i64 %i.0, 1
  br i1 %tobool2.not, label %while.end, label %while.cond, !llvm.loop !61

while.end:                                        ; preds = %while.cond
  %last = getelementptr inbounds nuw i8, ptr %call, i64 24
  store i64 %i.0, ptr %last, align 8, !tbaa !62
  %nregions3 = getelementptr inbounds nuw i8, ptr %call, i64 8
  store i64 %nregions, ptr %nregions3, align 8, !tbaa !64
  %cond = tail call i64 @llvm.umax.i64(i64 %nregions, i64 1)
  %mul = mul i64 %cond, 24
  %call5 = tail call noalias ptr @malloc(i64 noundef %mul) #23
  store ptr %call5, ptr %call, align 8, !tbaa !65
  %tobool8.not = icmp eq ptr %call5, null
  br i1 %tobool8.not, label %if.then9, label %if.end10

if.then9:                                         ; preds = %while.end
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str)
  unreachable

if.end10:                                         ; preds = %while.end
  %mul12 = mul i64 %nregions, 24
  tail call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 8 %call5, ptr align 8 %regions, i64 %mul12, i1 false)
  %cmp4.not.i.i = icmp eq i64 %nregions, 0
  br i1 %cmp4.not.i.i, label %fz_fp_bytes.exit.i, label %for.body.i.i

for.body.i.i:                                     ; preds = %if.end10, %for.body.i.i
  %k.06.i.i = phi i64 [ %inc.i.i, %for.body.i.i ], [ 0, %if.end10 ]
  %b.05.i.i = phi i64 [ %add.i.i, %for.body.i.i ], [ 0, %if.end10 ]
  %arrayidx.i.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.06.i.i
  %bytes.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i.i, i64 8
  %0 = load i64, ptr %bytes.i.i, align 8, !tbaa !25
  %add.i.i = add i64 %0, %b.05.i.i
  %inc.i.i = add nuw i64 %k.06.i.i, 1
  %exitcond.not.i.i = icmp eq i64 %inc.i.i, %nregions
  br i1 %exitcond.not.i.i, label %fz_fp_bytes.exit.thread.i, label %for.body.i.i, !llvm.loop !66

fz_fp_bytes.exit.i:                               ; preds = %if.end10
  %call1.i = tail call noalias dereferenceable_or_null(1) ptr @malloc(i64 noundef 1) #23
  %tobool2.not.i = icmp eq ptr %call1.i, null
  br i1 %tobool2.not.i, label %if.then.i, label %fz_fp_save.exit

fz_fp_bytes.exit.thread.i:                        ; preds = %for.body.i.i
  %1 = tail call i64 @llvm.umax.i64(i64 %add.i.i, i64 1)
  %call129.i = tail call noalias ptr @malloc(i64 noundef %1) #23
  %tobool2.not30.i = icmp eq ptr %call129.i, null
  br i1 %tobool2.not30.i, label %if.then.i, label %for.body.i

if.then.i:                                        ; preds = %fz_fp_bytes.exit.thread.i, %fz_fp_bytes.exit.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.44)
  unreachable

for.body.i:                                       ; preds = %fz_fp_bytes.exit.thread.i, %if.end8.i
  %k.027.i = phi i64 [ %inc.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %at.026.i = phi i64 [ %add.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %arrayidx.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.027.i
  %bytes.i = getelementptr inbounds nuw i8, ptr %arrayidx.i, i64 8
  %2 = load i64, ptr %bytes.i, align 8, !tbaa !25
  %tobool3.not.i = icmp eq i64 %2, 0
  br i1 %tobool3.not.i, label %if.end8.i, label %if.then4.i

if.then4.i:                                       ; preds = %for.body.i
  %add.ptr.i = getelementptr inbounds nuw i8, ptr %call129.i, i64 %at.026.i
  %3 = load ptr, ptr %arrayidx.i, align 8, !tbaa !67
  tail call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 1 %add.ptr.i, ptr align 1 %3, i64 %2, i1 false)
  br label %if.end8.i

if.end8.i:                                        ; preds = %if.then4.i, %for.body.i
  %add.i = add i64 %2, %at.026.i
  %inc.i = add nuw i64 %k.027.i, 1
  %exitcond.not.i = icmp eq i64 %inc.i, %nregions
  br i1 %exitcond.not.i, label %fz_fp_save.exit, label %for.body.i, !llvm.loop !68

fz_fp_save.exit:                                  ; preds = %if.end8.i, %fz_fp_bytes.exit.i
  %call13134.i = phi ptr [ %call1.i, %fz_fp_bytes.exit.i ], [ %call129.i, %if.end8.i ]
  %snap = getelementptr inbounds nuw i8, ptr %call, i64 16
  store ptr %call13134.i, ptr %snap, align 8, !tbaa !69
  ret ptr %call
}

; Function Attrs: nounwind uwtable
define dso_local void @__fz_fp_reverse(ptr noundef captures(none) %handle, ptr noundef readonly captures(none) %grad, ptr noundef %env, ptr noundef readonly captures(none) %states, i64 noundef %nstates, i64 noundef %max_iters, double noundef %reduction, ptr noundef readonly captures(address_is_null) %control) local_unnamed_addr #0 {
entry:
  %red.i53 = alloca double, align 8
  %cumul.i54 = alloca double, align 8
  %cumul.i = alloca double, align 8
  %red.i = alloca double, align 8
  %0 = load ptr, ptr %handle, align 8, !tbaa !65
  %nregions = getelementptr inbounds nuw i8, ptr %handle, i64 8
  %1 = load i64, ptr %nregions, align 8, !tbaa !64
  %cmp4.not.i.i = icmp eq i64 %1, 0
  br i1 %cmp4.not.i.i, label %fz_fp_bytes.exit.i, label %for.body.i.i

for.body.i.i:                                     ; preds = %entry, %for.body.i.i
  %k.06.i.i = phi i64 [ %inc.i.i, %for.body.i.i ], [ 0, %entry ]
  %b.05.i.i = phi i64 [ %add.i.i, %for.body.i.i ], [ 0, %entry ]
  %arrayidx.i.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %0, i64 %k.06.i.i
  %bytes.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i.i, i64 8
  %2 = load i64, ptr %bytes.i.i, align 8, !tbaa !25
  %add.i.i = add i64 %2, %b.05.i.i
  %inc.i.i = add nuw i64 %k.06.i.i, 1
  %exitcond.not.i.i = icmp eq i64 %inc.i.i, %1
  br i1 %exitcond.not.i.i, label %fz_fp_bytes.exit.thread.i, label %for.body.i.i, !llvm.loop !66

fz_fp_bytes.exit.i:                               ; preds = %entry
  %call1.i = tail call noalias dereferenceable_or_null(1) ptr @malloc(i64 noundef 1) #23
  %tobool2.not.i = icmp eq ptr %call1.i, null
  br i1 %tobool2.not.i, label %if.then.i, label %fz_fp_save.exit

fz_fp_bytes.exit.thread.i:                        ; preds = %for.body.i.i
  %3 = tail call i64 @llvm.umax.i64(i64 %add.i.i, i64 1)
  %call129.i = tail call noalias ptr @malloc(i64 noundef %3) #23
  %tobool2.not30.i = icmp eq ptr %call129.i, null
  br i1 %tobool2.not30.i, label %if.then.i, label %for.body.i

if.then.i:                                        ; preds = %fz_fp_bytes.exit.thread.i, %fz_fp_bytes.exit.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.44)
  unreachable

for.body.i:                                       ; preds = %fz_fp_bytes.exit.thread.i, %if.end8.i
  %k.027.i = phi i64 [ %inc.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %at.026.i = phi i64 [ %add.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %arrayidx.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %0, i64 %k.027.i
  %bytes.i = getelementptr inbounds nuw i8, ptr %arrayidx.i, i64 8
  %4 = load i64, ptr %bytes.i, align 8, !tbaa !25
  %tobool3.not.i = icmp eq i64 %4, 0
  br i1 %tobool3.not.i, label %if.end8.i, label %if.then4.i

if.then4.i:                                       ; preds = %for.body.i
  %add.ptr.i = getelementptr inbounds nuw i8, ptr %call129.i, i64 %at.026.i
  %5 = load ptr, ptr %arrayidx.i, align 8, !tbaa !67
  tail call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 1 %add.ptr.i, ptr align 1 %5, i64 %4, i1 false)
  br label %if.end8.i

if.end8.i:                                        ; preds = %if.then4.i, %for.body.i
  %add.i = add i64 %4, %at.026.i
  %inc.i = add nuw i64 %k.027.i, 1
  %exitcond.not.i = icmp eq i64 %inc.i, %1
  br i1 %exitcond.not.i, label %fz_fp_save.exit, label %for.body.i, !llvm.loop !68

fz_fp_save.exit:                                  ; preds = %if.end8.i, %fz_fp_bytes.exit.i
  %call13134.i = phi ptr [ %call1.i, %fz_fp_bytes.exit.i ], [ %call129.i, %if.end8.i ]
  call void @llvm.lifetime.start.p0(ptr nonnull %cumul.i) #22
  store double -1.000000e+00, ptr %cumul.i, align 8, !tbaa !70
  call void @llvm.lifetime.start.p0(ptr nonnull %red.i) #22
  %cmp.i = fcmp olt double %reduction, 0.000000e+00
  %cond.i = select i1 %cmp.i, double 0x3D719799812DEA11, double %reduction
  store double %cond.i, ptr %red.i, align 8, !tbaa !70
  %tobool.not.i = icmp eq ptr %control, null
  br i1 %tobool.not.i, label %fz_fp_first.exit.thread, label %fz_fp_first.exit

fz_fp_first.exit.thread:                          ; preds = %fz_fp_save.exit
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %cumul.i) #22
  br label %while.body.lr.ph

fz_fp_first.exit:                                 ; preds = %fz_fp_save.exit
  %call.i = call i32 %control(ptr noundef nonnull %cumul.i, ptr noundef nonnull %red.i) #22
  %cmp2.i.not = icmp eq i32 %call.i, 0
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %cumul.i) #22
  br i1 %cmp2.i.not, label %for.cond.preheader, label %while.body.lr.ph

while.body.lr.ph:                                 ; preds = %fz_fp_first.exit.thread, %fz_fp_first.exit
  %snap = getelementptr inbounds nuw i8, ptr %handle, i64 16
  %last = getelementptr inbounds nuw i8, ptr %handle, i64 24
  %cmp57.not.i = icmp eq i64 %nstates, 0
  %cmp1.i = icmp slt i64 %max_iters, 0
  %6 = add nsw i64 %max_iters, -1
  %7 = select i1 %cmp1.i, i64 999, i64 %6
  br label %while.body

for.cond.preheader:                               ; preds = %if.then.i59, %fz_fp_again.exit.thread, %fz_fp_first.exit
  %cmp684.not = icmp eq i64 %nstates, 0
  br i1 %cmp684.not, label %for.end, label %for.body

while.body:                                       ; preds = %while.body.backedge, %while.body.lr.ph
  %iters.083 = phi i64 [ 0, %while.body.lr.ph ], [ %inc, %while.body.backedge ]
  %first.082 = phi double [ 0.000000e+00, %while.body.lr.ph ], [ %first.1, %while.body.backedge ]
  %prev.081 = phi double [ 0.000000e+00, %while.body.lr.ph ], [ %s.0.lcssa.i, %while.body.backedge ]
  %8 = load ptr, ptr %handle, align 8, !tbaa !65
  %9 = load i64, ptr %nregions, align 8, !tbaa !64
  %10 = load ptr, ptr %snap, align 8, !tbaa !69
  %cmp15.not.i = icmp eq i64 %9, 0
  br i1 %cmp15.not.i, label %fz_fp_load.exit, label %for.body.i35

for.body.i35:                                     ; preds = %while.body, %if.end.i
  %at.017.i = phi i64 [ %add.i41, %if.end.i ], [ 0, %while.body ]
  %k.016.i = phi i64 [ %inc.i42, %if.end.i ], [ 0, %while.body ]
  %arrayidx.i36 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %8, i64 %k.016.i
  %bytes.i37 = getelementptr inbounds nuw i8, ptr %arrayidx.i36, i64 8
  %11 = load i64, ptr %bytes.i37, align 8, !tbaa !25
  %tobool.not.i38 = icmp eq i64 %11, 0
  br i1 %tobool.not.i38, label %if.end.i, label %if.then.i39

if.then.i39:                                      ; preds = %for.body.i35
  %12 = load ptr, ptr %arrayidx.i36, align 8, !tbaa !67
  %add.ptr.i40 = getelementptr inbounds nuw i8, ptr %10, i64 %at.017.i
  call void @llvm.memmove.p0.p0.i64(ptr align 1 %12, ptr readonly align 1 %add.ptr.i40, i64 %11, i1 false)
  %.pre.i = load i64, ptr %bytes.i37, align 8, !tbaa !25
  br label %if.end.i

if.end.i:                                         ; preds = %if.then.i39, %for.body.i35
  %13 = phi i64 [ %.pre.i, %if.then.i39 ], [ 0, %for.body.i35 ]
  %add.i41 = add i64 %13, %at.017.i
  %inc.i42 = add nuw i64 %k.016.i, 1
  %exitcond.not.i43 = icmp eq i64 %inc.i42, %9
  br i1 %exitcond.not.i43, label %fz_fp_load.exit, label %for.body.i35, !llvm.loop !72

fz_fp_load.exit:                                  ; preds = %if.end.i, %while.body
  %14 = load i64, ptr %last, align 8, !tbaa !62
  call void %grad(i64 noundef %14, ptr noundef %env) #22
  br i1 %cmp57.not.i, label %fz_fp_norm.exit, label %for.body.i44

for.body.i44:                                     ; preds = %fz_fp_load.exit, %for.end.i
  %s.060.i = phi double [ %s.1.lcssa.i, %for.end.i ], [ 0.000000e+00, %fz_fp_load.exit ]
  %q.058.i = phi i64 [ %inc15.i, %for.end.i ], [ 0, %fz_fp_load.exit ]
  %arrayidx.i45 = getelementptr inbounds nuw %struct.fz_fp_state, ptr %states, i64 %q.058.i
  %bytes.i46 = getelementptr inbounds nuw i8, ptr %arrayidx.i45, i64 8
  %15 = load i64, ptr %bytes.i46, align 8, !tbaa !73
  %elem.i = getelementptr inbounds nuw i8, ptr %arrayidx.i45, i64 16
  %16 = load i32, ptr %elem.i, align 8, !tbaa !75
  %conv.i47 = zext i32 %16 to i64
  %div.i = udiv i64 %15, %conv.i47
  %cmp353.not.i = icmp ult i64 %15, %conv.i47
  br i1 %cmp353.not.i, label %for.end.i, label %for.body5.lr.ph.i

for.body5.lr.ph.i:                                ; preds = %for.body.i44
  %17 = load ptr, ptr %arrayidx.i45, align 8, !tbaa !76
  %cmp.i.i = icmp eq i32 %16, 4
  br label %for.body5.i

for.body5.i:                                      ; preds = %if.end.i48, %for.body5.lr.ph.i
  %s.156.i = phi double [ %s.060.i, %for.body5.lr.ph.i ], [ %20, %if.end.i48 ]
  %k.054.i = phi i64 [ 0, %for.body5.lr.ph.i ], [ %inc.i49, %if.end.i48 ]
  br i1 %cmp.i.i, label %fz_fp_elem.exit.i, label %fz_fp_elem.exit.thread.i

fz_fp_elem.exit.i:                                ; preds = %for.body5.i
  %arrayidx.i.i52 = getelementptr inbounds nuw float, ptr %17, i64 %k.054.i
  %18 = load float, ptr %arrayidx.i.i52, align 4, !tbaa !77
  %conv.i.i = fpext float %18 to double
  br label %if.end.i48

fz_fp_elem.exit.thread.i:                         ; preds = %for.body5.i
  %arrayidx1.i.i = getelementptr inbounds nuw double, ptr %17, i64 %k.054.i
  %19 = load double, ptr %arrayidx1.i.i, align 8, !tbaa !70
  br label %if.end.i48

if.end.i48:                                       ; preds = %fz_fp_elem.exit.thread.i, %fz_fp_elem.exit.i
  %d.0.i = phi double [ %19, %fz_fp_elem.exit.thread.i ], [ %conv.i.i, %fz_fp_elem.exit.i ]
  %20 = call double @llvm.fmuladd.f64(double %d.0.i, double %d.0.i, double %s.156.i)
  %inc.i49 = add nuw i64 %k.054.i, 1
  %cmp3.i = icmp ult i64 %inc.i49, %div.i
  br i1 %cmp3.i, label %for.body5.i, label %for.end.i, !llvm.loop !79

for.end.i:                                        ; preds = %if.end.i48, %for.body.i44
  %s.1.lcssa.i = phi double [ %s.060.i, %for.body.i44 ], [ %20, %if.end.i48 ]
  %inc15.i = add nuw i64 %q.058.i, 1
  %exitcond.not.i51 = icmp eq i64 %inc15.i, %nstates
  br i1 %exitcond.not.i51, label %fz_fp_norm.exit, label %for.body.i44, !llvm.loop !80

fz_fp_norm.exit:                                  ; preds = %for.end.i, %fz_fp_load.exit
  %s.0.lcssa.i = phi double [ 0.000000e+00, %fz_fp_load.exit ], [ %s.1.lcssa.i, %for.end.i ]
  %inc = add nuw nsw i64 %iters.083, 1
  %cmp = icmp eq i64 %iters.083, 0
  %first.1 = select i1 %cmp, double %s.0.lcssa.i, double %first.082
  call void @llvm.lifetime.start.p0(ptr nonnull %red.i53) #22
  store double %cond.i, ptr %red.i53, align 8, !tbaa !70
  br i1 %tobool.not.i, label %if.end.i62, label %if.then.i59

if.then.i59:                                      ; preds = %fz_fp_norm.exit
  call void @llvm.lifetime.start.p0(ptr nonnull %cumul.i54) #22
  store double %s.0.lcssa.i, ptr %cumul.i54, align 8, !tbaa !70
  %call.i60 = call i32 %control(ptr noundef nonnull %cumul.i54, ptr noundef nonnull %red.i53) #22
  %cmp6.i.not = icmp eq i32 %call.i60, 0
  call void @llvm.lifetime.end.p0(ptr nonnull %cumul.i54) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i53) #22
  br i1 %cmp6.i.not, label %for.cond.preheader, label %while.body.backedge

while.body.backedge:                              ; preds = %if.then.i59, %fz_fp_again.exit
  br label %while.body, !llvm.loop !81

if.end.i62:                                       ; preds = %fz_fp_norm.exit
  %mul.i = fmul double %cond.i, %first.1
  %cmp7.i = fcmp ugt double %s.0.lcssa.i, %mul.i
  br i1 %cmp7.i, label %if.end10.i, label %fz_fp_again.exit.thread

if.end10.i:                                       ; preds = %if.end.i62
  %cmp11.i = icmp samesign ugt i64 %iters.083, 4
  %cmp13.i = fcmp ogt double %s.0.lcssa.i, %prev.081
  %or.cond.i = and i1 %cmp11.i, %cmp13.i
  br i1 %or.cond.i, label %if.then23.i, label %lor.lhs.false.i

lor.lhs.false.i:                                  ; preds = %if.end10.i
  %or.cond39.not41.i = icmp ule i64 %7, %iters.083
  %cmp21.i = fcmp uno double %s.0.lcssa.i, 0.000000e+00
  %or.cond40.i = or i1 %or.cond39.not41.i, %cmp21.i
  br i1 %or.cond40.i, label %if.then23.i, label %fz_fp_again.exit

if.then23.i:                                      ; preds = %lor.lhs.false.i, %if.end10.i
  %21 = load ptr, ptr @stderr, align 8, !tbaa !56
  %call24.i = call i32 (ptr, ptr, ...) @fprintf(ptr noundef %21, ptr noundef nonnull @.str.45, ptr noundef nonnull @.str.10, i64 noundef range(i64 -9223372036854775807, -9223372036854775808) %inc, double noundef %s.0.lcssa.i, double noundef %first.1, double noundef %cond.i) #24
  br label %fz_fp_again.exit.thread

fz_fp_again.exit.thread:                          ; preds = %if.end.i62, %if.then23.i
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i53) #22
  br label %for.cond.preheader

fz_fp_again.exit:                                 ; preds = %lor.lhs.false.i
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i53) #22
  br label %while.body.backedge

for.body:                                         ; preds = %for.cond.preheader, %for.body
  %q.085 = phi i64 [ %inc8, %for.body ], [ 0, %for.cond.preheader ]
  %arrayidx = getelementptr inbounds nuw %struct.fz_fp_state, ptr %states, i64 %q.085
  %22 = load ptr, ptr %arrayidx, align 8, !tbaa !76
  %bytes = getelementptr inbounds nuw i8, ptr %arrayidx, i64 8
  %23 = load i64, ptr %bytes, align 8, !tbaa !73
  call void @llvm.memset.p0.i64(ptr align 1 %22, i8 0, i64 %23, i1 false)
  %inc8 = add nuw i64 %q.085, 1
  %exitcond.not = icmp eq i64 %inc8, %nstates
  br i1 %exitcond.not, label %for.end, label %for.body, !llvm.loop !82

for.end:                                          ; preds = %for.body, %for.cond.preheader
  %24 = load ptr, ptr %handle, align 8, !tbaa !65
  %25 = load i64, ptr %nregions, align 8, !tbaa !64
  %cmp15.not.i64 = icmp eq i64 %25, 0
  br i1 %cmp15.not.i64, label %fz_fp_load.exit79, label %for.body.i65

for.body.i65:                                     ; preds = %for.end, %if.end.i74
  %at.017.i66 = phi i64 [ %add.i75, %if.end.i74 ], [ 0, %for.end ]
  %k.016.i67 = phi i64 [ %inc.i76, %if.end.i74 ], [ 0, %for.end ]
  %arrayidx.i68 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %24, i64 %k.016.i67
  %bytes.i69 = getelementptr inbounds nuw i8, ptr %arrayidx.i68, i64 8
  %26 = load i64, ptr %bytes.i69, align 8, !tbaa !25
  %tobool.not.i70 = icmp eq i64 %26, 0
  br i1 %tobool.not.i70, label %if.end.i74, label %if.then.i71

if.then.i71:                                      ; preds = %for.body.i65
  %27 = load ptr, ptr %arrayidx.i68, align 8, !tbaa !67
  %add.ptr.i72 = getelementptr inbounds nuw i8, ptr %call13134.i, i64 %at.017.i66
  call void @llvm.memmove.p0.p0.i64(ptr align 1 %27, ptr nonnull readonly align 1 %add.ptr.i72, i64 %26, i1 false)
  %.pre.i73 = load i64, ptr %bytes.i69, align 8, !tbaa !25
  br label %if.end.i74

if.end.i74:                                       ; preds = %if.then.i71, %for.body.i65
  %28 = phi i64 [ %.pre.i73, %if.then.i71 ], [ 0, %for.body.i65 ]
  %add.i75 = add i64 %28, %at.017.i66
  %inc.i76 = add nuw i64 %k.016.i67, 1
  %exitcond.not.i77 = icmp eq i64 %inc.i76, %25
  br i1 %exitcond.not.i77, label %fz_fp_load.exit79, label %for.body.i65, !llvm.loop !72

fz_fp_load.exit79:                                ; preds = %if.end.i74, %for.end
  call void @free(ptr noundef %call13134.i) #22
  %snap11 = getelementptr inbounds nuw i8, ptr %handle, i64 16
  %29 = load ptr, ptr %snap11, align 8, !tbaa !69
  call void @free(ptr noundef %29) #22
  %30 = load ptr, ptr %handle, align 8, !tbaa !65
  call void @free(ptr noundef %30) #22
  call void @free(ptr noundef %handle) #22
  ret void
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #12

; Function Attrs: nounwind uwtable
define dso_local void @__fz_fp_tangent(ptr noundef readonly captures(none) %regions, i64 noundef %nregions, ptr noundef readonly captures(none) %states, i64 noundef %nstates, i64 noundef %max_iters, double noundef %reduction, ptr noundef readonly captures(address_is_null) %control, i64 noundef %last, ptr noundef readonly captures(none) %tan, ptr noundef %env) local_unnamed_addr #0 {
entry:
  %red.i80 = alloca double, align 8
  %cumul.i81 = alloca double, align 8
  %cumul.i = alloca double, align 8
  %red.i = alloca double, align 8
  %cmp4.not.i.i = icmp eq i64 %nregions, 0
  br i1 %cmp4.not.i.i, label %fz_fp_bytes.exit.i, label %for.body.i.i

for.body.i.i:                                     ; preds = %entry, %for.body.i.i
  %k.06.i.i = phi i64 [ %inc.i.i, %for.body.i.i ], [ 0, %entry ]
  %b.05.i.i = phi i64 [ %add.i.i, %for.body.i.i ], [ 0, %entry ]
  %arrayidx.i.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.06.i.i
  %bytes.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i.i, i64 8
  %0 = load i64, ptr %bytes.i.i, align 8, !tbaa !25
  %add.i.i = add i64 %0, %b.05.i.i
  %inc.i.i = add nuw i64 %k.06.i.i, 1
  %exitcond.not.i.i = icmp eq i64 %inc.i.i, %nregions
  br i1 %exitcond.not.i.i, label %fz_fp_bytes.exit.thread.i, label %for.body.i.i, !llvm.loop !66

fz_fp_bytes.exit.i:                               ; preds = %entry
  %call1.i = tail call noalias dereferenceable_or_null(1) ptr @malloc(i64 noundef 1) #23
  %tobool2.not.i = icmp eq ptr %call1.i, null
  br i1 %tobool2.not.i, label %if.then.i, label %fz_fp_save.exit

fz_fp_bytes.exit.thread.i:                        ; preds = %for.body.i.i
  %1 = tail call i64 @llvm.umax.i64(i64 %add.i.i, i64 1)
  %call129.i = tail call noalias ptr @malloc(i64 noundef %1) #23
  %tobool2.not30.i = icmp eq ptr %call129.i, null
  br i1 %tobool2.not30.i, label %if.then.i, label %for.body.i

if.then.i:                                        ; preds = %fz_fp_bytes.exit.thread.i, %fz_fp_bytes.exit.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.44)
  unreachable

for.body.i:                                       ; preds = %fz_fp_bytes.exit.thread.i, %if.end8.i
  %k.027.i = phi i64 [ %inc.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %at.026.i = phi i64 [ %add.i, %if.end8.i ], [ 0, %fz_fp_bytes.exit.thread.i ]
  %arrayidx.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.027.i
  %bytes.i = getelementptr inbounds nuw i8, ptr %arrayidx.i, i64 8
  %2 = load i64, ptr %bytes.i, align 8, !tbaa !25
  %tobool3.not.i = icmp eq i64 %2, 0
  br i1 %tobool3.not.i, label %if.end8.i, label %if.then4.i

if.then4.i:                                       ; preds = %for.body.i
  %add.ptr.i = getelementptr inbounds nuw i8, ptr %call129.i, i64 %at.026.i
  %3 = load ptr, ptr %arrayidx.i, align 8, !tbaa !67
  tail call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 1 %add.ptr.i, ptr align 1 %3, i64 %2, i1 false)
  br label %if.end8.i

if.end8.i:                                        ; preds = %if.then4.i, %for.body.i
  %add.i = add i64 %2, %at.026.i
  %inc.i = add nuw i64 %k.027.i, 1
  %exitcond.not.i = icmp eq i64 %inc.i, %nregions
  br i1 %exitcond.not.i, label %fz_fp_save.exit, label %for.body.i, !llvm.loop !68

fz_fp_save.exit:                                  ; preds = %if.end8.i, %fz_fp_bytes.exit.i
  %call13134.i = phi ptr [ %call1.i, %fz_fp_bytes.exit.i ], [ %call129.i, %if.end8.i ]
  call void @llvm.lifetime.start.p0(ptr nonnull %cumul.i) #22
  store double -1.000000e+00, ptr %cumul.i, align 8, !tbaa !70
  call void @llvm.lifetime.start.p0(ptr nonnull %red.i) #22
  %cmp.i = fcmp olt double %reduction, 0.000000e+00
  %cond.i = select i1 %cmp.i, double 0x3D719799812DEA11, double %reduction
  store double %cond.i, ptr %red.i, align 8, !tbaa !70
  %tobool.not.i = icmp eq ptr %control, null
  br i1 %tobool.not.i, label %fz_fp_first.exit, label %cond.true1.i

cond.true1.i:                                     ; preds = %fz_fp_save.exit
  %call.i = call i32 %control(ptr noundef nonnull %cumul.i, ptr noundef nonnull %red.i) #22
  %cmp2.i.not = icmp eq i32 %call.i, 0
  br label %fz_fp_first.exit

fz_fp_first.exit:                                 ; preds = %fz_fp_save.exit, %cond.true1.i
  %cond5.i = phi i1 [ %cmp2.i.not, %cond.true1.i ], [ false, %fz_fp_save.exit ]
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %cumul.i) #22
  %cmp107.not = icmp eq i64 %nstates, 0
  br i1 %cmp107.not, label %for.end, label %for.body

for.body:                                         ; preds = %fz_fp_first.exit, %for.body
  %q.0109 = phi i64 [ %inc, %for.body ], [ 0, %fz_fp_first.exit ]
  %bytes.0108 = phi i64 [ %add, %for.body ], [ 0, %fz_fp_first.exit ]
  %arrayidx = getelementptr inbounds nuw %struct.fz_fp_state, ptr %states, i64 %q.0109
  %4 = load ptr, ptr %arrayidx, align 8, !tbaa !76
  %bytes3 = getelementptr inbounds nuw i8, ptr %arrayidx, i64 8
  %5 = load i64, ptr %bytes3, align 8, !tbaa !73
  call void @llvm.memset.p0.i64(ptr align 1 %4, i8 0, i64 %5, i1 false)
  %6 = load i64, ptr %bytes3, align 8, !tbaa !73
  %add = add i64 %6, %bytes.0108
  %inc = add nuw i64 %q.0109, 1
  %exitcond.not = icmp eq i64 %inc, %nstates
  br i1 %exitcond.not, label %for.end.loopexit, label %for.body, !llvm.loop !83

for.end.loopexit:                                 ; preds = %for.body
  %7 = call i64 @llvm.umax.i64(i64 %add, i64 1)
  br label %for.end

for.end:                                          ; preds = %for.end.loopexit, %fz_fp_first.exit
  %bytes.0.lcssa = phi i64 [ 1, %fz_fp_first.exit ], [ %7, %for.end.loopexit ]
  %call6 = call noalias ptr @malloc(i64 noundef %bytes.0.lcssa) #23
  %tobool7.not = icmp eq ptr %call6, null
  br i1 %tobool7.not, label %if.then, label %while.cond.preheader

while.cond.preheader:                             ; preds = %for.end
  br i1 %cond5.i, label %while.end, label %for.cond9.preheader.lr.ph

for.cond9.preheader.lr.ph:                        ; preds = %while.cond.preheader
  %cmp1.i = icmp slt i64 %max_iters, 0
  %8 = add nsw i64 %max_iters, -1
  %9 = select i1 %cmp1.i, i64 999, i64 %8
  br label %for.cond9.preheader

if.then:                                          ; preds = %for.end
  call fastcc void @fzck_fail(ptr noundef nonnull @.str)
  unreachable

for.cond9.preheader:                              ; preds = %for.cond9.preheader.backedge, %for.cond9.preheader.lr.ph
  %iters.0116 = phi i64 [ 0, %for.cond9.preheader.lr.ph ], [ %inc23, %for.cond9.preheader.backedge ]
  %prev.0115 = phi double [ 0.000000e+00, %for.cond9.preheader.lr.ph ], [ %s.0.lcssa.i, %for.cond9.preheader.backedge ]
  %first.0114 = phi double [ 0.000000e+00, %for.cond9.preheader.lr.ph ], [ %first.1, %for.cond9.preheader.backedge ]
  br i1 %cmp107.not, label %for.end21, label %for.body11

for.body11:                                       ; preds = %for.cond9.preheader, %for.body11
  %q.1112 = phi i64 [ %inc20, %for.body11 ], [ 0, %for.cond9.preheader ]
  %at.0111 = phi i64 [ %add18, %for.body11 ], [ 0, %for.cond9.preheader ]
  %add.ptr = getelementptr inbounds nuw i8, ptr %call6, i64 %at.0111
  %arrayidx12 = getelementptr inbounds nuw %struct.fz_fp_state, ptr %states, i64 %q.1112
  %10 = load ptr, ptr %arrayidx12, align 8, !tbaa !76
  %bytes15 = getelementptr inbounds nuw i8, ptr %arrayidx12, i64 8
  %11 = load i64, ptr %bytes15, align 8, !tbaa !73
  call void @llvm.memcpy.p0.p0.i64(ptr nonnull align 1 %add.ptr, ptr align 1 %10, i64 %11, i1 false)
  %add18 = add i64 %11, %at.0111
  %inc20 = add nuw i64 %q.1112, 1
  %exitcond117.not = icmp eq i64 %inc20, %nstates
  br i1 %exitcond117.not, label %for.end21, label %for.body11, !llvm.loop !84

for.end21:                                        ; preds = %for.body11, %for.cond9.preheader
  br i1 %cmp4.not.i.i, label %fz_fp_load.exit, label %for.body.i62

for.body.i62:                                     ; preds = %for.end21, %if.end.i
  %at.017.i = phi i64 [ %add.i68, %if.end.i ], [ 0, %for.end21 ]
  %k.016.i = phi i64 [ %inc.i69, %if.end.i ], [ 0, %for.end21 ]
  %arrayidx.i63 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.016.i
  %bytes.i64 = getelementptr inbounds nuw i8, ptr %arrayidx.i63, i64 8
  %12 = load i64, ptr %bytes.i64, align 8, !tbaa !25
  %tobool.not.i65 = icmp eq i64 %12, 0
  br i1 %tobool.not.i65, label %if.end.i, label %if.then.i66

if.then.i66:                                      ; preds = %for.body.i62
  %13 = load ptr, ptr %arrayidx.i63, align 8, !tbaa !67
  %add.ptr.i67 = getelementptr inbounds nuw i8, ptr %call13134.i, i64 %at.017.i
  call void @llvm.memmove.p0.p0.i64(ptr align 1 %13, ptr nonnull readonly align 1 %add.ptr.i67, i64 %12, i1 false)
  %.pre.i = load i64, ptr %bytes.i64, align 8, !tbaa !25
  br label %if.end.i

if.end.i:                                         ; preds = %if.then.i66, %for.body.i62
  %14 = phi i64 [ %.pre.i, %if.then.i66 ], [ 0, %for.body.i62 ]
  %add.i68 = add i64 %14, %at.017.i
  %inc.i69 = add nuw i64 %k.016.i, 1
  %exitcond.not.i70 = icmp eq i64 %inc.i69, %nregions
  br i1 %exitcond.not.i70, label %fz_fp_load.exit, label %for.body.i62, !llvm.loop !72

fz_fp_load.exit:                                  ; preds = %if.end.i, %for.end21
  call void %tan(i64 noundef %last, ptr noundef %env) #22
  br i1 %cmp107.not, label %fz_fp_norm.exit, label %for.body.i71

for.body.i71:                                     ; preds = %fz_fp_load.exit, %for.end.i
  %s.060.i = phi double [ %s.1.lcssa.i, %for.end.i ], [ 0.000000e+00, %fz_fp_load.exit ]
  %at.059.i = phi i64 [ %add.i77, %for.end.i ], [ 0, %fz_fp_load.exit ]
  %q.058.i = phi i64 [ %inc15.i, %for.end.i ], [ 0, %fz_fp_load.exit ]
  %arrayidx.i72 = getelementptr inbounds nuw %struct.fz_fp_state, ptr %states, i64 %q.058.i
  %bytes.i73 = getelementptr inbounds nuw i8, ptr %arrayidx.i72, i64 8
  %15 = load i64, ptr %bytes.i73, align 8, !tbaa !73
  %elem.i = getelementptr inbounds nuw i8, ptr %arrayidx.i72, i64 16
  %16 = load i32, ptr %elem.i, align 8, !tbaa !75
  %conv.i74 = zext i32 %16 to i64
  %div.i = udiv i64 %15, %conv.i74
  %cmp353.not.i = icmp ult i64 %15, %conv.i74
  br i1 %cmp353.not.i, label %for.end.i, label %for.body5.lr.ph.i

for.body5.lr.ph.i:                                ; preds = %for.body.i71
  %17 = load ptr, ptr %arrayidx.i72, align 8, !tbaa !76
  %cmp.i.i = icmp eq i32 %16, 4
  %add.ptr49.i = getelementptr inbounds nuw i8, ptr %call6, i64 %at.059.i
  br label %for.body5.i

for.body5.i:                                      ; preds = %fz_fp_elem.exit44.i, %for.body5.lr.ph.i
  %s.156.i = phi double [ %s.060.i, %for.body5.lr.ph.i ], [ %22, %fz_fp_elem.exit44.i ]
  %k.054.i = phi i64 [ 0, %for.body5.lr.ph.i ], [ %inc.i76, %fz_fp_elem.exit44.i ]
  br i1 %cmp.i.i, label %cond.true.i41.i, label %cond.false.i38.i

cond.true.i41.i:                                  ; preds = %for.body5.i
  %arrayidx.i.i79 = getelementptr inbounds nuw float, ptr %17, i64 %k.054.i
  %18 = load float, ptr %arrayidx.i.i79, align 4, !tbaa !77
  %conv.i.i = fpext float %18 to double
  %arrayidx.i42.i = getelementptr inbounds nuw float, ptr %add.ptr49.i, i64 %k.054.i
  %19 = load float, ptr %arrayidx.i42.i, align 4, !tbaa !77
  %conv.i43.i = fpext float %19 to double
  br label %fz_fp_elem.exit44.i

cond.false.i38.i:                                 ; preds = %for.body5.i
  %arrayidx1.i.i = getelementptr inbounds nuw double, ptr %17, i64 %k.054.i
  %20 = load double, ptr %arrayidx1.i.i, align 8, !tbaa !70
  %arrayidx1.i39.i = getelementptr inbounds nuw double, ptr %add.ptr49.i, i64 %k.054.i
  %21 = load double, ptr %arrayidx1.i39.i, align 8, !tbaa !70
  br label %fz_fp_elem.exit44.i

fz_fp_elem.exit44.i:                              ; preds = %cond.false.i38.i, %cond.true.i41.i
  %cond.i4750.i = phi double [ %conv.i.i, %cond.true.i41.i ], [ %20, %cond.false.i38.i ]
  %cond.i40.i = phi double [ %conv.i43.i, %cond.true.i41.i ], [ %21, %cond.false.i38.i ]
  %sub.i = fsub double %cond.i4750.i, %cond.i40.i
  %22 = call double @llvm.fmuladd.f64(double %sub.i, double %sub.i, double %s.156.i)
  %inc.i76 = add nuw i64 %k.054.i, 1
  %cmp3.i = icmp ult i64 %inc.i76, %div.i
  br i1 %cmp3.i, label %for.body5.i, label %for.end.i, !llvm.loop !79

for.end.i:                                        ; preds = %fz_fp_elem.exit44.i, %for.body.i71
  %s.1.lcssa.i = phi double [ %s.060.i, %for.body.i71 ], [ %22, %fz_fp_elem.exit44.i ]
  %add.i77 = add i64 %15, %at.059.i
  %inc15.i = add nuw i64 %q.058.i, 1
  %exitcond.not.i78 = icmp eq i64 %inc15.i, %nstates
  br i1 %exitcond.not.i78, label %fz_fp_norm.exit, label %for.body.i71, !llvm.loop !80

fz_fp_norm.exit:                                  ; preds = %for.end.i, %fz_fp_load.exit
  %s.0.lcssa.i = phi double [ 0.000000e+00, %fz_fp_load.exit ], [ %s.1.lcssa.i, %for.end.i ]
  %inc23 = add nuw nsw i64 %iters.0116, 1
  %cmp24 = icmp eq i64 %iters.0116, 0
  %first.1 = select i1 %cmp24, double %s.0.lcssa.i, double %first.0114
  call void @llvm.lifetime.start.p0(ptr nonnull %red.i80) #22
  store double %cond.i, ptr %red.i80, align 8, !tbaa !70
  br i1 %tobool.not.i, label %if.end.i89, label %if.then.i86

if.then.i86:                                      ; preds = %fz_fp_norm.exit
  call void @llvm.lifetime.start.p0(ptr nonnull %cumul.i81) #22
  store double %s.0.lcssa.i, ptr %cumul.i81, align 8, !tbaa !70
  %call.i87 = call i32 %control(ptr noundef nonnull %cumul.i81, ptr noundef nonnull %red.i80) #22
  %cmp6.i.not = icmp eq i32 %call.i87, 0
  call void @llvm.lifetime.end.p0(ptr nonnull %cumul.i81) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i80) #22
  br i1 %cmp6.i.not, label %while.end, label %for.cond9.preheader.backedge

for.cond9.preheader.backedge:                     ; preds = %if.then.i86, %fz_fp_again.exit
  br label %for.cond9.preheader, !llvm.loop !85

if.end.i89:                                       ; preds = %fz_fp_norm.exit
  %mul.i = fmul double %cond.i, %first.1
  %cmp7.i = fcmp ugt double %s.0.lcssa.i, %mul.i
  br i1 %cmp7.i, label %if.end10.i, label %fz_fp_again.exit.thread

if.end10.i:                                       ; preds = %if.end.i89
  %cmp11.i = icmp samesign ugt i64 %iters.0116, 4
  %cmp13.i = fcmp ogt double %s.0.lcssa.i, %prev.0115
  %or.cond.i = and i1 %cmp11.i, %cmp13.i
  br i1 %or.cond.i, label %if.then23.i, label %lor.lhs.false.i

lor.lhs.false.i:                                  ; preds = %if.end10.i
  %or.cond39.not41.i = icmp ule i64 %9, %iters.0116
  %cmp21.i = fcmp uno double %s.0.lcssa.i, 0.000000e+00
  %or.cond40.i = or i1 %or.cond39.not41.i, %cmp21.i
  br i1 %or.cond40.i, label %if.then23.i, label %fz_fp_again.exit

if.then23.i:                                      ; preds = %lor.lhs.false.i, %if.end10.i
  %23 = load ptr, ptr @stderr, align 8, !tbaa !56
  %call24.i = call i32 (ptr, ptr, ...) @fprintf(ptr noundef %23, ptr noundef nonnull @.str.45, ptr noundef nonnull @.str.11, i64 noundef range(i64 -9223372036854775807, -9223372036854775808) %inc23, double noundef %s.0.lcssa.i, double noundef %first.1, double noundef %cond.i) #24
  br label %fz_fp_again.exit.thread

fz_fp_again.exit.thread:                          ; preds = %if.end.i89, %if.then23.i
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i80) #22
  br label %while.end

fz_fp_again.exit:                                 ; preds = %lor.lhs.false.i
  call void @llvm.lifetime.end.p0(ptr nonnull %red.i80) #22
  br label %for.cond9.preheader.backedge

while.end:                                        ; preds = %if.then.i86, %fz_fp_again.exit.thread, %while.cond.preheader
  br i1 %cmp4.not.i.i, label %fz_fp_load.exit106, label %for.body.i92

for.body.i92:                                     ; preds = %while.end, %if.end.i101
  %at.017.i93 = phi i64 [ %add.i102, %if.end.i101 ], [ 0, %while.end ]
  %k.016.i94 = phi i64 [ %inc.i103, %if.end.i101 ], [ 0, %while.end ]
  %arrayidx.i95 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %k.016.i94
  %bytes.i96 = getelementptr inbounds nuw i8, ptr %arrayidx.i95, i64 8
  %24 = load i64, ptr %bytes.i96, align 8, !tbaa !25
  %tobool.not.i97 = icmp eq i64 %24, 0
  br i1 %tobool.not.i97, label %if.end.i101, label %if.then.i98

if.then.i98:                                      ; preds = %for.body.i92
  %25 = load ptr, ptr %arrayidx.i95, align 8, !tbaa !67
  %add.ptr.i99 = getelementptr inbounds nuw i8, ptr %call13134.i, i64 %at.017.i93
  call void @llvm.memmove.p0.p0.i64(ptr align 1 %25, ptr nonnull readonly align 1 %add.ptr.i99, i64 %24, i1 false)
  %.pre.i100 = load i64, ptr %bytes.i96, align 8, !tbaa !25
  br label %if.end.i101

if.end.i101:                                      ; preds = %if.then.i98, %for.body.i92
  %26 = phi i64 [ %.pre.i100, %if.then.i98 ], [ 0, %for.body.i92 ]
  %add.i102 = add i64 %26, %at.017.i93
  %inc.i103 = add nuw i64 %k.016.i94, 1
  %exitcond.not.i104 = icmp eq i64 %inc.i103, %nregions
  br i1 %exitcond.not.i104, label %fz_fp_load.exit106, label %for.body.i92, !llvm.loop !72

fz_fp_load.exit106:                               ; preds = %if.end.i101, %while.end
  call void @free(ptr noundef %call6) #22
  call void @free(ptr noundef %call13134.i) #22
  ret void
}

; Function Attrs: inlinehint nofree nounwind uwtable
define internal noalias nonnull ptr @fzck_revolve_init(ptr noundef %data, i64 noundef %n, i64 noundef %bytes) #13 {
entry:
  %cmp = icmp slt i64 %n, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.13)
  unreachable

if.end:                                           ; preds = %entry
  %tobool.not = icmp eq ptr %data, null
  br i1 %tobool.not, label %cond.end, label %cond.true

cond.true:                                        ; preds = %if.end
  %0 = load i64, ptr %data, align 8, !tbaa !86
  br label %cond.end

cond.end:                                         ; preds = %if.end, %cond.true
  %cond = phi i64 [ %0, %cond.true ], [ 1, %if.end ]
  %call.i = tail call noalias dereferenceable_or_null(304) ptr @calloc(i64 noundef 1, i64 noundef 304) #21
  %tobool.not.i = icmp eq ptr %call.i, null
  br i1 %tobool.not.i, label %if.then.i, label %fzck_new.exit

if.then.i:                                        ; preds = %cond.end
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.14)
  unreachable

fzck_new.exit:                                    ; preds = %cond.end
  store i32 2, ptr %call.i, align 8, !tbaa !87
  %config2.i = getelementptr inbounds nuw i8, ptr %call.i, i64 8
  store ptr %data, ptr %config2.i, align 8, !tbaa !93
  %n3.i = getelementptr inbounds nuw i8, ptr %call.i, i64 16
  store i64 %n, ptr %n3.i, align 8, !tbaa !94
  %bytes4.i = getelementptr inbounds nuw i8, ptr %call.i, i64 224
  store i64 %bytes, ptr %bytes4.i, align 8, !tbaa !95
  %replay.i = getelementptr inbounds nuw i8, ptr %call.i, i64 216
  store i64 -1, ptr %replay.i, align 8, !tbaa !96
  %highest.i = getelementptr inbounds nuw i8, ptr %call.i, i64 248
  store i64 -1, ptr %highest.i, align 8, !tbaa !97
  %spec.select.i = tail call i64 @llvm.smin.i64(i64 %cond, i64 %n)
  %cond.i = tail call i64 @llvm.smax.i64(i64 %spec.select.i, i64 1)
  %budget8.i = getelementptr inbounds nuw i8, ptr %call.i, i64 24
  store i64 %cond.i, ptr %budget8.i, align 8, !tbaa !98
  ret ptr %call.i
}

; Function Attrs: inlinehint nounwind uwtable
define internal void @fzck_next(ptr noundef %state, ptr noundef captures(none) %out) #14 {
entry:
  %qpos = getelementptr inbounds nuw i8, ptr %state, i64 188
  %0 = load i32, ptr %qpos, align 4, !tbaa !99
  %queued = getelementptr inbounds nuw i8, ptr %state, i64 184
  %1 = load i32, ptr %queued, align 8, !tbaa !100
  %cmp = icmp eq i32 %0, %1
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  store i32 0, ptr %qpos, align 4, !tbaa !99
  store i32 0, ptr %queued, align 8, !tbaa !100
  %online.i = getelementptr inbounds nuw i8, ptr %state, i64 200
  %2 = load i32, ptr %online.i, align 8, !tbaa !101
  %tobool.not.i = icmp eq i32 %2, 0
  br i1 %tobool.not.i, label %if.end12.i, label %if.then.i

if.then.i:                                        ; preds = %if.then
  %pending.i = getelementptr inbounds nuw i8, ptr %state, i64 204
  %3 = load i32, ptr %pending.i, align 4, !tbaa !102
  %tobool1.not.i = icmp eq i32 %3, 0
  %pos5.i = getelementptr inbounds nuw i8, ptr %state, i64 208
  %4 = load i64, ptr %pos5.i, align 8, !tbaa !103
  br i1 %tobool1.not.i, label %if.else.i, label %if.end.i

if.else.i:                                        ; preds = %if.then.i
  %add.i = add nsw i64 %4, 1
  store i64 %add.i, ptr %pos5.i, align 8, !tbaa !103
  br label %if.end.i

if.end.i:                                         ; preds = %if.then.i, %if.else.i
  %.sink47 = phi i32 [ 3, %if.else.i ], [ 1, %if.then.i ]
  %.sink = phi i64 [ %add.i, %if.else.i ], [ %4, %if.then.i ]
  store i32 1, ptr %queued, align 8, !tbaa !100
  %5 = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 %.sink47, ptr %5, align 8, !tbaa !42
  %6 = getelementptr inbounds nuw i8, ptr %state, i64 64
  store i64 %.sink, ptr %6, align 8, !tbaa !45
  %7 = getelementptr inbounds nuw i8, ptr %state, i64 72
  store i64 %4, ptr %7, align 8, !tbaa !50
  %8 = getelementptr inbounds nuw i8, ptr %state, i64 80
  store i64 %4, ptr %8, align 8, !tbaa !44
  %lnot.ext.i = zext i1 %tobool1.not.i to i32
  store i32 %lnot.ext.i, ptr %pending.i, align 4, !tbaa !102
  br label %if.end

if.end12.i:                                       ; preds = %if.then
  %replay.i = getelementptr inbounds nuw i8, ptr %state, i64 216
  %9 = load i64, ptr %replay.i, align 8, !tbaa !96
  %cmp.i = icmp sgt i64 %9, -1
  br i1 %cmp.i, label %if.then13.i, label %if.end18.i

if.then13.i:                                      ; preds = %if.end12.i
  %dec.i = add nsw i64 %9, -1
  store i64 %dec.i, ptr %replay.i, align 8, !tbaa !96
  %queue.i166.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 2, ptr %queue.i166.i, align 8, !tbaa !42
  %iteration.i171.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  store i64 %9, ptr %iteration.i171.i, align 8, !tbaa !45
  %startiteration.i172.i = getelementptr inbounds nuw i8, ptr %state, i64 72
  store i64 %9, ptr %startiteration.i172.i, align 8, !tbaa !50
  %cpnum.i173.i = getelementptr inbounds nuw i8, ptr %state, i64 80
  store i64 %9, ptr %cpnum.i173.i, align 8, !tbaa !44
  %turned.i = getelementptr inbounds nuw i8, ptr %state, i64 196
  %10 = load i32, ptr %turned.i, align 4, !tbaa !104
  %tobool15.not.i = icmp eq i32 %10, 0
  %cond.i = select i1 %tobool15.not.i, i32 4, i32 5
  %add16.i = add nuw nsw i64 %9, 1
  store i32 2, ptr %queued, align 8, !tbaa !100
  %arrayidx.i178.i = getelementptr i8, ptr %state, i64 88
  store i32 %cond.i, ptr %arrayidx.i178.i, align 8, !tbaa !42
  %iteration.i179.i = getelementptr i8, ptr %state, i64 96
  store i64 %add16.i, ptr %iteration.i179.i, align 8, !tbaa !45
  %startiteration.i180.i = getelementptr i8, ptr %state, i64 104
  store i64 %9, ptr %startiteration.i180.i, align 8, !tbaa !50
  %cpnum.i181.i = getelementptr i8, ptr %state, i64 112
  store i64 %9, ptr %cpnum.i181.i, align 8, !tbaa !44
  store i32 1, ptr %turned.i, align 4, !tbaa !104
  br label %if.end

if.end18.i:                                       ; preds = %if.end12.i
  %started.i = getelementptr inbounds nuw i8, ptr %state, i64 192
  %11 = load i32, ptr %started.i, align 8, !tbaa !105
  %tobool19.not.i = icmp eq i32 %11, 0
  br i1 %tobool19.not.i, label %if.then20.i, label %while.body.i

if.then20.i:                                      ; preds = %if.end18.i
  store i32 1, ptr %started.i, align 8, !tbaa !105
  %n.i = getelementptr inbounds nuw i8, ptr %state, i64 16
  %12 = load i64, ptr %n.i, align 8, !tbaa !94
  %cmp22.i = icmp sgt i64 %12, 0
  br i1 %cmp22.i, label %if.then23.i, label %while.body.i

if.then23.i:                                      ; preds = %if.then20.i
  %cmp25.not.i = icmp eq i64 %12, 1
  br i1 %cmp25.not.i, label %if.end27.i, label %if.then26.i

if.then26.i:                                      ; preds = %if.then23.i
  %queue.i182.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 1, ptr %queued, align 8, !tbaa !100
  store i32 1, ptr %queue.i182.i, align 8, !tbaa !42
  %iteration.i187.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(24) %iteration.i187.i, i8 0, i64 24, i1 false)
  br label %if.end27.i

if.end27.i:                                       ; preds = %if.then26.i, %if.then23.i
  %budget.i = getelementptr inbounds nuw i8, ptr %state, i64 24
  %13 = load i64, ptr %budget.i, align 8, !tbaa !98
  %depth.i.i = getelementptr inbounds nuw i8, ptr %state, i64 40
  %14 = load i64, ptr %depth.i.i, align 8, !tbaa !106
  %cap.i.i = getelementptr inbounds nuw i8, ptr %state, i64 48
  %15 = load i64, ptr %cap.i.i, align 8, !tbaa !107
  %cmp.i.i = icmp eq i64 %14, %15
  br i1 %cmp.i.i, label %if.then.i.i, label %entry.if.end10_crit_edge.i.i

entry.if.end10_crit_edge.i.i:                     ; preds = %if.end27.i
  %frames11.phi.trans.insert.i.i = getelementptr inbounds nuw i8, ptr %state, i64 32
  %.pre.i.i = load ptr, ptr %frames11.phi.trans.insert.i.i, align 8, !tbaa !108
  br label %while.cond.i

if.then.i.i:                                      ; preds = %if.end27.i
  %tobool.not.i.i = icmp eq i64 %14, 0
  %mul.i.i = shl nsw i64 %14, 1
  %spec.select.i.i = select i1 %tobool.not.i.i, i64 16, i64 %mul.i.i
  store i64 %spec.select.i.i, ptr %cap.i.i, align 8, !tbaa !107
  %frames.i.i = getelementptr inbounds nuw i8, ptr %state, i64 32
  %16 = load ptr, ptr %frames.i.i, align 8, !tbaa !108
  %mul5.i.i = mul i64 %spec.select.i.i, 48
  %call.i.i = tail call ptr @realloc(ptr noundef %16, i64 noundef %mul5.i.i) #26
  store ptr %call.i.i, ptr %frames.i.i, align 8, !tbaa !108
  %tobool8.not.i.i = icmp eq ptr %call.i.i, null
  br i1 %tobool8.not.i.i, label %if.then9.i.i, label %if.then.if.end10_crit_edge.i.i

if.then.if.end10_crit_edge.i.i:                   ; preds = %if.then.i.i
  %.pre32.i.i = load i64, ptr %depth.i.i, align 8, !tbaa !106
  br label %while.cond.i

if.then9.i.i:                                     ; preds = %if.then.i.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.14)
  unreachable

while.cond.i:                                     ; preds = %entry.if.end10_crit_edge.i.i, %if.then.if.end10_crit_edge.i.i
  %17 = phi i64 [ %14, %entry.if.end10_crit_edge.i.i ], [ %.pre32.i.i, %if.then.if.end10_crit_edge.i.i ]
  %18 = phi ptr [ %.pre.i.i, %entry.if.end10_crit_edge.i.i ], [ %call.i.i, %if.then.if.end10_crit_edge.i.i ]
  %inc.i190.i = add nsw i64 %17, 1
  store i64 %inc.i190.i, ptr %depth.i.i, align 8, !tbaa !106
  %arrayidx.i191.i = getelementptr inbounds %struct.fzck_frame, ptr %18, i64 %17
  store i64 0, ptr %arrayidx.i191.i, align 8, !tbaa !109
  %b14.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i191.i, i64 8
  store i64 %12, ptr %b14.i.i, align 8, !tbaa !111
  %s15.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i191.i, i64 16
  store i64 %13, ptr %s15.i.i, align 8, !tbaa !112
  %slot16.i.i = getelementptr inbounds nuw i8, ptr %arrayidx.i191.i, i64 24
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(20) %slot16.i.i, i8 0, i64 20, i1 false)
  %.pre = load i32, ptr %queued, align 8, !tbaa !100
  %19 = icmp eq i32 %.pre, 0
  br i1 %19, label %while.body.i, label %if.end

while.body.i:                                     ; preds = %if.end18.i, %if.then20.i, %while.cond.i
  %depth.i = getelementptr inbounds nuw i8, ptr %state, i64 40
  %20 = load i64, ptr %depth.i, align 8, !tbaa !106
  %cmp32.i = icmp eq i64 %20, 0
  br i1 %cmp32.i, label %if.then33.i, label %if.end34.i

if.then33.i:                                      ; preds = %while.body.i
  %queue.i192.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 1, ptr %queued, align 8, !tbaa !100
  store i32 7, ptr %queue.i192.i, align 8, !tbaa !42
  %iteration.i197.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  %cpnum.i199.i = getelementptr inbounds nuw i8, ptr %state, i64 80
  tail call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(16) %iteration.i197.i, i8 0, i64 16, i1 false)
  store i64 -1, ptr %cpnum.i199.i, align 8, !tbaa !44
  br label %if.end

if.end34.i:                                       ; preds = %while.body.i
  %frames.i = getelementptr inbounds nuw i8, ptr %state, i64 32
  %21 = load ptr, ptr %frames.i, align 8, !tbaa !108
  %22 = getelementptr %struct.fzck_frame, ptr %21, i64 %20
  %arrayidx.i = getelementptr i8, ptr %22, i64 -48
  %phase.i = getelementptr i8, ptr %22, i64 -8
  %23 = load i32, ptr %phase.i, align 8, !tbaa !113
  %cmp36.i = icmp eq i32 %23, 1
  br i1 %cmp36.i, label %if.then37.i, label %if.end42.i

if.then37.i:                                      ; preds = %if.end34.i
  %24 = load i64, ptr %arrayidx.i, align 8, !tbaa !109
  %slot.i = getelementptr i8, ptr %22, i64 -24
  %25 = load i64, ptr %slot.i, align 8, !tbaa !114
  %queue.i200.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 1, ptr %queued, align 8, !tbaa !100
  store i32 2, ptr %queue.i200.i, align 8, !tbaa !42
  %iteration.i205.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  store i64 %24, ptr %iteration.i205.i, align 8, !tbaa !45
  %startiteration.i206.i = getelementptr inbounds nuw i8, ptr %state, i64 72
  store i64 %24, ptr %startiteration.i206.i, align 8, !tbaa !50
  %cpnum.i207.i = getelementptr inbounds nuw i8, ptr %state, i64 80
  store i64 %25, ptr %cpnum.i207.i, align 8, !tbaa !44
  %m.i = getelementptr i8, ptr %22, i64 -16
  %26 = load i64, ptr %m.i, align 8, !tbaa !115
  %add40.i = add nsw i64 %26, %24
  %b.i = getelementptr i8, ptr %22, i64 -40
  store i64 %add40.i, ptr %b.i, align 8, !tbaa !111
  store i32 0, ptr %phase.i, align 8, !tbaa !113
  br label %if.end

if.end42.i:                                       ; preds = %if.end34.i
  %b43.i = getelementptr i8, ptr %22, i64 -40
  %27 = load i64, ptr %b43.i, align 8, !tbaa !111
  %28 = load i64, ptr %arrayidx.i, align 8, !tbaa !109
  %sub45.i = sub nsw i64 %27, %28
  %cmp46.i = icmp eq i64 %sub45.i, 1
  br i1 %cmp46.i, label %if.then47.i, label %if.else57.i

if.then47.i:                                      ; preds = %if.end42.i
  %turned48.i = getelementptr inbounds nuw i8, ptr %state, i64 196
  %29 = load i32, ptr %turned48.i, align 4, !tbaa !104
  %tobool49.not.i = icmp eq i32 %29, 0
  %cond50.i = select i1 %tobool49.not.i, i32 4, i32 5
  %slot53.i = getelementptr i8, ptr %22, i64 -24
  %30 = load i64, ptr %slot53.i, align 8, !tbaa !114
  %queue.i208.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 1, ptr %queued, align 8, !tbaa !100
  store i32 %cond50.i, ptr %queue.i208.i, align 8, !tbaa !42
  %iteration.i213.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  store i64 %27, ptr %iteration.i213.i, align 8, !tbaa !45
  %startiteration.i214.i = getelementptr inbounds nuw i8, ptr %state, i64 72
  store i64 %28, ptr %startiteration.i214.i, align 8, !tbaa !50
  %cpnum.i215.i = getelementptr inbounds nuw i8, ptr %state, i64 80
  store i64 %30, ptr %cpnum.i215.i, align 8, !tbaa !44
  store i32 1, ptr %turned48.i, align 4, !tbaa !104
  %dec56.i = add nsw i64 %20, -1
  store i64 %dec56.i, ptr %depth.i, align 8, !tbaa !106
  br label %if.end

if.else57.i:                                      ; preds = %if.end42.i
  %call.i = tail call fastcc i64 @fzck_split(ptr noundef nonnull %state, ptr noundef nonnull %arrayidx.i)
  %s63.i = getelementptr i8, ptr %22, i64 -32
  %31 = load i64, ptr %s63.i, align 8, !tbaa !112
  %slot64.i = getelementptr i8, ptr %22, i64 -24
  %32 = load i64, ptr %slot64.i, align 8, !tbaa !114
  %m65.i = getelementptr i8, ptr %22, i64 -16
  store i64 %call.i, ptr %m65.i, align 8, !tbaa !115
  store i32 1, ptr %phase.i, align 8, !tbaa !113
  %add67.i = add nsw i64 %call.i, %28
  %queue.i216.i = getelementptr inbounds nuw i8, ptr %state, i64 56
  store i32 1, ptr %queued, align 8, !tbaa !100
  store i32 3, ptr %queue.i216.i, align 8, !tbaa !42
  %iteration.i221.i = getelementptr inbounds nuw i8, ptr %state, i64 64
  store i64 %add67.i, ptr %iteration.i221.i, align 8, !tbaa !45
  %startiteration.i222.i = getelementptr inbounds nuw i8, ptr %state, i64 72
  store i64 %28, ptr %startiteration.i222.i, align 8, !tbaa !50
  %cpnum.i223.i = getelementptr inbounds nuw i8, ptr %state, i64 80
  store i64 %32, ptr %cpnum.i223.i, align 8, !tbaa !44
  %sub69.i = sub nsw i64 %27, %add67.i
  %cmp70.i = icmp sgt i64 %sub69.i, 1
  %add74.i = add nsw i64 %32, 1
  br i1 %cmp70.i, label %if.then71.i, label %if.end75.i

if.then71.i:                                      ; preds = %if.else57.i
  store i32 2, ptr %queued, align 8, !tbaa !100
  %arrayidx.i228.i = getelementptr inbounds nuw i8, ptr %state, i64 88
  store i32 1, ptr %arrayidx.i228.i, align 8, !tbaa !42
  %iteration.i229.i = getelementptr inbounds nuw i8, ptr %state, i64 96
  store i64 %add67.i, ptr %iteration.i229.i, align 8, !tbaa !45
  %startiteration.i230.i = getelementptr inbounds nuw i8, ptr %state, i64 104
  store i64 %add67.i, ptr %startiteration.i230.i, align 8, !tbaa !50
  %cpnum.i231.i = getelementptr inbounds nuw i8, ptr %state, i64 112
  store i64 %add74.i, ptr %cpnum.i231.i, align 8, !tbaa !44
  br label %if.end75.i

if.end75.i:                                       ; preds = %if.then71.i, %if.else57.i
  %sub77.i = add nsw i64 %31, -1
  tail call fastcc void @fzck_push(ptr noundef nonnull %state, i64 noundef %add67.i, i64 noundef %27, i64 noundef %sub77.i, i64 noundef %add74.i)
  br label %if.end

if.end:                                           ; preds = %if.end75.i, %if.then47.i, %if.then37.i, %if.then33.i, %while.cond.i, %if.then13.i, %if.end.i, %entry
  %queue = getelementptr inbounds nuw i8, ptr %state, i64 56
  %33 = load i32, ptr %qpos, align 4, !tbaa !99
  %inc = add nsw i32 %33, 1
  store i32 %inc, ptr %qpos, align 4, !tbaa !99
  %idxprom = sext i32 %33 to i64
  %arrayidx = getelementptr inbounds %struct.EnzymeCkptAction, ptr %queue, i64 %idxprom
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %out, ptr noundef nonnull align 8 dereferenceable(32) %arrayidx, i64 32, i1 false), !tbaa.struct !116
  %34 = load i32, ptr %out, align 8, !tbaa !42
  %cmp4 = icmp eq i32 %34, 3
  br i1 %cmp4, label %if.end6.thread, label %if.end6

if.end6.thread:                                   ; preds = %if.end
  %iteration = getelementptr inbounds nuw i8, ptr %out, i64 8
  %35 = load i64, ptr %iteration, align 8, !tbaa !45
  %startiteration = getelementptr inbounds nuw i8, ptr %out, i64 16
  %36 = load i64, ptr %startiteration, align 8, !tbaa !50
  %sub = sub i64 %35, %36
  %stats = getelementptr inbounds nuw i8, ptr %state, i64 256
  %37 = load i64, ptr %stats, align 8, !tbaa !117
  %add = add nsw i64 %sub, %37
  store i64 %add, ptr %stats, align 8, !tbaa !117
  br label %if.end14

if.end6:                                          ; preds = %if.end
  %38 = and i32 %34, -2
  %switch = icmp eq i32 %38, 4
  br i1 %switch, label %if.then11, label %if.end14

if.then11:                                        ; preds = %if.end6
  %taped_steps = getelementptr inbounds nuw i8, ptr %state, i64 264
  %39 = load i64, ptr %taped_steps, align 8, !tbaa !118
  %inc13 = add nsw i64 %39, 1
  store i64 %inc13, ptr %taped_steps, align 8, !tbaa !118
  br label %if.end14

if.end14:                                         ; preds = %if.end6.thread, %if.end6, %if.then11
  %config = getelementptr inbounds nuw i8, ptr %state, i64 8
  %40 = load ptr, ptr %config, align 8, !tbaa !93
  %tobool.not = icmp eq ptr %40, null
  br i1 %tobool.not, label %if.end22, label %land.lhs.true

land.lhs.true:                                    ; preds = %if.end14
  %verbose = getelementptr inbounds nuw i8, ptr %40, i64 8
  %41 = load i32, ptr %verbose, align 8, !tbaa !119
  %cmp16 = icmp sgt i32 %41, 1
  br i1 %cmp16, label %if.then17, label %if.end22

if.then17:                                        ; preds = %land.lhs.true
  %42 = load ptr, ptr @stderr, align 8, !tbaa !56
  %or.cond.i = icmp ult i32 %34, 8
  br i1 %or.cond.i, label %cond.true.i, label %fzck_flag_name.exit

cond.true.i:                                      ; preds = %if.then17
  %idxprom.i = zext nneg i32 %34 to i64
  %reltable.shift = shl i64 %idxprom.i, 2
  %reltable.intrinsic = call ptr @llvm.load.relative.i64(ptr @fzck_flag_name.names.rel, i64 %reltable.shift)
  br label %fzck_flag_name.exit

fzck_flag_name.exit:                              ; preds = %if.then17, %cond.true.i
  %cond.i43 = phi ptr [ %reltable.intrinsic, %cond.true.i ], [ @.str.22, %if.then17 ]
  %iteration19 = getelementptr inbounds nuw i8, ptr %out, i64 8
  %43 = load i64, ptr %iteration19, align 8, !tbaa !45
  %startiteration20 = getelementptr inbounds nuw i8, ptr %out, i64 16
  %44 = load i64, ptr %startiteration20, align 8, !tbaa !50
  %cpnum = getelementptr inbounds nuw i8, ptr %out, i64 24
  %45 = load i64, ptr %cpnum, align 8, !tbaa !44
  %call21 = tail call i32 (ptr, ptr, ...) @fprintf(ptr noundef %42, ptr noundef nonnull @.str.15, ptr noundef %cond.i43, i64 noundef %43, i64 noundef %44, i64 noundef %45) #24
  br label %if.end22

if.end22:                                         ; preds = %fzck_flag_name.exit, %land.lhs.true, %if.end14
  ret void
}

; Function Attrs: inlinehint nounwind uwtable
define internal void @fzck_store(ptr noundef %state, i64 noundef %slot, i64 %step, ptr noundef readonly captures(none) %regions, i64 noundef %nregions) #14 {
entry:
  %path = alloca [4096 x i8], align 16
  %add = add nsw i64 %slot, 2
  %cmp = icmp slt i64 %slot, -2
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.24)
  unreachable

if.end:                                           ; preds = %entry
  %cmp4.not.i = icmp eq i64 %nregions, 0
  br i1 %cmp4.not.i, label %fzck_check_host.exit, label %for.body.i

for.cond.i:                                       ; preds = %for.body.i
  %inc.i = add nuw i64 %i.05.i, 1
  %exitcond.not.i = icmp eq i64 %inc.i, %nregions
  br i1 %exitcond.not.i, label %fzck_check_host.exit, label %for.body.i, !llvm.loop !120

for.body.i:                                       ; preds = %if.end, %for.cond.i
  %i.05.i = phi i64 [ %inc.i, %for.cond.i ], [ 0, %if.end ]
  %arrayidx.i = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %i.05.i
  %addrspace.i = getelementptr inbounds nuw i8, ptr %arrayidx.i, i64 16
  %0 = load i32, ptr %addrspace.i, align 8, !tbaa !121
  %cmp1.not.i = icmp eq i32 %0, 0
  br i1 %cmp1.not.i, label %for.cond.i, label %if.then.i

if.then.i:                                        ; preds = %for.body.i
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.30)
  unreachable

fzck_check_host.exit:                             ; preds = %for.cond.i, %if.end
  %nmem = getelementptr inbounds nuw i8, ptr %state, i64 240
  %1 = load i64, ptr %nmem, align 8, !tbaa !122
  %cmp1.not = icmp slt i64 %add, %1
  br i1 %cmp1.not, label %if.end16, label %if.then2

if.then2:                                         ; preds = %fzck_check_host.exit
  %tobool.not = icmp eq i64 %1, 0
  %spec.select = select i1 %tobool.not, i64 8, i64 %1
  br label %while.cond

while.cond:                                       ; preds = %while.cond, %if.then2
  %n.0 = phi i64 [ %spec.select, %if.then2 ], [ %mul, %while.cond ]
  %cmp5.not = icmp sgt i64 %n.0, %add
  %mul = shl nsw i64 %n.0, 1
  br i1 %cmp5.not, label %while.end, label %while.cond, !llvm.loop !123

while.end:                                        ; preds = %while.cond
  %mem = getelementptr inbounds nuw i8, ptr %state, i64 232
  %2 = load ptr, ptr %mem, align 8, !tbaa !124
  %mul6 = shl i64 %n.0, 3
  %call = tail call ptr @realloc(ptr noundef %2, i64 noundef %mul6) #26
  store ptr %call, ptr %mem, align 8, !tbaa !124
  %tobool9.not = icmp eq ptr %call, null
  br i1 %tobool9.not, label %if.then10, label %if.end11

if.then10:                                        ; preds = %while.end
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.25)
  unreachable

if.end11:                                         ; preds = %while.end
  %3 = load i64, ptr %nmem, align 8, !tbaa !122
  %cmp13164 = icmp slt i64 %3, %n.0
  br i1 %cmp13164, label %for.body, label %for.end

for.body:                                         ; preds = %if.end11, %for.body
  %i.0165 = phi i64 [ %inc, %for.body ], [ %3, %if.end11 ]
  %4 = load ptr, ptr %mem, align 8, !tbaa !124
  %arrayidx = getelementptr inbounds ptr, ptr %4, i64 %i.0165
  store ptr null, ptr %arrayidx, align 8, !tbaa !23
  %inc = add nsw i64 %i.0165, 1
  %exitcond.not = icmp eq i64 %inc, %n.0
  br i1 %exitcond.not, label %for.end, label %for.body, !llvm.loop !125

for.end:                                          ; preds = %for.body, %if.end11
  store i64 %n.0, ptr %nmem, align 8, !tbaa !122
  br label %if.end16

if.end16:                                         ; preds = %for.end, %fzck_check_host.exit
  %config.i = getelementptr inbounds nuw i8, ptr %state, i64 8
  %5 = load ptr, ptr %config.i, align 8, !tbaa !93
  %tobool.not.i = icmp eq ptr %5, null
  br i1 %tobool.not.i, label %if.else, label %land.lhs.true.i

land.lhs.true.i:                                  ; preds = %if.end16
  %spill_dir.i = getelementptr inbounds nuw i8, ptr %5, i64 16
  %6 = load ptr, ptr %spill_dir.i, align 8, !tbaa !126
  %tobool2.not.i = icmp eq ptr %6, null
  br i1 %tobool2.not.i, label %if.else, label %fzck_spilled.exit

fzck_spilled.exit:                                ; preds = %land.lhs.true.i
  %bytes.i = getelementptr inbounds nuw i8, ptr %state, i64 224
  %7 = load i64, ptr %bytes.i, align 8, !tbaa !95
  %mul.i = mul i64 %7, %add
  %mem_budget.i = getelementptr inbounds nuw i8, ptr %5, i64 24
  %8 = load i64, ptr %mem_budget.i, align 8, !tbaa !127
  %cmp.i.not = icmp ult i64 %mul.i, %8
  br i1 %cmp.i.not, label %if.else, label %if.then19

if.then19:                                        ; preds = %fzck_spilled.exit
  call void @llvm.lifetime.start.p0(ptr nonnull %path) #22
  %call.i = call i32 (ptr, i64, ptr, ...) @snprintf(ptr noundef nonnull dereferenceable(1) %path, i64 noundef 4096, ptr noundef nonnull @.str.31, ptr noundef nonnull %6, ptr noundef nonnull %state, i64 noundef %add) #22
  %call21 = call noalias ptr @fopen(ptr noundef nonnull %path, ptr noundef nonnull @.str.26)
  %tobool22.not = icmp eq ptr %call21, null
  br i1 %tobool22.not, label %if.then23, label %for.cond25.preheader

for.cond25.preheader:                             ; preds = %if.then19
  br i1 %cmp4.not.i, label %for.end38, label %for.body27

if.then23:                                        ; preds = %if.then19
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.27)
  unreachable

for.cond25:                                       ; preds = %for.body27
  %inc37 = add nuw i64 %r.0167, 1
  %exitcond172.not = icmp eq i64 %inc37, %nregions
  br i1 %exitcond172.not, label %for.end38, label %for.body27, !llvm.loop !128

for.body27:                                       ; preds = %for.cond25.preheader, %for.cond25
  %r.0167 = phi i64 [ %inc37, %for.cond25 ], [ 0, %for.cond25.preheader ]
  %arrayidx28 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %r.0167
  %9 = load ptr, ptr %arrayidx28, align 8, !tbaa !67
  %bytes = getelementptr inbounds nuw i8, ptr %arrayidx28, i64 8
  %10 = load i64, ptr %bytes, align 8, !tbaa !25
  %call30 = tail call i64 @fwrite(ptr noundef %9, i64 noundef 1, i64 noundef %10, ptr noundef nonnull %call21)
  %11 = load i64, ptr %bytes, align 8, !tbaa !25
  %cmp33.not = icmp eq i64 %call30, %11
  br i1 %cmp33.not, label %for.cond25, label %if.then34

if.then34:                                        ; preds = %for.body27
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.28)
  unreachable

for.end38:                                        ; preds = %for.cond25, %for.cond25.preheader
  %call39 = tail call i32 @fclose(ptr noundef nonnull %call21)
  %mem40 = getelementptr inbounds nuw i8, ptr %state, i64 232
  %12 = load ptr, ptr %mem40, align 8, !tbaa !124
  %arrayidx41 = getelementptr inbounds ptr, ptr %12, i64 %add
  store ptr inttoptr (i64 1 to ptr), ptr %arrayidx41, align 8, !tbaa !23
  call void @llvm.lifetime.end.p0(ptr nonnull %path) #22
  br label %if.end77

if.else:                                          ; preds = %if.end16, %land.lhs.true.i, %fzck_spilled.exit
  %mem42 = getelementptr inbounds nuw i8, ptr %state, i64 232
  %13 = load ptr, ptr %mem42, align 8, !tbaa !124
  %arrayidx43 = getelementptr inbounds ptr, ptr %13, i64 %add
  %14 = load ptr, ptr %arrayidx43, align 8, !tbaa !23
  %tobool44.not = icmp eq ptr %14, null
  br i1 %tobool44.not, label %if.then45, label %if.end61

if.then45:                                        ; preds = %if.else
  %bytes46 = getelementptr inbounds nuw i8, ptr %state, i64 224
  %15 = load i64, ptr %bytes46, align 8, !tbaa !95
  %spec.select159 = tail call i64 @llvm.umax.i64(i64 %15, i64 1)
  %call53 = tail call noalias ptr @malloc(i64 noundef %spec.select159) #23
  store ptr %call53, ptr %arrayidx43, align 8, !tbaa !23
  %16 = load ptr, ptr %mem42, align 8, !tbaa !124
  %arrayidx57 = getelementptr inbounds ptr, ptr %16, i64 %add
  %17 = load ptr, ptr %arrayidx57, align 8, !tbaa !23
  %tobool58.not = icmp eq ptr %17, null
  br i1 %tobool58.not, label %if.then59, label %if.end61

if.then59:                                        ; preds = %if.then45
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.29)
  unreachable

if.end61:                                         ; preds = %if.then45, %if.else
  br i1 %cmp4.not.i, label %if.end77, label %for.body64

for.body64:                                       ; preds = %if.end61, %for.body64
  %r.1170 = phi i64 [ %inc75, %for.body64 ], [ 0, %if.end61 ]
  %off.0169 = phi i64 [ %add73, %for.body64 ], [ 0, %if.end61 ]
  %18 = load ptr, ptr %mem42, align 8, !tbaa !124
  %arrayidx66 = getelementptr inbounds ptr, ptr %18, i64 %add
  %19 = load ptr, ptr %arrayidx66, align 8, !tbaa !23
  %add.ptr = getelementptr inbounds nuw i8, ptr %19, i64 %off.0169
  %arrayidx67 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %r.1170
  %20 = load ptr, ptr %arrayidx67, align 8, !tbaa !67
  %bytes70 = getelementptr inbounds nuw i8, ptr %arrayidx67, i64 8
  %21 = load i64, ptr %bytes70, align 8, !tbaa !25
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %add.ptr, ptr align 1 %20, i64 %21, i1 false)
  %22 = load i64, ptr %bytes70, align 8, !tbaa !25
  %add73 = add i64 %22, %off.0169
  %inc75 = add nuw i64 %r.1170, 1
  %exitcond173.not = icmp eq i64 %inc75, %nregions
  br i1 %exitcond173.not, label %if.end77, label %for.body64, !llvm.loop !129

if.end77:                                         ; preds = %for.body64, %if.end61, %for.end38
  %cmp78 = icmp slt i64 %slot, 0
  br i1 %cmp78, label %cleanup, label %if.end80

if.end80:                                         ; preds = %if.end77
  %stores = getelementptr inbounds nuw i8, ptr %state, i64 272
  %23 = load i64, ptr %stores, align 8, !tbaa !130
  %inc81 = add nsw i64 %23, 1
  store i64 %inc81, ptr %stores, align 8, !tbaa !130
  %highest = getelementptr inbounds nuw i8, ptr %state, i64 248
  %24 = load i64, ptr %highest, align 8, !tbaa !97
  %cmp82 = icmp sgt i64 %slot, %24
  br i1 %cmp82, label %if.then83, label %cleanup

if.then83:                                        ; preds = %if.end80
  store i64 %slot, ptr %highest, align 8, !tbaa !97
  %add85 = add nuw nsw i64 %slot, 1
  %max_slots = getelementptr inbounds nuw i8, ptr %state, i64 288
  store i64 %add85, ptr %max_slots, align 8, !tbaa !131
  %bytes88 = getelementptr inbounds nuw i8, ptr %state, i64 224
  %25 = load i64, ptr %bytes88, align 8, !tbaa !95
  %mul89 = mul i64 %25, %add85
  %max_bytes = getelementptr inbounds nuw i8, ptr %state, i64 296
  store i64 %mul89, ptr %max_bytes, align 8, !tbaa !132
  br label %cleanup

cleanup:                                          ; preds = %if.end80, %if.then83, %if.end77
  ret void
}

; Function Attrs: inlinehint nofree nounwind uwtable
define internal void @fzck_restore(ptr noundef %state, i64 noundef %slot, i64 %step, ptr noundef readonly captures(none) %regions, i64 noundef %nregions) #13 {
entry:
  %path = alloca [4096 x i8], align 16
  %add = add nsw i64 %slot, 2
  %cmp = icmp slt i64 %slot, -2
  br i1 %cmp, label %if.then, label %lor.lhs.false

lor.lhs.false:                                    ; preds = %entry
  %nmem = getelementptr inbounds nuw i8, ptr %state, i64 240
  %0 = load i64, ptr %nmem, align 8, !tbaa !122
  %cmp1.not = icmp slt i64 %add, %0
  br i1 %cmp1.not, label %lor.lhs.false2, label %if.then

lor.lhs.false2:                                   ; preds = %lor.lhs.false
  %mem = getelementptr inbounds nuw i8, ptr %state, i64 232
  %1 = load ptr, ptr %mem, align 8, !tbaa !124
  %arrayidx = getelementptr inbounds nuw ptr, ptr %1, i64 %add
  %2 = load ptr, ptr %arrayidx, align 8, !tbaa !23
  %tobool.not = icmp eq ptr %2, null
  br i1 %tobool.not, label %if.then, label %if.end

if.then:                                          ; preds = %lor.lhs.false2, %lor.lhs.false, %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.32)
  unreachable

if.end:                                           ; preds = %lor.lhs.false2
  %config.i = getelementptr inbounds nuw i8, ptr %state, i64 8
  %3 = load ptr, ptr %config.i, align 8, !tbaa !93
  %tobool.not.i = icmp eq ptr %3, null
  br i1 %tobool.not.i, label %for.cond20.preheader, label %land.lhs.true.i

land.lhs.true.i:                                  ; preds = %if.end
  %spill_dir.i = getelementptr inbounds nuw i8, ptr %3, i64 16
  %4 = load ptr, ptr %spill_dir.i, align 8, !tbaa !126
  %tobool2.not.i = icmp eq ptr %4, null
  br i1 %tobool2.not.i, label %for.cond20.preheader, label %land.rhs.i

land.rhs.i:                                       ; preds = %land.lhs.true.i
  %bytes.i = getelementptr inbounds nuw i8, ptr %state, i64 224
  %5 = load i64, ptr %bytes.i, align 8, !tbaa !95
  %mul.i = mul i64 %5, %add
  %mem_budget.i = getelementptr inbounds nuw i8, ptr %3, i64 24
  %6 = load i64, ptr %mem_budget.i, align 8, !tbaa !127
  %cmp.i.not = icmp ult i64 %mul.i, %6
  br i1 %cmp.i.not, label %for.cond20.preheader, label %if.then4

if.then4:                                         ; preds = %land.rhs.i
  call void @llvm.lifetime.start.p0(ptr nonnull %path) #22
  %call.i = call i32 (ptr, i64, ptr, ...) @snprintf(ptr noundef nonnull dereferenceable(1) %path, i64 noundef 4096, ptr noundef nonnull @.str.31, ptr noundef nonnull %4, ptr noundef nonnull %state, i64 noundef %add) #22
  %call6 = call noalias ptr @fopen(ptr noundef nonnull %path, ptr noundef nonnull @.str.33)
  %tobool7.not = icmp eq ptr %call6, null
  br i1 %tobool7.not, label %if.then8, label %for.cond.preheader

for.cond.preheader:                               ; preds = %if.then4
  %cmp1071.not = icmp eq i64 %nregions, 0
  br i1 %cmp1071.not, label %for.end, label %for.body

if.then8:                                         ; preds = %if.then4
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.34)
  unreachable

for.cond:                                         ; preds = %for.body
  %inc = add nuw i64 %r.072, 1
  %exitcond.not = icmp eq i64 %inc, %nregions
  br i1 %exitcond.not, label %for.end, label %for.body, !llvm.loop !133

for.body:                                         ; preds = %for.cond.preheader, %for.cond
  %r.072 = phi i64 [ %inc, %for.cond ], [ 0, %for.cond.preheader ]
  %arrayidx11 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %r.072
  %7 = load ptr, ptr %arrayidx11, align 8, !tbaa !67
  %bytes = getelementptr inbounds nuw i8, ptr %arrayidx11, i64 8
  %8 = load i64, ptr %bytes, align 8, !tbaa !25
  %call13 = tail call i64 @fread(ptr noundef %7, i64 noundef 1, i64 noundef %8, ptr noundef nonnull %call6)
  %9 = load i64, ptr %bytes, align 8, !tbaa !25
  %cmp16.not = icmp eq i64 %call13, %9
  br i1 %cmp16.not, label %for.cond, label %if.then17

if.then17:                                        ; preds = %for.body
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.35)
  unreachable

for.end:                                          ; preds = %for.cond, %for.cond.preheader
  %call19 = tail call i32 @fclose(ptr noundef nonnull %call6)
  call void @llvm.lifetime.end.p0(ptr nonnull %path) #22
  br label %if.end35

for.cond20.preheader:                             ; preds = %land.lhs.true.i, %if.end, %land.rhs.i
  %cmp2173.not = icmp eq i64 %nregions, 0
  br i1 %cmp2173.not, label %if.end35, label %for.body22

for.body22:                                       ; preds = %for.cond20.preheader, %for.body22
  %r.175 = phi i64 [ %inc33, %for.body22 ], [ 0, %for.cond20.preheader ]
  %off.074 = phi i64 [ %add31, %for.body22 ], [ 0, %for.cond20.preheader ]
  %arrayidx23 = getelementptr inbounds nuw %struct.EnzymeCkptRegion, ptr %regions, i64 %r.175
  %10 = load ptr, ptr %arrayidx23, align 8, !tbaa !67
  %11 = load ptr, ptr %mem, align 8, !tbaa !124
  %arrayidx26 = getelementptr inbounds ptr, ptr %11, i64 %add
  %12 = load ptr, ptr %arrayidx26, align 8, !tbaa !23
  %add.ptr = getelementptr inbounds nuw i8, ptr %12, i64 %off.074
  %bytes28 = getelementptr inbounds nuw i8, ptr %arrayidx23, i64 8
  %13 = load i64, ptr %bytes28, align 8, !tbaa !25
  tail call void @llvm.memcpy.p0.p0.i64(ptr align 1 %10, ptr align 1 %add.ptr, i64 %13, i1 false)
  %14 = load i64, ptr %bytes28, align 8, !tbaa !25
  %add31 = add i64 %14, %off.074
  %inc33 = add nuw i64 %r.175, 1
  %exitcond76.not = icmp eq i64 %inc33, %nregions
  br i1 %exitcond76.not, label %if.end35, label %for.body22, !llvm.loop !134

if.end35:                                         ; preds = %for.body22, %for.cond20.preheader, %for.end
  %cmp36 = icmp sgt i64 %slot, -1
  br i1 %cmp36, label %if.then37, label %if.end39

if.then37:                                        ; preds = %if.end35
  %restores = getelementptr inbounds nuw i8, ptr %state, i64 280
  %15 = load i64, ptr %restores, align 8, !tbaa !135
  %inc38 = add nsw i64 %15, 1
  store i64 %inc38, ptr %restores, align 8, !tbaa !135
  br label %if.end39

if.end39:                                         ; preds = %if.then37, %if.end35
  ret void
}

; Function Attrs: inlinehint nounwind uwtable
define internal void @fzck_finalize(ptr noundef %state) #14 {
entry:
  %path = alloca [4096 x i8], align 16
  %config = getelementptr inbounds nuw i8, ptr %state, i64 8
  %0 = load ptr, ptr %config, align 8, !tbaa !93
  %tobool.not = icmp eq ptr %0, null
  br i1 %tobool.not, label %if.end17, label %land.lhs.true

land.lhs.true:                                    ; preds = %entry
  %verbose = getelementptr inbounds nuw i8, ptr %0, i64 8
  %1 = load i32, ptr %verbose, align 8, !tbaa !119
  %cmp = icmp sgt i32 %1, 0
  br i1 %cmp, label %if.end, label %land.lhs.true9

if.end:                                           ; preds = %land.lhs.true
  %2 = load ptr, ptr @stderr, align 8, !tbaa !56
  %stats = getelementptr inbounds nuw i8, ptr %state, i64 256
  %3 = load i64, ptr %stats, align 8, !tbaa !117
  %taped_steps = getelementptr inbounds nuw i8, ptr %state, i64 264
  %4 = load i64, ptr %taped_steps, align 8, !tbaa !118
  %stores = getelementptr inbounds nuw i8, ptr %state, i64 272
  %5 = load i64, ptr %stores, align 8, !tbaa !130
  %restores = getelementptr inbounds nuw i8, ptr %state, i64 280
  %6 = load i64, ptr %restores, align 8, !tbaa !135
  %max_slots = getelementptr inbounds nuw i8, ptr %state, i64 288
  %7 = load i64, ptr %max_slots, align 8, !tbaa !131
  %max_bytes = getelementptr inbounds nuw i8, ptr %state, i64 296
  %8 = load i64, ptr %max_bytes, align 8, !tbaa !132
  %call = tail call i32 (ptr, ptr, ...) @fprintf(ptr noundef %2, ptr noundef nonnull @.str.36, i64 noundef %3, i64 noundef %4, i64 noundef %5, i64 noundef %6, i64 noundef %7, i64 noundef %8) #24
  %.pr.pre = load ptr, ptr %config, align 8, !tbaa !93
  %tobool8.not = icmp eq ptr %.pr.pre, null
  br i1 %tobool8.not, label %if.end17, label %land.lhs.true9

land.lhs.true9:                                   ; preds = %land.lhs.true, %if.end
  %.pr72 = phi ptr [ %.pr.pre, %if.end ], [ %0, %land.lhs.true ]
  %stats11 = getelementptr inbounds nuw i8, ptr %.pr72, i64 32
  %9 = load ptr, ptr %stats11, align 8, !tbaa !136
  %tobool12.not = icmp eq ptr %9, null
  br i1 %tobool12.not, label %if.end17, label %if.then13

if.then13:                                        ; preds = %land.lhs.true9
  %stats16 = getelementptr inbounds nuw i8, ptr %state, i64 256
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(48) %9, ptr noundef nonnull align 8 dereferenceable(48) %stats16, i64 48, i1 false), !tbaa.struct !137
  br label %if.end17

if.end17:                                         ; preds = %entry, %if.then13, %land.lhs.true9, %if.end
  %nmem = getelementptr inbounds nuw i8, ptr %state, i64 240
  %10 = load i64, ptr %nmem, align 8, !tbaa !122
  %cmp1862 = icmp sgt i64 %10, 0
  br i1 %cmp1862, label %for.body.lr.ph, label %for.end

for.body.lr.ph:                                   ; preds = %if.end17
  %mem = getelementptr inbounds nuw i8, ptr %state, i64 232
  %bytes.i = getelementptr inbounds nuw i8, ptr %state, i64 224
  br label %for.body

for.body:                                         ; preds = %for.body.lr.ph, %for.inc
  %i.063 = phi i64 [ 0, %for.body.lr.ph ], [ %inc, %for.inc ]
  %11 = load ptr, ptr %mem, align 8, !tbaa !124
  %arrayidx = getelementptr inbounds nuw ptr, ptr %11, i64 %i.063
  %12 = load ptr, ptr %arrayidx, align 8, !tbaa !23
  %tobool19.not = icmp eq ptr %12, null
  br i1 %tobool19.not, label %for.inc, label %if.end21

if.end21:                                         ; preds = %for.body
  %13 = load ptr, ptr %config, align 8, !tbaa !93
  %tobool.not.i = icmp eq ptr %13, null
  br i1 %tobool.not.i, label %if.else, label %land.lhs.true.i

land.lhs.true.i:                                  ; preds = %if.end21
  %spill_dir.i = getelementptr inbounds nuw i8, ptr %13, i64 16
  %14 = load ptr, ptr %spill_dir.i, align 8, !tbaa !126
  %tobool2.not.i = icmp eq ptr %14, null
  br i1 %tobool2.not.i, label %if.else, label %fzck_spilled.exit

fzck_spilled.exit:                                ; preds = %land.lhs.true.i
  %15 = load i64, ptr %bytes.i, align 8, !tbaa !95
  %mul.i = mul i64 %15, %i.063
  %mem_budget.i = getelementptr inbounds nuw i8, ptr %13, i64 24
  %16 = load i64, ptr %mem_budget.i, align 8, !tbaa !127
  %cmp.i.not = icmp ult i64 %mul.i, %16
  br i1 %cmp.i.not, label %if.else, label %if.then24

if.then24:                                        ; preds = %fzck_spilled.exit
  call void @llvm.lifetime.start.p0(ptr nonnull %path) #22
  %call.i = call i32 (ptr, i64, ptr, ...) @snprintf(ptr noundef nonnull dereferenceable(1) %path, i64 noundef 4096, ptr noundef nonnull @.str.31, ptr noundef nonnull %14, ptr noundef nonnull %state, i64 noundef %i.063) #22
  %call26 = call i32 @remove(ptr noundef nonnull %path) #22
  call void @llvm.lifetime.end.p0(ptr nonnull %path) #22
  br label %for.inc

if.else:                                          ; preds = %if.end21, %land.lhs.true.i, %fzck_spilled.exit
  tail call void @free(ptr noundef nonnull %12) #22
  br label %for.inc

for.inc:                                          ; preds = %if.then24, %if.else, %for.body
  %inc = add nuw nsw i64 %i.063, 1
  %17 = load i64, ptr %nmem, align 8, !tbaa !122
  %cmp18 = icmp slt i64 %inc, %17
  br i1 %cmp18, label %for.body, label %for.end, !llvm.loop !138

for.end:                                          ; preds = %for.inc, %if.end17
  %mem30 = getelementptr inbounds nuw i8, ptr %state, i64 232
  %18 = load ptr, ptr %mem30, align 8, !tbaa !124
  tail call void @free(ptr noundef %18) #22
  %frames = getelementptr inbounds nuw i8, ptr %state, i64 32
  %19 = load ptr, ptr %frames, align 8, !tbaa !108
  tail call void @free(ptr noundef %19) #22
  tail call void @free(ptr noundef nonnull %state) #22
  ret void
}

; Function Attrs: inlinehint nounwind uwtable
define internal fastcc void @fzck_push(ptr noundef captures(none) %p, i64 noundef %a, i64 noundef %b, i64 noundef %s, i64 noundef range(i64 -9223372036854775807, -9223372036854775808) %slot) unnamed_addr #14 {
entry:
  %depth = getelementptr inbounds nuw i8, ptr %p, i64 40
  %0 = load i64, ptr %depth, align 8, !tbaa !106
  %cap = getelementptr inbounds nuw i8, ptr %p, i64 48
  %1 = load i64, ptr %cap, align 8, !tbaa !107
  %cmp = icmp eq i64 %0, %1
  br i1 %cmp, label %if.then, label %entry.if.end10_crit_edge

entry.if.end10_crit_edge:                         ; preds = %entry
  %frames11.phi.trans.insert = getelementptr inbounds nuw i8, ptr %p, i64 32
  %.pre = load ptr, ptr %frames11.phi.trans.insert, align 8, !tbaa !108
  br label %if.end10

if.then:                                          ; preds = %entry
  %tobool.not = icmp eq i64 %0, 0
  %mul = shl nsw i64 %0, 1
  %spec.select = select i1 %tobool.not, i64 16, i64 %mul
  store i64 %spec.select, ptr %cap, align 8, !tbaa !107
  %frames = getelementptr inbounds nuw i8, ptr %p, i64 32
  %2 = load ptr, ptr %frames, align 8, !tbaa !108
  %mul5 = mul i64 %spec.select, 48
  %call = tail call ptr @realloc(ptr noundef %2, i64 noundef %mul5) #26
  store ptr %call, ptr %frames, align 8, !tbaa !108
  %tobool8.not = icmp eq ptr %call, null
  br i1 %tobool8.not, label %if.then9, label %if.then.if.end10_crit_edge

if.then.if.end10_crit_edge:                       ; preds = %if.then
  %.pre32 = load i64, ptr %depth, align 8, !tbaa !106
  br label %if.end10

if.then9:                                         ; preds = %if.then
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.14)
  unreachable

if.end10:                                         ; preds = %if.then.if.end10_crit_edge, %entry.if.end10_crit_edge
  %3 = phi i64 [ %0, %entry.if.end10_crit_edge ], [ %.pre32, %if.then.if.end10_crit_edge ]
  %4 = phi ptr [ %.pre, %entry.if.end10_crit_edge ], [ %call, %if.then.if.end10_crit_edge ]
  %inc = add nsw i64 %3, 1
  store i64 %inc, ptr %depth, align 8, !tbaa !106
  %arrayidx = getelementptr inbounds %struct.fzck_frame, ptr %4, i64 %3
  store i64 %a, ptr %arrayidx, align 8, !tbaa !109
  %b14 = getelementptr inbounds nuw i8, ptr %arrayidx, i64 8
  store i64 %b, ptr %b14, align 8, !tbaa !111
  %s15 = getelementptr inbounds nuw i8, ptr %arrayidx, i64 16
  store i64 %s, ptr %s15, align 8, !tbaa !112
  %slot16 = getelementptr inbounds nuw i8, ptr %arrayidx, i64 24
  store i64 %slot, ptr %slot16, align 8, !tbaa !114
  %m = getelementptr inbounds nuw i8, ptr %arrayidx, i64 32
  store i64 0, ptr %m, align 8, !tbaa !115
  %phase = getelementptr inbounds nuw i8, ptr %arrayidx, i64 40
  store i32 0, ptr %phase, align 8, !tbaa !113
  ret void
}

; Function Attrs: inlinehint nofree norecurse nosync nounwind memory(argmem: read) uwtable
define internal fastcc i64 @fzck_split(ptr noundef readonly captures(none) %p, ptr noundef readonly captures(none) %f) unnamed_addr #15 {
entry:
  %c = alloca [6 x i64], align 16
  %b = getelementptr inbounds nuw i8, ptr %f, i64 8
  %0 = load i64, ptr %b, align 8, !tbaa !111
  %1 = load i64, ptr %f, align 8, !tbaa !109
  %sub = sub nsw i64 %0, %1
  %2 = load i32, ptr %p, align 8, !tbaa !87
  switch i32 %2, label %cleanup100 [
    i32 2, label %if.then
    i32 1, label %if.then67
  ]

if.then:                                          ; preds = %entry
  call void @llvm.lifetime.start.p0(ptr nonnull %c) #22
  %s = getelementptr inbounds nuw i8, ptr %f, i64 16
  %3 = load i64, ptr %s, align 8, !tbaa !112
  %cmp1 = icmp slt i64 %3, 2
  br i1 %cmp1, label %if.then2, label %while.cond.preheader

while.cond.preheader:                             ; preds = %if.then
  %cmp5292 = icmp ugt i64 %sub, 1
  br label %while.cond

if.then2:                                         ; preds = %if.then
  %sub3 = add nsw i64 %sub, -1
  br label %cleanup

while.cond:                                       ; preds = %while.cond.backedge, %while.cond.preheader
  %r.0 = phi i64 [ 0, %while.cond.preheader ], [ %r.0.be, %while.cond.backedge ]
  %cmp1.not18.i = icmp eq i64 %r.0, 0
  br i1 %cmp1.not18.i, label %fzck_binom.exit.thread, label %for.body.i

for.body.i:                                       ; preds = %while.cond, %if.end4.i
  %j.020.i = phi i64 [ %inc.i, %if.end4.i ], [ 1, %while.cond ]
  %c.019.i = phi i64 [ %div6.i, %if.end4.i ], [ 1, %while.cond ]
  %add.i = add nuw nsw i64 %j.020.i, %3
  %div.i = udiv i64 4611686018427387903, %add.i
  %cmp2.i = icmp ugt i64 %c.019.i, %div.i
  br i1 %cmp2.i, label %fzck_binom.exit, label %if.end4.i

if.end4.i:                                        ; preds = %for.body.i
  %mul.i = mul i64 %add.i, %c.019.i
  %div6.i = udiv i64 %mul.i, %j.020.i
  %inc.i = add nuw i64 %j.020.i, 1
  %exitcond.not.i = icmp eq i64 %j.020.i, %r.0
  br i1 %exitcond.not.i, label %fzck_binom.exit, label %for.body.i, !llvm.loop !139

fzck_binom.exit:                                  ; preds = %for.body.i, %if.end4.i
  %retval.0.i = phi i64 [ 4611686018427387903, %for.body.i ], [ %div6.i, %if.end4.i ]
  %cmp5 = icmp ult i64 %retval.0.i, %sub
  %inc = add nuw nsw i64 %r.0, 1
  br i1 %cmp5, label %while.cond.backedge, label %while.end

while.cond.backedge:                              ; preds = %fzck_binom.exit, %fzck_binom.exit.thread
  %r.0.be = phi i64 [ %inc, %fzck_binom.exit ], [ 1, %fzck_binom.exit.thread ]
  br label %while.cond, !llvm.loop !140

fzck_binom.exit.thread:                           ; preds = %while.cond
  br i1 %cmp5292, label %while.cond.backedge, label %fzck_binom.exit166.thread

while.end:                                        ; preds = %fzck_binom.exit
  %sub7 = add nsw i64 %3, -1
  br label %for.body.i154

for.body.i154:                                    ; preds = %while.end, %if.end4.i160
  %j.020.i155 = phi i64 [ %inc.i163, %if.end4.i160 ], [ 1, %while.end ]
  %c.019.i156 = phi i64 [ %div6.i162, %if.end4.i160 ], [ 1, %while.end ]
  %add.i157 = add nuw nsw i64 %j.020.i155, %sub7
  %div.i158 = udiv i64 4611686018427387903, %add.i157
  %cmp2.i159 = icmp ugt i64 %c.019.i156, %div.i158
  br i1 %cmp2.i159, label %fzck_binom.exit166, label %if.end4.i160

if.end4.i160:                                     ; preds = %for.body.i154
  %mul.i161 = mul i64 %add.i157, %c.019.i156
  %div6.i162 = udiv i64 %mul.i161, %j.020.i155
  %inc.i163 = add nuw i64 %j.020.i155, 1
  %exitcond.not.i164 = icmp eq i64 %j.020.i155, %r.0
  br i1 %exitcond.not.i164, label %fzck_binom.exit166, label %for.body.i154, !llvm.loop !139

fzck_binom.exit166.thread:                        ; preds = %fzck_binom.exit.thread
  %sub7294 = add nsw i64 %3, -1
  %sub9299 = add nsw i64 %sub, -1
  store i64 %sub9299, ptr %c, align 16, !tbaa !24
  br label %cond.end.thread

fzck_binom.exit166:                               ; preds = %for.body.i154, %if.end4.i160
  %retval.0.i165 = phi i64 [ %div6.i162, %if.end4.i160 ], [ 4611686018427387903, %for.body.i154 ]
  %sub9 = sub nsw i64 %sub, %retval.0.i165
  store i64 %sub9, ptr %c, align 16, !tbaa !24
  %cmp10.not = icmp eq i64 %r.0, 1
  br i1 %cmp10.not, label %cond.end.thread, label %cond.true

cond.true:                                        ; preds = %fzck_binom.exit166
  %sub12 = add nsw i64 %r.0, -2
  %cmp1.not18.i169 = icmp eq i64 %r.0, 2
  br i1 %cmp1.not18.i169, label %cond.end.thread310, label %for.body.i170

cond.end.thread310:                               ; preds = %cond.true
  %arrayidx14313 = getelementptr inbounds nuw i8, ptr %c, i64 8
  store i64 2, ptr %arrayidx14313, align 8, !tbaa !24
  br label %for.body.i186.preheader

for.body.i170:                                    ; preds = %cond.true, %if.end4.i176
  %j.020.i171 = phi i64 [ %inc.i179, %if.end4.i176 ], [ 1, %cond.true ]
  %c.019.i172 = phi i64 [ %div6.i178, %if.end4.i176 ], [ 1, %cond.true ]
  %add.i173 = add nuw nsw i64 %j.020.i171, %3
  %div.i174 = udiv i64 4611686018427387903, %add.i173
  %cmp2.i175 = icmp ugt i64 %c.019.i172, %div.i174
  br i1 %cmp2.i175, label %cond.end, label %if.end4.i176

if.end4.i176:                                     ; preds = %for.body.i170
  %mul.i177 = mul i64 %add.i173, %c.019.i172
  %div6.i178 = udiv i64 %mul.i177, %j.020.i171
  %inc.i179 = add nuw i64 %j.020.i171, 1
  %exitcond.not.i180 = icmp eq i64 %j.020.i171, %sub12
  br i1 %exitcond.not.i180, label %cond.end, label %for.body.i170, !llvm.loop !139

cond.end.thread:                                  ; preds = %fzck_binom.exit166.thread, %fzck_binom.exit166
  %sub7295301.ph = phi i64 [ %sub7, %fzck_binom.exit166 ], [ %sub7294, %fzck_binom.exit166.thread ]
  %arrayidx14304 = getelementptr inbounds nuw i8, ptr %c, i64 8
  store i64 1, ptr %arrayidx14304, align 8, !tbaa !24
  %arrayidx18324 = getelementptr inbounds nuw i8, ptr %c, i64 16
  store i64 1, ptr %arrayidx18324, align 16, !tbaa !24
  br label %fzck_binom.exit214

cond.end:                                         ; preds = %for.body.i170, %if.end4.i176
  %retval.0.i181.ph = phi i64 [ %div6.i178, %if.end4.i176 ], [ 4611686018427387903, %for.body.i170 ]
  %4 = add nsw i64 %retval.0.i181.ph, 1
  %arrayidx14 = getelementptr inbounds nuw i8, ptr %c, i64 8
  store i64 %4, ptr %arrayidx14, align 8, !tbaa !24
  %sub16 = add nsw i64 %r.0, -1
  br label %for.body.i186.preheader

for.body.i186.preheader:                          ; preds = %cond.end, %cond.end.thread310
  %sub16317 = phi i64 [ 1, %cond.end.thread310 ], [ %sub16, %cond.end ]
  br label %for.body.i186

for.body.i186:                                    ; preds = %for.body.i186.preheader, %if.end4.i192
  %j.020.i187 = phi i64 [ %inc.i195, %if.end4.i192 ], [ 1, %for.body.i186.preheader ]
  %c.019.i188 = phi i64 [ %div6.i194, %if.end4.i192 ], [ 1, %for.body.i186.preheader ]
  %add.i189 = add nuw nsw i64 %j.020.i187, %3
  %div.i190 = udiv i64 4611686018427387903, %add.i189
  %cmp2.i191 = icmp ugt i64 %c.019.i188, %div.i190
  br i1 %cmp2.i191, label %fzck_binom.exit198, label %if.end4.i192

if.end4.i192:                                     ; preds = %for.body.i186
  %mul.i193 = mul i64 %add.i189, %c.019.i188
  %div6.i194 = udiv i64 %mul.i193, %j.020.i187
  %inc.i195 = add nuw i64 %j.020.i187, 1
  %exitcond.not.i196 = icmp eq i64 %j.020.i187, %sub16317
  br i1 %exitcond.not.i196, label %fzck_binom.exit198, label %for.body.i186, !llvm.loop !139

fzck_binom.exit198:                               ; preds = %for.body.i186, %if.end4.i192
  %retval.0.i197 = phi i64 [ 4611686018427387903, %for.body.i186 ], [ %div6.i194, %if.end4.i192 ]
  %arrayidx18 = getelementptr inbounds nuw i8, ptr %c, i64 16
  store i64 %retval.0.i197, ptr %arrayidx18, align 16, !tbaa !24
  br label %for.body.i202

for.body.i202:                                    ; preds = %fzck_binom.exit198, %if.end4.i208
  %j.020.i203 = phi i64 [ %inc.i211, %if.end4.i208 ], [ 1, %fzck_binom.exit198 ]
  %c.019.i204 = phi i64 [ %div6.i210, %if.end4.i208 ], [ 1, %fzck_binom.exit198 ]
  %add.i205 = add nuw nsw i64 %j.020.i203, %sub7
  %div.i206 = udiv i64 4611686018427387903, %add.i205
  %cmp2.i207 = icmp ugt i64 %c.019.i204, %div.i206
  br i1 %cmp2.i207, label %fzck_binom.exit214.loopexit, label %if.end4.i208

if.end4.i208:                                     ; preds = %for.body.i202
  %mul.i209 = mul i64 %add.i205, %c.019.i204
  %div6.i210 = udiv i64 %mul.i209, %j.020.i203
  %inc.i211 = add nuw i64 %j.020.i203, 1
  %exitcond.not.i212 = icmp eq i64 %j.020.i203, %sub16317
  br i1 %exitcond.not.i212, label %fzck_binom.exit214.loopexit, label %for.body.i202, !llvm.loop !139

fzck_binom.exit214.loopexit:                      ; preds = %if.end4.i208, %for.body.i202
  %retval.0.i213.ph = phi i64 [ %div6.i210, %if.end4.i208 ], [ 4611686018427387903, %for.body.i202 ]
  %5 = xor i64 %retval.0.i213.ph, -1
  br label %fzck_binom.exit214

fzck_binom.exit214:                               ; preds = %cond.end.thread, %fzck_binom.exit214.loopexit
  %sub7296 = phi i64 [ %sub7295301.ph, %cond.end.thread ], [ %sub7, %fzck_binom.exit214.loopexit ]
  %retval.0.i213 = phi i64 [ -2, %cond.end.thread ], [ %5, %fzck_binom.exit214.loopexit ]
  %sub24 = add i64 %sub, %retval.0.i213
  %arrayidx25 = getelementptr inbounds nuw i8, ptr %c, i64 24
  store i64 %sub24, ptr %arrayidx25, align 8, !tbaa !24
  %arrayidx26 = getelementptr inbounds nuw i8, ptr %c, i64 32
  store i64 1, ptr %arrayidx26, align 16, !tbaa !24
  %sub27 = add nsw i64 %sub, -1
  %arrayidx28 = getelementptr inbounds nuw i8, ptr %c, i64 40
  store i64 %sub27, ptr %arrayidx28, align 8, !tbaa !24
  %add.i217 = add nuw nsw i64 %3, 1
  %cmp1.i222 = icmp eq i64 %3, 2
  br label %for.body

for.body:                                         ; preds = %fzck_binom.exit214, %fzck_cost.exit269
  %indvars.iv = phi i64 [ 0, %fzck_binom.exit214 ], [ %indvars.iv.next, %fzck_cost.exit269 ]
  %best.0288 = phi i64 [ 1, %fzck_binom.exit214 ], [ %best.1, %fzck_cost.exit269 ]
  %bestcost.0287 = phi i64 [ -1, %fzck_binom.exit214 ], [ %bestcost.1, %fzck_cost.exit269 ]
  %arrayidx30 = getelementptr inbounds nuw i64, ptr %c, i64 %indvars.iv
  %6 = load i64, ptr %arrayidx30, align 8, !tbaa !24
  %cmp31 = icmp slt i64 %6, 1
  %.sub27 = tail call i64 @llvm.smin.i64(i64 %6, i64 %sub27)
  %cond46 = select i1 %cmp31, i64 1, i64 %.sub27
  %cmp.i215 = icmp slt i64 %cond46, 2
  br i1 %cmp.i215, label %fzck_cost.exit, label %while.cond.i

while.cond.i:                                     ; preds = %for.body, %while.cond.i.backedge
  %r.0.i = phi i64 [ %r.0.i.be, %while.cond.i.backedge ], [ 0, %for.body ]
  %cmp1.not18.i.i = icmp eq i64 %r.0.i, 0
  br i1 %cmp1.not18.i.i, label %while.cond.i.backedge, label %for.body.i.i

while.cond.i.backedge:                            ; preds = %while.cond.i, %fzck_binom.exit.i
  %r.0.i.be = phi i64 [ 1, %while.cond.i ], [ %inc.i216, %fzck_binom.exit.i ]
  br label %while.cond.i, !llvm.loop !141

for.body.i.i:                                     ; preds = %while.cond.i, %if.end4.i.i
  %j.020.i.i = phi i64 [ %inc.i.i, %if.end4.i.i ], [ 1, %while.cond.i ]
  %c.019.i.i = phi i64 [ %div6.i.i, %if.end4.i.i ], [ 1, %while.cond.i ]
  %add.i.i = add nuw nsw i64 %j.020.i.i, %3
  %div.i.i = udiv i64 4611686018427387903, %add.i.i
  %cmp2.i.i = icmp ugt i64 %c.019.i.i, %div.i.i
  br i1 %cmp2.i.i, label %fzck_binom.exit.i, label %if.end4.i.i

if.end4.i.i:                                      ; preds = %for.body.i.i
  %mul.i.i = mul i64 %add.i.i, %c.019.i.i
  %div6.i.i = udiv i64 %mul.i.i, %j.020.i.i
  %inc.i.i = add nuw i64 %j.020.i.i, 1
  %exitcond.not.i.i = icmp eq i64 %j.020.i.i, %r.0.i
  br i1 %exitcond.not.i.i, label %fzck_binom.exit.i, label %for.body.i.i, !llvm.loop !139

fzck_binom.exit.i:                                ; preds = %if.end4.i.i, %for.body.i.i
  %retval.0.i.i = phi i64 [ 4611686018427387903, %for.body.i.i ], [ %div6.i.i, %if.end4.i.i ]
  %cmp4.i = icmp ult i64 %retval.0.i.i, %cond46
  %inc.i216 = add nuw nsw i64 %r.0.i, 1
  br i1 %cmp4.i, label %while.cond.i.backedge, label %while.end.i

while.end.i:                                      ; preds = %fzck_binom.exit.i
  %mul5.i = mul nuw nsw i64 %r.0.i, %cond46
  %sub6.i = add nsw i64 %r.0.i, -1
  %cmp1.not18.i21.i = icmp eq i64 %r.0.i, 1
  br i1 %cmp1.not18.i21.i, label %fzck_binom.exit34.i, label %for.body.i22.i

for.body.i22.i:                                   ; preds = %while.end.i, %if.end4.i28.i
  %j.020.i23.i = phi i64 [ %inc.i31.i, %if.end4.i28.i ], [ 1, %while.end.i ]
  %c.019.i24.i = phi i64 [ %div6.i30.i, %if.end4.i28.i ], [ 1, %while.end.i ]
  %add.i25.i = add nuw nsw i64 %add.i217, %j.020.i23.i
  %div.i26.i = udiv i64 4611686018427387903, %add.i25.i
  %cmp2.i27.i = icmp ugt i64 %c.019.i24.i, %div.i26.i
  br i1 %cmp2.i27.i, label %fzck_binom.exit34.i, label %if.end4.i28.i

if.end4.i28.i:                                    ; preds = %for.body.i22.i
  %mul.i29.i = mul i64 %add.i25.i, %c.019.i24.i
  %div6.i30.i = udiv i64 %mul.i29.i, %j.020.i23.i
  %inc.i31.i = add nuw i64 %j.020.i23.i, 1
  %exitcond.not.i32.i = icmp eq i64 %j.020.i23.i, %sub6.i
  br i1 %exitcond.not.i32.i, label %fzck_binom.exit34.i, label %for.body.i22.i, !llvm.loop !139

fzck_binom.exit34.i:                              ; preds = %if.end4.i28.i, %for.body.i22.i, %while.end.i
  %retval.0.i33.i = phi i64 [ 1, %while.end.i ], [ %div6.i30.i, %if.end4.i28.i ], [ 4611686018427387903, %for.body.i22.i ]
  %sub8.i = sub nsw i64 %mul5.i, %retval.0.i33.i
  br label %fzck_cost.exit

fzck_cost.exit:                                   ; preds = %for.body, %fzck_binom.exit34.i
  %retval.0.i218 = phi i64 [ %sub8.i, %fzck_binom.exit34.i ], [ 0, %for.body ]
  %add49 = add nsw i64 %retval.0.i218, %cond46
  %sub50 = sub nsw i64 %sub, %cond46
  %cmp.i220 = icmp slt i64 %sub50, 2
  br i1 %cmp.i220, label %fzck_cost.exit269, label %if.end.i221

if.end.i221:                                      ; preds = %fzck_cost.exit
  br i1 %cmp1.i222, label %if.then2.i265, label %while.cond.i224

if.then2.i265:                                    ; preds = %if.end.i221
  %sub.i266 = add nsw i64 %sub50, -1
  %mul.i267 = mul nsw i64 %sub.i266, %sub50
  %div18.i268 = lshr i64 %mul.i267, 1
  br label %fzck_cost.exit269

while.cond.i224:                                  ; preds = %if.end.i221, %while.cond.i224.backedge
  %r.0.i225 = phi i64 [ %r.0.i225.be, %while.cond.i224.backedge ], [ 0, %if.end.i221 ]
  %cmp1.not18.i.i226 = icmp eq i64 %r.0.i225, 0
  br i1 %cmp1.not18.i.i226, label %while.cond.i224.backedge, label %for.body.i.i227

while.cond.i224.backedge:                         ; preds = %while.cond.i224, %fzck_binom.exit.i238
  %r.0.i225.be = phi i64 [ 1, %while.cond.i224 ], [ %inc.i241, %fzck_binom.exit.i238 ]
  br label %while.cond.i224, !llvm.loop !141

for.body.i.i227:                                  ; preds = %while.cond.i224, %if.end4.i.i233
  %j.020.i.i228 = phi i64 [ %inc.i.i236, %if.end4.i.i233 ], [ 1, %while.cond.i224 ]
  %c.019.i.i229 = phi i64 [ %div6.i.i235, %if.end4.i.i233 ], [ 1, %while.cond.i224 ]
  %add.i.i230 = add nuw nsw i64 %j.020.i.i228, %sub7296
  %div.i.i231 = udiv i64 4611686018427387903, %add.i.i230
  %cmp2.i.i232 = icmp ugt i64 %c.019.i.i229, %div.i.i231
  br i1 %cmp2.i.i232, label %fzck_binom.exit.i238, label %if.end4.i.i233

if.end4.i.i233:                                   ; preds = %for.body.i.i227
  %mul.i.i234 = mul i64 %add.i.i230, %c.019.i.i229
  %div6.i.i235 = udiv i64 %mul.i.i234, %j.020.i.i228
  %inc.i.i236 = add nuw i64 %j.020.i.i228, 1
  %exitcond.not.i.i237 = icmp eq i64 %j.020.i.i228, %r.0.i225
  br i1 %exitcond.not.i.i237, label %fzck_binom.exit.i238, label %for.body.i.i227, !llvm.loop !139

fzck_binom.exit.i238:                             ; preds = %if.end4.i.i233, %for.body.i.i227
  %retval.0.i.i239 = phi i64 [ 4611686018427387903, %for.body.i.i227 ], [ %div6.i.i235, %if.end4.i.i233 ]
  %cmp4.i240 = icmp ult i64 %retval.0.i.i239, %sub50
  %inc.i241 = add nuw nsw i64 %r.0.i225, 1
  br i1 %cmp4.i240, label %while.cond.i224.backedge, label %while.end.i242

while.end.i242:                                   ; preds = %fzck_binom.exit.i238
  %mul5.i243 = mul nuw nsw i64 %r.0.i225, %sub50
  %sub6.i245 = add nsw i64 %r.0.i225, -1
  %cmp1.not18.i21.i246 = icmp eq i64 %r.0.i225, 1
  br i1 %cmp1.not18.i21.i246, label %fzck_binom.exit34.i258, label %for.body.i22.i247

for.body.i22.i247:                                ; preds = %while.end.i242, %if.end4.i28.i253
  %j.020.i23.i248 = phi i64 [ %inc.i31.i256, %if.end4.i28.i253 ], [ 1, %while.end.i242 ]
  %c.019.i24.i249 = phi i64 [ %div6.i30.i255, %if.end4.i28.i253 ], [ 1, %while.end.i242 ]
  %add.i25.i250 = add nuw nsw i64 %j.020.i23.i248, %3
  %div.i26.i251 = udiv i64 4611686018427387903, %add.i25.i250
  %cmp2.i27.i252 = icmp ugt i64 %c.019.i24.i249, %div.i26.i251
  br i1 %cmp2.i27.i252, label %fzck_binom.exit34.i258, label %if.end4.i28.i253

if.end4.i28.i253:                                 ; preds = %for.body.i22.i247
  %mul.i29.i254 = mul i64 %add.i25.i250, %c.019.i24.i249
  %div6.i30.i255 = udiv i64 %mul.i29.i254, %j.020.i23.i248
  %inc.i31.i256 = add nuw i64 %j.020.i23.i248, 1
  %exitcond.not.i32.i257 = icmp eq i64 %j.020.i23.i248, %sub6.i245
  br i1 %exitcond.not.i32.i257, label %fzck_binom.exit34.i258, label %for.body.i22.i247, !llvm.loop !139

fzck_binom.exit34.i258:                           ; preds = %if.end4.i28.i253, %for.body.i22.i247, %while.end.i242
  %retval.0.i33.i259 = phi i64 [ 1, %while.end.i242 ], [ %div6.i30.i255, %if.end4.i28.i253 ], [ 4611686018427387903, %for.body.i22.i247 ]
  %sub8.i260 = sub nsw i64 %mul5.i243, %retval.0.i33.i259
  br label %fzck_cost.exit269

fzck_cost.exit269:                                ; preds = %fzck_cost.exit, %if.then2.i265, %fzck_binom.exit34.i258
  %retval.0.i261 = phi i64 [ %sub8.i260, %fzck_binom.exit34.i258 ], [ %div18.i268, %if.then2.i265 ], [ 0, %fzck_cost.exit ]
  %add54 = add nsw i64 %add49, %retval.0.i261
  %cmp55 = icmp slt i64 %bestcost.0287, 0
  %cmp56 = icmp slt i64 %add54, %bestcost.0287
  %or.cond = select i1 %cmp55, i1 true, i1 %cmp56
  %bestcost.1 = select i1 %or.cond, i64 %add54, i64 %bestcost.0287
  %best.1 = select i1 %or.cond, i64 %cond46, i64 %best.0288
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, 6
  br i1 %exitcond.not, label %cleanup, label %for.body, !llvm.loop !142

cleanup:                                          ; preds = %fzck_cost.exit269, %if.then2
  %retval.0 = phi i64 [ %sub3, %if.then2 ], [ %best.1, %fzck_cost.exit269 ]
  call void @llvm.lifetime.end.p0(ptr nonnull %c) #22
  br label %cleanup100

if.then67:                                        ; preds = %entry
  %conv = sext i64 %1 to i128
  %budget = getelementptr inbounds nuw i8, ptr %p, i64 24
  %7 = load i64, ptr %budget, align 8, !tbaa !98
  %conv69 = sext i64 %7 to i128
  %mul150 = add nsw i128 %conv, 1
  %add72 = mul nsw i128 %mul150, %conv69
  %sub73 = add nsw i128 %add72, -1
  %n = getelementptr inbounds nuw i8, ptr %p, i64 16
  %8 = load i64, ptr %n, align 8, !tbaa !94
  %conv74 = sext i64 %8 to i128
  %div = sdiv i128 %sub73, %conv74
  %conv75 = trunc i128 %div to i64
  %conv.i = sext i64 %conv75 to i128
  %mul.i270 = mul nsw i128 %conv.i, %conv74
  %div.i271 = sdiv i128 %mul.i270, %conv69
  %conv3.i = trunc i128 %div.i271 to i64
  %cmp78 = icmp eq i64 %1, %conv3.i
  %cmp82.not.not = icmp sgt i64 %7, %conv75
  %or.cond285 = and i1 %cmp82.not.not, %cmp78
  br i1 %or.cond285, label %if.then84, label %cleanup100

if.then84:                                        ; preds = %if.then67
  %add80 = add nsw i64 %conv75, 1
  %conv.i272 = sext i64 %add80 to i128
  %mul.i275 = mul nsw i128 %conv.i272, %conv74
  %div.i278 = sdiv i128 %mul.i275, %conv69
  %conv3.i279 = trunc i128 %div.i278 to i64
  %cmp88.not = icmp sgt i64 %0, %conv3.i279
  %sub92 = sub nsw i64 %conv3.i279, %1
  %spec.select = select i1 %cmp88.not, i64 %sub92, i64 1
  br label %cleanup100

cleanup100:                                       ; preds = %if.then84, %if.then67, %entry, %cleanup
  %retval.4 = phi i64 [ %retval.0, %cleanup ], [ 1, %if.then67 ], [ 1, %entry ], [ %spec.select, %if.then84 ]
  ret i64 %retval.4
}

; Function Attrs: mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite)
declare noalias noundef ptr @realloc(ptr allocptr noundef captures(none), i64 noundef) local_unnamed_addr #16

; Function Attrs: nofree nounwind
declare noalias noundef ptr @fopen(ptr noundef readonly captures(none), ptr noundef readonly captures(none)) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i64 @fwrite(ptr noundef readonly captures(none), i64 noundef, i64 noundef, ptr noundef captures(none)) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i32 @fclose(ptr noundef captures(none)) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i32 @snprintf(ptr noalias noundef writeonly captures(none), i64 noundef, ptr noundef readonly captures(none), ...) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i64 @fread(ptr noundef writeonly captures(none), i64 noundef, i64 noundef, ptr noundef captures(none)) local_unnamed_addr #10

; Function Attrs: nofree nounwind
declare noundef i32 @remove(ptr noundef readonly captures(none)) local_unnamed_addr #10

; Function Attrs: inlinehint nofree nounwind uwtable
define internal noalias nonnull ptr @fzck_periodic_init(ptr noundef %data, i64 noundef %n, i64 noundef %bytes) #13 {
entry:
  %cmp = icmp slt i64 %n, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.38)
  unreachable

if.end:                                           ; preds = %entry
  %tobool.not = icmp eq ptr %data, null
  br i1 %tobool.not, label %cond.end, label %cond.true

cond.true:                                        ; preds = %if.end
  %0 = load i64, ptr %data, align 8, !tbaa !86
  br label %cond.end

cond.end:                                         ; preds = %if.end, %cond.true
  %cond = phi i64 [ %0, %cond.true ], [ 1, %if.end ]
  %call.i = tail call noalias dereferenceable_or_null(304) ptr @calloc(i64 noundef 1, i64 noundef 304) #21
  %tobool.not.i = icmp eq ptr %call.i, null
  br i1 %tobool.not.i, label %if.then.i, label %fzck_new.exit

if.then.i:                                        ; preds = %cond.end
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.14)
  unreachable

fzck_new.exit:                                    ; preds = %cond.end
  store i32 1, ptr %call.i, align 8, !tbaa !87
  %config2.i = getelementptr inbounds nuw i8, ptr %call.i, i64 8
  store ptr %data, ptr %config2.i, align 8, !tbaa !93
  %n3.i = getelementptr inbounds nuw i8, ptr %call.i, i64 16
  store i64 %n, ptr %n3.i, align 8, !tbaa !94
  %bytes4.i = getelementptr inbounds nuw i8, ptr %call.i, i64 224
  store i64 %bytes, ptr %bytes4.i, align 8, !tbaa !95
  %replay.i = getelementptr inbounds nuw i8, ptr %call.i, i64 216
  store i64 -1, ptr %replay.i, align 8, !tbaa !96
  %highest.i = getelementptr inbounds nuw i8, ptr %call.i, i64 248
  store i64 -1, ptr %highest.i, align 8, !tbaa !97
  %spec.select.i = tail call i64 @llvm.smin.i64(i64 %cond, i64 %n)
  %cond.i = tail call i64 @llvm.smax.i64(i64 %spec.select.i, i64 1)
  %budget8.i = getelementptr inbounds nuw i8, ptr %call.i, i64 24
  store i64 %cond.i, ptr %budget8.i, align 8, !tbaa !98
  ret ptr %call.i
}

; Function Attrs: cold nofree noreturn nounwind
declare void @abort() local_unnamed_addr #17

; Function Attrs: mustprogress nocallback nofree nounwind willreturn
declare i64 @strtol(ptr noundef readonly, ptr noundef captures(none), i32 noundef) local_unnamed_addr #9

; Function Attrs: inlinehint nofree nounwind uwtable
define internal noalias nonnull ptr @fzck_store_all_init(ptr noundef %data, i64 noundef %n, i64 noundef %bytes) #13 {
entry:
  %call.i = tail call noalias dereferenceable_or_null(304) ptr @calloc(i64 noundef 1, i64 noundef 304) #21
  %tobool.not.i = icmp eq ptr %call.i, null
  br i1 %tobool.not.i, label %if.then.i, label %fzck_new.exit

if.then.i:                                        ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.14)
  unreachable

fzck_new.exit:                                    ; preds = %entry
  %cond = tail call i64 @llvm.smax.i64(i64 %n, i64 0)
  %cmp = icmp slt i64 %n, 0
  %config2.i = getelementptr inbounds nuw i8, ptr %call.i, i64 8
  store ptr %data, ptr %config2.i, align 8, !tbaa !93
  %n3.i = getelementptr inbounds nuw i8, ptr %call.i, i64 16
  store i64 %cond, ptr %n3.i, align 8, !tbaa !94
  %bytes4.i = getelementptr inbounds nuw i8, ptr %call.i, i64 224
  store i64 %bytes, ptr %bytes4.i, align 8, !tbaa !95
  %replay.i = getelementptr inbounds nuw i8, ptr %call.i, i64 216
  store i64 -1, ptr %replay.i, align 8, !tbaa !96
  %highest.i = getelementptr inbounds nuw i8, ptr %call.i, i64 248
  store i64 -1, ptr %highest.i, align 8, !tbaa !97
  %budget8.i = getelementptr inbounds nuw i8, ptr %call.i, i64 24
  store i64 1, ptr %budget8.i, align 8, !tbaa !98
  store i32 1, ptr %call.i, align 8, !tbaa !87
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %fzck_new.exit
  store i64 -1, ptr %n3.i, align 8, !tbaa !94
  %online = getelementptr inbounds nuw i8, ptr %call.i, i64 200
  store i32 1, ptr %online, align 8, !tbaa !101
  %pending = getelementptr inbounds nuw i8, ptr %call.i, i64 204
  store i32 1, ptr %pending, align 4, !tbaa !102
  %started = getelementptr inbounds nuw i8, ptr %call.i, i64 192
  store i32 1, ptr %started, align 8, !tbaa !105
  br label %if.end

if.end:                                           ; preds = %if.then, %fzck_new.exit
  ret ptr %call.i
}

; Function Attrs: inlinehint nofree nounwind uwtable
define internal void @fzck_set_nsteps(ptr noundef captures(none) %state, i64 noundef %n) #13 {
entry:
  %online = getelementptr inbounds nuw i8, ptr %state, i64 200
  %0 = load i32, ptr %online, align 8, !tbaa !101
  %tobool.not = icmp eq i32 %0, 0
  br i1 %tobool.not, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  tail call fastcc void @fzck_fail(ptr noundef nonnull @.str.41)
  unreachable

if.end:                                           ; preds = %entry
  store i32 0, ptr %online, align 8, !tbaa !101
  %n2 = getelementptr inbounds nuw i8, ptr %state, i64 16
  store i64 %n, ptr %n2, align 8, !tbaa !94
  %qpos = getelementptr inbounds nuw i8, ptr %state, i64 188
  store i32 0, ptr %qpos, align 4, !tbaa !99
  %queued = getelementptr inbounds nuw i8, ptr %state, i64 184
  store i32 0, ptr %queued, align 8, !tbaa !100
  %sub = add nsw i64 %n, -1
  %replay = getelementptr inbounds nuw i8, ptr %state, i64 216
  store i64 %sub, ptr %replay, align 8, !tbaa !96
  ret void
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memmove.p0.p0.i64(ptr writeonly captures(none), ptr readonly captures(none), i64, i1 immarg) #5

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #18

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umax.i64(i64, i64) #19

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smax.i64(i64, i64) #19

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.smin.i64(i64, i64) #19

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umin.i64(i64, i64) #19

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare ptr @llvm.load.relative.i64(ptr, i64) #20

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress nofree nounwind willreturn allockind("alloc,zeroed") allocsize(0,1) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { cold inlinehint nofree noreturn nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #6 = { nofree nounwind memory(read) "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #7 = { mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #8 = { nofree nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #9 = { mustprogress nocallback nofree nounwind willreturn "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #10 = { nofree nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #11 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(readwrite, argmem: none, inaccessiblemem: none, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #12 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #13 = { inlinehint nofree nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #14 = { inlinehint nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #15 = { inlinehint nofree norecurse nosync nounwind memory(argmem: read) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #16 = { mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #17 = { cold nofree noreturn nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #18 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #19 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #20 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #21 = { nounwind allocsize(0,1) }
attributes #22 = { nounwind }
attributes #23 = { nounwind allocsize(0) }
attributes #24 = { cold nounwind }
attributes #25 = { noreturn nounwind }
attributes #26 = { nounwind allocsize(1) }



!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !6, i64 80}
!10 = !{!"fz_ckpt", !11, i64 0, !12, i64 8, !13, i64 16, !14, i64 56, !14, i64 64, !14, i64 72, !6, i64 80, !6, i64 84, !17, i64 88, !14, i64 96}
!11 = !{!"p1 _ZTS22EnzymeCheckpointScheme", !12, i64 0}
!12 = !{!"any pointer", !7, i64 0}
!13 = !{!"EnzymeCkptConfig", !14, i64 0, !6, i64 8, !15, i64 16, !14, i64 24, !16, i64 32}
!14 = !{!"long", !7, i64 0}
!15 = !{!"p1 omnipotent char", !12, i64 0}
!16 = !{!"p1 _ZTS15EnzymeCkptStats", !12, i64 0}
!17 = !{!"p1 _ZTS16EnzymeCkptRegion", !12, i64 0}
!18 = !{!10, !14, i64 56}
!19 = !{!10, !14, i64 64}
!20 = !{!10, !14, i64 96}
!21 = !{!10, !17, i64 88}
!22 = !{i64 0, i64 8, !23, i64 8, i64 8, !24, i64 16, i64 4, !5, i64 20, i64 4, !5}
!23 = !{!12, !12, i64 0}
!24 = !{!14, !14, i64 0}
!25 = !{!26, !14, i64 8}
!26 = !{!"EnzymeCkptRegion", !12, i64 0, !14, i64 8, !6, i64 16, !6, i64 20}
!27 = distinct !{!27, !28, !29}
!28 = !{!"llvm.loop.mustprogress"}
!29 = !{!"llvm.loop.unroll.disable"}
!30 = !{!10, !6, i64 24}
!31 = !{!10, !16, i64 48}
!32 = distinct !{!32, !28, !29}
!33 = !{!10, !14, i64 16}
!34 = !{!7, !7, i64 0}
!35 = distinct !{!35, !28, !29}
!36 = !{!37, !6, i64 0}
!37 = !{!"EnzymeCheckpointScheme", !6, i64 0, !12, i64 8, !12, i64 16, !12, i64 24, !12, i64 32, !12, i64 40, !12, i64 48, !12, i64 56, !12, i64 64, !12, i64 72}
!38 = !{!10, !11, i64 0}
!39 = !{!37, !12, i64 8}
!40 = !{!10, !12, i64 8}
!41 = !{!37, !12, i64 16}
!42 = !{!43, !6, i64 0}
!43 = !{!"EnzymeCkptAction", !6, i64 0, !14, i64 8, !14, i64 16, !14, i64 24}
!44 = !{!43, !14, i64 24}
!45 = !{!43, !14, i64 8}
!46 = !{!37, !12, i64 56}
!47 = !{!37, !12, i64 24}
!48 = !{!37, !12, i64 64}
!49 = !{!37, !12, i64 32}
!50 = !{!43, !14, i64 16}
!51 = !{!37, !12, i64 40}
!52 = distinct !{!52, !28, !29}
!53 = !{!10, !14, i64 72}
!54 = !{!10, !6, i64 84}
!55 = distinct !{!55, !29}
!56 = !{!57, !57, i64 0}
!57 = !{!"p1 _ZTS8_IO_FILE", !12, i64 0}
!58 = distinct !{!58, !28, !29}
!59 = distinct !{!59, !29}
!60 = !{!37, !12, i64 48}
!61 = distinct !{!61, !28, !29}
!62 = !{!63, !14, i64 24}
!63 = !{!"fz_fp", !17, i64 0, !14, i64 8, !15, i64 16, !14, i64 24}
!64 = !{!63, !14, i64 8}
!65 = !{!63, !17, i64 0}
!66 = distinct !{!66, !28, !29}
!67 = !{!26, !12, i64 0}
!68 = distinct !{!68, !28, !29}
!69 = !{!63, !15, i64 16}
!70 = !{!71, !71, i64 0}
!71 = !{!"double", !7, i64 0}
!72 = distinct !{!72, !28, !29}
!73 = !{!74, !14, i64 8}
!74 = !{!"fz_fp_state", !12, i64 0, !14, i64 8, !6, i64 16, !6, i64 20}
!75 = !{!74, !6, i64 16}
!76 = !{!74, !12, i64 0}
!77 = !{!78, !78, i64 0}
!78 = !{!"float", !7, i64 0}
!79 = distinct !{!79, !28, !29}
!80 = distinct !{!80, !28, !29}
!81 = distinct !{!81, !28, !29}
!82 = distinct !{!82, !28, !29}
!83 = distinct !{!83, !28, !29}
!84 = distinct !{!84, !28, !29}
!85 = distinct !{!85, !28, !29}
!86 = !{!13, !14, i64 0}
!87 = !{!88, !6, i64 0}
!88 = !{!"fzck_state", !6, i64 0, !89, i64 8, !14, i64 16, !14, i64 24, !90, i64 32, !14, i64 40, !14, i64 48, !7, i64 56, !6, i64 184, !6, i64 188, !6, i64 192, !6, i64 196, !6, i64 200, !6, i64 204, !14, i64 208, !14, i64 216, !14, i64 224, !91, i64 232, !14, i64 240, !14, i64 248, !92, i64 256}
!89 = !{!"p1 _ZTS16EnzymeCkptConfig", !12, i64 0}
!90 = !{!"p1 _ZTS10fzck_frame", !12, i64 0}
!91 = !{!"any p2 pointer", !12, i64 0}
!92 = !{!"EnzymeCkptStats", !14, i64 0, !14, i64 8, !14, i64 16, !14, i64 24, !14, i64 32, !14, i64 40}
!93 = !{!88, !89, i64 8}
!94 = !{!88, !14, i64 16}
!95 = !{!88, !14, i64 224}
!96 = !{!88, !14, i64 216}
!97 = !{!88, !14, i64 248}
!98 = !{!88, !14, i64 24}
!99 = !{!88, !6, i64 188}
!100 = !{!88, !6, i64 184}
!101 = !{!88, !6, i64 200}
!102 = !{!88, !6, i64 204}
!103 = !{!88, !14, i64 208}
!104 = !{!88, !6, i64 196}
!105 = !{!88, !6, i64 192}
!106 = !{!88, !14, i64 40}
!107 = !{!88, !14, i64 48}
!108 = !{!88, !90, i64 32}
!109 = !{!110, !14, i64 0}
!110 = !{!"fzck_frame", !14, i64 0, !14, i64 8, !14, i64 16, !14, i64 24, !14, i64 32, !6, i64 40}
!111 = !{!110, !14, i64 8}
!112 = !{!110, !14, i64 16}
!113 = !{!110, !6, i64 40}
!114 = !{!110, !14, i64 24}
!115 = !{!110, !14, i64 32}
!116 = !{i64 0, i64 4, !5, i64 8, i64 8, !24, i64 16, i64 8, !24, i64 24, i64 8, !24}
!117 = !{!88, !14, i64 256}
!118 = !{!88, !14, i64 264}
!119 = !{!13, !6, i64 8}
!120 = distinct !{!120, !28, !29}
!121 = !{!26, !6, i64 16}
!122 = !{!88, !14, i64 240}
!123 = distinct !{!123, !28, !29}
!124 = !{!88, !91, i64 232}
!125 = distinct !{!125, !28, !29}
!126 = !{!13, !15, i64 16}
!127 = !{!13, !14, i64 24}
!128 = distinct !{!128, !28, !29}
!129 = distinct !{!129, !28, !29}
!130 = !{!88, !14, i64 272}
!131 = !{!88, !14, i64 288}
!132 = !{!88, !14, i64 296}
!133 = distinct !{!133, !28, !29}
!134 = distinct !{!134, !28, !29}
!135 = !{!88, !14, i64 280}
!136 = !{!13, !16, i64 32}
!137 = !{i64 0, i64 8, !24, i64 8, i64 8, !24, i64 16, i64 8, !24, i64 24, i64 8, !24, i64 32, i64 8, !24, i64 40, i64 8, !24}
!138 = distinct !{!138, !28, !29}
!139 = distinct !{!139, !28, !29}
!140 = distinct !{!140, !28, !29}
!141 = distinct !{!141, !28, !29}
!142 = distinct !{!142, !28, !29}
