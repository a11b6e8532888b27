//! Pointers read out of constant memory, and fresh memory a function hands back: the one
//! walk that both the keep-walk (`kept_pointers.rs`, in the caller's analysis) and the
//! transform's runtime activity (`audit::const_pointers`, in the callee that stores the
//! pointer) use, so that they agree by construction on which stores they take over.
//!
//! * [`constant_read_chain`] walks a pointer back to where it came from: through address
//!   arithmetic ([`pointer_base`]), `-O0` homes (a local slot stored once), and loads,
//!   any number of them (`c->w = r->m->s->l->w` is four, tests/c/1335), until it meets a
//!   root (an `enzyme_const` parameter). The loads taken are the chain; a cycle (a list
//!   walked `p = p->next`) ends the walk without a chain.
//! * [`is_returned_allocation`]: memory a function allocates and returns, and keeps
//!   nowhere else (a C constructor `ctx *make_c(r)`, tests/c/1336): its shadow is the one
//!   the caller's derivative receives with the returned pointer, so a constant pointer kept
//!   in it is kept where the caller reads it, as in memory the caller handed in. A node a
//!   container allocates and links into its table (tests/cxx/80) is kept elsewhere too,
//!   and does not count.
//! * [`immutable_memory_pointer`]: the same walk from roots that are not parameters: a
//!   global without a shadow (a `static const double` table), or what a function given
//!   no pointer returns out of one (rec36).

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::globals::{
    extracted_returned_arg, global_needs_shadow, return_sources, returned_param, returned_values,
    returns_fresh_memory, strip_offsets,
};
use super::int_bits::is_unaddressable;
use super::kept_pointers::stores_param;
use super::local_stores::single_store_local;
use crate::calls::{classify, CallKind};

/// How many calls deep a returned argument is followed ([`pointer_base`]).
const RETURNED_PARAM_DEPTH: u32 = 2;

/// The pointer an address is computed from: through GEPs and pointer casts (instructions
/// or constant expressions).
pub fn base_object(mut v: Value) -> Value {
    for _ in 0..32 {
        let op = v.opcode().or_else(|| v.const_opcode());
        match op {
            Some(Opcode::LLVMGetElementPtr)
            | Some(Opcode::LLVMBitCast)
            | Some(Opcode::LLVMAddrSpaceCast) => v = v.operand(0),
            _ => break,
        }
    }
    v
}

/// The object a pointer `v` points into: its [`base_object`], also through calls of
/// functions that return one of their arguments (`returned_param`: Eigen's `Map`
/// constructor stores `cast_to_pointer_type(data)`), through one pointer of a call's
/// aggregate result that the callee always takes from one argument
/// (`extracted_returned_arg`: ndarray's `stride_offset` of zipped views), and through a
/// select or phi whose other choices address nothing (ndarray's dangling pointer of an
/// empty view).
pub fn pointer_base(v: Value) -> Value {
    let mut base = base_object(v);
    for _ in 0..4 {
        let next = match base.opcode() {
            Some(Opcode::LLVMCall) => match classify(base) {
                CallKind::Defined(f) => returned_param(f, RETURNED_PARAM_DEPTH)
                    .and_then(|k| base.call_args().get(k).copied()),
                _ => None,
            },
            Some(Opcode::LLVMExtractValue) => extracted_returned_arg(base),
            Some(Opcode::LLVMSelect | Opcode::LLVMPHI) => {
                let choices: Vec<Value> = if base.opcode() == Some(Opcode::LLVMSelect) {
                    vec![base.operand(1), base.operand(2)]
                } else {
                    base.incoming().into_iter().map(|(x, _)| x).collect()
                };
                let mut real = choices.into_iter().filter(|c| !is_unaddressable(*c));
                match (real.next(), real.next()) {
                    (Some(c), None) => Some(c),
                    _ => None,
                }
            }
            _ => None,
        };
        match next {
            Some(n) => base = base_object(n),
            None => break,
        }
    }
    base
}

