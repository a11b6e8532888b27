//! Hook operands seen through `-O0` stack slots.
//!
//! A hook call must name the function to differentiate, its markers and `enzyme_width`'s
//! N as constants (a function, a load of an `enzyme_*` global, an integer). Optimized code
//! always does; unoptimized code often does not: clang `-O0` keeps every local variable
//! in an `alloca`, so `void *fp = (void *)f; __enzyme_autodiff(fp, ...)` or a wrapper that
//! forwards the function and the markers through its parameters (the always-inline
//! templates of `<enzyme/enzyme>`, once inlined) passes *loads of stack slots*. This step
//! replaces such an operand by the constant the slot is known to hold, before the calls
//! are parsed:
//!
//! * a load of an `alloca` that nothing but its own stores can write (its users are
//!   loads, stores *to* it, lifetime/debug intrinsics, and stores of its address into
//!   other slots whose copies are only loaded through, like a reference parameter at
//!   `-O0`) all of whose stores store the same resolved value reads that value (or
//!   nothing defined, before the first store, which the constant refines);
//! * a call of a defined function whose every `ret` returns the same resolved value
//!   returns it (a lambda's conversion to a function pointer, `+[](double x) {...}`, at
//!   `-O0` is such a call); the call itself stays where it is;
//! * a load from a `const` global with a definitive initializer, directly or through
//!   getelementptrs with constant indices that walk its type (`static const struct
//!   model table[] = {...}; __enzyme_autodiff((void *)table[2].fn, ...)`, which `-O0`
//!   leaves as a load), reads the initializer's element there;
//! * resolution stops at a function, a global variable, an integer constant or a load of
//!   an `enzyme_*` marker global (re-loaded right before the hook, where it is valid too).
//!
//! Nothing else changes: operands that resolve to anything else (a phi, an argument, a
//! float constant, memory that escapes) are left as they are, and the request parser
//! reports them as before. When a hook call sits inside an `alwaysinline` function (the
//! `--ad-before-opt` pipeline runs no inliner before the pass), that function is inlined
//! into its callers first, as clang's `-O0` pipeline would have done.

use ferrozyme_llvm::{Builder, Module, Opcode, Type, Value};

/// How deep resolution follows stores and returns.
const MAX_DEPTH: u32 = 24;

/// What a hook operand is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// A function, a global variable or an integer constant.
    Const(Value),
    /// `load <ty>, ptr @enzyme_*`: a marker, re-loaded at the hook.
    Marker(Value, Type),
}

/// Inlines `alwaysinline` functions into their callers when any of them contains one of
/// `calls` (`--ad-before-opt` builds of `<enzyme/enzyme>`).
pub fn inline_hook_wrappers(module: Module, calls: &[Value]) {
    let wrapped = calls
        .iter()
        .any(|c| c.parent_function().has_fn_attr("alwaysinline"));
    if wrapped {
        // A failure leaves the module as it was; the parser then reports the operands.
        let _ = ferrozyme_llvm::run_module_passes(module, "always-inline");
    }
}

/// Replaces operands of the hook `calls` that load stack slots holding what the parser
/// needs as a constant: the function (first operand after an `sret` pointer), markers
/// (loaded, or passed by address), and the integer after `enzyme_width`. Data operands
/// stay as they are, whatever is known about them.
pub fn resolve_stack_slots(module: Module, calls: &[Value]) {
    let b = Builder::new(module.context());
    for &call in calls {
        let fn_index = usize::from(call.call_sret_type(0).is_some());
        let mut after_width = false;
        for (i, op) in call.call_args().into_iter().enumerate() {
            // (A volatile load must be read as it is.)
            let known = match op.opcode() {
                Some(Opcode::LLVMLoad) if !op.is_volatile() => resolve(op, 0),
                Some(Opcode::LLVMCall) => resolve(op, 0),
                _ => None,
            };
            let is_width = |g: Value| g.name() == "enzyme_width";
            let new = match known {
                Some(Known::Const(c)) if c.ty() == op.ty() => {
                    let wanted = (i == fn_index && c.is_function())
                        || is_marker_global(c)
                        || (after_width && c.const_int_value().is_some());
                    after_width = is_marker_global(c) && is_width(c);
                    if !wanted {
                        continue;
                    }
                    c
                }
                Some(Known::Marker(g, ty)) if ty == op.ty() => {
                    after_width = is_width(g);
                    // A marker loaded right here is already what the parser wants.
                    if op.opcode() == Some(Opcode::LLVMLoad)
                        && op.operand(0).strip_const_casts() == g
                    {
                        continue;
                    }
                    b.position_before(call);
                    b.load(ty, g, "fz.marker")
                }
                _ => {
                    after_width = false;
                    continue;
                }
            };
            call.set_operand(i as u32, new);
        }
    }
}

fn is_marker_global(v: Value) -> bool {
    v.is_global_variable() && ferrozyme_abi::is_marker_name(&v.name())
}

fn resolve(v: Value, depth: u32) -> Option<Known> {
    if depth > MAX_DEPTH {
        return None;
    }
    let v = v.strip_const_casts();
    if v.is_function() || v.is_global_variable() || v.const_int_value().is_some() {
        return Some(Known::Const(v));
    }
    match v.opcode()? {
        Opcode::LLVMLoad if !v.is_volatile() => {
            let p = v.operand(0).strip_const_casts();
            if is_marker_global(p) {
                return Some(Known::Marker(p, v.ty()));
            }
            if let Some(c) = constant_at(p, depth) {
                return (c.ty() == v.ty()).then(|| resolve(c, depth + 1)).flatten();
            }
            slot_value(slot_address(p, depth)?, v.ty(), depth)
        }
        Opcode::LLVMCall => returned_value(v, depth),
        _ => None,
    }
}

