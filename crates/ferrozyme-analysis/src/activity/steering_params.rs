//! Pointer parameters a function only *steers by*: what they point to decides which way
//! its branches go, and nothing computed from them reaches its result or memory outside
//! its own stack.
//!
//! `std::map<double, double>::upper_bound(const double &key)` of an inactive map, given
//! the active key's -O0 home: the key is passed down four calls (`_Rb_tree::upper_bound`,
//! `_M_upper_bound`, `std::less::operator()`) and only compared with the nodes' keys; the
//! iterator returned is a node of the map (or its header), whatever the key. Activity
//! took a pointer returned by a function given a pointer with a shadow to have one too,
//! and asked the callee's own analysis (`returned_shadow`) too few levels deep to learn
//! otherwise: the iterator became a pointer that is constant or differentiable depending
//! on the run, and `upper_bound`'s derivative refused to return it (tests/cxx/508 at -O0).
//! A derivative does not flow through a comparison, so for the question "may the result
//! have a shadow" such a parameter counts as if it were not given (`Activity::visit`).
//!
//! [`only_steers`] answers with a walk of the function's IR from the parameter: every
//! value computed from it (addresses, anything loaded through them, arithmetic on those,
//! the stack objects it is stored into and what is loaded back out of them, results of
//! calls given it whose callee may return it) is *derived*; a comparison of derived
//! values is not. The parameter only steers when no derived value is returned, stored
//! into memory other than the function's own stack objects, copied there, or handed to
//! code the walk cannot follow (a function without IR or rule, an indirect call, an
//! atomic, a math function given memory), [`STEER_DEPTH`] levels deep. Recursion and the
//! depth limit answer "no", which keeps the old answer (the result may have a shadow).

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Opcode, Value};

use super::constant_reads::base_object;
use crate::calls::{classify, CallKind};

/// How many calls deep [`only_steers`] follows the parameter (libstdc++'s -O0
/// `map::upper_bound` -> `_Rb_tree::upper_bound` -> `_M_upper_bound` -> `less()`).
pub const STEER_DEPTH: u32 = 6;

/// What a function does with the values derived from one of its parameters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    /// Only compares them, computes with them and keeps them on its own stack.
    Steers,
    /// May return one (its caller follows the call's result).
    Returns,
    /// May keep or hand one where the walk cannot follow.
    Escapes,
}

/// The answers of one question, per (function, parameter); a function in progress
/// answers [`Use::Escapes`] (recursion).
type Memo = HashMap<(Value, usize), Use>;

/// Does defined function `f` only steer by pointer parameter `k` (module essay)?
pub fn only_steers(f: Value, k: usize) -> bool {
    use_of_param(f, k, STEER_DEPTH, &mut Memo::default()) == Use::Steers
}

fn use_of_param(f: Value, k: usize, depth: u32, memo: &mut Memo) -> Use {
    if f.is_declaration() || depth == 0 {
        return Use::Escapes;
    }
    if let Some(&known) = memo.get(&(f, k)) {
        return known;
    }
    memo.insert((f, k), Use::Escapes);
    let answer = match f.params().get(k) {
        Some(&p) => walk(p, depth, memo),
        None => Use::Escapes,
    };
    memo.insert((f, k), answer);
    answer
}

/// Follows everything derived from parameter `p`, through its users.
fn walk(p: Value, depth: u32, memo: &mut Memo) -> Use {
    use Opcode::*;
    let mut derived: HashSet<Value> = HashSet::default();
    let mut work = vec![p];
    let mut returns = false;
    // A stack object a derived value is stored or copied into is derived itself (what is
    // loaded through it is), and so is its address.
    let own_stack = |v: Value| {
        let b = base_object(v);
        (b.opcode() == Some(LLVMAlloca)).then_some(b)
    };
    while let Some(v) = work.pop() {
        if !derived.insert(v) {
            continue;
        }
        for u in v.users() {
            let next = match u.opcode() {
                Some(LLVMICmp | LLVMFCmp | LLVMBr | LLVMSwitch) => None,
                Some(LLVMRet) => {
                    returns = true;
                    None
                }
                // Chosen by a derived condition, a select of other values is not derived
                // (as a phi after a branch on it is not).
                Some(LLVMSelect) if u.operand(1) != v && u.operand(2) != v => None,
                Some(LLVMStore) if u.operand(0) == v => match own_stack(u.operand(1)) {
                    Some(slot) => Some(slot),
                    None => return Use::Escapes,
                },
                // Written into derived memory: nothing leaves.
                Some(LLVMStore) => None,
                Some(LLVMAtomicRMW | LLVMAtomicCmpXchg) => return Use::Escapes,
                Some(LLVMCall | LLVMInvoke) if copies_from(u, v) => {
                    match own_stack(u.call_args()[0]) {
                        Some(slot) => Some(slot),
                        None => return Use::Escapes,
                    }
                }
                Some(LLVMCall | LLVMInvoke) => match call_use(u, v, depth, memo) {
                    Use::Escapes => return Use::Escapes,
                    Use::Returns if !u.ty().is_void() => Some(u),
                    _ => None,
                },
                Some(_) if u.ty().is_void() => return Use::Escapes,
                Some(_) => Some(u),
                None => return Use::Escapes,
            };
            work.extend(next);
        }
    }
    if returns {
        Use::Returns
    } else {
        Use::Steers
    }
}

/// Is call `u` a memory copy out of `v`?
fn copies_from(u: Value, v: Value) -> bool {
    matches!(classify(u), CallKind::Memcpy | CallKind::Memmove) && u.call_args().get(1) == Some(&v)
}

/// What call `u` (not a copy out of `v`) does with derived value `v` among its operands:
/// a memory copy or set given its address or length moves nothing derived, a math function
/// returns it (given memory, it may write it there), a defined callee is walked for each
/// argument `v` is passed as.
fn call_use(u: Value, v: Value, depth: u32, memo: &mut Memo) -> Use {
    if u.is_lifetime_marker() {
        return Use::Steers;
    }
    if u.called_value() == v {
        return Use::Escapes;
    }
    let args = u.call_args();
    match classify(u) {
        // The byte a derived value sets goes where the walk does not follow.
        CallKind::Memset if args.get(1) == Some(&v) => Use::Escapes,
        CallKind::Memcpy | CallKind::Memmove | CallKind::Memset => Use::Steers,
        CallKind::Math(_) | CallKind::NoDerivative
            if args.iter().all(|a| !a.ty().is_pointer_like()) =>
        {
            Use::Returns
        }
        CallKind::Defined(g) => {
            let mut answer = Use::Steers;
            for (k, _) in args.iter().enumerate().filter(|(_, a)| **a == v) {
                match use_of_param(g, k, depth - 1, memo) {
                    Use::Escapes => return Use::Escapes,
                    Use::Returns => answer = Use::Returns,
                    Use::Steers => {}
                }
            }
            answer
        }
        _ => Use::Escapes,
    }
}
