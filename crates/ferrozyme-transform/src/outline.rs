//! Outlining of huge straight-line blocks in generated code before code generation
//! (compile time, issue 18).
//!
//! The reverse sweep of a large straight-line kernel (`bench/compile_scaling`'s `big`
//! shape: one function of `n` unrolled statements) is one basic block of 3x the primal's
//! instructions, and LLVM's code generation is not linear in the size of such a block:
//! measured with `llc-22 -time-passes` on the post-AD module, the two-address pass took
//! 0.13 s, 0.94 s and 6.3 s and greedy register allocation 0.29 s, 1.02 s and 2.39 s at
//! `n` = 640, 1280 and 2560 (a 6.8k, 13.6k and 27k-instruction block). Splitting the block
//! with unconditional branches does not help (code generation merges them back).
//!
//! [`outline_huge_blocks`] runs after the post-AD pipeline, just before code generation:
//! in a generated function, a basic block of more than [`MIN_BLOCK`] instructions is cut
//! into consecutive ranges of equal size, at most [`CHUNK`] instructions each
//! ([`equal_cuts`]: a run of 4,470 movable instructions becomes five pieces of 894, not
//! four of 1,000 and a tail of 470 left in the caller), and each range moves into a
//! new private `noinline` function, called in its place. The values the range uses from
//! before it become the new function's parameters; the values it defines that are used
//! after it are stored through a pointer to a caller-side struct and loaded back after the
//! call. A later piece reads an earlier piece's output from that struct itself (the
//! struct's pointer is a `noalias readonly` parameter, the load `!invariant.load`, just
//! before its first use), so values passed from piece to piece are not live across the
//! caller's calls (big23 measured the equal pieces with this forwarding at -3.2% of `big`
//! n = 640's code generation). The instructions run in the same order on the same
//! memory, so the derivative is the same; the run-time price is one call and a few dozen
//! loads and stores per thousands of instructions.
//!
//! The host's own values a piece uses go through memory too: each is stored into the
//! piece's input struct right after its definition, and the piece loads it before its
//! first use (`!invariant.load`, and a TBAA tag marking the memory immutable so that
//! instruction selection does not chain those loads after the piece's stores). Passed as
//! parameters they were live from their definitions to the call, across all the host's
//! calls in between; on `big` n = 640 that made the host's code generation dearer than
//! the three pieces' together (module code generation 3,446M -> 3,026M instructions).
//!
//! A piece's `llvm.cos`/`llvm.sin` of an argument the host takes the partner of stays in
//! the host, beside that call, so that code generation can pair them
//! ([`trig_beside_host`]).
//!
//! Only plain instructions move (arithmetic, comparisons, casts, loads, stores, address
//! arithmetic, calls of ordinary functions and of pure math intrinsics): a range ends
//! before anything tied to its function's frame or control flow (allocas, phis,
//! terminators, exception handling, `va_arg`, other intrinsics, inline assembly). Code
//! with debug locations is left alone (the moved instructions would point into the
//! caller's subprogram).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Builder, Module, Opcode, Type, Value};

use crate::generated::is_generated;

pub mod trig_beside_host;

/// Blocks with more instructions than this are outlined.
pub const MIN_BLOCK: usize = 4000;
/// Most instructions per outlined range (a run is cut into equal ranges of at most this).
/// Register allocation and instruction selection still grow faster than the size of a
/// straight-line piece: on `big` n = 640 (callgrind, the `ferrozyme` process) pieces of
/// at most 1,000 instead of 2,000 cut the process 3,760M -> 3,630M instructions (-3.5%;
/// at most 750: -4.1%), on n = 1280 7,642M -> 7,399M (-3.2%) (cg41).
pub const CHUNK: usize = 1000;
/// Ranges shorter than this (cut short by an instruction that cannot move) stay.
const MIN_RANGE: usize = 500;

