//! Constant records copied into memory: the constant pointers they bring stored again.
//!
//! clang -O0 initialises a struct from a constant (`pair c = P0;`, or `pair c = {TABLE,
//! 1.0}` whose fields are all constants) by copying a constant global (`@__const.f.c =
//! {ptr @TABLE, double 1.0}`) with `memcpy`. The constant has no shadow, so where `c` has
//! one (an active float is stored into it later) its shadow copy is skipped and the
//! shadow of `c.w` stayed null: the reverse sweep of a reader added `w[i]`'s adjoint
//! through it (SIGSEGV, tests/c/1393). Here each pointer to floats in immutable memory
//! that the copy brings (`activity::immutable_memory_pointer`: a constant table) is stored
//! again after the copy, at its offset: nothing changes for the program, and runtime
//! activity takes the store over as if the field had been assigned in a statement (the
//! pointer is its own shadow, the readers are guarded, `common::runtime_activity`).
//!
//! At -O2 InstCombine turns the same copy into `store i64 ptrtoint (ptr @TABLE to i64)`:
//! the pointer as an integer, which has no shadow either. Such a store of a constant
//! table's address stores the pointer itself instead (the same bytes).

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Builder, Module, Opcode, TypeKind, Value};

/// How many leaves of a constant's initializer are looked at (a record, or a short
/// table of records; a large table is not a record copy).
const MAX_LEAVES: usize = 64;

/// Stores again, after each `memcpy`/`memmove` of `f` (a clone) from a constant global,
/// the pointers into immutable float data the copied initializer holds.
pub fn restore_constant_pointers(m: Module, f: Value) {
    let mut sites: Vec<(Value, Vec<(u64, Value)>)> = Vec::new();
    let mut as_integers: Vec<(Value, Value)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if let Some(p) = stored_pointer_bits(m, i) {
                as_integers.push((i, p));
                continue;
            }
            if i.opcode() != Some(Opcode::LLVMCall)
                || !matches!(classify(i), CallKind::Memcpy | CallKind::Memmove)
            {
                continue;
            }
            let a = i.call_args();
            let (src, len) = (a[1], a[2].const_int_value());
            let (Some(len), true) = (len, src.is_global_variable() && src.is_global_constant())
            else {
                continue;
            };
            let Some(init) = src.initializer() else {
                continue;
            };
            let mut fields = Vec::new();
            immutable_pointer_fields(m, init, 0, &mut fields);
            fields.retain(|(off, p)| (*off + m.store_size(p.ty())) as i64 <= len);
            if !fields.is_empty() {
                sites.push((i, fields));
            }
        }
    }
    for (store, p) in as_integers {
        store.set_operand(0, p);
    }
    let ctx = m.context();
    let b = Builder::new(ctx);
    for (copy, fields) in sites {
        b.position_after(copy);
        let dst = copy.call_args()[0];
        for (off, p) in fields {
            let at = b.byte_gep(dst, ctx.i64().const_i64(off as i64));
            b.store(p, at);
        }
    }
}

/// The constant table address `i` stores as an integer of a pointer's width
/// (`store i64 ptrtoint (ptr @TABLE to i64), ptr %c`), if it is one.
fn stored_pointer_bits(m: Module, i: Value) -> Option<Value> {
    if i.opcode() != Some(Opcode::LLVMStore) {
        return None;
    }
    let v = i.operand(0);
    if !v.is_constant() || v.const_opcode() != Some(Opcode::LLVMPtrToInt) {
        return None;
    }
    let p = v.operand(0);
    (v.ty().int_width().map(u64::from) == Some(8 * m.store_size(p.ty()))
        && is_immutable_float_pointer(p))
    .then_some(p)
}

/// Does `p` point to floats in immutable memory (`activity::immutable_memory_pointer`),
/// into a global that holds floats?
fn is_immutable_float_pointer(p: Value) -> bool {
    let g = ferrozyme_analysis::activity::base_object(p);
    g.is_global_variable()
        && g.global_value_type().contains_fp()
        && ferrozyme_analysis::activity::immutable_memory_pointer(p)
}

/// The (offset, pointer) leaves of constant `c` (at byte offset `base`) that point to
/// floats in immutable memory.
fn immutable_pointer_fields(m: Module, c: Value, base: u64, out: &mut Vec<(u64, Value)>) {
    let mut work = vec![(c, base)];
    let mut leaves = 0;
    while let Some((v, off)) = work.pop() {
        leaves += 1;
        if leaves > MAX_LEAVES {
            out.clear();
            return;
        }
        let t = v.ty();
        match t.kind() {
            TypeKind::Pointer if is_immutable_float_pointer(v) => out.push((off, v)),
            TypeKind::Struct if t.contains_pointer() => {
                for k in 0..t.struct_fields().len() as u32 {
                    if let Some(e) = v.const_element(k) {
                        work.push((e, off + m.field_offset(t, k)));
                    }
                }
            }
            TypeKind::Array if t.contains_pointer() => {
                let size = m.alloc_size(t.element_type());
                for k in 0..t.array_len().min(MAX_LEAVES as u64) as u32 {
                    if let Some(e) = v.const_element(k) {
                        work.push((e, off + size * k as u64));
                    }
                }
            }
            _ => {}
        }
    }
}
