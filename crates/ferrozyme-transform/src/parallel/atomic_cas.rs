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
//! such loop of a clone into that one instruction.
//!
//! clang lowers `#pragma omp atomic` `p *= f` (and `/=`, and `x = v - x`) to the same
//! loop with `fmul`/`fdiv`/`fsub`, as flang does `!$omp atomic` `p = p * f`. A product's
//! adjoint depends on the order of the updates (`df_i += dp_after_i * p_before_i`), so
//! such a loop becomes a critical section on one lock of the module
//! (`__kmpc_critical`, a plain load, the operation, a plain store, `__kmpc_end_critical`):
//! critical sections are reversed in exactly the reverse order the threads entered them
//! (`reverse/parallel/forks.rs`), which is the adjoint of the product in the order it was
//! formed. (Atomic additions of the same variable elsewhere are not excluded by that
//! lock; a program mixing `+=` and `*=` atomics on one variable is not supported.)
//!
//! flang's `!$omp atomic capture` (`v = x; x = x + e`, or `x = x + e; v = x`) is the same
//! loop whose old value (the bits of the phi) or new value is used after it. An update
//! whose value is captured becomes the critical section too, additions included, and the
//! captured value is the section's plain load (or its result): which value a thread
//! captures depends on the order the threads came, and the reverse of the sections in
//! exactly the reverse order gives the captured values' adjoints to the right updates.
//! Any other compare-and-swap stays and is rejected with its own error (the integer load
//! of a real is a cannot-deduce-type error, the `cmpxchg` an unsupported instruction).

use ferrozyme_llvm::atomics::FloatExtremum;
use ferrozyme_llvm::{AtomicRmwOp, Block, Builder, Module, Opcode, RealPredicate, Value};

/// The lock of the critical sections that replace atomic products.
const LOCK: &str = "__fz_omp_atomic_update_lock";
/// The source location (`ident_t`) those critical sections pass to libomp.
const IDENT: &str = "__fz_omp_atomic_update_loc";

/// What one compare-and-swap loop computes.
enum Update {
    /// `x + v` or `x - v`: `atomicrmw fadd`/`fsub`.
    Add { addend: Value, sub: bool },
    /// `op(x, v)` for another operation (`fmul`, `fdiv`, `v - x`): `op` is the loop's
    /// instruction, `x` its operand that is the old value.
    Locked { op: Value, x: Value },
}

/// One compare-and-swap loop that is an atomic float update.
struct CasAdd {
    /// The loop's only block.
    body: Block,
    /// The atomic load of the old value before the loop.
    first_load: Value,
    /// The branch into the loop.
    entry_br: Value,
    exit: Block,
    ptr: Value,
    update: Update,
    /// The loop's values used after it (a capture): each with whether it is the updated
    /// value (else the old one).
    captured: Vec<(Value, bool)>,
}

/// Rewrites every compare-and-swap loop of `f` that updates a real: into `atomicrmw` for
/// additions, into a critical section for other operations (see the module essay).
pub fn rewrite(m: Module, f: Value) {
    let loops: Vec<CasAdd> = f.blocks().into_iter().filter_map(cas_add).collect();
    for l in loops {
        let b = Builder::new(f.ty().context());
        b.position_before(l.entry_br);
        match l.update {
            Update::Add { addend, sub } => {
                b.atomic_float(l.ptr, addend, sub);
            }
            Update::Locked { op, x } => {
                let (old, new) = locked_update(m, &b, l.ptr, op, x);
                for &(v, is_new) in &l.captured {
                    v.replace_all_uses_with(if is_new { new } else { old });
                }
            }
        }
        l.entry_br.set_successor(0, l.exit);
        l.body.delete();
        l.first_load.erase();
    }
    rewrite_captures_and_extrema(m, f);
}

/// clang's `#pragma omp atomic capture` of a real (`{v = x; x += e;}`: an `atomicrmw
/// fadd` whose old value is used) and `#pragma omp atomic compare` (`if (x < e) x = e;`:
/// `atomicrmw fmax`, `fmin` for `>`), in a module with parallel regions, become the
/// critical section of the module essay (hpc37; they were refused): the captured value
/// is the section's load, the extremum a `select` on the comparison, whose adjoint goes
/// to the value that won, in the reverse of the order the threads came.
fn rewrite_captures_and_extrema(m: Module, f: Value) {
    if !super::forks_regions(m) {
        return;
    }
    let rmws: Vec<Value> = f
        .instructions()
        .filter(|i| i.opcode() == Some(Opcode::LLVMAtomicRMW) && i.ty().is_fp_scalar())
        .collect();
    for i in rmws {
        let (p, v) = (i.operand(0), i.operand(1));
        let extremum = i.atomic_float_extremum();
        let add = matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub);
        if extremum.is_none() && !(add && !i.users().is_empty()) {
            continue;
        }
        let b = Builder::new(f.ty().context());
        b.position_before(i);
        let (old, _) = locked(m, &b, p, v.ty(), |b, old| match extremum {
            Some(e) => {
                // The new value wins when it is greater (max) or smaller (min).
                let (lo, hi) = if e == FloatExtremum::Max {
                    (old, v)
                } else {
                    (v, old)
                };
                let wins = b.fcmp(RealPredicate::LLVMRealOLT, lo, hi);
                b.select(wins, v, old)
            }
            None if i.atomic_rmw_op() == AtomicRmwOp::FSub => b.binop(Opcode::LLVMFSub, old, v),
            None => b.binop(Opcode::LLVMFAdd, old, v),
        });
        i.replace_all_uses_with(old);
        i.erase();
    }
}

