//! Which pointer parameters of a function may receive the address of a mutable global
//! that holds pointers (`get(&G, i)` with `struct { double *data; int n; } G`), directly
//! or handed down through the parameters of other functions (`f` calls `layer(&G)`,
//! `layer(m)` calls `dot(m)`, `dot` reads `m->w`).
//!
//! Such a global's shadow is zero-filled by the pass: a pointer the program stored in it
//! before the differentiated call has a null shadow, unless it is an allocator's result
//! (`G.data = malloc(...)` in `main`: `outside_allocations.rs` gives it a zeroed shadow
//! allocation there). The generated code stops with a message when it reads such a pointer whose shadow is
//! null (reverse mode: `reverse/forward.rs`, `guard_global_shadow`; forward mode:
//! `tangent/inst.rs`, `tangent_load`); this extends the guard from loads whose address is
//! the global itself to loads, in a callee, through a parameter that may receive the
//! global. Without it the reverse sweep added adjoints through the null shadow and the
//! program crashed (tests/c/656 one call deep, tests/c/660 two and three deep and through
//! recursion); forward mode read tangents through it and crashed too. The same holds one
//! level of memory further: `&G` stored into a local struct or a heap block, and the
//! pointer read back from there (`h.s = &G; get(&h)` with `get` reading `h->s->data`,
//! tests/c/673): loads through such a pointer are guarded too, in the function that
//! stored `&G` and in callees handed that object.
//!
//! A global the user declared inactive (`__enzyme_inactive_global`) has no shadow at
//! all: the shadow of its address is null, so `h->s = &G` stores null into the heap
//! block's shadow, and a callee whose loads through `h->s` are active read the shadow of
//! `h->s->data` through that null pointer (tests/c/674 crashed at every level). Using `&G`
//! as its own shadow (Enzyme's choice) is not safe here: activity does not know the
//! pointer read back from the block is G's, so the reverse sweep would add adjoints into
//! G's own data. The load of `h->s` itself is guarded instead (its shadow is null and its
//! value is not), with advice that fits an inactive global ([`Guarded::inactive`]).
//!
//! The pairs (function, parameter) that may receive a global are a fixed point over the
//! call graph, computed backwards from the parameter a load goes through: a
//! worklist of pairs, each visited once (recursion in the program is a cycle of pairs, not
//! a deeper search), so the Rust stack never follows the program's call chain; an argument
//! reloaded from clang -O0's local copy of a parameter counts as that parameter. Only loads
//! of pointers through such parameters are guarded: code elsewhere is unchanged. A function
//! whose address is taken may be called through any call through a pointer in the user's
//! code, so those count as its call sites too; generated functions have no call sites in
//! the user's code, so their loads are not guarded.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::global_needs_shadow;
use ferrozyme_llvm::{Builder, IntPredicate, Module, Value};

/// What [`global_passed_for`] found so far, kept for the pass's current drain
/// (`Support::global_args`, cleared with the call cycles when calls are replaced): the
/// answers by (function name, parameter), and for each call through a pointer in the
/// user's code, per argument, the globals and parameters it may be based on (no
/// instructions are kept).
#[derive(Default)]
pub(crate) struct Cache {
    answers: HashMap<(String, usize), Option<String>>,
    indirect: Option<Vec<Vec<Vec<Value>>>>,
}

/// The name of a shadowed global holding pointers whose address (or a constant offset
/// into it) may reach argument `k` of the function named `fname`: a direct call passes
/// it, or passes a parameter of its caller that may receive it, at any depth.
pub(crate) fn global_passed_for(
    m: Module,
    cache: &mut Cache,
    fname: &str,
    k: usize,
) -> Option<String> {
    let key = (fname.to_string(), k);
    if let Some(a) = cache.answers.get(&key) {
        return a.clone();
    }
    let a = search(m, cache, fname, k);
    cache.answers.insert(key, a.clone());
    a
}

