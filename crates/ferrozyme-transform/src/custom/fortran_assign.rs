//! Whole-object assignment of a Fortran derived type with allocatable components
//! (`w2 = w`): a built-in registered rule for flang's `_FortranAAssign` of derived-type
//! descriptors.
//!
//! flang deep-copies such an object in its runtime, driven by the type description
//! (allocating the destination's allocatable components, copying data components,
//! pointer-assigning pointer components). The pass does not differentiate that routine:
//! inside differentiated code the call is renamed `__fz_f18_assign_derived`
//! (`fortran.rs`, `redirect_runtime_calls`), and that name gets the rule here, in the
//! library convention of `blas.rs` (the activity mask first, every pointer followed by its
//! shadow, null for constant memory). The rule's functions call helpers of
//! `runtime/fortran.c` ("Whole-object assignment of a derived type"), which run flang's
//! Assign on the primal and walk the type description for the shadows:
//!
//! * augmented forward: the shadow object gets the primal's shape (new zeroed storage for
//!   each allocatable real component flang allocated anew, the old one kept where flang
//!   reused the primal's), pointer components' shadows follow the source's; the pairs of
//!   real runs (shadow of the destination, shadow of the source) are the tape;
//! * reverse: each pair's destination adjoint is added into the source's and cleared;
//! * forward: the same shape, and the source's tangent copied.
//!
//! The rule is linked when the module calls `_FortranAAssign` on derived-type data (so
//! the name exists before anything is differentiated); the rule's text is linked before
//! flang's runtime IR, whose definitions resolve its declarations. Without the rule (a
//! module whose runtime IR was linked earlier) the renamed call stays a
//! `missing-derivative` error naming the assignment, as before hpc35.

use ferrozyme_llvm::{link_ir_for_target, Module, Opcode};
use ferrozyme_rules::fortran::ASSIGN_DERIVED;

use super::{ForwardRule, ReverseRule};

/// The rule functions (`{to, from}` descriptors and their shadows, the source file and its
/// shadow, the line).
const RULES_IR: &str = r#"
declare void @__fz_f18_assign_derived(ptr, ptr, ptr, i32)
declare ptr @__fz_f18_assign_derived_aug(ptr, ptr, ptr, ptr, ptr, i32)
declare void @__fz_f18_assign_derived_rev(ptr)
declare void @__fz_f18_assign_derived_fwd(ptr, ptr, ptr, ptr, ptr, i32)

define ptr @__fz_aug.__fz_f18_assign_derived(i64 %mask, ptr %to, ptr %dto, ptr %from, ptr %dfrom, ptr %src, ptr %dsrc, i32 %line) {
  %t = call ptr @__fz_f18_assign_derived_aug(ptr %to, ptr %dto, ptr %from, ptr %dfrom, ptr %src, i32 %line)
  ret ptr %t
}

define void @__fz_rev.__fz_f18_assign_derived(i64 %mask, ptr %to, ptr %dto, ptr %from, ptr %dfrom, ptr %src, ptr %dsrc, i32 %line, ptr %tape) {
  call void @__fz_f18_assign_derived_rev(ptr %tape)
  ret void
}

define void @__fz_fwd.__fz_f18_assign_derived(i64 %mask, ptr %to, ptr %dto, ptr %from, ptr %dfrom, ptr %src, ptr %dsrc, i32 %line) {
  call void @__fz_f18_assign_derived_fwd(ptr %to, ptr %dto, ptr %from, ptr %dfrom, ptr %src, i32 %line)
  ret void
}
"#;

/// flang's assignment routine, as flang-22 declares it.
const ASSIGN: &str = "_FortranAAssign";

/// Links the rule when `module` assigns derived-type data through `_FortranAAssign`.
pub(crate) fn link(module: Module) -> Result<Vec<(ReverseRule, ForwardRule)>, String> {
    let Some(assign) = module.function(ASSIGN) else {
        return Ok(Vec::new());
    };
    let derived = assign.users().into_iter().any(|u| {
        u.opcode() == Some(Opcode::LLVMCall)
            && u.called_function() == Some(assign)
            && crate::fortran::assigns_derived_type(u)
    });
    let get = |n: &str| module.function(&format!("__fz_{n}.{ASSIGN_DERIVED}"));
    if !derived || (get("aug").is_none() && crate::fortran::flang_runtime_linked(module)) {
        return Ok(Vec::new());
    }
    if get("aug").is_none() {
        module.get_or_declare(ASSIGN_DERIVED, assign.function_type());
        link_ir_for_target(module, RULES_IR, "ferrozyme-fortran-assign-rule")
            .map_err(|e| e.to_string())?;
        for n in ["aug", "rev", "fwd"] {
            if let Some(f) = get(n) {
                f.set_linkage_internal();
                crate::generated::mark(f);
            }
        }
        crate::fortran::link_flang_runtime(module)?;
    }
    Ok(
        match (
            module.function(ASSIGN_DERIVED),
            get("aug"),
            get("rev"),
            get("fwd"),
        ) {
            (Some(func), Some(aug), Some(rev), Some(fwd)) => {
                vec![super::library_rules(func, aug, rev, fwd)]
            }
            _ => Vec::new(),
        },
    )
}
