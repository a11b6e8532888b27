//! Does a function keep a pointer it is given, or one it reads out of the memory it is
//! given, where its caller can read it again? The walk behind [`stores_param`] (Eigen's
//! `Map` keeping its data pointer) and [`stores_param_or_pointer_in_it`] (an initializer
//! keeping a pointer found in an `enzyme_const` registry, tests/c/1301-1303, 1335; a C
//! constructor keeping one in the context it allocates and returns, tests/c/1336),
//! through -O0 stack slots, callees and structs returned by value. Its unit tests share
//! the reduced IR of `globals.rs`'s tests.
//!
//! A pointer read out of the parameter's memory counts as kept only where
//! `constant_reads::constant_read_chain` leads the stored value back to the parameter:
//! the walk the transform's runtime activity uses to take such a store over in the
//! callee (`audit::const_pointers`), so that the caller guards its later reads exactly
//! where the callee gives the pointer itself as its shadow.

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::constant_reads::{constant_read_chain, is_returned_allocation};
use super::globals::{returned_param, strip_offsets};
use crate::calls::{classify, CallKind};

/// Does defined function `f` store its parameter `k` (or an address computed from it)
/// into memory other than its own stack objects, itself or through the defined functions
/// it passes it to (`depth` levels deep)? A constructor keeping a pointer it was given
/// (Eigen's `MapBase(dataPtr, size)` storing `m_data`) does, also when the address
/// stored is a phi or select of it and another pointer (ndarray's `from_shape_impl`:
/// the view's data pointer, or null on its error path; front19). Kept in a stack object
/// of the walk (`f`'s, or one `f` passes down), it is followed out of it again: copied
/// into other memory, or returned inside a struct by value (see [`Kind`]).
pub fn stores_param(f: Value, k: usize, depth: u32) -> bool {
    let walk = Walk {
        follow_reads: false,
        mem: &[],
        result_handed: false,
        top: true,
    };
    stores_from_param(f, &[(k, 0, Kind::Value)], depth, &walk) == Found::Kept
}

/// Where the caller of a [`stores_param_or_pointer_in_it`] walk has shadows.
#[derive(Clone, Copy)]
pub struct HandedIn<'a> {
    /// Per argument: does it point to memory the caller handed in with a shadow?
    pub params: &'a [bool],
    /// Does the caller receive the returned pointer with a shadow (the call's result is
    /// shadowed)? Memory the function allocates and returns then counts as handed in
    /// (`constant_reads::is_returned_allocation`).
    pub result: bool,
}

/// [`stores_param`], or a pointer it reads out of the memory the parameter points to (any
/// number of loads deep: `c->w = r->weights`, `c->w = r->m->s->l->w`) and keeps in memory
/// the caller handed in with a shadow (`handed`), also through the defined functions it
/// passes both to: an initializer keeping a pointer found in a constant registry
/// (tests/c/1301, 1302, 1335), or a constructor keeping one in the memory it allocates
/// and returns (tests/c/1336); not a container keeping one in a node it allocates and
/// links into its table (tests/cxx/80), also when a callee (the key's move constructor)
/// gets that node as its own parameter.
pub fn stores_param_or_pointer_in_it(f: Value, k: usize, depth: u32, handed: HandedIn) -> bool {
    let mem: Vec<Mem> = handed
        .params
        .iter()
        .map(|&b| if b { Mem::Handed } else { Mem::Other })
        .collect();
    let walk = Walk {
        follow_reads: true,
        mem: &mem,
        result_handed: handed.result,
        top: true,
    };
    stores_from_param(f, &[(k, 0, Kind::Value)], depth, &walk) == Found::Kept
}