/// The worklist over (function, parameter) pairs behind [`global_passed_for`].
fn search(m: Module, cache: &mut Cache, fname: &str, k: usize) -> Option<String> {
    let f = m.function(fname)?;
    let mut seen: HashSet<(Value, usize)> = HashSet::from_iter([(f, k)]);
    let mut work = vec![(f, k)];
    while let Some((f, k)) = work.pop() {
        let direct = |u: &Value| u.is_call() && u.called_function() == Some(f);
        let users = f.users();
        let mut from: Vec<Value> = users
            .iter()
            .filter(|u| direct(u))
            .filter_map(|u| u.call_args().get(k).copied())
            .flat_map(sources)
            .collect();
        if users.iter().any(|u| !direct(u) && !is_ad_marker(*u)) {
            // The address is taken: any call through a pointer may call `f`.
            let ind = cache
                .indirect
                .get_or_insert_with(|| indirect_call_sources(m));
            from.extend(ind.iter().filter_map(|args| args.get(k)).flatten());
        }
        for g in from {
            if shadowed_pointer_global(g) {
                return Some(g.name());
            }
            if let Some(g) = returned_global(g) {
                return Some(g.name());
            }
            if g.is_argument() {
                let caller = g.parent_function();
                if let Some(j) = caller.params().iter().position(|p| *p == g) {
                    if seen.insert((caller, j)) {
                        work.push((caller, j));
                    }
                }
            }
        }
    }
    None
}

/// A call of Enzyme's ABI (`__enzyme_autodiff(f, ...)`): naming the function to
/// differentiate there is no call of it through a pointer.
fn is_ad_marker(u: Value) -> bool {
    u.is_call()
        && u.called_function()
            .is_some_and(|c| c.is_declaration() && c.name().starts_with("__enzyme_"))
}

