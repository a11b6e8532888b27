; Tape memory statistics for benchmarks: { bytes held now, peak bytes held } by heap
; stack buffers (stack.ll) and split-mode tape blocks (arena.ll), not the inline buffers
; and tapes on the native stack. Weak, so every module's copy of the runtime shares one
; (the name does not start with `__fz_`, so it keeps its linkage when the runtime's
; symbols are made internal); plain loads and stores (the numbers may be approximate when
; several threads differentiate at once). Read by bench/common/bench.h through a weak
; declaration. Aligned to 16 as the x86-64 ABI aligns a 16-byte array: C code declaring
; `extern long long __ferrozyme_tape_stats[2]` may clear it with one aligned 16-byte store
; (`movapd`; tests/c/565 crashed under --ad-before-opt once the runtime's other globals
; moved it to an address that was only 8-aligned).

@__ferrozyme_tape_stats = weak global [2 x i64] zeroinitializer, align 16

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
