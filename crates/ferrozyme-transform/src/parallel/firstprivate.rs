//! Floating values an OpenMP region captures by value (`firstprivate`, or a scalar clang
//! captures by copy), passed by reference instead before differentiation.
//!
//! clang passes such a value to the microtask as an integer copy of its bits:
//!
//! ```text
//! %b.bits = bitcast double %b to i64          ; -O0: a store to %b.casted, a load of i64
//! call void @__kmpc_fork_call(loc, i32 2, ptr @f.omp_outlined, i64 %b.bits, ptr %x)
//! ```
//!
//! and every thread starts its private copy from the parameter. A by-value argument of
//! a fork has no place for the derivative to come back through, so in a clone the value
//! is stored in a slot of the caller and the fork passes the slot, to a copy of the
//! microtask whose entry loads it (`fz.byref.<microtask>`):
//!
//! ```text
//! store i64 %b.bits, ptr %fz.byref.slot
//! call void @__kmpc_fork_call(loc, i32 2, ptr @fz.byref.f.omp_outlined, ptr %fz.byref.slot, ptr %x)
//! ```
//!
//! The slot is shared memory that every thread reads once: its adjoint is the sum of the
//! threads' adjoints of their copies (added atomically in a team, as for any shared
//! variable), which the store passes back to the value. Only arguments that carry a
//! floating value are moved: a floating type, the bits of one (a `bitcast`, widened by a
//! `zext` for a float), or a load of a local slot a floating value was stored into
//! (clang's `-O0` shape). Direct calls of a rewritten microtask in the same function
//! (clang's serialized call for an `if` clause) pass the same slots. Integers stay by
//! value, and an active value left by value is still a clear error
//! ([`Problem::CapturedByValue`](crate::common::diags::Problem)). The primal program
//! keeps the by-value fork.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Builder, Module, Opcode, Type, Value};

/// The forks whose captured values are rewritten: parallel regions and host `teams`
/// regions (each team's initial thread gets its copy; hpc37).
const FORKS: [&str; 2] = ["__kmpc_fork_call", "__kmpc_fork_teams"];

/// Rewrites the forks of `f` whose microtask is a function of the module and receives a
/// floating value by value, and the direct calls of the same microtasks (clang's
/// serialized call for an `if` clause).
pub fn rewrite(m: Module, f: Value) {
    let mut done: HashMap<Value, (Vec<Option<Type>>, Value)> = HashMap::default();
    let forks: Vec<Value> = FORKS.iter().flat_map(|n| super::calls_to(f, n)).collect();
    for call in forks {
        let args = call.call_args();
        let [loc, argc, micro, captured @ ..] = &args[..] else {
            continue;
        };
        if !micro.is_function() || micro.is_declaration() {
            continue;
        }
        // The microtask's own two thread-id parameters come first.
        if micro.params().len() != captured.len() + 2 {
            continue;
        }
        let moved: Vec<Option<Type>> = captured.iter().map(|a| float_carried(*a)).collect();
        if moved.iter().all(Option::is_none) {
            continue;
        }
        let by_ref = microtask_by_ref(m, *micro, &moved);
        let fork = call
            .called_function()
            .expect("invariant: calls_to found a direct call");
        pass_by_ref(m, f, call, fork, &[*loc, *argc, by_ref], captured, &moved);
        done.insert(*micro, (moved, by_ref));
    }
    for (micro, (moved, by_ref)) in &done {
        for call in super::calls_to(f, &micro.name()) {
            let args = call.call_args();
            if args.len() == moved.len() + 2 {
                pass_by_ref(m, f, call, *by_ref, &args[..2], &args[2..], moved);
            }
        }
    }
}

/// Does the captured argument `a` carry a floating value?
/// The floating type whose value `a` carries (itself, or in its bits), if any.
fn float_carried(a: Value) -> Option<Type> {
    let ty = a.ty();
    if ty.is_pointer() {
        return None;
    }
    if ty.is_fp() {
        return Some(ty);
    }
    match a.opcode() {
        Some(Opcode::LLVMBitCast) => Some(a.operand(0).ty()).filter(|t| t.is_fp()),
        // A float's bits widened to the 64-bit argument.
        Some(Opcode::LLVMZExt) => float_carried(a.operand(0)),
        Some(Opcode::LLVMLoad) => {
            let slot = a.operand(0);
            if slot.opcode() != Some(Opcode::LLVMAlloca) {
                return None;
            }
            slot.users()
                .into_iter()
                .find(|u| {
                    u.opcode() == Some(Opcode::LLVMStore)
                        && u.operand(1) == slot
                        && u.operand(0).ty().is_fp()
                })
                .map(|u| u.operand(0).ty())
        }
        _ => None,
    }
}