/// The constant stored at `p`: the initializer of a `const` global with a definitive
/// initializer, or an element of one reached by a getelementptr whose first index is 0
/// and whose other indices are constants walking the aggregate's own type (a GEP that
/// reinterprets the bytes, e.g. `i8` with a byte offset, is not followed).
fn constant_at(p: Value, depth: u32) -> Option<Value> {
    if depth > MAX_DEPTH {
        return None;
    }
    if p.is_global_variable() {
        return (p.is_global_constant() && p.has_definitive_initializer())
            .then(|| p.initializer())
            .flatten();
    }
    if p.opcode().or_else(|| p.const_opcode()) != Some(Opcode::LLVMGetElementPtr) {
        return None;
    }
    let mut c = constant_at(p.operand(0).strip_const_casts(), depth + 1)?;
    if c.ty() != p.gep_source_type() || p.operand(1).const_int_value()? != 0 {
        return None;
    }
    for k in 2..p.num_operands() {
        let idx = u32::try_from(p.operand(k).const_int_value()?).ok()?;
        c = c.const_element(idx)?;
    }
    Some(c)
}

/// The stack slot `p` points to: an `alloca`, or a load of a slot that only ever holds
/// that slot's address (a reference parameter spilled at `-O0`: `f.addr` holds `&fp`).
fn slot_address(p: Value, depth: u32) -> Option<Value> {
    if p.opcode() == Some(Opcode::LLVMAlloca) {
        return Some(p);
    }
    if depth > MAX_DEPTH || p.opcode() != Some(Opcode::LLVMLoad) {
        return None;
    }
    let holder = p.operand(0).strip_const_casts();
    if holder.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut found = None;
    for u in holder.users() {
        match u.opcode()? {
            Opcode::LLVMLoad => {}
            Opcode::LLVMStore if u.operand(1) == holder && u.operand(0) != holder => {
                let a = slot_address(u.operand(0), depth + 1)?;
                if found.is_some_and(|f| f != a) {
                    return None;
                }
                found = Some(a);
            }
            Opcode::LLVMCall if u.is_lifetime_or_debug_marker() => {}
            _ => return None,
        }
    }
    found
}

/// Is a copy of a slot's address (loaded from another slot) only ever read through:
/// loaded from, or stored into slots whose copies are only read through?
fn only_read_through(copy: Value, depth: u32) -> bool {
    depth <= MAX_DEPTH
        && copy.users().into_iter().all(|u| match u.opcode() {
            Some(Opcode::LLVMLoad) => true,
            Some(Opcode::LLVMStore) if u.operand(0) == copy && u.operand(1) != copy => {
                copies_only_read(u.operand(1).strip_const_casts(), depth + 1)
            }
            Some(Opcode::LLVMCall) => u.is_lifetime_or_debug_marker(),
            _ => false,
        })
}

/// Does a slot that holds a copy of an address only hand out copies that are read
/// through?
fn copies_only_read(holder: Value, depth: u32) -> bool {
    holder.opcode() == Some(Opcode::LLVMAlloca)
        && holder.users().into_iter().all(|h| match h.opcode() {
            Some(Opcode::LLVMLoad) => only_read_through(h, depth),
            Some(Opcode::LLVMStore) => h.operand(1) == holder && h.operand(0) != holder,
            Some(Opcode::LLVMCall) => h.is_lifetime_or_debug_marker(),
            _ => false,
        })
}

/// The value every store into the stack slot `slot` stores, if nothing else can write
/// the slot (its address is only read through) and all stores agree.
fn slot_value(slot: Value, ty: Type, depth: u32) -> Option<Known> {
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut found: Option<Known> = None;
    for u in slot.users() {
        match u.opcode()? {
            Opcode::LLVMLoad => {}
            // The address copied into another slot: fine while copies are only read.
            Opcode::LLVMStore if u.operand(0) == slot && u.operand(1) != slot => {
                if !copies_only_read(u.operand(1).strip_const_casts(), depth) {
                    return None;
                }
            }
            Opcode::LLVMStore => {
                if u.operand(1) != slot || u.operand(0) == slot {
                    return None;
                }
                let stored = u.operand(0);
                if stored.ty() != ty {
                    return None;
                }
                let k = resolve(stored, depth + 1)?;
                if found.is_some_and(|f| f != k) {
                    return None;
                }
                found = Some(k);
            }
            Opcode::LLVMCall if u.is_lifetime_or_debug_marker() => {}
            _ => return None,
        }
    }
    found
}

/// The value a call returns, when its callee has IR and returns the same known value on
/// every path.
fn returned_value(call: Value, depth: u32) -> Option<Known> {
    let f = call.called_function()?;
    if f.is_declaration() || f.function_type().is_vararg() {
        return None;
    }
    let mut found: Option<Known> = None;
    for blk in f.blocks() {
        let Some(t) = blk.terminator() else { continue };
        if t.opcode() != Some(Opcode::LLVMRet) {
            continue;
        }
        if t.num_operands() != 1 {
            return None;
        }
        let k = resolve(t.operand(0), depth + 1)?;
        // A marker loaded in another function is as good as one loaded here; anything
        // else must be a constant.
        if found.is_some_and(|f| f != k) {
            return None;
        }
        found = Some(k);
    }
    found
}
