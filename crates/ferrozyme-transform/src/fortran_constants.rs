//! Read-only real arrays that flang hands to its runtime: stack copies the clone can
//! differentiate through.
//!
//! At -O0 flang lowers an array constructor of constants (`pair = [-1d300, -1d0]`,
//! `dot_product(x, [1d0, 2d0])`, `x * [0.5d0, 2d0]` in a SUM) to a descriptor whose base
//! address is a read-only global (an internal constant) and passes the descriptor to a
//! runtime routine (`Assign`, `DotProductReal8`, ...), whose implementation the pass
//! differentiates (`fortran.rs`). A constant global has no shadow, so the descriptor's
//! shadow held a null base and the reverse sweep added the adjoint that flows back to the
//! constant through it: a segmentation fault at the first such assignment that later
//! code differentiates through (hpc18's probe: `pair = [-1d300, -1d0]` then a
//! maximum search updating `pair`).
//!
//! Here each such descriptor is given a stack copy of the constant instead (an alloca
//! at the entry filled by `memcpy` from the constant, as clang initialises `double
//! a[2] = {...}`), which has a zero shadow like any local, so the adjoint lands in
//! memory nobody reads. Only stores of a constant struct whose first field (the
//! descriptor's base) is a constant global of real data are rewritten; loads through
//! such a global (a `getelementptr` in the code) read constants and stay as they are.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Builder, Module, Opcode, Value};

/// Gives the descriptors of `f` (a clone) that point at read-only real arrays a stack
/// copy of the array.
pub fn copy_constant_arrays(m: Module, f: Value) {
    let mut sites: Vec<(Value, Value)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if i.opcode() == Some(Opcode::LLVMStore) {
                if let Some(g) = constant_real_base(i.operand(0)) {
                    sites.push((i, g));
                }
            }
        }
    }
    let Some(first) = f.entry_block().and_then(|b| b.first_instruction()) else {
        return;
    };
    let ctx = m.context();
    let b = Builder::new(ctx);
    let mut copies: HashMap<Value, Value> = HashMap::default();
    for (store, g) in sites {
        let copy = *copies.entry(g).or_insert_with(|| {
            b.position_before(first);
            let ty = g.global_value_type();
            let a = b.alloca(ty, "fz.ro.copy");
            b.memcpy(a, g, ctx.i64().const_i64(m.store_size(ty) as i64), 8);
            a
        });
        b.position_before(store);
        let desc = b.insert_value(store.operand(0), copy, 0);
        store.set_operand(0, desc);
    }
}

/// The read-only global of reals a constant descriptor (a constant struct stored whole)
/// points at, if it is one.
fn constant_real_base(v: Value) -> Option<Value> {
    if !v.is_constant() || !v.ty().is_aggregate() {
        return None;
    }
    let g = v.const_element(0)?;
    (g.is_global_variable() && g.is_global_constant() && g.global_value_type().contains_fp())
        .then_some(g)
}
