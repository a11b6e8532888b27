//! Stack buffers that merging dissolves (compile time, issue 18): an analysis for
//! `merge.rs`.
//!
//! A differentiated callee's tape is a region of its caller's tape (tape7), and a caller
//! whose tape has a fixed size keeps it in a stack buffer (an `alloca` of constant size).
//! Once the augmented forward and the reverse of such a callee are both merged into the
//! caller, every tape slot is a store and a load at a constant offset of that one buffer,
//! and SROA turns the slots into SSA values: the forward's values reach the reverse
//! directly, with no store and no load. `merge.rs`'s size cap alone kept large callees
//! out of line, so a straight-line kernel differentiated below its caller taped every
//! value it kept (`bench/compile_scaling`'s `big`, n = 640: 497 tape stores in its
//! augmented forward, as many loads in the reverse).
//!
//! [`dissolvable_callees`] finds the fixed-size `alloca`s of generated functions whose
//! every use, through GEPs with constant indices, is a load from the buffer, a store into
//! it, a memory intrinsic of constant length or a lifetime marker, or a pointer argument
//! of a generated callee that `merge.rs` may merge and whose parameter is used the same
//! way (recursively, through further callees), and returns those callees: merged whatever
//! their size, they leave the buffer promotable. A buffer with any other use (a call
//! that stays, a pointer stored or compared, a variable offset) forces nothing. The
//! search is iterative (worklists, no recursion along call chains).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

use crate::slp_limit::forward_only;

/// A pointer whose uses are followed: a buffer (`alloca`) or a callee's parameter.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Root {
    Buffer(Value),
    Param(Value, u32),
}

/// What the uses of one root showed.
struct Uses {
    /// A use that keeps the buffer in memory.
    escapes: bool,
    /// Parameters of callees the pointer is passed to (their uses decide too).
    passed: Vec<(Value, u32)>,
}

/// The generated callees to merge so that the fixed-size stack buffers of `functions`
/// become promotable; `mergeable(c)`: may `merge.rs` merge `c` into its only caller;
/// `size(f)`: `f`'s instructions. Only straight-line callees (no cycle in their control
/// flow) are forced, and only while the buffer's function with all of them stays within
/// `cap` instructions: one function holding many loops costs the pipeline and code
/// generation more than linearly (`bench/compile_scaling`'s whole `chain` of 320 looping
/// links merged into one function doubled `ferrozyme cc`'s time), and so does one block
/// holding a very long straight-line forward and reverse (`big` at n = 1280: 22k
/// instructions in one function, code generation 2.3x; at n = 640, 11k, it gained).
pub fn dissolvable_callees(
    functions: &[Value],
    mergeable: &dyn Fn(Value) -> bool,
    size: &dyn Fn(Value) -> usize,
    cap: usize,
) -> HashSet<Value> {
    let mut scanned: HashMap<Root, Uses> = HashMap::default();
    let mut buffers = Vec::new();
    let mut todo: Vec<Root> = Vec::new();
    for &f in functions {
        let Some(entry) = f.entry_block() else {
            continue;
        };
        for i in entry.instructions() {
            if i.opcode() == Some(Opcode::LLVMAlloca) && i.operand(0).const_int_value().is_some() {
                buffers.push(Root::Buffer(i));
                todo.push(Root::Buffer(i));
            }
        }
    }
    // Scan every root reachable from a buffer once.
    while let Some(r) = todo.pop() {
        if scanned.contains_key(&r) {
            continue;
        }
        let start = match r {
            Root::Buffer(a) => a,
            Root::Param(c, j) => c.params()[j as usize],
        };
        let uses = scan(start, mergeable);
        todo.extend(
            uses.passed
                .iter()
                .map(|&(c, j)| Root::Param(c, j))
                .filter(|p| !scanned.contains_key(p)),
        );
        scanned.insert(r, uses);
    }
    // A root escapes when it or a parameter it is passed to escapes: propagate backwards.
    let mut passed_from: HashMap<Root, Vec<Root>> = HashMap::default();
    for (&r, u) in &scanned {
        for &(c, j) in &u.passed {
            passed_from.entry(Root::Param(c, j)).or_default().push(r);
        }
    }
    let mut escaping: HashSet<Root> = scanned
        .iter()
        .filter(|(_, u)| u.escapes)
        .map(|(&r, _)| r)
        .collect();
    let mut work: Vec<Root> = escaping.iter().copied().collect();
    while let Some(r) = work.pop() {
        for &p in passed_from.get(&r).map(Vec::as_slice).unwrap_or(&[]) {
            if escaping.insert(p) {
                work.push(p);
            }
        }
    }
    // The callees every promotable buffer reaches, if they fit the cap.
    let mut callees = HashSet::default();
    for b in buffers.into_iter().filter(|b| !escaping.contains(b)) {
        let Root::Buffer(a) = b else { continue };
        let host = a.parent_function();
        let mut group: HashSet<Value> = HashSet::default();
        let mut seen: HashSet<Root> = HashSet::default();
        let mut work = vec![b];
        while let Some(r) = work.pop() {
            if !seen.insert(r) {
                continue;
            }
            for &(c, j) in &scanned[&r].passed {
                group.insert(c);
                work.push(Root::Param(c, j));
            }
        }
        if group.is_empty() || callees.contains(&host) {
            continue;
        }
        let total: usize = size(host) + group.iter().map(|&c| size(c)).sum::<usize>();
        // The host's own loops are there either way; what counts is what merging adds.
        let straight = group.iter().all(|f| forward_only(&f.blocks()));
        if straight && total <= cap {
            callees.extend(group);
        }
    }
    callees
}

