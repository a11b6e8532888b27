//! What a checkpointed step may write, seen statically: the snapshot must hold it.
//!
//! Every write in the step and the functions it calls directly (stores, atomic updates,
//! `memcpy`/`memmove`/`memset` destinations, the pointer arguments of external functions
//! that may write memory) is traced back to the object it writes:
//!
//! * a local (`alloca`), or memory the step allocates (`malloc`, `calloc`, `realloc`,
//!   `operator new`): gone or rebuilt by the next step, nothing to keep;
//! * a global variable: the snapshot holds it (its whole size);
//! * a parameter of the step: the call's argument must be covered by an
//!   `enzyme_checkpoint_region` (`mod.rs` checks it);
//! * a parameter of a function the step calls: the arguments of its call sites there;
//! * anything else (a pointer loaded from memory, returned by an unknown function, made
//!   from an integer, an indirect call): an error, since no snapshot could hold it.
//!
//! Not checked: that a region is large enough for what the step writes through it.
//! At -O0 pointers pass through stack slots that hold one value; loads from such slots
//! are followed to the value stored ([`resolve`]).

use ferrozyme_analysis::hash::HashSet;

use crate::common::ir_text::quote;
use ferrozyme_llvm::{Opcode, Value};

/// The written objects of a step.
#[derive(Default)]
pub(crate) struct Written {
    /// Indices (after `i`) of the step's pointer parameters it writes through.
    pub params: Vec<usize>,
    /// Global variables, in order of discovery.
    pub globals: Vec<Value>,
}

/// A write that cannot be traced: the instruction and why.
pub(crate) struct Untraced {
    pub inst: Value,
    pub why: String,
}

/// `v` with casts stripped and loads of single-store stack slots replaced by the value
/// stored.
pub(crate) fn resolve(mut v: Value) -> Value {
    for _ in 0..16 {
        v = crate::request::strip_casts(v);
        if v.opcode() != Some(Opcode::LLVMLoad) {
            return v;
        }
        let slot = crate::request::strip_casts(v.operand(0));
        if slot.opcode() != Some(Opcode::LLVMAlloca) {
            return v;
        }
        let stores: Vec<Value> = slot
            .users()
            .into_iter()
            .filter(|u| u.opcode() == Some(Opcode::LLVMStore))
            .collect();
        if stores.len() != 1 || stores[0].operand(1) != slot || stores[0].operand(0) == slot {
            return v;
        }
        v = stores[0].operand(0);
    }
    v
}

/// The functions `step` reaches through direct calls of defined functions.
fn closure(step: Value) -> Vec<Value> {
    let mut seen = HashSet::from_iter([step]);
    let mut order = vec![step];
    let mut i = 0;
    while i < order.len() {
        let f = order[i];
        i += 1;
        for inst in f.instructions() {
            if let Some(g) = inst.is_call().then(|| inst.called_function()).flatten() {
                if !g.is_declaration() && seen.insert(g) {
                    order.push(g);
                }
            }
        }
    }
    order
}

/// The pointers an instruction may write through.
fn targets(inst: Value) -> Result<Vec<Value>, String> {
    match inst.opcode() {
        Some(Opcode::LLVMStore) => Ok(vec![inst.operand(1)]),
        Some(Opcode::LLVMAtomicRMW) | Some(Opcode::LLVMAtomicCmpXchg) => Ok(vec![inst.operand(0)]),
        Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
            if inst.is_inline_asm_call() {
                return Err("inline assembly may write any memory".into());
            }
            let Some(g) = inst.called_function() else {
                return Err("an indirect call may write any memory".into());
            };
            let name = g.name();
            let args = inst.call_args();
            if name.starts_with("llvm.") {
                let writes_dest = ["llvm.memcpy", "llvm.memmove", "llvm.memset"]
                    .iter()
                    .any(|p| name.starts_with(p));
                return Ok(if writes_dest { vec![args[0]] } else { vec![] });
            }
            if !g.is_declaration() {
                // Its body is part of the closure; its parameters map back to `args`.
                return Ok(vec![]);
            }
            if let Some(row) = ferrozyme_abi::inactive_library(&name) {
                return Ok(row
                    .writes
                    .output_argument()
                    .and_then(|n| args.get(n).copied())
                    .into_iter()
                    .collect());
            }
            if g.memory_effects().is_some_and(|m| m.only_reads()) {
                return Ok(vec![]);
            }
            Ok(args.into_iter().filter(|a| a.ty().is_pointer()).collect())
        }
        _ => Ok(vec![]),
    }
}

