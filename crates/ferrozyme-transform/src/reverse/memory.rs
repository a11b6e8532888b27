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

/// Every object the function may write (stores in `deferred` excepted: they are moved
/// after the reverse sweep, see [`deferrable_stores`]).
pub(crate) fn written_objects(f: Value, deferred: &std::collections::HashSet<Value>) -> Writes {
    written_by(f, deferred, 4, &mut std::collections::HashMap::new())
}

/// What callee `g` writes, looked at `depth` levels deep (each callee once per depth).
type CalleeWrites = std::collections::HashMap<(Value, u32), Writes>;

/// Math library functions without a derivative rule that write no memory the program can
/// point to (at most `errno` or `signgam`).
const QUIET_LIBM: &[&str] = &[
    "lgamma",
    "lgammaf",
    "tgamma",
    "tgammaf",
    "j0",
    "j1",
    "y0",
    "y1",
    "nextafter",
    "nextafterf",
    "remainder",
    "remainderf",
    "fmodf",
    "logb",
    "logbf",
    "nearbyint",
    "rint",
];

fn written_by(
    f: Value,
    deferred: &std::collections::HashSet<Value>,
    depth: u32,
    seen: &mut CalleeWrites,
) -> Writes {
    let mut w = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            match i.opcode() {
                Some(Opcode::LLVMStore) if deferred.contains(&i) => {}
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
                    CallKind::Free | CallKind::Realloc | CallKind::PosixMemalign => {
                        w.push(underlying(i.call_args()[0]))
                    }
                    // flang's inactive routines may write through their pointer
                    // arguments (an inquiry's result descriptor, an I/O status).
                    CallKind::InactiveExternal
                        if i.called_function().is_some_and(|g| {
                            ferrozyme_rules::fortran::fortran_rule(&g.name()).is_some()
                        }) =>
                    {
                        for a in i.call_args() {
                            if a.ty().is_pointer() {
                                w.push(underlying(a));
                            }
                        }
                    }
                    CallKind::InactiveExternal => {}
                    CallKind::Defined(g) if is_readonly_function(g) => {}
                    CallKind::Defined(g) if depth > 0 && g != f => {
                        // What the callee writes, seen from here: its arguments become
                        // this call's arguments; its own allocations do not matter.
                        let args = i.call_args();
                        let params = g.params();
                        let callee = match seen.get(&(g, depth - 1)) {
                            Some(w) => w.clone(),
                            None => {
                                let w = written_by(
                                    g,
                                    &std::collections::HashSet::new(),
                                    depth - 1,
                                    seen,
                                );
                                seen.insert((g, depth - 1), w.clone());
                                w
                            }
                        };
                        for o in callee {
                            match o {
                                Obj::Arg(a) => match params.iter().position(|p| *p == a) {
                                    Some(k) if k < args.len() => w.push(underlying(args[k])),
                                    _ => w.push(Obj::Unknown),
                                },
                                Obj::Local(_) => {}
                                other => w.push(other),
                            }
                        }
                    }
                    CallKind::UnknownExternal
                        if i.called_function()
                            .is_some_and(|g| QUIET_LIBM.contains(&g.name().as_str())) => {}
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

/// Stores of the final results (`*err = value` at the end of the function) that combined
/// mode may perform after the reverse sweep instead: in a block that runs exactly once
/// on every path to a return, storing a float (or integer) to an argument or global, with
/// nothing after it that reads memory. Then the reverse sweep sees memory exactly as the
/// forward sweep's loads did, so loads elsewhere need not be cached because of them.
pub(crate) fn deferrable_stores(
    f: Value,
    cfg: &ferrozyme_analysis::cfg::Cfg,
    returns: &[ferrozyme_llvm::Block],
) -> std::collections::HashSet<Value> {
    use std::collections::HashSet;
    let mut out = HashSet::new();
    for blk in f.blocks() {
        if !cfg.is_reachable(blk)
            || cfg.is_cyclic(blk)
            || returns.is_empty()
            || !returns.iter().all(|r| cfg.dominates(blk, *r))
        {
            continue;
        }
        // Everything after a candidate, in this block and in the blocks reachable from it,
        // must not read memory.
        let mut later: Vec<Value> = Vec::new();
        let mut seen = HashSet::new();
        let mut work: Vec<ferrozyme_llvm::Block> = cfg.succs(blk);
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                later.extend(b.instructions());
                work.extend(cfg.succs(b));
            }
        }
        let reads = |i: Value| match i.opcode() {
            Some(Opcode::LLVMLoad)
            | Some(Opcode::LLVMAtomicRMW)
            | Some(Opcode::LLVMAtomicCmpXchg) => true,
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => !matches!(
                classify(i),
                CallKind::Free | CallKind::Math(_) | CallKind::NoDerivative | CallKind::TypeHint
            ),
            Some(Opcode::LLVMVAArg) => true,
            _ => false,
        };
        if later.iter().any(|i| reads(*i)) {
            continue;
        }
        let insts = blk.instructions();
        for (k, i) in insts.iter().enumerate() {
            if i.opcode() != Some(Opcode::LLVMStore) || i.is_volatile() || i.is_atomic_access() {
                continue;
            }
            let v = i.operand(0);
            let simple = v.ty().is_fp_scalar() || v.ty().is_integer();
            let target = matches!(underlying(i.operand(1)), Obj::Arg(_) | Obj::Global(_));
            // The operands must still be available after the reverse sweep: defined in
            // blocks that run once (values of loop blocks live in records popped by then).
            let once = |o: Value| !o.is_instruction() || !cfg.is_cyclic(o.parent_block());
            if simple
                && target
                && once(v)
                && once(i.operand(1))
                && !insts[k + 1..].iter().any(|j| reads(*j))
            {
                out.insert(*i);
            }
        }
    }
    out
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

/// Stores the forward sweep leaves out because the caller marked their memory
/// `enzyme_dupnoneed` (it does not need what the function writes there) and nothing in
/// the function reads it back. For each such argument `a`, every pointer derived from it
/// (through GEPs and casts) must be used only as the address of stores or in
/// comparisons: then the function never reads `a`'s memory (no load, no call gets the
/// pointer) nor lets the pointer escape. A store of a float or integer to it is then dropped when `a` is `noalias`
/// (no other pointer reaches that memory), or when it is a final store (`deferred`:
/// nothing reads memory after it). The reverse sweep still takes the adjoint of every
/// such store from the shadow; only the primal write is skipped, and with it whatever
/// computed only the stored value.
pub(crate) fn dropped_stores(
    f: Value,
    noneed: &[bool],
    deferred: &std::collections::HashSet<Value>,
) -> std::collections::HashSet<Value> {
    let mut out = std::collections::HashSet::new();
    for (k, a) in f.params().into_iter().enumerate() {
        if !noneed.get(k).copied().unwrap_or(false) || !a.ty().is_pointer() {
            continue;
        }
        let noalias = f.has_param_attr(k as u32, "noalias");
        let mut stores = Vec::new();
        let mut work = vec![a];
        let mut seen = std::collections::HashSet::new();
        let mut ok = true;
        'walk: while let Some(d) = work.pop() {
            if !seen.insert(d) {
                continue;
            }
            for u in d.users() {
                match u.opcode() {
                    Some(Opcode::LLVMGetElementPtr)
                        if u.operand(0) == d
                            && (1..u.num_operands()).all(|j| u.operand(j) != d) =>
                    {
                        work.push(u)
                    }
                    Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => work.push(u),
                    Some(Opcode::LLVMICmp) => {}
                    Some(Opcode::LLVMStore)
                        if u.operand(1) == d
                            && u.operand(0) != d
                            && !u.is_volatile()
                            && !u.is_atomic_access()
                            && (u.operand(0).ty().is_fp() || u.operand(0).ty().is_integer()) =>
                    {
                        stores.push(u)
                    }
                    _ => {
                        ok = false;
                        break 'walk;
                    }
                }
            }
        }
        if !ok {
            continue;
        }
        out.extend(
            stores
                .into_iter()
                .filter(|s| noalias || deferred.contains(s)),
        );
    }
    out
}