/// Intrinsics that may move into another function: pure math on their operands and the
/// memory intrinsics, whose meaning does not depend on the function they are in.
const MOVABLE_INTRINSICS: &[&str] = &[
    "llvm.fmuladd",
    "llvm.fma",
    "llvm.sqrt",
    "llvm.sin",
    "llvm.cos",
    "llvm.tan",
    "llvm.exp",
    "llvm.exp2",
    "llvm.log",
    "llvm.log2",
    "llvm.log10",
    "llvm.pow",
    "llvm.powi",
    "llvm.fabs",
    "llvm.copysign",
    "llvm.minnum",
    "llvm.maxnum",
    "llvm.minimum",
    "llvm.maximum",
    "llvm.floor",
    "llvm.ceil",
    "llvm.trunc",
    "llvm.round",
    "llvm.rint",
    "llvm.nearbyint",
    "llvm.memcpy",
    "llvm.memmove",
    "llvm.memset",
    "llvm.smax",
    "llvm.smin",
    "llvm.umax",
    "llvm.umin",
    "llvm.abs",
];

/// String attributes the new function copies from the one it came from (code
/// generation and floating-point semantics).
const COPIED_ATTRS: &[&str] = &[
    "target-cpu",
    "target-features",
    "tune-cpu",
    "frame-pointer",
    "no-trapping-math",
    "denormal-fp-math",
    "denormal-fp-math-f32",
    "no-signed-zeros-fp-math",
    "no-infs-fp-math",
    "no-nans-fp-math",
    "unsafe-fp-math",
    "approx-func-fp-math",
];

/// Outlines the huge blocks of every generated function. Returns the number of new
/// functions.
pub fn outline_huge_blocks(module: Module) -> usize {
    let functions: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration() && is_generated(*f))
        .collect();
    let mut made = 0;
    for f in functions {
        for b in f.blocks() {
            let insts = b.instructions();
            if insts.len() <= MIN_BLOCK {
                continue;
            }
            let mut forwarded = Forwarded::default();
            let mut pieces = ranges(&insts);
            trig_beside_host::place_beside_host(f, b, &mut pieces);
            for range in pieces {
                if outline(module, f, &range, made, &mut forwarded) {
                    made += 1;
                }
            }
            // Loads of outputs that only later pieces used: they now load them themselves.
            for back in forwarded.into_keys() {
                if back.users().is_empty() {
                    let slot = back.operands()[0];
                    back.erase();
                    if slot.users().is_empty() {
                        slot.erase();
                    }
                }
            }
        }
    }
    made
}

/// The caller's loads of earlier pieces' outputs: load -> (the piece's output struct, its
/// type, the field).
type Forwarded = HashMap<Value, (Value, Type, u32)>;

/// Is `v`, a value of the caller that a piece uses, stored into the piece's input struct
/// just after its definition instead of passed as a parameter? Passed, such a value is
/// live from its definition to the call, across every call in between.
fn spilled_at_definition(v: Value) -> bool {
    use ferrozyme_llvm::TypeKind;
    v.is_instruction()
        && !v.is_terminator()
        && v.opcode() != Some(Opcode::LLVMPHI)
        && v.next_instruction().is_some()
        && matches!(
            v.ty().kind(),
            TypeKind::Double
                | TypeKind::Float
                | TypeKind::Int(_)
                | TypeKind::Pointer
                | TypeKind::Vector
        )
        && !v.ty().has_scalable()
}

/// A TBAA access tag that says the memory is immutable, so that instruction selection
/// does not chain the piece's loads of its inputs after its stores.
fn immutable_tbaa(ctx: ferrozyme_llvm::Context) -> Value {
    let root = ctx.md_node(&[ctx.md_string("ferrozyme outlined inputs")]);
    let ty = ctx.md_node(&[ctx.md_string("input"), root]);
    let i64t = ctx.i64();
    ctx.md_node(&[ty, ty, i64t.const_int(0), i64t.const_int(1)])
}

/// Where a run of `len` movable instructions is cut: the lengths of `ceil(len / CHUNK)`
/// consecutive ranges of equal size (the first ones one longer where it does not divide).
pub fn equal_cuts(len: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    let pieces = len.div_ceil(CHUNK);
    (0..pieces)
        .map(|k| len / pieces + usize::from(k < len % pieces))
        .collect()
}

