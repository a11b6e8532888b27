//! flang's `!$omp atomic` update of a real, before differentiation.
//!
//! clang lowers `#pragma omp atomic` `x += v` on a double to `atomicrmw fadd`; flang-22
//! lowers `!$omp atomic` `x = x + v` (and `x = v + x`, `x = x - v`) on a real to a
//! compare-and-swap loop on the value's bits:
//!
//! ```text
//! pre:  %old0 = load atomic i64, ptr %p monotonic          ; br label %loop
//! loop: %old  = phi i64 [ %old0, %pre ], [ %seen, %loop ]
//!       %x    = bitcast i64 %old to double
//!       %r    = fadd double %x, %v        ; %v defined before the loop
//!       %new  = bitcast double %r to i64  ; at -O0: store double %r, ptr %t; load i64 %t
//!       %pair = cmpxchg ptr %p, i64 %old, i64 %new monotonic monotonic
//!       %seen = extractvalue %pair, 0     ; %ok = extractvalue %pair, 1
//!       br i1 %ok, label %exit, label %loop
//! ```
//!
//! which is `atomicrmw fadd ptr %p, double %v monotonic` (`fsub` for `x - v`), whose
//! derivative the pass knows (`dv += dp`, read by every thread). [`rewrite`] turns each
//! such loop of a clone into that one instruction; any other compare-and-swap stays and
//! is rejected with its own error (the integer load of a real is a cannot-deduce-type
//! error, the `cmpxchg` an unsupported instruction).

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

/// One compare-and-swap loop that is an atomic float addition.
struct CasAdd {
    /// The loop's only block.
    body: Block,
    /// The atomic load of the old value before the loop.
    first_load: Value,
    /// The branch into the loop.
    entry_br: Value,
    exit: Block,
    ptr: Value,
    addend: Value,
    sub: bool,
}

/// Rewrites every compare-and-swap loop of `f` that adds a real into `atomicrmw`.
pub fn rewrite(f: Value) {
    let loops: Vec<CasAdd> = f.blocks().into_iter().filter_map(cas_add).collect();
    for l in loops {
        let b = Builder::new(f.ty().context());
        b.position_before(l.entry_br);
        b.atomic_float(l.ptr, l.addend, l.sub);
        l.entry_br.set_successor(0, l.exit);
        l.body.delete();
        l.first_load.erase();
    }
}

fn is(v: Value, op: Opcode) -> bool {
    v.opcode() == Some(op)
}

/// The loop `body` is, when it is one (see the module documentation).
fn cas_add(body: Block) -> Option<CasAdd> {
    let insts = body.instructions();
    let phi = *insts.first()?;
    let term = body.terminator()?;
    if !is(phi, Opcode::LLVMPHI) || !is(term, Opcode::LLVMBr) || term.num_successors() != 2 {
        return None;
    }
    let cas = insts
        .iter()
        .copied()
        .find(|&i| is(i, Opcode::LLVMAtomicCmpXchg))?;
    let (ptr, expected, new) = (cas.operand(0), cas.operand(1), cas.operand(2));
    if expected != phi || !cas.is_monotonic_atomic() || term.successor(1) != body {
        return None;
    }
    let exit = term.successor(0);
    let cond = term.operand(0);
    if exit == body || !exit.phis().is_empty() || !is_field(cond, cas, 1) {
        return None;
    }
    // phi [old0, pre], [seen, body]
    let inc = phi.incoming();
    let [(a, ba), (b, bb)] = inc.as_slice() else {
        return None;
    };
    let ((first_load, pre), seen) = if *bb == body {
        ((*a, *ba), *b)
    } else if *ba == body {
        ((*b, *bb), *a)
    } else {
        return None;
    };
    let entry_br = pre.terminator()?;
    if !is_field(seen, cas, 0)
        || !is(first_load, Opcode::LLVMLoad)
        || first_load.operand(0) != ptr
        || !first_load.is_monotonic_atomic()
        || first_load.users() != vec![phi]
        || !is(entry_br, Opcode::LLVMBr)
        || entry_br.num_successors() != 1
    {
        return None;
    }
    let r = float_bits(new, body)?;
    let (addend, sub) = match r.opcode() {
        Some(Opcode::LLVMFAdd) if is_bits_of(r.operand(0), phi) => (r.operand(1), false),
        Some(Opcode::LLVMFAdd) if is_bits_of(r.operand(1), phi) => (r.operand(0), false),
        Some(Opcode::LLVMFSub) if is_bits_of(r.operand(0), phi) => (r.operand(1), true),
        _ => return None,
    };
    let outside = |v: Value| !v.is_instruction() || v.parent_block() != body;
    // Nothing of the loop is used after it; the addend comes from before it.
    let contained = insts
        .iter()
        .all(|i| i.users().iter().all(|u| u.parent_block() == body));
    (contained && outside(addend)).then_some(CasAdd {
        body,
        first_load,
        entry_br,
        exit,
        ptr,
        addend,
        sub,
    })
}

/// Is `v` `extractvalue cas, k`?
fn is_field(v: Value, cas: Value, k: u32) -> bool {
    is(v, Opcode::LLVMExtractValue) && v.operand(0) == cas && v.aggregate_indices() == vec![k]
}

/// Is `x` the integer `bits` reinterpreted as a real of the same width?
fn is_bits_of(x: Value, bits: Value) -> bool {
    is(x, Opcode::LLVMBitCast) && x.operand(0) == bits && x.ty().is_fp_scalar()
}

/// The real whose bits the integer `new` is: `bitcast double %r to i64`, or (flang at -O0)
/// `load i64, ptr %t` right after `store double %r, ptr %t` in `body`.
fn float_bits(new: Value, body: Block) -> Option<Value> {
    if is(new, Opcode::LLVMBitCast) && new.operand(0).ty().is_fp_scalar() {
        return Some(new.operand(0));
    }
    if !is(new, Opcode::LLVMLoad) || new.parent_block() != body || new.is_atomic_access() {
        return None;
    }
    let store = new.prev_instruction()?;
    let r = store.operand(0);
    (is(store, Opcode::LLVMStore)
        && store.operand(1) == new.operand(0)
        && !store.is_atomic_access()
        && r.ty().is_fp_scalar()
        && new.ty().int_width() == Some(r.ty().fp_bits()))
    .then_some(r)
}
