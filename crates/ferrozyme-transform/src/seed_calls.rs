//! The pieces of `seed_fusion.rs` that read hook calls and the code around them: the
//! simple form of a reverse call, what an instruction between calls does to memory,
//! structural equality of address computations, allocas whose address goes nowhere,
//! block splitting and the per-lane renaming of reused seed allocas.

use ferrozyme_abi::{EntryPoint, Marker};
use ferrozyme_llvm::{Builder, Module, Opcode, Value};

use crate::call_extents::Span;
use crate::request::{marker_of, parse, Mode};

/// One argument of a hook call in the simple form: marker, value, shadow.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) marker: Marker,
    pub(crate) marker_val: Value,
    pub(crate) primal: Value,
    pub(crate) shadow: Option<Value>,
}

pub(crate) struct Form {
    pub(crate) func: Value,
    pub(crate) slots: Vec<Slot>,
}

/// A memory access of one instruction in the window: `ptr + span`.
#[derive(Clone, Copy)]
pub(crate) struct Acc {
    pub(crate) ptr: Value,
    pub(crate) span: Span,
    pub(crate) write: bool,
}

pub(crate) fn is_autodiff(c: Value) -> bool {
    c.opcode() == Some(Opcode::LLVMCall)
        && c.called_function()
            .is_some_and(|f| ferrozyme_abi::entry_point(&f.name()) == Some(EntryPoint::Autodiff))
}

/// The call as `f, (marker, value[, shadow])*` with `enzyme_dup`, `enzyme_dupnoneed` and
/// `enzyme_const` only, width 1, no return value, no call-level markers.
pub(crate) fn simple_form(call: Value) -> Option<Form> {
    // A result (`double __enzyme_autodiff(...)` declarations) only if nothing uses it.
    if !(call.ty().is_void() || call.users().is_empty()) || call.call_sret_type(0).is_some() {
        return None;
    }
    let ops = call.call_args();
    let mut func = *ops.first()?;
    for _ in 0..4 {
        if func.is_constant_expr() && func.num_operands() == 1 {
            func = func.operand(0);
        }
    }
    if !func.is_function() || func.is_declaration() {
        return None;
    }
    let req = parse(call, &call.parent_function().name(), Mode::Reverse).ok()?;
    let o = &req.opts;
    if req.width != 1
        || !req.trailing.is_empty()
        || o.tape.is_some()
        || o.allocated.is_some()
        || o.primal_return
        || o.noret
        || o.const_return
    {
        return None;
    }
    let params = func.params();
    let mut slots = Vec::new();
    let mut i = 1;
    for p in &params {
        let mv = *ops.get(i)?;
        let marker = marker_of(mv)?.ok()?;
        let primal = *ops.get(i + 1)?;
        if marker_of(primal).is_some() {
            return None;
        }
        let shadow = match marker {
            Marker::Dup | Marker::DupNoNeed => {
                let s = *ops.get(i + 2)?;
                if !p.ty().is_pointer() || !s.ty().is_pointer() || marker_of(s).is_some() {
                    return None;
                }
                Some(s)
            }
            Marker::Const => None,
            _ => return None,
        };
        i += if shadow.is_some() { 3 } else { 2 };
        slots.push(Slot {
            marker,
            marker_val: mv,
            primal,
            shadow,
        });
    }
    (i == ops.len()).then_some(Form { func, slots })
}

pub(crate) fn intrinsic_call(i: Value, base: &str) -> bool {
    i.opcode() == Some(Opcode::LLVMCall)
        && i.called_function().is_some_and(|f| f.is_intrinsic(base))
}

/// What an instruction between the calls does to memory: `Ok(None)` nothing,
/// `Ok(Some(acc))` one access, `Err(())` something the fusion does not reorder.
pub(crate) fn access(m: Module, i: Value) -> Result<Option<Acc>, ()> {
    let op = i.opcode().ok_or(())?;
    match op {
        Opcode::LLVMLoad => {
            if i.is_volatile() || i.is_atomic_access() {
                return Err(());
            }
            if marker_of(i).is_some() {
                return Ok(None); // enzyme_* marker globals: never written.
            }
            let size = m.store_size(i.ty()) as i64;
            Ok(Some(Acc {
                ptr: i.operand(0),
                span: (0, size),
                write: false,
            }))
        }
        Opcode::LLVMStore => {
            if i.is_volatile() || i.is_atomic_access() {
                return Err(());
            }
            let size = m.store_size(i.operand(0).ty()) as i64;
            Ok(Some(Acc {
                ptr: i.operand(1),
                span: (0, size),
                write: true,
            }))
        }
        Opcode::LLVMCall => {
            let f = i.called_function().ok_or(())?;
            if f.is_intrinsic("llvm.memset") {
                let len = i.operand(2).const_int_value().ok_or(())?;
                if i.operand(3).const_int_value() != Some(0) {
                    return Err(());
                }
                return Ok(Some(Acc {
                    ptr: i.operand(0),
                    span: (0, len),
                    write: true,
                }));
            }
            if f.memory_effects().is_some_and(|e| e.is_none()) {
                return Ok(None);
            }
            Err(())
        }
        Opcode::LLVMInvoke
        | Opcode::LLVMAtomicRMW
        | Opcode::LLVMAtomicCmpXchg
        | Opcode::LLVMFence
        | Opcode::LLVMVAArg
        | Opcode::LLVMPHI => Err(()),
        _ if i.is_terminator() => Err(()),
        _ => Ok(None),
    }
}