/// For each call through a pointer in the user's code (not in functions the pass
/// generated), per argument, the globals and parameters it may be based on.
fn indirect_call_sources(m: Module) -> Vec<Vec<Vec<Value>>> {
    m.functions()
        .into_iter()
        .filter(|f| !f.is_declaration() && !crate::generated::is_generated(*f))
        .flat_map(|f| f.blocks())
        .flat_map(|b| b.instructions())
        .filter(|i| i.is_call() && i.called_function().is_none() && !i.is_inline_asm_call())
        .map(|i| {
            i.call_args()
                .into_iter()
                .map(|a| {
                    sources(a)
                        .into_iter()
                        .filter(|v| v.is_global_variable() || v.is_argument())
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The objects an argument of a call in the user's (unoptimized) code may be based on:
/// its base object, or, when it is reloaded from a local variable (clang -O0 keeps each
/// parameter in an `alloca`: `store ptr %m, ptr %m.addr` ... `load ptr, ptr %m.addr`),
/// the base objects of every value stored into that variable.
fn sources(a: Value) -> Vec<Value> {
    let b = crate::common::base_object(a);
    if b.opcode() != Some(ferrozyme_llvm::Opcode::LLVMLoad) {
        return vec![b];
    }
    let slot = crate::common::base_object(b.operand(0));
    if slot.opcode() != Some(ferrozyme_llvm::Opcode::LLVMAlloca) {
        return vec![b];
    }
    slot.users()
        .into_iter()
        .filter(|u| u.opcode() == Some(ferrozyme_llvm::Opcode::LLVMStore) && u.operand(1) == slot)
        .map(|st| crate::common::base_object(st.operand(0)))
        .collect()
}

/// A global a guarded load reads through, and why its shadow may be null.
pub(crate) struct Guarded {
    /// The global's name, for the message.
    pub name: String,
    /// The load reads `&G` of a global declared inactive back from memory (the shadow of
    /// that pointer is null); otherwise it reads a pointer held in a shadowed global
    /// (the shadow is null when the program set the pointer outside the derivative).
    pub inactive: bool,
}

/// Which globals a search of stored addresses looks for.
#[derive(Clone, Copy)]
enum Kind {
    /// Mutable globals holding pointers, whose shadow the pass zero-fills.
    Shadowed,
    /// Globals the user declared inactive: no shadow, the shadow of `&G` is null.
    Inactive,
}

impl Kind {
    fn matches(self, g: Value) -> bool {
        match self {
            Kind::Shadowed => shadowed_pointer_global(g),
            Kind::Inactive => {
                g.is_global_variable()
                    && !g.is_global_constant()
                    && ferrozyme_analysis::global_uses::declared_inactive(g)
            }
        }
    }
}

/// The global whose zero-filled shadow the pointer `load` in `p` (the working copy of
/// the function named `fname`) reads: the global itself, or the one that may reach the
/// pointer parameter its address is based on; or the inactive global whose address the load
/// reads back from memory (`h->s` after `h->s = &G`).
pub(crate) fn global_read_by(
    m: Module,
    cache: &mut Cache,
    p: Value,
    fname: &str,
    load: Value,
) -> Option<Guarded> {
    let shadowed = |name| Guarded {
        name,
        inactive: false,
    };
    if only_mpi_handle(load) {
        return None;
    }
    let addr = load.operand(0);
    let b = crate::common::base_object(addr);
    if b.is_global_variable() {
        return Some(shadowed(b.name()));
    }
    if let Some(g) = returned_global(b) {
        return Some(shadowed(g.name()));
    }
    if b.is_argument() {
        let k = p.params().iter().position(|a| *a == b)?;
        if let Some(g) = global_passed_for(m, cache, fname, k) {
            return Some(shadowed(g));
        }
    } else if b.opcode() == Some(ferrozyme_llvm::Opcode::LLVMLoad) && b.ty().is_pointer() {
        // A pointer read from memory that may hold the global's address: a local struct
        // or a heap block the program stored `&G` into (`h.s = &G; get(&h)`, where `get`
        // reads `h->s->data`).
        if let Some(g) = held_in(m, cache, p, fname, b.operand(0), Kind::Shadowed) {
            return Some(shadowed(g));
        }
    }
    // The loaded pointer itself may be an inactive global's address stored into memory;
    // a pointer only used to read integers (`h->s->n`) never has its null shadow read
    // through, and stopping there would refuse a program that worked.
    if !accesses_beyond_integers(load) {
        return None;
    }
    let g = held_in(m, cache, p, fname, addr, Kind::Inactive)?;
    Some(Guarded {
        name: g,
        inactive: true,
    })
}

/// Is the pointer `v` only passed to MPI routines as a handle: a datatype, communicator or
/// reduction operation of a differentiated routine, or any argument of an inactive one
/// (`MPI_Type_vector(..., &column)` in `main`, `MPI_Send(u, 1, column, ...)` in the
/// differentiated code; Open MPI's handles are pointers)? Nothing reads through its
/// shadow, so a null one needs no guard (tests/mpi/20_type_vector_heat).
fn only_mpi_handle(v: Value) -> bool {
    use ferrozyme_rules::mpi::{handle_args, mpi_rule, MpiRule};
    let users = v.users();
    !users.is_empty()
        && users.iter().all(|u| {
            let Some(name) = u
                .is_call()
                .then(|| u.called_function())
                .flatten()
                .map(|f| f.name())
            else {
                return false;
            };
            let inactive = matches!(mpi_rule(&name), Some(MpiRule::Inactive { .. }));
            let handles = handle_args(&name);
            (inactive || !handles.is_empty())
                && u.call_args()
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| **a == v)
                    .all(|(k, _)| inactive || handles.contains(&k))
        })
}

/// Is the pointer `ptr` (or an address computed from it) used for anything but loads of
/// integers and comparisons: a load of a float or a pointer, a store, a call argument,
/// a merge with another pointer? Those may read or write through its shadow. Unknown
/// and very wide uses count as yes.
fn accesses_beyond_integers(ptr: Value) -> bool {
    use ferrozyme_llvm::Opcode::*;
    let mut work = vec![ptr];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 256 {
            return true;
        }
        for u in v.users() {
            match u.opcode() {
                Some(LLVMGetElementPtr) | Some(LLVMBitCast) => work.push(u),
                Some(LLVMLoad) if u.ty().is_integer() => {}
                Some(LLVMICmp) => {}
                _ => return true,
            }
        }
    }
    false
}

/// The global of `kind` whose address the program may have stored into the object the
/// address `at` (in `p`, the working copy of `fname`) points into: a local object or heap
/// block of `p`, or one a caller hands down through a parameter.
fn held_in(
    m: Module,
    cache: &mut Cache,
    p: Value,
    fname: &str,
    at: Value,
    kind: Kind,
) -> Option<String> {
    let held = crate::common::base_object(at);
    if held.is_argument() {
        let k = p.params().iter().position(|a| *a == held)?;
        return global_held_for(m, cache, fname, k, kind);
    }
    global_stored_into(held, kind)
}

/// The name of a global of `kind` whose address the program stores into the object
/// `obj` (an `alloca`, a heap block) in `obj`'s own function: a store whose address is
/// `obj` or a constant or variable offset into it, or a copy of a constant holding it.
fn global_stored_into(obj: Value, kind: Kind) -> Option<String> {
    let mut work = vec![obj];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 256 {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(ferrozyme_llvm::Opcode::LLVMGetElementPtr)
                | Some(ferrozyme_llvm::Opcode::LLVMBitCast) => work.push(u),
                Some(ferrozyme_llvm::Opcode::LLVMStore) if u.operand(1) == v => {
                    let g = crate::common::base_object(u.operand(0));
                    if kind.matches(g) {
                        return Some(g.name());
                    }
                }
                Some(ferrozyme_llvm::Opcode::LLVMCall) if is_copy_into(u, v) => {
                    if let Some(g) = global_in_copied_constant(u.call_args()[1], kind) {
                        return Some(g);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Is `call` a `memcpy`/`memmove` into `dst`?
fn is_copy_into(call: Value, dst: Value) -> bool {
    let copies = call.called_function().is_some_and(|c| {
        let n = c.name();
        n.starts_with("llvm.memcpy") || n.starts_with("llvm.memmove")
    });
    copies && call.call_args().first() == Some(&dst)
}

/// The global of `kind` whose address the constant that `src` is based on holds: clang
/// -O0 initialises `struct H h = {&G, 2.0}` by copying `{ ptr @G, double 2.0 }` from a
/// private constant (a few levels of constant expressions deep).
fn global_in_copied_constant(src: Value, kind: Kind) -> Option<String> {
    let c = crate::common::base_object(src);
    if !c.is_global_variable() || !c.is_global_constant() {
        return None;
    }
    let mut work = vec![(c.initializer()?, 0)];
    while let Some((v, depth)) = work.pop() {
        let g = crate::common::base_object(v);
        if g != c && kind.matches(g) {
            return Some(g.name());
        }
        if depth < 4 && !v.is_global_variable() && !v.is_function() {
            work.extend((0..v.num_operands()).map(|k| (v.operand(k), depth + 1)));
        }
    }
    None
}

/// The shadowed global holding pointers whose address the call `v` returns: an accessor
/// of a function-local static (`static const std::vector<double> &table()`, at -O0 a
/// call whose result reaches the vector's `operator[]`): the pointers the program stored
/// there before the derivative ran have null shadows (tests/cxx/500 crashed at -O0).
fn returned_global(v: Value) -> Option<Value> {
    let f = v.is_call().then(|| v.called_function()).flatten()?;
    if f.is_declaration() || !v.ty().is_pointer() {
        return None;
    }
    let mut found = None;
    for r in f
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(ferrozyme_llvm::Opcode::LLVMRet))
    {
        let g = crate::common::base_object(r.operand(0));
        if !shadowed_pointer_global(g) || found.is_some_and(|h| h != g) {
            return None;
        }
        found = Some(g);
    }
    found
}

/// A mutable global holding pointers whose shadow the pass zero-fills.
fn shadowed_pointer_global(g: Value) -> bool {
    g.is_global_variable() && g.global_value_type().contains_pointer() && global_needs_shadow(g)
}

/// The name of a shadowed global holding pointers whose address may be stored in the
/// memory argument `k` of the function named `fname` points to: a direct call passes an
/// object its caller stored `&G` into, or a parameter of its caller for which that holds,
/// at any depth (the walk of [`search`], one level of memory further; calls through
/// pointers are not followed).
fn global_held_for(
    m: Module,
    cache: &mut Cache,
    fname: &str,
    k: usize,
    kind: Kind,
) -> Option<String> {
    let tag = match kind {
        Kind::Shadowed => "held",
        Kind::Inactive => "held-inactive",
    };
    let key = (format!("{fname}\0{tag}"), k);
    if let Some(a) = cache.answers.get(&key) {
        return a.clone();
    }
    let a = (|| {
        let f = m.function(fname)?;
        let mut seen: HashSet<(Value, usize)> = HashSet::from_iter([(f, k)]);
        let mut work = vec![(f, k)];
        while let Some((f, k)) = work.pop() {
            let calls = f
                .users()
                .into_iter()
                .filter(|u| u.is_call() && u.called_function() == Some(f));
            for src in calls
                .filter_map(|u| u.call_args().get(k).copied())
                .flat_map(sources)
            {
                if src.is_argument() {
                    let caller = src.parent_function();
                    if let Some(j) = caller.params().iter().position(|p| *p == src) {
                        if seen.insert((caller, j)) {
                            work.push((caller, j));
                        }
                    }
                } else if let Some(g) = global_stored_into(src, kind) {
                    return Some(g);
                }
            }
        }
        None
    })();
    cache.answers.insert(key, a.clone());
    a
}

/// The message of the run-time stop when a pointer read from global `g` (in the
/// function `fname`, at the load `orig`) has a null shadow and a non-null value.
pub(crate) fn no_shadow_message(orig: Value, fname: &str, g: &Guarded) -> String {
    let place = load_loc(orig).map(|l| format!("{l}: ")).unwrap_or_default();
    let gname = &g.name;
    if g.inactive {
        return format!(
            "ferrozyme: {place}in `{fname}`: the pointer read here is the address of global `{gname}`, declared inactive (__enzyme_inactive_global), stored into memory the derivative reads with active loads; an inactive global has no shadow, so derivatives through it cannot be tracked; pass its data to the differentiated function as an argument with enzyme_const instead of storing its address into a struct\n"
        );
    }
    if let Some((module, var)) = fortran_module_variable(gname) {
        return format!(
            "ferrozyme: {place}in `{fname}`: the array of module variable `{var}` (module `{module}`, global `{gname}`) was allocated or associated outside the differentiated code and has no shadow, so derivatives through it cannot be tracked; pass the array to the differentiated routine as an argument instead (enzyme_const if it holds only constants, enzyme_dup with a shadow array otherwise)\n"
        );
    }
    if gname.starts_with("_ZZ") {
        // A C++ function-local static (Itanium `_ZZ<function>E<name>`), which the program
        // cannot name in `__enzyme_inactive_global`: cxx/502.
        return format!(
            "ferrozyme: {place}in `{fname}`: the pointer read from the function-local static `{gname}` has no shadow: the static was built by a call made before any derivative (a plain call of the function that builds it; at -O0 its memory is allocated inside a constructor the pass does not follow), so derivatives through it cannot be tracked; let a derivative call build it first (its shadow is then made with it, and its derivatives are zeroed at every top-level derivative), or compile with -O1 or higher, where the allocation stored into it is given a zeroed shadow\n"
        );
    }
    format!(
        "ferrozyme: {place}in `{fname}`: the pointer read from global `{gname}` has no shadow (it was set outside the differentiated code), so derivatives through it cannot be tracked; pass the memory as an argument with enzyme_dup instead, or declare the global inactive (__enzyme_inactive_global) if it holds only constants\n"
    )
}

/// `(module, variable)` of flang's name for a module variable (`_QM<module>E<variable>`,
/// lower-case names with upper-case separators): its allocatable arrays' descriptors are
/// such globals, and `__enzyme_inactive_global` has no Fortran spelling.
fn fortran_module_variable(g: &str) -> Option<(&str, &str)> {
    let (module, var) = g.strip_prefix("_QM")?.split_once('E')?;
    let plain = |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_ascii_uppercase());
    (plain(module) && plain(var)).then_some((module, var))
}

/// Emits the run-time stop at `b`'s position: `check` (the runtime's `CheckShadow`) stops
/// the program with `msg` when the loaded pointer's `shadow` is null and its `primal` is
/// not. Reverse mode (`reverse/forward.rs`) and forward mode (`tangent/inst.rs`) guard
/// with it.
pub(crate) fn emit_no_shadow_check(
    b: &Builder,
    m: Module,
    check: Value,
    primal: Value,
    shadow: Value,
    msg: &str,
) {
    let null = m.context().ptr().zero();
    let no_shadow = b.icmp(IntPredicate::LLVMIntEQ, shadow, null);
    let has_primal = b.icmp(IntPredicate::LLVMIntNE, primal, null);
    let bad = b.and(no_shadow, has_primal);
    let g = m.add_string("fz.msg", msg);
    b.call_fn(check, &[bad, g]);
}

/// Where the guarded load is in the source. LICM gives a load it hoists out of a loop no
/// location (`-O2 -g`: the pointer `m->w` is read once before the loop), so without its own
/// the first location among the instructions that use the loaded pointer (the accesses
/// through it, breadth first, at most 32) names the line, then its block's last located
/// instruction before it.
fn load_loc(orig: Value) -> Option<ferrozyme_llvm::SourceLoc> {
    if let Some(l) = orig.source_loc() {
        return Some(l);
    }
    crate::common::first_located(orig.users(), |u| u.users()).or_else(|| {
        let insts = orig.parent_block().instructions();
        let at = insts.iter().position(|i| *i == orig)?;
        insts[..at].iter().rev().find_map(|i| i.source_loc())
    })
}

#[cfg(test)]
mod tests {
    use super::fortran_module_variable;

    #[test]
    fn flang_module_variable_names() {
        assert_eq!(fortran_module_variable("_QMm18Ew"), Some(("m18", "w")));
        assert_eq!(
            fortran_module_variable("_QMphysicsEgrid_x"),
            Some(("physics", "grid_x"))
        );
        assert_eq!(fortran_module_variable("_QMm18Pmodel"), None);
        assert_eq!(fortran_module_variable("table"), None);
    }
}