/// [`pointer_base`], also out of `-O0` homes: a pointer loaded from a local slot that is
/// stored once is the value stored there.
fn source_of(v: Value) -> Value {
    let mut b = pointer_base(v);
    for _ in 0..32 {
        let home = (b.opcode() == Some(Opcode::LLVMLoad))
            .then(|| single_store_local(b.operand(0)))
            .flatten();
        match home {
            Some(s) => b = pointer_base(s),
            None => break,
        }
    }
    b
}

/// The loads through which pointer `v` was read out of the memory of a root (`is_root`:
/// an `enzyme_const` parameter), outermost first: `[l->w, s->l, m->s, r->m]` for
/// `v = r->m->s->l->w`; empty when `v` points into a root itself; `None` when `v` does
/// not come from a root that way. No depth limit: every load is followed, each once.
pub fn constant_read_chain(v: Value, is_root: impl Fn(Value) -> bool) -> Option<Vec<Value>> {
    let mut l = source_of(v);
    let mut chain = Vec::new();
    let mut seen = HashSet::default();
    while !is_root(l) {
        if l.opcode() != Some(Opcode::LLVMLoad) || !l.ty().is_pointer() || !seen.insert(l) {
            return None;
        }
        chain.push(l);
        l = source_of(l.operand(0));
    }
    Some(chain)
}

/// How many calls deep [`immutable_memory_pointer`] follows a returned pointer.
const IMMUTABLE_CALL_DEPTH: u32 = 2;

/// Does pointer `v` point into memory that holds no derivative in any run, without being
/// an `enzyme_const` parameter's: a global without a shadow (`static const double
/// TABLE[]`, a constant struct) whose initializer addresses no global that has one
/// ([`immutable_global`]), an address computed from it, a pointer read out of such a
/// global any number of loads deep (`PTRS[k]`, `HOLD.tab` at -O0:
/// [`constant_read_chain`]), or what a function with IR returns that is given no pointer
/// and returns only such pointers (`const double *table_row(int k)`, two calls deep).
/// Stored into shadowed memory (a record's field), its shadow was null and a reader's
/// adjoint went through it (rec36, tests/c/1392); runtime activity makes it its own
/// shadow, as an `enzyme_const` parameter's.
pub fn immutable_memory_pointer(v: Value) -> bool {
    v.ty().is_pointer() && immutable_pointer(v, IMMUTABLE_CALL_DEPTH)
}

/// The pointers into immutable memory ([`immutable_memory_pointer`]) among what defined
/// function `f` returns, also as a field of a record it returns (`return_sources`: a
/// `pair mk(double s) { pair c = {TABLE, s}; return c; }` at -O0 returns the record
/// loaded from the slot `TABLE` was stored into, tests/c/1393).
pub fn returned_immutable_pointers(f: Value) -> Vec<Value> {
    return_sources(f)
        .into_iter()
        .filter(|v| immutable_memory_pointer(*v))
        .collect()
}

fn immutable_pointer(v: Value, depth: u32) -> bool {
    constant_read_chain(v, |b| immutable_root(b, depth)).is_some()
}

/// A root of [`immutable_memory_pointer`]'s walk.
fn immutable_root(b: Value, depth: u32) -> bool {
    if b.is_global_variable() {
        return immutable_global(b);
    }
    if depth == 0 || b.opcode() != Some(Opcode::LLVMCall) {
        return false;
    }
    let CallKind::Defined(g) = classify(b) else {
        return false;
    };
    let rets = returned_values(g);
    !b.call_args().iter().any(|a| a.ty().is_pointer())
        && !rets.is_empty()
        && rets.iter().all(|r| immutable_pointer(*r, depth - 1))
}

/// Is `g` a constant global (LLVM `constant`) whose initializer, and the initializers of
/// the globals it addresses, address only constant globals (what is read out of it is
/// immutable too)? A mutable global without a shadow does not count: one declared
/// inactive (`__enzyme_inactive_global`) may hold, at run time, a pointer to memory whose
/// adjoints must not be added into it (tests/c/674 stops with a message there). A
/// declaration holding pointers does not count either (its pointers are not known).
fn immutable_global(g: Value) -> bool {
    let mut work = vec![(g, 0u32)];
    let mut seen = HashSet::default();
    while let Some((v, depth)) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        // A constant's operands, not a walk through the program: a few dozen at most.
        if seen.len() > 256 {
            return false;
        }
        if v.is_global_variable() {
            if !v.is_global_constant() || global_needs_shadow(v) {
                return false;
            }
            match v.initializer() {
                Some(init) => work.push((init, 0)),
                None if v.global_value_type().contains_pointer() => return false,
                None => {}
            }
        } else if depth < 8 && !v.is_function() {
            work.extend((0..v.num_operands()).map(|k| (v.operand(k), depth + 1)));
        }
    }
    true
}