/// The pointers an instruction may read through.
fn sources(inst: Value) -> Result<Vec<Value>, String> {
    match inst.opcode() {
        Some(Opcode::LLVMLoad) => Ok(vec![inst.operand(0)]),
        Some(Opcode::LLVMAtomicRMW) | Some(Opcode::LLVMAtomicCmpXchg) => Ok(vec![inst.operand(0)]),
        Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
            if inst.is_inline_asm_call() {
                return Err("inline assembly may read any memory".into());
            }
            let Some(g) = inst.called_function() else {
                return Err("an indirect call may read any memory".into());
            };
            let name = g.name();
            let args = inst.call_args();
            if name.starts_with("llvm.") {
                let copies = ["llvm.memcpy", "llvm.memmove"]
                    .iter()
                    .any(|p| name.starts_with(p));
                let loads =
                    name.starts_with("llvm.masked.load") || name.starts_with("llvm.masked.gather");
                return Ok(if copies {
                    vec![args[1]]
                } else if loads {
                    vec![args[0]]
                } else {
                    vec![]
                });
            }
            if !g.is_declaration() || g.memory_effects().is_some_and(|m| m.is_none()) {
                return Ok(vec![]);
            }
            Ok(args.into_iter().filter(|a| a.ty().is_pointer()).collect())
        }
        _ => Ok(vec![]),
    }
}

struct Tracer<'a> {
    step: Value,
    funcs: &'a HashSet<Value>,
    out: Written,
    seen: HashSet<Value>,
}

impl Tracer<'_> {
    fn trace(&mut self, ptr: Value, depth: u32) -> Result<(), String> {
        let v = resolve(ptr);
        if !self.seen.insert(v) || depth > 64 {
            return Ok(());
        }
        if v.is_global_variable() {
            if !v.is_global_constant() && !self.out.globals.contains(&v) {
                self.out.globals.push(v);
            }
            return Ok(());
        }
        if v.is_function() || v.is_null() || v.is_undef() {
            return Ok(());
        }
        if v.is_constant_expr() {
            return match v.const_opcode() {
                Some(Opcode::LLVMGetElementPtr) => self.trace(v.operand(0), depth + 1),
                _ => Err(format!("a pointer made by the constant `{}`", quote(v))),
            };
        }
        if v.is_argument() {
            return self.argument(v, depth);
        }
        match v.opcode() {
            Some(Opcode::LLVMAlloca) => Ok(()),
            Some(Opcode::LLVMGetElementPtr) => self.trace(v.operand(0), depth + 1),
            Some(Opcode::LLVMPHI) => {
                for (inc, _) in v.incoming() {
                    self.trace(inc, depth + 1)?;
                }
                Ok(())
            }
            Some(Opcode::LLVMSelect) => {
                self.trace(v.operand(1), depth + 1)?;
                self.trace(v.operand(2), depth + 1)
            }
            Some(Opcode::LLVMCall) if ferrozyme_analysis::calls::is_fresh_c_allocation(v) => Ok(()),
            Some(Opcode::LLVMLoad) => Err("a pointer loaded from memory".into()),
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                Err("a pointer returned by a call".into())
            }
            Some(Opcode::LLVMIntToPtr) => Err("a pointer made from an integer".into()),
            _ => Err(format!("the pointer `{}`", quote(v))),
        }
    }

    fn argument(&mut self, arg: Value, depth: u32) -> Result<(), String> {
        let f = arg.parent_function();
        let Some(idx) = f.params().iter().position(|p| *p == arg) else {
            return Err("an argument of an unknown function".into());
        };
        if f == self.step {
            if idx == 0 {
                return Err("the step's first argument (the step number) used as a pointer".into());
            }
            if !self.out.params.contains(&(idx - 1)) {
                self.out.params.push(idx - 1);
            }
            return Ok(());
        }
        let sites: Vec<Value> = f
            .users()
            .into_iter()
            .filter(|u| u.is_call() && u.called_function() == Some(f))
            .filter(|u| self.funcs.contains(&u.parent_function()))
            .collect();
        if sites.is_empty() {
            return Err(format!(
                "an argument of `{}`, which the step does not call directly",
                f.name()
            ));
        }
        for c in sites {
            let a = c.call_args()[idx];
            self.trace(a, depth + 1)?;
        }
        Ok(())
    }
}

/// What `step` and the functions it calls may write.
pub(crate) fn written(step: Value) -> Result<Written, Untraced> {
    traced(step, targets)
}

/// What `step` and the functions it calls may read (the same objects, found from loads,
/// copy sources and the pointer arguments of external functions).
pub(crate) fn read(step: Value) -> Result<Written, Untraced> {
    traced(step, sources)
}

fn traced(
    step: Value,
    targets: fn(Value) -> Result<Vec<Value>, String>,
) -> Result<Written, Untraced> {
    let funcs = closure(step);
    let set: HashSet<Value> = funcs.iter().copied().collect();
    let mut t = Tracer {
        step,
        funcs: &set,
        out: Written::default(),
        seen: HashSet::default(),
    };
    for f in &funcs {
        for inst in f.instructions() {
            let ptrs = targets(inst).map_err(|why| Untraced { inst, why })?;
            for p in ptrs {
                t.trace(p, 0).map_err(|why| Untraced { inst, why })?;
            }
        }
    }
    Ok(t.out)
}