/// The bits of a value of type `ty` carrying a float (see [`float_carried`]) as that
/// float, built at `b` (the slot between a fork and its microtask holds the float itself,
/// so the microtask's load is a float's: hpc37, a teams region passing the captured value
/// on to its own parallel region).
fn bits_as_float(b: &Builder, bits: Value, float: Type) -> Value {
    if bits.ty().is_fp() {
        return bits;
    }
    let ctx = float.context();
    let narrow = ctx.int(float.fp_bits());
    let v = if bits.ty() == narrow {
        bits
    } else {
        b.trunc(bits, narrow)
    };
    b.bitcast(v, float)
}

/// The inverse of [`bits_as_float`]: the float `v` as a value of type `ty`.
fn float_as_bits(b: &Builder, v: Value, ty: Type) -> Value {
    if ty.is_fp() {
        return v;
    }
    let narrow = ty.context().int(v.ty().fp_bits());
    let bits = b.bitcast(v, narrow);
    if narrow == ty {
        bits
    } else {
        b.zext(bits, ty)
    }
}

/// The copy of `micro` taking the captured arguments marked in `moved` by reference (made
/// once per microtask and set of moved arguments).
fn microtask_by_ref(m: Module, micro: Value, moved: &[Option<Type>]) -> Value {
    let marks: String = moved
        .iter()
        .map(|b| if b.is_some() { 'r' } else { 'v' })
        .collect();
    let name = format!("fz.byref.{marks}.{}", micro.name());
    if let Some(f) = m.function(&name) {
        return f;
    }
    let ctx = m.context();
    let params = micro.params();
    let types: Vec<_> = params
        .iter()
        .enumerate()
        .map(|(k, p)| {
            if k >= 2 && moved[k - 2].is_some() {
                ctx.ptr()
            } else {
                p.ty()
            }
        })
        .collect();
    let ret = micro.function_type().return_type();
    let dst = m.add_function(&name, ctx.function_type(ret, &types, false));
    dst.set_linkage_internal();
    let b = Builder::new(ctx);
    let entry = b.append_block(dst, "entry");
    b.position_at_end(entry);
    let mut map: HashMap<Value, Value> = HashMap::default();
    for (k, (p, q)) in params.iter().zip(dst.params()).enumerate() {
        q.set_name(&p.name());
        let v = match (k >= 2).then(|| moved[k - 2]).flatten() {
            Some(ft) => {
                let x = b.load(ft, q, &format!("{}.firstprivate", p.name()));
                float_as_bits(&b, x, p.ty())
            }
            None => q,
        };
        map.insert(*p, v);
    }
    let src_entry = micro
        .entry_block()
        .expect("invariant: a microtask with a body has an entry");
    map.insert(src_entry.as_value(), entry.as_value());
    crate::clone::copy_blocks(m, micro, dst, &mut map, false);
    // Assignment tracking links a store to `#dbg_assign` records of its own function
    // (the microtask's); the copies keep their source locations, not the links.
    let assign = ctx.md_kind("DIAssignID");
    for i in dst.instructions() {
        if i.metadata(assign).is_some() {
            i.set_metadata(assign, None);
        }
    }
    dst
}

/// Replaces `call` by a call of `callee` with the arguments `head`, then `captured`, the
/// moved ones passed through slots in `f`'s entry, stored just before the call.
fn pass_by_ref(
    m: Module,
    f: Value,
    call: Value,
    callee: Value,
    head: &[Value],
    captured: &[Value],
    moved: &[Option<Type>],
) {
    let ctx = m.context();
    let b = Builder::new(ctx);
    let entry = f
        .entry_block()
        .expect("invariant: a function with calls has a body");
    let mut args = head.to_vec();
    for (a, &mv) in captured.iter().zip(moved) {
        let Some(ft) = mv else {
            args.push(*a);
            continue;
        };
        match entry.first_non_phi() {
            Some(i) => b.position_before(i),
            None => b.position_at_end(entry),
        }
        let slot = b.alloca(ft, "fz.byref.slot");
        b.position_before(call);
        let x = bits_as_float(&b, *a, ft);
        b.store(x, slot);
        args.push(slot);
    }
    b.position_before(call);
    b.call_fn(callee, &args);
    call.erase();
}