/// Does address `p` point into memory its function allocates (`malloc`, `calloc`,
/// `realloc`, `operator new`, or a function returning such memory) and returns, and keeps nowhere else: no store of its
/// address, no call that keeps it (`stores_param`)? Also through the `-O0` home the
/// allocation is kept in.
pub fn is_returned_allocation(p: Value) -> bool {
    let a = source_of(strip_offsets(p));
    let allocated = a.opcode() == Some(Opcode::LLVMCall)
        && match classify(a) {
            CallKind::Malloc | CallKind::Calloc | CallKind::Realloc => true,
            CallKind::Defined(g) => returns_fresh_memory(g, RETURNED_PARAM_DEPTH),
            _ => false,
        };
    if !allocated {
        return false;
    }
    let f = a.parent_function();
    return_sources(f).contains(&a) && !escapes(a)
}

/// Is the address `a` (an allocation) stored anywhere but its `-O0` home, or given to a
/// call that may keep it?
fn escapes(a: Value) -> bool {
    let mut work = vec![a];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if seen.len() > 256 {
            return true;
        }
        if !seen.insert(v) {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(
                    Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast,
                ) if u.operand(0) == v => work.push(u),
                Some(Opcode::LLVMLoad | Opcode::LLVMRet | Opcode::LLVMICmp) => {}
                Some(Opcode::LLVMStore) if u.operand(0) != v => {}
                // Its `-O0` home: followed through the home's loads.
                Some(Opcode::LLVMStore) if single_store_local(u.operand(1)) == Some(v) => work
                    .extend(
                        u.operand(1)
                            .users()
                            .into_iter()
                            .filter(|w| w.opcode() == Some(Opcode::LLVMLoad)),
                    ),
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let args = u.call_args();
                    let kept = match classify(u) {
                        CallKind::Free | CallKind::NoDerivative | CallKind::InactiveExternal => {
                            false
                        }
                        // They move the bytes it points to, not its address.
                        CallKind::Memset | CallKind::Memcpy | CallKind::Memmove => false,
                        CallKind::Defined(g) => args
                            .iter()
                            .enumerate()
                            .any(|(j, x)| *x == v && stores_param(g, j, RETURNED_PARAM_DEPTH)),
                        _ => true,
                    };
                    if kept {
                        return true;
                    }
                }
                _ => return true,
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::kept_pointers::{stores_param_or_pointer_in_it, HandedIn};
    use super::*;
    use ferrozyme_llvm::Module;
    use inkwell::context::Context;

    /// tests/c/1335 (four loads, optimized and at -O0), c/1336 (a C constructor), a
    /// container's node linked into its table (tests/cxx/80), a list walked in a loop.
    const IR: &str = r#"
define void @init_c4(ptr %c, ptr %r) {
  %mp = getelementptr i8, ptr %r, i64 8
  %m = load ptr, ptr %mp
  %sp = getelementptr i8, ptr %m, i64 8
  %s = load ptr, ptr %sp
  %lp = getelementptr i8, ptr %s, i64 8
  %l = load ptr, ptr %lp
  %w = load ptr, ptr %l
  store ptr %w, ptr %c
  ret void
}
define void @init_c4_o0(ptr %0, ptr %1) {
  %cs = alloca ptr
  %rs = alloca ptr
  store ptr %0, ptr %cs
  store ptr %1, ptr %rs
  %r = load ptr, ptr %rs
  %mp = getelementptr i8, ptr %r, i64 8
  %m = load ptr, ptr %mp
  %sp = getelementptr i8, ptr %m, i64 8
  %s = load ptr, ptr %sp
  %lp = getelementptr i8, ptr %s, i64 8
  %l = load ptr, ptr %lp
  %w = load ptr, ptr %l
  %c = load ptr, ptr %cs
  store ptr %w, ptr %c
  ret void
}
define ptr @make_c(ptr %r) {
  %c = call ptr @malloc(i64 16)
  %wp = getelementptr i8, ptr %r, i64 8
  %w = load ptr, ptr %wp
  store ptr %w, ptr %c
  ret ptr %c
}
define ptr @make_c_o0(ptr %0) {
  %rs = alloca ptr
  %cs = alloca ptr
  store ptr %0, ptr %rs
  %n = call ptr @malloc(i64 16)
  store ptr %n, ptr %cs
  %r = load ptr, ptr %rs
  %w = load ptr, ptr %r
  %c = load ptr, ptr %cs
  store ptr %w, ptr %c
  %c2 = load ptr, ptr %cs
  ret ptr %c2
}
define ptr @node_linked(ptr %table, ptr %key) {
  %n = call ptr @malloc(i64 32)
  %k = load ptr, ptr %key
  store ptr %k, ptr %n
  store ptr %n, ptr %table
  ret ptr %n
}
define void @walk_list(ptr %c, ptr %head) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %head, %entry ], [ %next, %loop ]
  %next = load ptr, ptr %p
  %done = icmp eq ptr %next, null
  br i1 %done, label %out, label %loop
