//! gmm20's upward reverse loops (`streams::upward::upward_gradient`) tried on a copy of
//! the gradient first (issue 14, gmm21).
//!
//! `upward_gradient` runs SSA passes (`sroa`, `mem2reg`, `instcombine`, `simplifycfg`,
//! `early-cse`) on the whole gradient before it looks for loops to turn. On a gradient
//! where no loop is taken those passes are all it does, and they are not neutral: they
//! give the post-AD pipeline a different function (lstm-fused at users' `-O2
//! -ffast-math`: its reverse gate loop indexed by the counter instead of by a falling
//! pointer, one more base pointer live, a register allocator that shuffles nine
//! registers per iteration around a spilled pointer: +3.0% instructions per gradient).
//! So the gradient is changed only where a loop is taken: the passes and the rewrite
//! run on a copy (the same body, alias scopes and parameter marks), which is then
//! deleted, and again on the gradient itself when the copy had a loop turned. The
//! rewrite is deterministic, so the gradient gets what the copy got; a gradient without
//! such a loop is left exactly as synthesis made it.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::Value;

use crate::generated::{is_shadow_param, mark_shadow_param};

/// [`crate::streams::upward::upward_gradient`] on `g` when it turns a loop of a copy of
/// `g`; otherwise `g` is untouched. The number of loops turned in `g`.
pub fn upward_if_taken(g: Value, primals: &HashSet<Value>) -> Result<usize, String> {
    let copy = crate::clone::copy_body(g.parent_module(), g, "__fz_upward_trial", false);
    let mut copy_primals = HashSet::default();
    for (i, (p, q)) in g.params().into_iter().zip(copy.params()).enumerate() {
        if is_shadow_param(p) {
            mark_shadow_param(copy, i as u32);
        }
        if primals.contains(&p) {
            copy_primals.insert(q);
        }
    }
    let trial = crate::streams::upward::upward_gradient(copy, &copy_primals);
    copy.delete_function();
    match trial {
        Ok(0) => Ok(0),
        // Taken (or the copy's rewrite failed: the gradient's reports it).
        _ => crate::streams::upward::upward_gradient(g, primals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use ferrozyme_llvm::Module;

    use crate::test_ir::parse;

    /// A gradient-shaped function: a falling loop over `c = n .. 0` summing `x[c]` and
    /// adding it into the marked shadow `dx[c]` by `reassoc` read-modify-writes, then
    /// a stack slot (what SROA would remove). `{CALL}` is a hole in the loop.
    const GRAD: &str = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
declare void @opaque()
define double @g(ptr %x, ptr "ferrozyme-shadow" %dx, i64 %n) {
entry:
  %slot = alloca double
  br label %loop
loop:
  %c = phi i64 [ %n, %entry ], [ %c1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s2, %loop ]
  %px = getelementptr double, ptr %x, i64 %c
  %xv = load double, ptr %px
  %s2 = fadd reassoc double %s, %xv
  %pd = getelementptr double, ptr %dx, i64 %c
  %old = load double, ptr %pd
  %new = fadd reassoc double %old, %xv
  store double %new, ptr %pd
  {CALL}
  %c1 = add i64 %c, -1
  %done = icmp eq i64 %c, 0
  br i1 %done, label %exit, label %loop
exit:
  store double %s2, ptr %slot
  %r = load double, ptr %slot
  ret double %r
}
"#;

    /// Runs [`upward_if_taken`] on `GRAD` with its hole filled; returns the loops turned,
    /// the module's text before and after.
    fn trial(call: &str) -> (usize, String, String) {
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, &GRAD.replace("{CALL}", call));
        let module = Module::from_inkwell(&m);
        let g = module.function("g").expect("g exists");
        let before = m.print_to_string().to_string();
        let primals = HashSet::from_iter([g.params()[0]]);
        let n = upward_if_taken(g, &primals).expect("no internal error");
        assert!(
            module.function("__fz_upward_trial").is_none(),
            "copy deleted"
        );
        (n, before, m.print_to_string().to_string())
    }

    /// A loop the rewrite takes: the gradient gets the passes and the upward loop.
    #[test]
    fn taken_loop_changes_the_gradient() {
        let (n, before, after) = trial("");
        assert_eq!(n, 1, "{after}");
        assert!(!after.contains("alloca"), "the passes ran on g\n{after}");
        assert!(after.contains("add i64 %c, 1"), "upwards\n{after}");
        assert_ne!(before, after);
    }

    /// No loop taken (an impure call in it): the gradient is exactly as it was, its stack
    /// slot included (gmm20 ran the passes on it all the same: lstm-fused +3.0%).
    #[test]
    fn gradient_without_a_taken_loop_is_untouched() {
        let (n, before, after) = trial("call void @opaque()");
        assert_eq!(n, 0, "{after}");
        assert_eq!(before, after);
    }
}
