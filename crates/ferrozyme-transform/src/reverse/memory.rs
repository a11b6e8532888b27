//! Which memory the primal function may write: decides when a load can be repeated in
//! the reverse sweep instead of cached.
//!
//! We find the *underlying object* of every written address (through GEPs and casts):
//! an argument, a global, or unknown. A load may be repeated when its own underlying
//! object is an argument or a global that nothing writes, and no write could alias it:
//! writes to other arguments or globals count unless either side is a `noalias`
//! argument; a write to an unknown object (a pointer loaded from memory, a call that may
//! write anywhere) forbids every repeat. Memory allocated inside the function is never
//! repeated (it may be freed before the reverse sweep).

use ferrozyme_analysis::activity::is_readonly_function;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Obj {
    Arg(Value),
    Global(Value),
    /// Allocated in the function (alloca, malloc).
    Local(Value),
    Unknown,
}

pub(crate) type Writes = Vec<Obj>;

pub(crate) fn underlying(mut v: Value) -> Obj {
    for _ in 0..32 {
        if v.is_argument() {
            return Obj::Arg(v);
        }
        if v.is_global_variable() {
            return Obj::Global(v);
        }
        let op = v.opcode().or_else(|| v.const_opcode());
        match op {
            Some(Opcode::LLVMGetElementPtr)
            | Some(Opcode::LLVMBitCast)
            | Some(Opcode::LLVMAddrSpaceCast) => {
                v = v.operand(0);
            }
            Some(Opcode::LLVMAlloca) => return Obj::Local(v),
            Some(Opcode::LLVMCall)
                if matches!(
                    classify(v),
                    CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
                ) =>
            {
                return Obj::Local(v)
            }
            _ => return Obj::Unknown,
        }
    }
    Obj::Unknown
}

/// Every object the function may write.
pub(crate) fn written_objects(f: Value) -> Writes {
    let mut w = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            match i.opcode() {
                Some(Opcode::LLVMStore) => w.push(underlying(i.operand(1))),
                Some(Opcode::LLVMAtomicRMW) | Some(Opcode::LLVMAtomicCmpXchg) => {
                    w.push(underlying(i.operand(0)))
                }
                Some(Opcode::LLVMCall) => match classify(i) {
                    CallKind::Math(_)
                    | CallKind::NoDerivative
                    | CallKind::ReduceFAdd
                    | CallKind::ReduceFMul
                    | CallKind::ReduceFMinMax
                    | CallKind::Malloc
                    | CallKind::Calloc => {}
                    CallKind::Memcpy | CallKind::Memmove | CallKind::Memset => {
                        w.push(underlying(i.call_args()[0]))
                    }
                    CallKind::Free | CallKind::Realloc => w.push(underlying(i.call_args()[0])),
                    CallKind::InactiveExternal => {}
                    CallKind::Defined(g) if is_readonly_function(g) => {}
                    _ => {
                        w.push(Obj::Unknown);
                    }
                },
                _ => {}
            }
        }
    }
    w
}

fn is_noalias(o: Obj) -> bool {
    match o {
        Obj::Arg(a) => a
            .parent_function()
            .has_param_attr(param_index(a), "noalias"),
        _ => false,
    }
}

fn param_index(a: Value) -> u32 {
    a.parent_function()
        .params()
        .iter()
        .position(|p| *p == a)
        .unwrap_or(0) as u32
}

/// Is the memory `addr` points into never written by the function?
pub(crate) fn never_written(writes: &Writes, addr: Value) -> bool {
    let o = underlying(addr);
    if !matches!(o, Obj::Arg(_) | Obj::Global(_)) {
        return false;
    }
    writes.iter().all(|w| match *w {
        Obj::Unknown => false,
        Obj::Local(_) => true,
        w if w == o => false,
        w => is_noalias(o) || is_noalias(w),
    })
}