/// Can `i` move into another function?
fn movable(i: Value) -> bool {
    if i.source_loc().is_some() {
        return false;
    }
    let Some(op) = i.opcode() else { return false };
    match op {
        Opcode::LLVMCall => {
            if i.is_inline_asm_call() {
                return false;
            }
            match i.called_function() {
                // An indirect call or a call of an ordinary function: the callee does
                // not care who calls it.
                None => true,
                Some(c) if c.intrinsic_id() == 0 => !c.has_fn_attr("returns_twice"),
                Some(c) => {
                    let name = c.name();
                    MOVABLE_INTRINSICS
                        .iter()
                        .any(|p| name == *p || name.starts_with(&format!("{p}.")))
                }
            }
        }
        Opcode::LLVMFAdd
        | Opcode::LLVMFSub
        | Opcode::LLVMFMul
        | Opcode::LLVMFDiv
        | Opcode::LLVMFRem
        | Opcode::LLVMFNeg
        | Opcode::LLVMAdd
        | Opcode::LLVMSub
        | Opcode::LLVMMul
        | Opcode::LLVMUDiv
        | Opcode::LLVMSDiv
        | Opcode::LLVMURem
        | Opcode::LLVMSRem
        | Opcode::LLVMShl
        | Opcode::LLVMLShr
        | Opcode::LLVMAShr
        | Opcode::LLVMAnd
        | Opcode::LLVMOr
        | Opcode::LLVMXor
        | Opcode::LLVMFCmp
        | Opcode::LLVMICmp
        | Opcode::LLVMSelect
        | Opcode::LLVMLoad
        | Opcode::LLVMStore
        | Opcode::LLVMGetElementPtr
        | Opcode::LLVMTrunc
        | Opcode::LLVMZExt
        | Opcode::LLVMSExt
        | Opcode::LLVMFPTrunc
        | Opcode::LLVMFPExt
        | Opcode::LLVMFPToSI
        | Opcode::LLVMFPToUI
        | Opcode::LLVMSIToFP
        | Opcode::LLVMUIToFP
        | Opcode::LLVMBitCast
        | Opcode::LLVMPtrToInt
        | Opcode::LLVMIntToPtr
        | Opcode::LLVMExtractElement
        | Opcode::LLVMInsertElement
        | Opcode::LLVMShuffleVector
        | Opcode::LLVMExtractValue
        | Opcode::LLVMInsertValue
        | Opcode::LLVMFreeze => true,
        _ => false,
    }
}

/// Consecutive runs of movable instructions of a block, each cut into equal ranges of at
/// most [`CHUNK`] instructions ([`equal_cuts`]); the last instruction before the
/// terminator never moves (a `musttail` call must stay next to its `ret`), nor do runs
/// shorter than [`MIN_RANGE`].
fn ranges(insts: &[Value]) -> Vec<Vec<Value>> {
    let body = &insts[..insts.len().saturating_sub(2)];
    let mut runs = Vec::new();
    let mut cur: Vec<Value> = Vec::new();
    for &i in body {
        if movable(i) {
            cur.push(i);
        } else if !cur.is_empty() {
            runs.push(std::mem::take(&mut cur));
        }
    }
    runs.push(cur);
    let mut out = Vec::new();
    for run in runs.into_iter().filter(|r| r.len() >= MIN_RANGE) {
        let mut rest = &run[..];
        for len in equal_cuts(run.len()) {
            let (piece, tail) = rest.split_at(len);
            out.push(piece.to_vec());
            rest = tail;
        }
    }
    out
}

