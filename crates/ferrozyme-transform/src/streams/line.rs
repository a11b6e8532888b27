//! The first iterations of a split stream loop run before it, so that its vector body's
//! stores start on a cache line (issue 14, bruss35: the periodic-`if` Brusselator at
//! `-O3 -march=native` on Zen 4).
//!
//! After `streams/split.rs` a carried stream loop is a main loop over a multiple of the
//! lane count and a tail loop for the rest. With AVX-512 each vector iteration of the
//! main loop loads and stores 64 bytes of a shadow row, which straddle two cache lines
//! unless the row's first main-loop cell sits on a line boundary; LoopVectorize does
//! not peel for alignment. In the Brusselator benchmark the shadow `dx` starts 48 bytes
//! past a line, so every 512-bit access of its reverse column loops was split: the same
//! object ran its gradient 17% faster with the harness's data moved to put column 1 of
//! `dx` on a line (bench/README.md "bruss35"), and 9% faster with the loops split by
//! hand as 1 + 24 + 5 columns in the benchmark's own layout; with this head loop, two
//! alternated sets of 9 and 11 rounds gave 2.98 -> 2.71 and 2.90 -> 2.80 us.
//!
//! Here, at run time before the loop, `h` = the number of cells from the first cell the
//! loop stores to (the shadow most of its stores address) to the next 64-byte boundary,
//! taken when it is below the tail's length (else 0). A copy of the loop, the head,
//! runs the first `h` iterations; the main loop then runs its same number of
//! iterations from `lo + h` (a constant trip count still: its start and its exit bound
//! move together) and the tail the `rest - h` left (at least one, so no loop is
//! skipped but the head). The head's phis start from the loop's entry values, the main
//! loop's continue from the head's last ones, as the tail's do from the main loop's:
//! every iteration computes what it computed before, in the same order, so the value
//! streams (no `reassoc`) give the same bits at any alignment; only which cells the
//! vector instructions cover moves, and with it the rounding of sums LLVM may
//! reassociate (the parameter adjoints' reductions, bruss14: their last bits may change
//! with the shadow's address). The head is kept scalar (`llvm.loop.vectorize.enable`
//! false: at most 7 iterations); the tail, whose trip count is no longer a constant,
//! asks for vectors of 4 (a vector body of 8 would never run).
//!
//! Only with AVX-512 (`+avx512f`: 64-byte vectors are one cache line; with `ymm` a
//! misaligned access splits a line in one case of two), an upward loop (step `+1`) whose
//! anchor store's address moves by one `double` per iteration, entered by an
//! unconditional branch. Pinned by the filetest `stream_split_line_head`.

use ferrozyme_analysis::activity::base_object;
use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Block, Builder, Context, IntPredicate, Opcode, TypeKind, Value};

use crate::affine_index::{form, Counter};
use crate::peel::copy_body;
use crate::streams::counted_loop;

/// Bytes in a cache line, and in one AVX-512 vector.
const LINE: i64 = 64;

/// Bytes of one `double`: the only element the anchor's stride is checked against.
const DOUBLE: i128 = 8;

/// How deep [`form`] reads an index.
const DEPTH: u32 = 8;

/// Whether the function `f` (a primal, compiled by clang) targets AVX-512.
pub(crate) fn wants_line_head(f: Value) -> bool {
    f.string_fn_attr("target-features")
        .is_some_and(|t| t.contains("+avx512f"))
}