/// The uses of the pointer `start` within its function, through constant-index GEPs.
fn scan(start: Value, mergeable: &dyn Fn(Value) -> bool) -> Uses {
    let mut uses = Uses {
        escapes: false,
        passed: Vec::new(),
    };
    let mut ptrs = vec![start];
    let mut seen: HashSet<Value> = HashSet::default();
    while let Some(p) = ptrs.pop() {
        if !seen.insert(p) {
            continue;
        }
        for u in p.users() {
            if !u.is_instruction() {
                uses.escapes = true;
                continue;
            }
            let ok = match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) => {
                    let constant = u.operand(0) == p
                        && (1..u.num_operands()).all(|k| u.operand(k).const_int_value().is_some());
                    if constant {
                        ptrs.push(u);
                    }
                    constant
                }
                Some(Opcode::LLVMLoad) => !u.is_volatile(),
                Some(Opcode::LLVMStore) => u.operand(1) == p && u.operand(0) != p,
                Some(Opcode::LLVMCall) => call_use(u, p, mergeable, &mut uses.passed),
                // The augmented forward returns its tape pointer beside its result.
                Some(Opcode::LLVMInsertValue) => u.operand(1) == p && returned_unread(u),
                _ => false,
            };
            uses.escapes |= !ok;
        }
    }
    uses
}

/// Does the aggregate `ins` built only flow into `ret`, with no call site of its
/// function reading the field `ins` set?
fn returned_unread(ins: Value) -> bool {
    let field = ins.aggregate_indices();
    let mut aggs = vec![ins];
    while let Some(a) = aggs.pop() {
        for u in a.users() {
            match u.opcode() {
                Some(Opcode::LLVMRet) => {}
                Some(Opcode::LLVMInsertValue)
                    if u.operand(0) == a && u.aggregate_indices() != field =>
                {
                    aggs.push(u)
                }
                _ => return false,
            }
        }
    }
    ins.parent_function().users().iter().all(|call| {
        call.is_instruction()
            && call.opcode() == Some(Opcode::LLVMCall)
            && call.users().iter().all(|e| {
                e.opcode() == Some(Opcode::LLVMExtractValue)
                    && !e.aggregate_indices().starts_with(&field)
            })
    })
}

/// Is the call `u`'s use of `p` one SROA takes (a memory intrinsic of constant length, a
/// lifetime marker) or an argument of a mergeable generated callee (recorded in
/// `passed`)?
fn call_use(
    u: Value,
    p: Value,
    mergeable: &dyn Fn(Value) -> bool,
    passed: &mut Vec<(Value, u32)>,
) -> bool {
    let Some(f) = u.called_function() else {
        return false;
    };
    if ["llvm.memcpy", "llvm.memset"]
        .iter()
        .any(|b| f.is_intrinsic(b))
    {
        return u.operand(2).const_int_value().is_some();
    }
    if ["llvm.lifetime.start", "llvm.lifetime.end"]
        .iter()
        .any(|b| f.is_intrinsic(b))
    {
        return true;
    }
    if f.is_declaration() || !mergeable(f) {
        return false;
    }
    for (j, a) in u.call_args().into_iter().enumerate() {
        if a == p {
            passed.push((f, j as u32));
        }
    }
    true
}