out:
  store ptr %next, ptr %c
  ret void
}
declare ptr @malloc(i64)
"#;

    #[test]
    fn chains_and_returned_allocations() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        let stored = |g: Value| {
            g.instructions()
                .filter(|i| i.opcode() == Some(Opcode::LLVMStore))
                .last()
                .expect("a store")
        };
        let param = |g: Value, k: usize| g.params()[k];
        // four loads deep, outermost first; also through -O0 homes
        for g in ["init_c4", "init_c4_o0"] {
            let (g, r) = (f(g), param(f(g), 1));
            let chain = constant_read_chain(stored(g).operand(0), |b| b == r).expect("a chain");
            assert_eq!(chain.len(), 4);
            assert_eq!(chain[0], stored(g).operand(0));
            // not from the other parameter
            let c = param(g, 0);
            assert!(constant_read_chain(stored(g).operand(0), |b| b == c).is_none());
            // the root itself: an empty chain
            assert_eq!(constant_read_chain(r, |b| b == r), Some(Vec::new()));
        }
        // a list walked in a loop: the phi merges the root with what is read, no chain
        let wl = f("walk_list");
        let head = param(wl, 1);
        assert!(constant_read_chain(stored(wl).operand(0), |b| b == head).is_none());
        // memory a C constructor allocates and returns (also at -O0); not a node linked
        // into a table, nor a parameter's memory
        assert!(is_returned_allocation(stored(f("make_c")).operand(1)));
        assert!(is_returned_allocation(stored(f("make_c_o0")).operand(1)));
        let linked = f("node_linked");
        let first_store = linked
            .instructions()
            .find(|i| i.opcode() == Some(Opcode::LLVMStore))
            .expect("a store");
        assert!(!is_returned_allocation(first_store.operand(1)));
        assert!(!is_returned_allocation(stored(f("init_c4")).operand(1)));
        // the keep-walk: kept in the returned allocation only when the caller takes the
        // result with a shadow
        let returned = |result| HandedIn {
            params: &[false],
            result,
        };
        assert!(stores_param_or_pointer_in_it(
            f("make_c"),
            0,
            0,
            returned(true)
        ));
        assert!(stores_param_or_pointer_in_it(
            f("make_c_o0"),
            0,
            0,
            returned(true)
        ));
        assert!(!stores_param_or_pointer_in_it(
            f("make_c"),
            0,
            0,
            returned(false)
        ));
        let two = HandedIn {
            params: &[false, false],
            result: true,
        };
        assert!(!stores_param_or_pointer_in_it(f("node_linked"), 1, 0, two));
        // four loads deep into memory handed in (tests/c/1335)
        let c_in = HandedIn {
            params: &[true, false],
            result: false,
        };
        assert!(stores_param_or_pointer_in_it(f("init_c4_o0"), 1, 0, c_in));
    }
}
