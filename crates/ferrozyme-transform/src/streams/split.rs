//! The remainder of a carried stream loop as a loop of its own, which the vectorizer
//! takes (issue 14, bruss20: the periodic-`if` Brusselator at `-O3 -march=native`).
//!
//! A loop whose stencil streams were carried (`streams/mod.rs`) keeps each window cell in a
//! phi that reads the previous iteration's value: a fixed-order recurrence. LoopVectorize
//! vectorizes such a loop, but it builds no vector epilogue for it (its
//! `isCandidateForEpilogueVectorization` refuses fixed-order recurrences), so the
//! iterations the vector width does not divide run one by one in the scalar remainder.
//! In the Brusselator's reverse column loop (30 interior columns at `-O3`, the two wrap
//! or clamp columns peeled by clang) that is 3 vector iterations of 8 and 6 scalar
//! ones: `perf` gave the 6 scalar iterations 27-30% of the gradient's samples against
//! 38-40% for the 24 vector columns (the scalar iteration is 58 instructions for one
//! column, the vector one 79 for eight). The primal pays no such remainder: clang
//! vectorizes its column loop by 4 and unrolls it fully.
//!
//! Here such a loop, when its trip count is a known constant `n` that the target's lane
//! count (`lanes_of`: [`LANES`] with AVX-512, 4 on other x86 targets) does not
//! divide, runs its first `n - n % lanes` iterations and then enters a copy of itself,
//! the tail loop, for the last `n % lanes`, its phis continuing from the loop's last
//! values (the carried windows, the sums, the counter) so every iteration computes what
//! it computed before, in the same order. The main loop's trip count is then a multiple
//! of every vector width up to that many doubles (no remainder); the tail loop is marked
//! `llvm.loop.vectorize.enable`: without the hint LoopVectorize leaves a loop of fewer
//! than 16 iterations scalar when it needs run-time alias checks ("cannot prove it is
//! safe to reorder memory operations", the rows `i - 1` and `i + 1` of one shadow), with
//! it the tail becomes one vector iteration of 4 and 2 scalar ones at AVX-512 (measured
//! on hand-edited IR, bench/README.md "bruss20"). The hint is a request for the
//! vectorizer, not a width: on a target without vectors nothing changes but the split.
//!
//! **The main loop's vector body** is unrolled fully below AVX-512 (bench/README.md
//! "bruss32"): its loop ID says `llvm.loop.vectorize.followup_vectorized` =
//! `llvm.loop.unroll.full`, so the vector loop LoopVectorize makes of it (a known trip
//! count: 7 vector iterations of 4 at `-march=x86-64-v3`, 14 of 2 at SSE2) is unrolled
//! as clang unrolls the primal's column loop. Rolled, every carried window costs a
//! register copy per vector iteration (the phi's old vector is still read by the shuffle
//! that makes the new window, so the allocator cannot reuse its register), besides the
//! counter: 66 instructions per 4 columns against the primal's 33 in the periodic-`if`
//! Brusselator. Unrolled, the gradient runs 23,468 -> 22,799 instructions (periodic
//! `if`), 23,819 -> 22,876 (clamped u/v), 41,290 -> 38,914 (interleaved), x86-64-v3.
//! Not with AVX-512 (`lanes_of` = [`LANES`]): at `-march=native` on a Zen 4 the clamped
//! and periodic-`if` objects came out the same (LLVM unrolls their 3 vector iterations
//! of 8 by itself) and the interleaved one's gradient took 4-20% more time in six
//! alternated rounds, while the x86-64-v3 builds ran 0-10% faster on the same machine.
//! Only for a main loop of at most [`MAX_UNROLLED`] iterations. The request is honoured
//! whatever `-f[no-]unroll-loops` says (like the tail's vectorize hint, it is about code
//! the pass generated); if the loop is not vectorized it does not apply (follow-up
//! properties go only to the loop the transformation makes).
//!
//! Only loops that carried a value stream (no `reassoc`, `streams/values.rs`: the
//! exact build, `-O3 -march=native` in the benchmarks) are split. With `-ffast-math`
//! (partial-sum streams, loops run upwards by `streams/upward.rs`) a tail loop was found
//! that LoopVectorize still refuses (tests/c/827's periodic stencil with 5 rows, inlined
//! into `main`), and a refused `llvm.loop.vectorize.enable` makes LLVM print "warning:
//! loop not vectorized: the optimizer was unable to perform the requested
//! transformation" on the user's compile: a warning about code the user did not write.
//! Whether the split pays there was not measured.
//!
//! Taken for a single-block loop of a combined gradient that carried a stream, only
//! when the pipeline after the pass vectorizes loops, with the `+-1` counter and exit
//! test `streams::counter_range` reads (constant start, `==` exit on the counter or its
//! next value against a constant), at least two vector iterations at the widest in the main loop
//! and a body of at most [`MAX_BODY`] instructions (the copy's code size). Pinned by
//! the filetest `stream_split_vector_tail`. With AVX-512, `streams/line.rs` then gives
//! the main loop a head loop that brings its stores to a cache line (bruss35).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, Context, Value};

