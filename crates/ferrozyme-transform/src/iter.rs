//! `__enzyme_iter(n, k)`: a count that grows with the order of differentiation.
//!
//! A truncated series (a Taylor polynomial of `sin` with terms up to `x^n`) loses one
//! order of accuracy per derivative taken; Enzyme's users write its length as
//! `__enzyme_iter(n, k)`, which is `n` in the program as written and `n + k` more in every
//! derivative of it: each time a function is cloned to be differentiated, the first
//! argument of each such call in the clone is increased by the second. Second derivatives
//! of code already differentiated once (a hook inside differentiated code) clone the
//! generated function again and so add `k` again. When the pass is done, every remaining
//! call is replaced by its first argument, so no call reaches the linker.

use ferrozyme_llvm::{Builder, DiagKind, Diagnostic, Module, Opcode, Value};

/// The entry point's name.
pub const ITER: &str = ferrozyme_abi::VALUE_ENTRY_POINTS[0].0;

fn is_iter_call(i: Value) -> bool {
    i.opcode() == Some(Opcode::LLVMCall)
        && i.called_function().is_some_and(|f| f.name().contains(ITER))
        && i.num_call_args() == 2
}

/// Every use of an `__enzyme_iter` declaration must be a call `(integer, integer) ->
/// integer`: anything else would stay in the program and fail at link time (or in a JIT).
pub fn check_uses(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for f in module.functions() {
        if !f.is_declaration() || !f.name().contains(ITER) {
            continue;
        }
        for u in f.users() {
            let ok = is_iter_call(u)
                && u.ty().is_integer()
                && u.call_args().iter().all(|a| a.ty().is_integer());
            if !ok {
                let at = u.is_instruction().then(|| u.parent_function().name());
                let mut d = Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!("`{}` must be called as `n = __enzyme_iter(n, k)` with integer arguments and result", f.name()),
                )
                .with_help("declare it as `uint64_t __enzyme_iter(uint64_t, uint64_t);` and call it directly");
                if let Some(func) = at {
                    d = d.in_function(func).at_loc(u.source_loc());
                }
                diags.push(d);
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// In `f`, a clone about to be differentiated: `__enzyme_iter(n, k)` becomes
/// `__enzyme_iter(n + k, k)`.
pub fn bump_in_clone(f: Value) {
    let calls: Vec<Value> = f.instructions().filter(|&i| is_iter_call(i)).collect();
    if calls.is_empty() {
        return;
    }
    let b = Builder::new(f.ty().context());
    for c in calls {
        b.position_before(c);
        let (n, k) = (c.operand(0), c.operand(1));
        let k = b.int_cast(k, n.ty());
        let sum = b.binop(Opcode::LLVMAdd, n, k);
        c.set_operand(0, sum);
    }
}

/// Every call left in `module` becomes its first argument.
pub fn lower(module: Module) {
    for f in module.functions() {
        if !f.is_declaration() || !f.name().contains(ITER) {
            continue;
        }
        for u in f.users() {
            if u.is_instruction() && is_iter_call(u) {
                let n = u.operand(0);
                let n = if n.ty() == u.ty() {
                    n
                } else {
                    let b = Builder::new(u.ty().context());
                    b.position_before(u);
                    b.int_cast(n, u.ty())
                };
                u.replace_all_uses_with(n);
                u.erase();
            }
        }
        if f.users().is_empty() {
            f.delete_function();
        }
    }
}