pub(crate) fn same_shape(a: &Form, b: &Form) -> bool {
    a.func == b.func
        && a.slots.len() == b.slots.len()
        && a.slots
            .iter()
            .zip(&b.slots)
            .all(|(x, y)| x.marker == y.marker)
}

/// Structural equality of two side-effect-free values (loads only by identity).
pub(crate) fn same(a: Value, b: Value, depth: u32) -> bool {
    if a == b {
        return true;
    }
    if depth > 12 || !a.is_instruction() || !b.is_instruction() {
        return false;
    }
    let (Some(oa), Some(ob)) = (a.opcode(), b.opcode()) else {
        return false;
    };
    if oa != ob || a.ty() != b.ty() || a.num_operands() != b.num_operands() || !pure_op(oa) {
        return false;
    }
    if oa == Opcode::LLVMGetElementPtr && a.gep_source_type() != b.gep_source_type() {
        return false;
    }
    if oa == Opcode::LLVMICmp && a.icmp_predicate() != b.icmp_predicate() {
        return false;
    }
    (0..a.num_operands()).all(|k| same(a.operand(k), b.operand(k), depth + 1))
}

pub(crate) fn pure_op(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        LLVMGetElementPtr
            | LLVMAdd
            | LLVMSub
            | LLVMMul
            | LLVMShl
            | LLVMAnd
            | LLVMOr
            | LLVMXor
            | LLVMTrunc
            | LLVMZExt
            | LLVMSExt
            | LLVMBitCast
            | LLVMICmp
            | LLVMSelect
    )
}

/// Whether `a` is an alloca whose address goes nowhere but into loads, stores (as the
/// address), constant GEPs, lifetime markers, memsets and memcpys (no capture) and the
/// group's calls.
pub(crate) fn local_alloca(a: Value, group: &[Value]) -> bool {
    if a.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let mut work = vec![a];
    while let Some(v) = work.pop() {
        for u in v.users() {
            let ok = match u.opcode() {
                Some(Opcode::LLVMLoad) => true,
                Some(Opcode::LLVMStore) => u.operand(0) != v,
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == v => {
                    work.push(u);
                    a.parent_function()
                        .parent_module()
                        .const_gep_offset(u)
                        .is_some()
                }
                Some(Opcode::LLVMCall) => {
                    u.is_lifetime_marker()
                        || intrinsic_call(u, "llvm.memset")
                        || intrinsic_call(u, "llvm.memcpy")
                        || group.contains(&u)
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Lane `j`'s seed/shadow in a local alloca that the code between calls `j-1` and `j`
/// restarts (`lifetime.start`) (one `alloca` reused per row, as clang emits `double derr[2]` in a
/// loop body): from that restart to the next end after call `j`, the uses get their
/// own `alloca`, so the lanes' shadows are distinct objects. Same program otherwise.
pub(crate) fn rename_seed_generations(m: Module, group: &[Value], forms: &[Form]) {
    let b = group[0].parent_block();
    for j in 1..group.len() {
        for s in &forms[j].slots {
            let Some(sh) = s.shadow else { continue };
            let (a, _) = m.strip_const_geps(sh);
            if a.opcode() != Some(Opcode::LLVMAlloca) || !local_alloca(a, group) {
                continue;
            }
            let insts = b.instructions();
            let pj = insts.iter().position(|i| *i == group[j]).expect("in block");
            let pprev = insts
                .iter()
                .position(|i| *i == group[j - 1])
                .expect("in block");
            let is_marker = |i: Value, name: &str| intrinsic_call(i, name) && i.operand(0) == a;
            // A restart of the object between the calls: what it held before is gone.
            let Some(start) = (pprev + 1..pj).find(|p| is_marker(insts[*p], "llvm.lifetime.start"))
            else {
                continue;
            };
            let Some(close) =
                (pj + 1..insts.len()).find(|p| is_marker(insts[*p], "llvm.lifetime.end"))
            else {
                continue;
            };
            let f = b.parent();
            let eb = Builder::new(m.context());
            eb.position_before(
                f.entry_block()
                    .expect("defined")
                    .first_instruction()
                    .expect("non-empty"),
            );
            let fresh = eb.alloca(a.allocated_type(), "fz.seed.lane");
            fresh.set_alignment(a.alignment());
            let range: Vec<Value> = insts[start..=close].to_vec();
            for i in &range {
                for o in 0..i.num_operands() {
                    let v = i.operand(o);
                    if v == a {
                        i.set_operand(o, fresh);
                        continue;
                    }
                    if range.contains(&v) || !v.ty().is_pointer() || !v.is_instruction() {
                        continue;
                    }
                    let (base, off) = m.strip_const_geps(v);
                    if base == a && v != a {
                        eb.position_before(*i);
                        let g =
                            eb.gep(m.context().i8(), fresh, &[m.context().i64().const_i64(off)]);
                        i.set_operand(o, g);
                    }
                }
            }
        }
    }
}