use crate::peel::{copy_body, uses_after_read_copy};
use crate::streams::counted_loop;

/// Doubles in the widest vector register (AVX-512); its divisors are the narrower ones.
pub(crate) const LANES: i128 = 8;

/// Doubles in the widest vector register of the target `f` (a primal function, compiled
/// by clang) names: [`LANES`] with AVX-512 or without a named target, 4 (AVX2's `ymm`, a
/// multiple of SSE2's 2) for any other named x86 target. At `-march=x86-64-v3` a main
/// loop over a multiple of 8 left 6 of the Brusselator's 30 columns to the tail (one
/// vector iteration of 4, two scalar ones); over a multiple of 4 it leaves 2
/// (bench/README.md "perf28").
pub(crate) fn lanes_of(f: Value) -> i128 {
    match f.string_fn_attr("target-features") {
        Some(t) if t.contains("+sse2") && !t.contains("+avx512f") => 4,
        _ => LANES,
    }
}
/// Largest loop body (instructions) copied.
const MAX_BODY: usize = 600;

/// Most iterations of a main loop whose vector body is unrolled fully: at most 16 vector
/// iterations at the narrowest width (2 doubles), so that a body of [`MAX_BODY`]
/// instructions stays within LLVM's size limit for a requested full unroll (16,384),
/// which, exceeded, leaves the loop rolled with a "loop not unrolled" warning.
const MAX_UNROLLED: i128 = 32;

/// Splits the single-block loop `b`, entered from `entry`, into a main loop over a
/// multiple of `lanes` iterations and a tail loop for the rest (module docs). Returns
/// the tail's iteration count when it did.
pub(crate) fn split_tail(ctx: Context, b: Block, entry: Block, lanes: i128) -> Option<i128> {
    let (_, step, t, ctr) = counted_loop(b, entry)?;
    if b.instructions().len() > MAX_BODY {
        return None;
    }
    let trips = ctr.hi - ctr.lo + 1;
    let rest = trips % lanes;
    // Fewest iterations left in the main loop: two vector iterations at the widest.
    if rest == 0 || trips - rest < 2 * lanes {
        return None;
    }
    let exit = t.successors().into_iter().find(|s| *s != b)?;
    // `counter_range` read the exit test as `icmp (c | c + step), k` leaving on
    // equality: the main loop leaves `rest` iterations earlier at `k - step * rest`.
    let test = t.operand(0);
    let k = test.operand(1).const_int_value()?;
    let builder = Builder::new(ctx);
    let tail = exit.insert_before(ctx, &format!("{}.tail", b.name()));
    let mut map: HashMap<Value, Value> = HashMap::default();
    map.insert(b.as_value(), tail.as_value());
    builder.position_at_end(tail);
    let mut phis = Vec::new();
    for p in b.phis() {
        let np = builder.phi(p.ty(), &p.name());
        map.insert(p, np);
        phis.push((p, np));
    }
    copy_body(&builder, &[b], b, &mut map, "tail");
    // The tail's phis continue from the main loop's last values.
    for (p, np) in phis {
        let Some((v, _)) = p.incoming().into_iter().find(|(_, x)| *x == b) else {
            continue;
        };
        np.add_incoming(v, b);
        np.add_incoming(map.get(&v).copied().unwrap_or(v), tail);
    }
    for s in 0..t.num_successors() {
        if t.successor(s) == exit {
            t.set_successor(s, tail);
        }
    }
    let ty = test.operand(1).ty();
    test.set_operand(1, ty.const_i64(k - step * rest as i64));
    uses_after_read_copy(&builder, &[b], b, tail, exit, &map);
    let hint = ctx.md_node(&[
        ctx.md_string("llvm.loop.vectorize.enable"),
        ctx.i1().const_int(1),
    ]);
    if let Some(tt) = tail.terminator() {
        tt.set_metadata(ctx.md_kind("llvm.loop"), Some(ctx.loop_id(&[hint])));
    }
    if lanes < LANES && trips - rest <= MAX_UNROLLED {
        unroll_vector_body(ctx, t);
    }
    Some(rest)
}

/// Gives the main loop, whose latch is `t`, a loop ID asking for its vectorized form
/// to be unrolled fully (`llvm.loop.vectorize.followup_vectorized` = `llvm.loop.unroll.full`;
/// module docs, "The main loop's vector body"). A latch that has a loop ID already keeps
/// it; a reverse loop's rolled mark (`rolled_loops::MARK`) gives way, the decision is
/// this one.
fn unroll_vector_body(ctx: Context, t: Value) {
    let loop_kind = ctx.md_kind("llvm.loop");
    if t.metadata(loop_kind).is_some() {
        return;
    }
    t.set_metadata(ctx.md_kind(crate::rolled_loops::MARK), None);
    let full = ctx.md_node(&[ctx.md_string("llvm.loop.unroll.full")]);
    let followup = ctx.md_node(&[
        ctx.md_string("llvm.loop.vectorize.followup_vectorized"),
        full,
    ]);
    t.set_metadata(loop_kind, Some(ctx.loop_id(&[followup])));
}