/// What [`stores_from_param`] follows.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    /// The parameter, an address computed from it, or a pointer read out of its memory.
    Value,
    /// Such a value loaded back out of a stack object it was kept in (a pointer, or a
    /// struct holding one: clang -O0 returns valarray's expression closure `{double,
    /// const valarray *}` by value, tests/cxx/380): returned, the caller gets it.
    Reloaded,
    /// A stack object of the walk that may hold such a value (a comparator object
    /// holding references, `std::sort`'s helpers at -O0, tests/cxx/317).
    Holds,
}

/// Where an address points, for [`stores_from_param`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mem {
    /// Memory the caller handed in with a shadow: a pointer read out counts as kept there.
    Handed,
    /// A stack object of the walk (the function's own, or one a caller in the walk
    /// passed down): what is kept there is followed further.
    Private,
    /// Anything else: the parameter itself counts as kept there.
    Other,
}

/// What one [`stores_from_param`] walk found.
#[derive(Clone, PartialEq, Eq)]
enum Found {
    Kept,
    /// A callee's answer, for its caller to follow: whether it returns the value inside
    /// one loaded out of a stack object (the call's result), the loads taken to reach the
    /// values it returns as they are (a pointer read out of its parameter:
    /// `std::vector::data()` returns `this->_M_start`, which `std::span(const vector &)`
    /// keeps, tests/cxx/423), and the parameters pointing to the caller's stack objects it
    /// kept the value in (with the loads taken).
    Follow {
        returned: bool,
        returns_read: Vec<u32>,
        into: Vec<(usize, u32)>,
    },
}

/// The context of a [`stores_from_param`] walk.
struct Walk<'a> {
    /// Are pointers read out of the parameter's memory followed (any number of loads)?
    follow_reads: bool,
    /// Per parameter: where it points.
    mem: &'a [Mem],
    /// Does memory the function allocates and returns count as handed in?
    result_handed: bool,
    /// The function the caller hands the parameter to (what it returns, the caller gets).
    top: bool,
}

