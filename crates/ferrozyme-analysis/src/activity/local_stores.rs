//! What a function writes through one of its pointer parameters: nothing, only pointers
//! read from the memory of its pointer parameters (its own included), or anything.
//!
//! At -O0 clang keeps every iterator and pointer in a stack slot and hands the slot's
//! address to the library's helpers: `std::advance(it, n)` moves the iterator in place,
//! `std::__iterator_category(it)` only looks at it, `std::pair`'s constructor copies two
//! iterators into the pair. None of them puts a pointer into the slot that was not
//! already in the memory of one of its arguments, so a slot holding only pointers into
//! constant memory keeps holding such pointers after the call (`copy_slots`' pointer
//! slots). [`param_writes`] answers that question for one parameter.
//!
//! Phases, inside the callee:
//!
//! 1. **Addresses** of each pointer parameter `j`: the parameter, GEPs and casts of it,
//!    the result of a call that returns one of its arguments (`returned_param`), and the
//!    loads of a local slot (an `alloca` only loaded and stored, stored once) that
//!    receives an address: -O0 spills every parameter into such a slot first.
//! 2. **Contents** of parameter `j`: pointers loaded from its addresses, and their GEPs
//!    (an iterator moved forward), again through local slots.
//! 3. **Writes** through parameter `k`'s addresses: a store of parameter `j`'s contents
//!    (or of a constant, or of a value holding no pointer and no float) records `j`; a
//!    `memcpy` from parameter `j`'s addresses records `j`; `memset` writes no pointer; a
//!    call passing the address on is answered recursively (depth-limited) and its
//!    answer translated to this function's parameters. Anything else the address meets
//!    (a store of the address itself into memory, `ptrtoint`, a call without IR, a
//!    return of it that `returned_param` does not describe) is [`ParamWrites::Unknown`].
//!
//! The answer errs on the side of `Unknown`: a pointer slot then keeps its shadow, which
//! costs runtime-activity checks (or a refusal), never a derivative.

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

use crate::calls::{classify, CallKind};
use crate::captures::is_marker;

use super::returned_param;

/// The parameter `k` when every `ret` of `f` returns an address into `k`'s memory (the
/// parameter, a field of it: `__normal_iterator::base()` returns `&_M_current`,
/// `operator++` returns `*this`), following calls `depth` levels deep.
pub fn returned_address(f: Value, depth: u32) -> Option<usize> {
    if f.is_declaration() || !f.function_type().return_type().is_pointer() {
        return None;
    }
    if depth == 0 {
        return returned_param(f, 2);
    }
    let rets: Vec<Value> = f
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet))
        .map(|t| t.operand(0))
        .collect();
    if rets.is_empty() {
        return None;
    }
    (0..f.params().len()).find(|&k| {
        f.params()[k].ty().is_pointer()
            && addresses(f, k, depth - 1).is_some_and(|a| rets.iter().all(|r| a.contains(r)))
    })
}

/// What a function may write into the memory its parameter `k` points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamWrites {
    /// Nothing that could hold a pointer.
    Nothing,
    /// Only pointers read from the memory of these parameters (sorted, no duplicates).
    From(Vec<usize>),
    /// Possibly anything: a pointer from elsewhere, or the address escapes.
    Unknown,
}

impl ParamWrites {
    fn add(self, j: usize) -> ParamWrites {
        match self {
            ParamWrites::Nothing => ParamWrites::From(vec![j]),
            ParamWrites::From(mut v) => {
                if !v.contains(&j) {
                    v.push(j);
                    v.sort_unstable();
                }
                ParamWrites::From(v)
            }
            ParamWrites::Unknown => ParamWrites::Unknown,
        }
    }
}

/// How many callee levels [`param_writes`] follows before answering `Unknown`.
pub const PARAM_WRITES_DEPTH: u32 = 4;

/// What `f` writes through its parameter `k`, following calls `depth` levels deep.
pub fn param_writes(f: Value, k: usize, depth: u32) -> ParamWrites {
    param_writes_memo(f, k, depth, &mut HashMap::default())
}

type Memo = HashMap<(Value, usize), ParamWrites>;

fn param_writes_memo(f: Value, k: usize, depth: u32, memo: &mut Memo) -> ParamWrites {
    if let Some(w) = memo.get(&(f, k)) {
        return w.clone();
    }
    // A recursive cycle answers Unknown while it is being computed.
    memo.insert((f, k), ParamWrites::Unknown);
    let w = compute(f, k, depth, memo);
    memo.insert((f, k), w.clone());
    w
}

