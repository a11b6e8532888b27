; Tape memory statistics for benchmarks: { bytes held now, peak bytes held } by heap
; stack buffers (stack.ll) and split-mode tape blocks (arena.ll), not the inline buffers
; and tapes on the native stack. Weak, so every module's copy of the runtime shares one
; (the name does not start with `__fz_`, so it keeps its linkage when the runtime's
; symbols are made internal); plain loads and stores (the numbers may be approximate when
; several threads differentiate at once). Read by bench/common/bench.h through a weak
; declaration.

@__ferrozyme_tape_stats = weak global [2 x i64] zeroinitializer

define void @__fz_stats_add(i64 %delta) alwaysinline {
entry:
  %cur = load i64, ptr @__ferrozyme_tape_stats
  %new = add i64 %cur, %delta
  store i64 %new, ptr @__ferrozyme_tape_stats
  %pp = getelementptr inbounds i8, ptr @__ferrozyme_tape_stats, i64 8
  %peak = load i64, ptr %pp
  %more = icmp sgt i64 %new, %peak
  br i1 %more, label %up, label %done
up:
  store i64 %new, ptr %pp
  br label %done
done:
  ret void
}