/// The walk behind [`stores_param`] and [`stores_param_or_pointer_in_it`]: from the
/// parameters in `start` (index, loads taken to reach it, kind), does `f` keep the
/// value somewhere its caller can read it?
fn stores_from_param(f: Value, start: &[(usize, u32, Kind)], depth: u32, walk: &Walk) -> Found {
    use Opcode::*;
    if f.is_declaration() {
        return Found::Follow {
            returned: false,
            returns_read: Vec::new(),
            into: Vec::new(),
        };
    }
    let params = f.params();
    let mem_of = |a: Value| -> Mem {
        if strip_offsets(a).opcode() == Some(LLVMAlloca) {
            return Mem::Private;
        }
        if walk.result_handed && is_returned_allocation(a) {
            return Mem::Handed;
        }
        param_of_memory(a)
            .and_then(|q| params.iter().position(|x| *x == q))
            .and_then(|j| walk.mem.get(j).copied())
            .unwrap_or(Mem::Other)
    };
    // A value read `reads` loads out of the parameter, stored into memory `m`.
    let kept = |m: Mem, reads: u32| m == Mem::Handed || (m == Mem::Other && reads == 0);
    // The same for a value `v` stored itself: read out of the parameter, it counts only
    // where the transform's walk leads it back there (see the module's opening).
    let roots: Vec<Value> = start
        .iter()
        .filter_map(|&(k, _, _)| params.get(k).copied())
        .collect();
    let kept_value = |m: Mem, reads: u32, v: Value| {
        kept(m, reads) && (reads == 0 || constant_read_chain(v, |b| roots.contains(&b)).is_some())
    };
    let mut work: Vec<(Value, u32, Kind)> = start
        .iter()
        .filter_map(|&(k, r, kind)| params.get(k).map(|p| (*p, r, kind)))
        .collect();
    let mut seen = HashSet::default();
    let mut returned = false;
    let mut returns_read: Vec<u32> = Vec::new();
    let mut into: Vec<(usize, u32)> = Vec::new();
    // A value kept in a stack object at `slot`: followed out of it, and reported to the
    // caller when the object is the caller's.
    let mut keep_private = |slot: Value, reads: u32, work: &mut Vec<(Value, u32, Kind)>| {
        let b = strip_offsets(slot);
        work.push((b, reads, Kind::Holds));
        if let Some(j) = param_of_memory(slot).and_then(|q| params.iter().position(|x| *x == q)) {
            into.push((j, reads));
        }
    };
    while let Some((v, reads, kind)) = work.pop() {
        if !seen.insert((v, kind)) || seen.len() > 256 {
            continue;
        }
        let holds = kind == Kind::Holds;
        for u in v.users() {
            match u.opcode() {
                Some(LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast) if u.operand(0) == v => {
                    work.push((u, reads, kind))
                }
                Some(LLVMPHI) => work.push((u, reads, kind)),
                Some(LLVMSelect) if u.operand(0) != v => work.push((u, reads, kind)),
                Some(LLVMLoad) if holds && (u.ty().is_pointer() || u.ty().contains_pointer()) => {
                    // A parameter's -O0 home gives back the value itself.
                    let home = single_purpose_slot(strip_offsets(v));
                    let k = if home { Kind::Value } else { Kind::Reloaded };
                    work.push((u, reads, k))
                }
                // The stack object's address kept in a -O0 home (a parameter's slot) is
                // read back as the same object; stored anywhere else it escapes.
                Some(LLVMStore) if holds && u.operand(0) == v => {
                    let slot = u.operand(1);
                    if !single_purpose_slot(slot) {
                        return Found::Kept;
                    }
                    work.extend(
                        slot.users()
                            .into_iter()
                            .filter(|w| w.opcode() == Some(LLVMLoad))
                            .map(|w| (w, reads, Kind::Holds)),
                    );
                }
                Some(LLVMLoad) if !holds && walk.follow_reads && u.ty().is_pointer() => {
                    work.push((u, reads + 1, Kind::Value))
                }
                Some(LLVMExtractValue) if !holds => work.push((u, reads, kind)),
                // Put into a record, or a record holding it given more fields (numba's
                // array struct, built by `insertvalue`s and stored whole: rec35).
                Some(LLVMInsertValue) if !holds => work.push((u, reads, kind)),
                Some(LLVMRet) if kind == Kind::Reloaded => {
                    if walk.top {
                        return Found::Kept;
                    }
                    returned = true;
                }
                // The value itself returned (a pointer read out of the parameter, or the
                // parameter): the caller follows the call's result.
                Some(LLVMRet) if kind == Kind::Value && !walk.top && walk.follow_reads => {
                    if !returns_read.contains(&reads) {
                        returns_read.push(reads);
                    }
                }
                Some(LLVMStore) if !holds && u.operand(0) == v => {
                    let slot = u.operand(1);
                    match mem_of(slot) {
                        Mem::Private => keep_private(slot, reads, &mut work),
                        m if kept_value(m, reads, v) => return Found::Kept,
                        _ => {}
                    }
                }
                Some(LLVMCall | LLVMInvoke) => {
                    let args = u.call_args();
                    let kind_of_call = classify(u);
                    if holds && matches!(kind_of_call, CallKind::Memcpy | CallKind::Memmove) {
                        if args.get(1) == Some(&v) {
                            match mem_of(args[0]) {
                                Mem::Private => keep_private(args[0], reads, &mut work),
                                m if kept(m, reads) => return Found::Kept,
                                _ => {}
                            }
                        }
                        continue;
                    }
                    let CallKind::Defined(g) = kind_of_call else {
                        continue;
                    };
                    for (j, _) in args.iter().enumerate().filter(|(_, a)| **a == v) {
                        if depth > 0 && g != f {
                            let mem_g: Vec<Mem> = args.iter().map(|a| mem_of(*a)).collect();
                            // A constructor's result this function returns in turn.
                            let inner = Walk {
                                follow_reads: walk.follow_reads,
                                mem: &mem_g,
                                result_handed: walk.result_handed && is_returned_allocation(u),
                                top: false,
                            };
                            let k = if holds { Kind::Holds } else { Kind::Value };
                            let Found::Follow {
                                returned,
                                returns_read,
                                into: kept_in,
                            } = stores_from_param(g, &[(j, reads, k)], depth - 1, &inner)
                            else {
                                return Found::Kept;
                            };
                            if returned {
                                work.push((u, reads, Kind::Reloaded));
                            }
                            work.extend(returns_read.into_iter().map(|r| (u, r, Kind::Value)));
                            for (i, r) in kept_in {
                                if let Some(&a) = args.get(i) {
                                    keep_private(a, r, &mut work);
                                }
                            }
                        }
                        if !holds && returned_param(g, 1) == Some(j) {
                            work.push((u, reads, kind));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Found::Follow {
        returned,
        returns_read,
        into,
    }
}

/// Is `slot` a stack slot only loaded and stored into (a parameter's or a local's -O0
/// home), whose address goes nowhere else?
fn single_purpose_slot(slot: Value) -> bool {
    slot.opcode() == Some(Opcode::LLVMAlloca)
        && slot.users().into_iter().all(|w| match w.opcode() {
            Some(Opcode::LLVMLoad) => true,
            Some(Opcode::LLVMStore) => w.operand(1) == slot && w.operand(0) != slot,
            _ => false,
        })
}

/// Does address `v` point into memory a parameter points to: the parameter plus offsets,
/// also when read back from the -O0 stack slot the parameter was stored into?
pub fn is_param_memory(v: Value) -> bool {
    param_of_memory(v).is_some()
}

/// The parameter whose memory address `v` points into (see [`is_param_memory`]).
fn param_of_memory(v: Value) -> Option<Value> {
    let b = strip_offsets(v);
    if b.is_argument() {
        return Some(b);
    }
    if b.opcode() != Some(Opcode::LLVMLoad) {
        return None;
    }
    super::local_stores::single_store_local(b.operand(0)).filter(|x| x.is_argument())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrozyme_llvm::Module;
    use inkwell::context::Context;

    /// `std::span<const double>(const std::vector<double> &)` at -O0, reduced
    /// (tests/cxx/423): `ranges::data(v)` returns the pointer `vector::data()` reads out
    /// of the vector, and the span's other constructor keeps it.
    const IR: &str = r#"
define ptr @data(ptr %v) {
  %p = load ptr, ptr %v
  ret ptr %p
}
define ptr @cust_data(ptr %e, ptr %v) {
  %p = call ptr @data(ptr %v)
  ret ptr %p
}
define void @span_from_ptr(ptr %s, ptr %p, i64 %n) {
  store ptr %p, ptr %s
  ret void
}
define void @span_from_vec(ptr %s, ptr %v) {
  %p = call ptr @cust_data(ptr null, ptr %v)
  call void @span_from_ptr(ptr %s, ptr %p, i64 4)
  ret void
}
"#;

    #[test]
    fn follows_a_pointer_a_callee_reads_out_and_returns() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = m.function("span_from_vec").expect("defined");
        let (shadowed, not_shadowed) = ([true, false], [false, false]);
        let handed = |s: bool| HandedIn {
            params: if s { &shadowed } else { &not_shadowed },
            result: false,
        };
        // kept in the span the caller hands in with a shadow
        assert!(stores_param_or_pointer_in_it(f, 1, 3, handed(true)));
        // a pointer read out of the vector, kept in memory without a shadow: not kept
        assert!(!stores_param_or_pointer_in_it(f, 1, 3, handed(false)));
        // too shallow a walk does not reach the store
        assert!(!stores_param_or_pointer_in_it(f, 1, 0, handed(true)));
        // the vector itself is not stored
        assert!(!stores_param(f, 1, 3));
    }
}