/// May `f` both read and write the memory its pointer parameter `k` points to (an update
/// in place: `x[i] = x[i] * x[i]`, `y += a x`), so that running it twice differs from
/// running it once? Errs on the side of yes: a declaration, an address met by anything
/// but loads, stores into it, GEPs, casts, comparisons, its -O0 home slot, `mem*` calls
/// and calls of defined functions (answered the same way, [`PARAM_WRITES_DEPTH`] deep).
/// A registered forward derivative runs once per lane with `enzyme_width`: it may not
/// when the answer is yes (tests/c/1347).
pub fn may_update_param_in_place(f: Value, k: usize) -> bool {
    param_access(f, k, PARAM_WRITES_DEPTH).is_none_or(|(reads, writes)| reads && writes)
}

/// Whether `f` may read and may write through its parameter `k`; `None` when unknown.
fn param_access(f: Value, k: usize, depth: u32) -> Option<(bool, bool)> {
    if f.is_declaration() {
        return None;
    }
    let addrs = addresses(f, k, depth)?;
    let (mut reads, mut writes) = (false, false);
    for &a in &addrs {
        for u in a.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) => reads = true,
                Some(Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMGetElementPtr)
                | Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast)
                    if u.operand(0) == a => {}
                Some(Opcode::LLVMStore) if u.operand(1) == a && u.operand(0) != a => writes = true,
                Some(Opcode::LLVMStore)
                    if u.operand(0) == a && single_store_local(u.operand(1)) == Some(a) => {}
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) if is_marker(u) => {}
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                    if u.called_value() == a {
                        return None;
                    }
                    let args = u.call_args();
                    match classify(u) {
                        CallKind::Memset => writes = true,
                        CallKind::Memcpy | CallKind::Memmove => {
                            writes |= args.first() == Some(&a);
                            reads |= args.get(1) == Some(&a);
                        }
                        CallKind::Defined(g) if depth > 0 => {
                            for (i, _) in args.iter().enumerate().filter(|(_, x)| **x == a) {
                                let (r, w) = param_access(g, i, depth - 1)?;
                                reads |= r;
                                writes |= w;
                            }
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }
    Some((reads, writes))
}

/// A stack slot only loaded and stored into, with exactly one store: what is loaded is
/// what was stored (a parameter's home at -O0).
pub fn single_store_local(slot: Value) -> Option<Value> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut stored = None;
    for u in slot.users() {
        match u.opcode() {
            Some(Opcode::LLVMLoad) => {}
            Some(Opcode::LLVMStore) if u.operand(1) == slot && u.operand(0) != slot => {
                if stored.replace(u.operand(0)).is_some() {
                    return None;
                }
            }
            Some(Opcode::LLVMCall) if is_marker(u) => {}
            _ => return None,
        }
    }
    stored
}

/// The loads of `slot` when it is a single-store local slot holding `v`.
fn reloads(v: Value, slot: Value) -> Vec<Value> {
    if single_store_local(slot) != Some(v) {
        return Vec::new();
    }
    slot.users()
        .into_iter()
        .filter(|u| u.opcode() == Some(Opcode::LLVMLoad))
        .collect()
}