/// Gives the main loop `b` (entered from `entry`, split by `split_tail` with `rest`
/// iterations left to its tail) a head loop that brings its first store to a line
/// boundary (module docs). Returns whether it did.
pub(crate) fn line_head(
    ctx: Context,
    b: Block,
    entry: Block,
    rest: i128,
    shadows: &HashSet<Value>,
) -> bool {
    let Some((c, step, t, ctr)) = counted_loop(b, entry) else {
        return false;
    };
    if step != 1 || rest < 2 {
        return false;
    }
    let Some(et) = entry.terminator() else {
        return false;
    };
    if et.opcode() != Some(Opcode::LLVMBr) || et.num_operands() != 1 || et.successor(0) != b {
        return false;
    }
    let Some(anchor) = anchor_address(b, &ctr, shadows) else {
        return false;
    };
    let test = t.operand(0);
    let (Some(k), Some(lo)) = (
        test.operand(1).const_int_value(),
        c.incoming()
            .into_iter()
            .find(|(_, x)| *x == entry)
            .map(|(v, _)| v),
    ) else {
        return false;
    };
    // The main loop's trip count (the tail's iterations are not in its range).
    let trips = ctr.hi - ctr.lo + 1;
    let builder = Builder::new(ctx);
    builder.position_before(et);
    let mut at_lo: HashMap<Value, Value> = HashMap::default();
    at_lo.insert(c, lo);
    let Some(first) = materialize(&builder, anchor, b, &mut at_lo) else {
        return false;
    };
    // h = (-address mod 64) / 8, kept only below the tail's length.
    let i64t = ctx.i64();
    let addr = builder.ptrtoint(first, i64t);
    let to_line = builder.and(
        builder.sub(i64t.const_i64(0), addr),
        i64t.const_i64(LINE - 1),
    );
    let cells = builder.binop(Opcode::LLVMLShr, to_line, i64t.const_i64(3));
    let fits = builder.icmp(IntPredicate::LLVMIntULT, cells, i64t.const_i64(rest as i64));
    let h64 = builder.select(fits, cells, i64t.const_i64(0));
    let cty = c.ty();
    let h = builder.int_cast(h64, cty);
    let start = builder.add(lo, h);
    // The main loop's bound moves with its start; the head ends where the main loop starts.
    let main_k = builder.add(cty.const_i64(k), h);
    let head_k = builder.add(cty.const_i64(k - trips as i64), h);
    let any = builder.icmp(IntPredicate::LLVMIntNE, h, cty.const_i64(0));

    let head = b.insert_before(ctx, &format!("{}.line", b.name()));
    let mut map: HashMap<Value, Value> = HashMap::default();
    map.insert(b.as_value(), head.as_value());
    builder.position_at_end(head);
    let mut phis = Vec::new();
    for p in b.phis() {
        let np = builder.phi(p.ty(), &p.name());
        map.insert(p, np);
        phis.push((p, np));
    }
    copy_body(&builder, &[b], b, &mut map, "line");
    for (p, np) in &phis {
        for (v, x) in p.incoming() {
            if x == entry {
                np.add_incoming(v, entry);
            } else if x == b {
                np.add_incoming(map.get(&v).copied().unwrap_or(v), head);
            }
        }
    }
    // The main loop continues from the head's last values, its counter from `start`.
    for (p, _) in &phis {
        let Some((v, _)) = p.incoming().into_iter().find(|(_, x)| *x == b) else {
            continue;
        };
        if *p == c {
            for (i, (_, x)) in p.incoming().into_iter().enumerate() {
                if x == entry {
                    p.set_operand(i as u32, start);
                }
            }
            p.add_incoming(start, head);
        } else {
            p.add_incoming(map.get(&v).copied().unwrap_or(v), head);
        }
    }
    let ht = map[&t];
    for s in 0..ht.num_successors() {
        if ht.successor(s) != head {
            ht.set_successor(s, b);
        }
    }
    map[&test].set_operand(1, head_k);
    test.set_operand(1, main_k);
    let off = ctx.md_node(&[
        ctx.md_string("llvm.loop.vectorize.enable"),
        ctx.i1().const_int(0),
    ]);
    ht.set_metadata(ctx.md_kind("llvm.loop"), Some(ctx.loop_id(&[off])));
    // The tail's trip count is no longer a constant: asked for half-width vectors, as it
    // ran with its constant count (a wider body would never run, its iterations all
    // left to the scalar remainder).
    if let Some(tt) = t
        .successors()
        .into_iter()
        .find(|s| *s != b)
        .and_then(|tail| tail.terminator())
    {
        let on = ctx.md_node(&[
            ctx.md_string("llvm.loop.vectorize.enable"),
            ctx.i1().const_int(1),
        ]);
        let width = ctx.md_node(&[
            ctx.md_string("llvm.loop.vectorize.width"),
            ctx.int(32).const_i64((LINE / 8 / 2) as i64),
        ]);
        tt.set_metadata(ctx.md_kind("llvm.loop"), Some(ctx.loop_id(&[on, width])));
    }
    et.erase();
    builder.position_at_end(entry);
    builder.cond_br(any, head, b);
    true
}

/// The address of the loop's anchor store: of the shadows in `shadows`, the one most
/// stores of `b` address; its first store whose address moves by one `double` per
/// iteration.
fn anchor_address(b: Block, ctr: &Counter, shadows: &HashSet<Value>) -> Option<Value> {
    let stores: Vec<(Value, Value)> = b
        .instructions()
        .into_iter()
        .filter(|i| i.opcode() == Some(Opcode::LLVMStore))
        .map(|s| (s.operand(1), base_object(s.operand(1))))
        .filter(|(_, base)| shadows.contains(base))
        .collect();
    let mut count: HashMap<Value, usize> = HashMap::default();
    for (_, base) in &stores {
        *count.entry(*base).or_insert(0) += 1;
    }
    let most = count.values().copied().max()?;
    stores
        .into_iter()
        .filter(|(_, base)| count[base] == most)
        .map(|(p, _)| p)
        .find(|p| byte_stride(*p, ctr) == Some(DOUBLE))
}

/// Bytes the address `p` moves per iteration, through single-index GEPs over `double`
/// or `i8` (None where another shape is met).
fn byte_stride(p: Value, ctr: &Counter) -> Option<i128> {
    let mut v = p;
    let mut stride = 0;
    while v.opcode() == Some(Opcode::LLVMGetElementPtr) {
        if v.num_operands() != 2 {
            return None;
        }
        let elem = match v.gep_source_type().kind() {
            TypeKind::Double => DOUBLE,
            TypeKind::Int(8) => 1,
            _ => return None,
        };
        let f = form(v.operand(1), ctr, DEPTH);
        stride += elem * f.terms.get(&ctr.iv).copied().unwrap_or(0);
        v = v.operand(0);
    }
    Some(stride)
}

/// `v` as its value in the loop `b`'s first iteration, computed where `builder` stands:
/// instructions of `b` cloned with the counter replaced (`known`); None through a phi.
fn materialize(
    builder: &Builder,
    v: Value,
    b: Block,
    known: &mut HashMap<Value, Value>,
) -> Option<Value> {
    if let Some(&k) = known.get(&v) {
        return Some(k);
    }
    if !v.is_instruction() || v.parent_block() != b {
        return Some(v);
    }
    if v.opcode() == Some(Opcode::LLVMPHI) {
        return None;
    }
    let ops: Vec<Value> = (0..v.num_operands())
        .map(|i| materialize(builder, v.operand(i), b, known))
        .collect::<Option<_>>()?;
    let k = v.clone_instruction();
    builder.insert(k);
    for (i, o) in ops.into_iter().enumerate() {
        k.set_operand(i as u32, o);
    }
    known.insert(v, k);
    Some(k)
}
