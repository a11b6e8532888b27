//! What a global's declared type does not say: whether it holds floats, and whether the
//! user declared it inactive.
//!
//! A global declared as bytes or integers (`char pool[4096]`, `long buf[64]`, a union
//! seen through its integer member) can still hold doubles: a bump allocator carves
//! `double *` out of a `char` array, a scratch buffer is reused for several types. Its
//! declared type says "no floats", so judging by the type alone gave it no shadow, and a
//! derivative stored there was silently dropped (or a null shadow dereferenced when the
//! pointer came back out of a function). The question asked here is the one that
//! matters: does any instruction store a floating-point value, or a pointer, into memory
//! addressed from this global? The search follows the global's own uses through address
//! arithmetic (GEPs and casts, as instructions or constant expressions, phis and
//! selects), local slots the address is kept in, and the parameters of the functions it
//! is passed to, so its cost is bounded by the uses it reaches, not by the module.
//!
//! The other direction: a global the user declared inactive (Enzyme's
//! `void *__enzyme_inactive_global[] = {&g}` or `__attribute__((enzyme_inactive))` on a
//! variable) has no shadow whatever it holds. The registration is read once, before any
//! analysis, and kept in the module's named metadata `ferrozyme.inactive_globals`, where
//! every later question about the global finds it.

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

/// The named metadata listing the globals declared inactive.
const INACTIVE_GLOBALS: &str = "ferrozyme.inactive_globals";

/// Records that global variable `g` carries no derivative (the user said so).
pub fn declare_inactive(g: Value) {
    if declared_inactive(g) {
        return;
    }
    let node = g.ty().context().md_node(&[g]);
    g.parent_module().add_named_metadata(INACTIVE_GLOBALS, node);
}

/// Did the user declare global variable `g` inactive?
pub fn declared_inactive(g: Value) -> bool {
    g.parent_module()
        .named_metadata(INACTIVE_GLOBALS)
        .into_iter()
        .any(|n| n.md_node_operands().first().copied().flatten() == Some(g))
}

/// How many derived addresses the search looks at before answering "yes" (a global
/// used that widely is given a shadow rather than searched further).
const MAX_VISITED: usize = 512;

/// Does some store put a float (scalar, vector or aggregate holding one) or a pointer
/// into memory addressed from global `g`?
pub fn stores_floats_or_pointers(g: Value) -> bool {
    let mut seen: HashSet<Value> = HashSet::default();
    let mut work = vec![g];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > MAX_VISITED {
            return true;
        }
        for u in v.users() {
            match u.opcode().or_else(|| u.const_opcode()) {
                Some(Opcode::LLVMStore) => {
                    let stored = u.operand(0).ty();
                    if u.operand(1) == v && (stored.contains_fp() || stored.contains_pointer()) {
                        return true;
                    }
                    // The address kept in a local slot (a parameter's home at -O0): what
                    // is loaded back from the slot is the same address.
                    if u.operand(0) == v && u.operand(1).opcode() == Some(Opcode::LLVMAlloca) {
                        work.extend(
                            u.operand(1)
                                .users()
                                .into_iter()
                                .filter(|l| l.opcode() == Some(Opcode::LLVMLoad)),
                        );
                    }
                }
                // The address handed to a function with a body: what that function
                // stores through its parameter (`put(pool, x)` at -O0, tests/c/1130).
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if u.is_instruction() => {
                    if let Some(src) = copy_into(u, v) {
                        if source_may_hold_floats(src) {
                            return true;
                        }
                    } else if is_threadprivate_copy(u, v) {
                        // A thread's copy of an OpenMP threadprivate variable (flang's
                        // common blocks are byte arrays: what the copies hold decides).
                        work.push(u);
                    } else if let Some(f) = u.called_function().filter(|f| !f.is_declaration()) {
                        let params = f.params();
                        for (k, a) in u.call_args().into_iter().enumerate() {
                            if a == v {
                                work.extend(params.get(k).copied());
                            }
                        }
                    }
                }
                Some(
                    Opcode::LLVMGetElementPtr
                    | Opcode::LLVMBitCast
                    | Opcode::LLVMAddrSpaceCast
                    | Opcode::LLVMPHI
                    | Opcode::LLVMSelect,
                ) => work.push(u),
                _ => {}
            }
        }
    }
    false
}

/// The source of `call` when it is `memcpy`/`memmove` (the intrinsics or the C
/// functions) copying into `dest`.
fn copy_into(call: Value, dest: Value) -> Option<Value> {
    let name = call.called_function()?.name();
    let is_copy = ["llvm.memcpy", "llvm.memmove", "memcpy", "memmove"]
        .iter()
        .any(|c| name == *c || name.starts_with(&format!("{c}.")));
    let args = call.call_args();
    (is_copy && args.first() == Some(&dest)).then(|| args[1])
}

/// Can the memory `src` points to hold a float or a pointer? A local variable or global
/// answers by its type; anything else (a parameter, a loaded or returned pointer) may.
fn source_may_hold_floats(src: Value) -> bool {
    let mut b = src;
    for _ in 0..32 {
        match b.opcode().or_else(|| b.const_opcode()) {
            Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => {
                b = b.operand(0)
            }
            _ => break,
        }
    }
    let held = if b.opcode() == Some(Opcode::LLVMAlloca) {
        b.allocated_type()
    } else if b.is_global_variable() {
        b.global_value_type()
    } else {
        return true;
    };
    held.contains_fp() || held.contains_pointer()
}

/// Is `call` libomp's `__kmpc_threadprivate_cached(loc, gtid, var, size, cache)` of
/// variable `var`, or the pass's `__fz_omp_tls_copy(var, size)` of a thread-local `var`
/// (`ferrozyme_transform::thread_locals`)? Both return the calling thread's copy.
pub fn is_threadprivate_copy(call: Value, var: Value) -> bool {
    let Some(f) = call.called_function() else {
        return false;
    };
    let var_at = match f.name().as_str() {
        "__kmpc_threadprivate_cached" => 2,
        "__fz_omp_tls_copy" => 0,
        _ => return false,
    };
    call.call_args().get(var_at) == Some(&var)
}