/// Values that are addresses into parameter `j`'s memory (phase 1), or `None` when there
/// are too many to follow.
fn addresses(f: Value, j: usize, depth: u32) -> Option<HashSet<Value>> {
    let p = *f.params().get(j)?;
    let mut seen = HashSet::default();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > 256 {
            return None;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr)
                | Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast)
                    if u.operand(0) == v =>
                {
                    work.push(u)
                }
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    work.extend(reloads(v, u.operand(1)))
                }
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                    if let CallKind::Defined(g) = classify(u) {
                        if let Some(r) = returned_address(g, depth.saturating_sub(1)) {
                            if u.call_args().get(r) == Some(&v) {
                                work.push(u);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Some(seen)
}

/// Pointers read from the memory at `addrs` (phase 2): loads, their GEPs, phis and
/// selects of them only, and reloads from local slots.
fn contents(addrs: &HashSet<Value>) -> HashSet<Value> {
    let mut seen = HashSet::default();
    let mut work: Vec<Value> = addrs
        .iter()
        .flat_map(|a| a.users())
        .filter(|u| u.opcode() == Some(Opcode::LLVMLoad) && u.ty().is_pointer())
        .collect();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 256 {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == v => work.push(u),
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    work.extend(reloads(v, u.operand(1)))
                }
                _ => {}
            }
        }
    }
    // Phis and selects whose pointer inputs are all contents.
    loop {
        let before = seen.len();
        let candidates: Vec<Value> = seen
            .iter()
            .flat_map(|v| v.users())
            .filter(|u| matches!(u.opcode(), Some(Opcode::LLVMPHI) | Some(Opcode::LLVMSelect)))
            .collect();
        for u in candidates {
            let ins: Vec<Value> = match u.opcode() {
                Some(Opcode::LLVMSelect) => vec![u.operand(1), u.operand(2)],
                _ => u.incoming().into_iter().map(|(x, _)| x).collect(),
            };
            if ins.iter().all(|x| seen.contains(x)) {
                seen.insert(u);
            }
        }
        if seen.len() == before {
            break;
        }
    }
    seen
}

/// Can a stored value put no pointer (and no float) into pointer memory?
fn holds_nothing(v: Value) -> bool {
    let t = v.ty();
    if t.contains_pointer() {
        return v.is_null() || v.is_undef();
    }
    !t.contains_fp()
}

fn compute(f: Value, k: usize, depth: u32, memo: &mut Memo) -> ParamWrites {
    if f.is_declaration() || k >= f.params().len() {
        return ParamWrites::Unknown;
    }
    let n = f.params().len();
    let mut addrs = Vec::with_capacity(n);
    for j in 0..n {
        match addresses(f, j, depth) {
            Some(a) => addrs.push(a),
            None => return ParamWrites::Unknown,
        }
    }
    let holds: Vec<HashSet<Value>> = addrs.iter().map(contents).collect();
    let owner_of_address = |v: Value| (0..n).find(|&j| addrs[j].contains(&v));
    let owner_of_content = |v: Value| (0..n).find(|&j| holds[j].contains(&v));
    let mut writes = ParamWrites::Nothing;
    for &a in &addrs[k] {
        for u in a.users() {
            match u.opcode() {
                Some(Opcode::LLVMLoad) | Some(Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMGetElementPtr)
                | Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast)
                    if u.operand(0) == a => {}
                Some(Opcode::LLVMStore) if u.operand(1) == a && u.operand(0) != a => {
                    let v = u.operand(0);
                    if let Some(j) = owner_of_content(v) {
                        writes = writes.add(j);
                    } else if !holds_nothing(v) {
                        return ParamWrites::Unknown;
                    }
                }
                // The address stored into a local slot that gives it back (phase 1).
                Some(Opcode::LLVMStore)
                    if u.operand(0) == a && single_store_local(u.operand(1)) == Some(a) => {}
                Some(Opcode::LLVMRet) if returned_address(f, depth) == Some(k) => {}
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                    if is_marker(u) {
                        continue;
                    }
                    if u.called_value() == a {
                        return ParamWrites::Unknown;
                    }
                    let args = u.call_args();
                    match classify(u) {
                        CallKind::Memset => {}
                        CallKind::Memcpy | CallKind::Memmove => {
                            if args.get(1) == Some(&a) && args.first() != Some(&a) {
                                continue; // read only
                            }
                            match owner_of_address(args[1]) {
                                Some(j) => writes = writes.add(j),
                                None => return ParamWrites::Unknown,
                            }
                        }
                        CallKind::Defined(g) if depth > 0 => {
                            for (i, _) in args.iter().enumerate().filter(|(_, x)| **x == a) {
                                match param_writes_memo(g, i, depth - 1, memo) {
                                    ParamWrites::Nothing => {}
                                    ParamWrites::From(js) => {
                                        for jj in js {
                                            match args.get(jj).and_then(|&x| owner_of_address(x)) {
                                                Some(j) => writes = writes.add(j),
                                                None => return ParamWrites::Unknown,
                                            }
                                        }
                                    }
                                    ParamWrites::Unknown => return ParamWrites::Unknown,
                                }
                            }
                        }
                        _ => return ParamWrites::Unknown,
                    }
                }
                _ => return ParamWrites::Unknown,
            }
        }
    }
    writes
}
