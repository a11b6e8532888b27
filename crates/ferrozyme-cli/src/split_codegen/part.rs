//! One part of a split module: a copy of the whole module (parsed from its bitcode in
//! the part's own context) cut down to what the [`Plan`] gives the part.
//!
//! Every definition of another part becomes a declaration of the same symbol; promoted
//! local symbols become hidden and external in every part (a definition here, a
//! declaration elsewhere); `llvm.used`-style arrays keep the definitions of this part;
//! ordered arrays (`llvm.global_ctors`) and module inline assembly stay in part 0 only.
//! Variable declarations nothing in the part uses are deleted: code generation writes
//! a hidden declaration's visibility even when unused, an undefined symbol without a
//! type, which `ld -r` refuses beside another part's thread-local definition ("TLS
//! reference mismatches non-TLS reference", a `static _Thread_local` read in one part
//! and promoted for another).

use ferrozyme_llvm::{AppendingArray, Module};

use super::partition::Plan;

/// Cuts `m` (a copy of the planned module) down to part `part`.
pub fn cut(m: Module, plan: &Plan, part: usize) {
    let promoted: std::collections::HashSet<&str> =
        plan.promoted.iter().map(String::as_str).collect();
    let mut arrays = Vec::new();
    for g in m.functions().into_iter().chain(m.globals()) {
        if let Some(kind) = g.appending_array() {
            arrays.push((g, kind));
            continue;
        }
        let name = g.name();
        let owner = if g.is_declaration() {
            None
        } else {
            Some(plan.part_of.get(&name).copied().unwrap_or(0))
        };
        if owner.is_some_and(|p| p != part) {
            g.make_declaration();
        }
        if promoted.contains(name.as_str()) {
            g.promote_to_hidden();
        }
    }
    for (g, kind) in arrays {
        match kind {
            AppendingArray::Used => g.retain_listed(|v| {
                !(v.is_function() || v.is_global_variable()) || !v.is_declaration()
            }),
            AppendingArray::Ordered if part != 0 => g.delete_unused_global(),
            AppendingArray::Ordered => {}
        }
    }
    if part != 0 {
        m.clear_inline_asm();
    }
    for g in m.globals() {
        if g.is_declaration() && g.appending_array().is_none() && g.users().is_empty() {
            g.delete_unused_global();
        }
    }
}
