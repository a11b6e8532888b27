//! Facts about globals and whole functions that activity analysis starts from: which
//! mutable globals need a shadow (they hold floats by their type or by what is stored
//! into them), which functions touch such globals (directly or through callees), and
//! which functions are read-only or return memory they allocated.

use std::collections::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Opcode, Value};

use crate::calls::{classify, CallKind};

/// Is `g` a mutable global that needs a shadow (it holds floats, by its type or by what
/// is stored into it)?
pub fn global_needs_shadow(g: Value) -> bool {
    g.is_global_variable()
        && !g.is_global_constant()
        && (g.global_value_type().contains_fp()
            || g.global_value_type().contains_pointer()
            // Bytes or integers that are used to hold floats (a `char` pool).
            || crate::global_uses::stores_floats_or_pointers(g))
        // Declared inactive by the user (`__enzyme_inactive_global`, `enzyme_inactive`).
        && !crate::global_uses::declared_inactive(g)
        // A C++ library object that holds no floats (a global `std::string`).
        && !g
            .global_value_type()
            .struct_name()
            .is_some_and(|n| crate::library_types::is_float_free_struct(&n))
}

/// Does defined function `f` return memory it allocated: the result of `malloc`,
/// `calloc`, `realloc`, `operator new`, or of another such function (`depth` levels of
/// calls deep), possibly offset by GEPs or chosen by phis and selects?
pub fn returns_fresh_memory(f: Value, depth: u32) -> bool {
    if f.is_declaration() || !f.function_type().return_type().is_pointer() {
        return false;
    }
    let rets: Vec<Value> = f
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() == 1)
        .map(|t| t.operand(0))
        .collect();
    let mut work = rets;
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        match v.opcode() {
            Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => work.push(v.operand(0)),
            Some(Opcode::LLVMPHI) => work.extend(v.incoming().into_iter().map(|(x, _)| x)),
            Some(Opcode::LLVMSelect) => {
                work.push(v.operand(1));
                work.push(v.operand(2));
            }
            // `-O0` code keeps the pointer in a stack slot: whatever was stored there.
            Some(Opcode::LLVMLoad) if v.operand(0).opcode() == Some(Opcode::LLVMAlloca) => {
                for u in v.operand(0).users() {
                    if u.opcode() == Some(Opcode::LLVMStore) && u.operand(1) == v.operand(0) {
                        work.push(u.operand(0));
                    }
                }
            }
            Some(Opcode::LLVMCall) => match classify(v) {
                CallKind::Malloc | CallKind::Calloc | CallKind::Realloc => return true,
                CallKind::Defined(g) if depth > 0 && g != f => {
                    if returns_fresh_memory(g, depth - 1) {
                        return true;
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }
    false
}

/// Does `f`'s `memory(...)` attribute rule out writes?
pub fn is_readonly_function(f: Value) -> bool {
    f.memory_effects().is_some_and(|m| m.only_reads())
}

/// Does `f`'s `memory(...)` attribute say it touches no memory at all?
pub fn is_readnone_function(f: Value) -> bool {
    f.memory_effects().is_some_and(|m| m.is_none())
}

/// Functions that (transitively, through direct calls) reference a mutable float global.
pub fn functions_touching_shadowed_globals(module: Module) -> HashSet<Value> {
    let mut direct: HashSet<Value> = HashSet::new();
    let mut callers: HashMap<Value, Vec<Value>> = HashMap::new();
    for f in module.functions() {
        if f.is_declaration() {
            continue;
        }
        for b in f.blocks() {
            for i in b.instructions() {
                for op in i.operands() {
                    if references_shadowed_global(op, 0) {
                        direct.insert(f);
                    }
                }
                if i.is_call() {
                    match i.called_function() {
                        Some(c) => callers.entry(c).or_default().push(f),
                        None if !i.is_inline_asm_call() => {
                            // A call through a pointer reaches every candidate of its type.
                            for c in
                                crate::calls::indirect_candidates(module, i.called_function_type())
                            {
                                callers.entry(c).or_default().push(f);
                            }
                        }
                        None => {}
                    }
                    // A parallel region calls its microtask.
                    if let Some(m) = crate::calls::parallel_callee(i) {
                        callers.entry(m).or_default().push(f);
                    }
                }
            }
        }
    }
    let mut out = direct.clone();
    let mut work: Vec<Value> = direct.into_iter().collect();
    while let Some(f) = work.pop() {
        for &c in callers.get(&f).map(|v| v.as_slice()).unwrap_or(&[]) {
            if out.insert(c) {
                work.push(c);
            }
        }
    }
    out
}

fn references_shadowed_global(v: Value, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    if global_needs_shadow(v) {
        return true;
    }
    if v.is_constant_expr() {
        return v
            .operands()
            .into_iter()
            .any(|o| references_shadowed_global(o, depth + 1));
    }
    false
}