/// Moves `range` (consecutive instructions of one block of `f`) into a new function and
/// calls it in its place. `forwarded` holds the caller's loads of earlier pieces'
/// outputs; this piece reads those it uses from the earlier piece's struct itself, and
/// its own outputs join them.
fn outline(module: Module, f: Value, range: &[Value], n: usize, forwarded: &mut Forwarded) -> bool {
    let ctx = module.context();
    // Where the call goes (the range never ends its block: `ranges`), and where the
    // output buffer's alloca goes: the start of the entry block, which is `after` when
    // the range starts it.
    let (Some(after), Some(first)) = (
        range.last().and_then(|l| l.next_instruction()),
        f.entry_block().and_then(|e| e.first_instruction()),
    ) else {
        return false;
    };
    let buffer_at = if first == range[0] { after } else { first };
    let inside: HashSet<Value> = range.iter().copied().collect();
    // Values from before the range: arguments of `f` and instructions outside it; an
    // earlier piece's output is read from that piece's struct, passed once.
    let mut inputs: Vec<Value> = Vec::new();
    let mut input_index: HashMap<Value, usize> = HashMap::default();
    let mut structs: Vec<Value> = Vec::new();
    let mut struct_index: HashMap<Value, usize> = HashMap::default();
    for &i in range {
        for o in i.operands() {
            if let Some(&(buffer, _, _)) = forwarded.get(&o) {
                if !struct_index.contains_key(&buffer) {
                    struct_index.insert(buffer, structs.len());
                    structs.push(buffer);
                }
                continue;
            }
            let outside = o.is_argument() || (o.is_instruction() && !inside.contains(&o));
            if outside && !input_index.contains_key(&o) {
                input_index.insert(o, inputs.len());
                inputs.push(o);
            }
        }
    }
    // Values the range defines that are used after it, with those uses.
    let mut outputs: Vec<(Value, Vec<Value>)> = Vec::new();
    for &i in range {
        if i.ty().is_void() {
            continue;
        }
        let users: Vec<Value> = i
            .users()
            .into_iter()
            .filter(|u| !inside.contains(u))
            .collect();
        if !users.is_empty() {
            outputs.push((i, users));
        }
    }
    // The caller's own values go through memory, stored where they are defined
    // ([`spilled_at_definition`]); arguments and the rest stay parameters.
    let (spilled, inputs): (Vec<Value>, Vec<Value>) = if buffer_at == first {
        inputs.into_iter().partition(|v| spilled_at_definition(*v))
    } else {
        (Vec::new(), inputs)
    };
    let input_index: HashMap<Value, usize> =
        inputs.iter().enumerate().map(|(k, v)| (*v, k)).collect();
    let in_ty = ctx.struct_type(&spilled.iter().map(|v| v.ty()).collect::<Vec<_>>());
    let out_ty = ctx.struct_type(&outputs.iter().map(|(v, _)| v.ty()).collect::<Vec<_>>());
    let mut params: Vec<_> = inputs.iter().map(|v| v.ty()).collect();
    params.extend(structs.iter().map(|_| ctx.ptr()));
    if !spilled.is_empty() {
        params.push(ctx.ptr());
    }
    if !outputs.is_empty() {
        params.push(ctx.ptr());
    }
    let fn_ty = ctx.function_type(ctx.void(), &params, false);
    let chunk = module.add_function(&format!("{}.fz.chunk{n}", f.name()), fn_ty);
    chunk.set_linkage_internal();
    for a in ["noinline", "nounwind"] {
        chunk.add_fn_attr(a);
    }
    for key in COPIED_ATTRS {
        if let Some(v) = f.string_fn_attr(key) {
            chunk.add_string_fn_attr(key, &v);
        }
    }
    chunk.add_string_fn_attr(crate::generated::ATTR, "");
    let chunk_params = chunk.params();
    // Earlier pieces' structs and the caller's spilled values: only read here, written
    // before the call.
    let in_param = inputs.len() + structs.len();
    let out_param = in_param + usize::from(!spilled.is_empty());
    for p in inputs.len()..out_param {
        chunk.add_param_attr(p as u32, "noalias");
        chunk.add_param_attr(p as u32, "readonly");
    }
    let invariant = (ctx.md_kind("invariant.load"), ctx.md_node(&[]));
    let immutable = (ctx.md_kind("tbaa"), immutable_tbaa(ctx));

    let b = Builder::new(ctx);
    let entry = b.append_block(chunk, "entry");
    b.position_at_end(entry);
    // The caller's spilled values and earlier pieces' outputs, loaded just before their
    // first use in this piece.
    let spilled_index: HashMap<Value, u32> = spilled
        .iter()
        .enumerate()
        .map(|(k, v)| (*v, k as u32))
        .collect();
    let mut reloaded: HashMap<Value, Value> = HashMap::default();
    for &i in range {
        i.remove_from_parent();
        for o in i.operands() {
            if reloaded.contains_key(&o) {
                continue;
            }
            let (from, ty, field) = if let Some(&(buffer, ty, field)) = forwarded.get(&o) {
                (
                    chunk_params[inputs.len() + struct_index[&buffer]],
                    ty,
                    field,
                )
            } else if let Some(&field) = spilled_index.get(&o) {
                (chunk_params[in_param], in_ty, field)
            } else {
                continue;
            };
            let slot = b.struct_gep(ty, from, field);
            let value = b.load(o.ty(), slot, "");
            value.set_metadata(invariant.0, Some(invariant.1));
            value.set_metadata(immutable.0, Some(immutable.1));
            reloaded.insert(o, value);
        }
        b.insert(i);
        for (k, o) in i.operands().into_iter().enumerate() {
            if let Some(&p) = input_index.get(&o) {
                i.set_operand(k as u32, chunk_params[p]);
            } else if let Some(&r) = reloaded.get(&o) {
                i.set_operand(k as u32, r);
            }
        }
    }
    if let Some(&out_ptr) = chunk_params.get(out_param) {
        for (k, (v, _)) in outputs.iter().enumerate() {
            let slot = b.struct_gep(out_ty, out_ptr, k as u32);
            b.store(*v, slot);
        }
    }
    b.ret_void();

    // The caller's spilled values, stored just after their definitions; the call, and the
    // outputs loaded back for the uses after the range.
    let mut args = inputs;
    args.extend(structs.iter().copied());
    if !spilled.is_empty() {
        b.position_before(buffer_at);
        let held = b.alloca(in_ty, "fz.chunk.in");
        for (k, v) in spilled.iter().enumerate() {
            let Some(next) = v.next_instruction() else {
                unreachable!("spilled_at_definition keeps terminators")
            };
            b.position_before(next);
            let slot = b.struct_gep(in_ty, held, k as u32);
            b.store(*v, slot);
        }
        args.push(held);
    }
    let buffer = (!outputs.is_empty()).then(|| {
        b.position_before(buffer_at);
        b.alloca(out_ty, "fz.chunk.out")
    });
    args.extend(buffer);
    b.position_before(after);
    b.call_fn(chunk, &args);
    if let Some(buffer) = buffer {
        for (k, (v, users)) in outputs.iter().enumerate() {
            let slot = b.struct_gep(out_ty, buffer, k as u32);
            let back = b.load(v.ty(), slot, "");
            for u in users {
                for (j, o) in u.operands().into_iter().enumerate() {
                    if o == *v {
                        u.set_operand(j as u32, back);
                    }
                }
            }
            forwarded.insert(back, (buffer, out_ty, k as u32));
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{equal_cuts, CHUNK};

    #[test]
    fn runs_are_cut_into_equal_pieces_of_at_most_chunk() {
        // big n = 640's reverse: five pieces, not four of 1,000 and a 470 tail.
        assert_eq!(equal_cuts(4470), vec![894, 894, 894, 894, 894]);
        assert_eq!(equal_cuts(4001), vec![801, 800, 800, 800, 800]);
        assert_eq!(equal_cuts(1000), vec![1000]);
        assert_eq!(equal_cuts(1001), vec![501, 500]);
        assert!(equal_cuts(0).is_empty());
        for len in [1, 499, 1999, 4000, 6831, 13600, 27123] {
            let cuts = equal_cuts(len);
            assert_eq!(cuts.iter().sum::<usize>(), len);
            assert!(cuts.iter().all(|&c| c <= CHUNK));
            assert!(cuts.iter().max().unwrap() - cuts.iter().min().unwrap() <= 1);
            assert_eq!(cuts.len(), len.div_ceil(CHUNK));
        }
    }
}