/// At `b`: `p = op(p, ...)` in a critical section on the module's [`LOCK`]; the old and
/// the new value of `p`.
fn locked_update(m: Module, b: &Builder, p: Value, op: Value, x: Value) -> (Value, Value) {
    locked(m, b, p, x.ty(), |b, old| {
        let (a, c) = (op.operand(0), op.operand(1));
        let pick = |v: Value| if v == x { old } else { v };
        let new = b.binop(op.opcode().expect("a binary operation"), pick(a), pick(c));
        if op.can_use_fast_math_flags() {
            new.set_fast_math_flags(op.fast_math_flags());
        }
        new
    })
}

/// At `b`: `p = update(p)` on a value of type `ty`, in a critical section on the
/// module's [`LOCK`]; the old and the new value of `p`.
fn locked(
    m: Module,
    b: &Builder,
    p: Value,
    ty: ferrozyme_llvm::Type,
    update: impl FnOnce(&Builder, Value) -> Value,
) -> (Value, Value) {
    let ctx = m.context();
    let (ptr, i32t) = (ctx.ptr(), ctx.i32());
    let sync_ty = ctx.function_type(ctx.void(), &[ptr, i32t, ptr], false);
    let enter = m.get_or_declare("__kmpc_critical", sync_ty);
    let exit = m.get_or_declare("__kmpc_end_critical", sync_ty);
    let gtid_fn = m.get_or_declare(
        "__kmpc_global_thread_num",
        ctx.function_type(i32t, &[ptr], false),
    );
    let (loc, lock) = (ident(m), lock(m));
    let gtid = b.call_fn(gtid_fn, &[loc]);
    b.call_fn(enter, &[loc, gtid, lock]);
    let old = b.load(ty, p, "atomic.old");
    let new = update(b, old);
    b.store(new, p);
    b.call_fn(exit, &[loc, gtid, lock]);
    (old, new)
}

/// The module's [`LOCK`]: a zeroed `kmp_critical_name` (`[8 x i32]`), as clang emits
/// for a named critical section.
fn lock(m: Module) -> Value {
    if let Some(g) = m.global(LOCK) {
        return g;
    }
    let ctx = m.context();
    let ty = ctx.array_type(ctx.i32(), 8);
    let g = m.add_global(LOCK, ty);
    g.set_initializer(ty.zero());
    g.set_linkage_internal();
    g
}

/// The module's [`IDENT`]: an `ident_t` `{0, KMP_IDENT_KMPC, 0, 22, ";unknown;..."}` as
/// clang emits for code without a location.
fn ident(m: Module) -> Value {
    if let Some(g) = m.global(IDENT) {
        return g;
    }
    let ctx = m.context();
    let i32t = ctx.i32();
    let text = m.add_string("__fz_omp_atomic_update_psource", ";unknown;unknown;0;0;;");
    let init = Value::const_struct(
        ctx,
        &[
            i32t.const_int(0),
            i32t.const_int(2),
            i32t.const_int(0),
            i32t.const_int(22),
            text,
        ],
    );
    let g = m.add_global(IDENT, init.ty());
    g.set_initializer(init);
    g.set_global_constant();
    g.set_linkage_private();
    g
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
    let (x0, x1) = (is_bits_of(r.operand(0), phi), is_bits_of(r.operand(1), phi));
    let (update, other) = match r.opcode() {
        Some(Opcode::LLVMFAdd) if x0 => (
            Update::Add {
                addend: r.operand(1),
                sub: false,
            },
            r.operand(1),
        ),
        Some(Opcode::LLVMFAdd) if x1 => (
            Update::Add {
                addend: r.operand(0),
                sub: false,
            },
            r.operand(0),
        ),
        Some(Opcode::LLVMFSub) if x0 => (
            Update::Add {
                addend: r.operand(1),
                sub: true,
            },
            r.operand(1),
        ),
        Some(Opcode::LLVMFSub | Opcode::LLVMFMul | Opcode::LLVMFDiv) if x0 != x1 => {
            let (x, other) = if x0 {
                (r.operand(0), r.operand(1))
            } else {
                (r.operand(1), r.operand(0))
            };
            (Update::Locked { op: r, x }, other)
        }
        _ => return None,
    };
    let outside = |v: Value| !v.is_instruction() || v.parent_block() != body;
    // Of the loop, only the old value (the phi's bits) or the new one (`r`) may be used
    // after it (a capture); the other operand comes from before it.
    let mut captured = Vec::new();
    for &i in &insts {
        if i.users().iter().all(|u| u.parent_block() == body) {
            continue;
        }
        if i == r {
            captured.push((i, true));
        } else if is_bits_of(i, phi) {
            captured.push((i, false));
        } else {
            return None;
        }
    }
    let update = match update {
        Update::Add { .. } if !captured.is_empty() => {
            let x = if x0 { r.operand(0) } else { r.operand(1) };
            Update::Locked { op: r, x }
        }
        u => u,
    };
    outside(other).then_some(CasAdd {
        body,
        first_load,
        entry_br,
        exit,
        ptr,
        update,
        captured,
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
