//! A call whose pointer result the caller takes to have a shadow while the callee's own
//! derivative returns none: a run-time stop instead of adjoints added through null.
//!
//! Whether a call's pointer result has a shadow is asked of the callee's own activity
//! (`ferrozyme-analysis`'s `returned_shadow`), a fixed number of levels deep; at the limit
//! the answer is "shadowed". The callee's derivative, synthesized from its request, runs
//! that analysis from its own top, one level deeper than the caller's question, and may
//! prove the returned pointer constant (tests/cxx/518 at -O2: a `noinline` search three
//! calls deep that compares the active key with the entries of a table declared
//! inactive; `filetests/cxx45_steered_key_result_unshadowed.ll` at -O0). Its augmented
//! forward then returns a null shadow (`forward.rs`, `fwd_ret`), and the caller's reverse
//! sweep added `d_ret * x` into `null + 8`: a SIGSEGV.
//!
//! Making the two agree (the caller learning the callee's answer and treating the result
//! as constant) needs the caller's analysis to ask with the callee's full analysis,
//! memoized per request; until then, where the callee's analysis at its own depth proves
//! the result constant while the caller's calls it shadowed, the shadow the call returns
//! is checked: a null shadow of a non-null pointer stops the program with a message
//! naming the call and the callee. Calls where the two agree are untouched (no check).

use ferrozyme_analysis::activity::callee_proves_result_constant;
use ferrozyme_llvm::Value;

use super::calls::Callee;
use super::Gen;
use crate::runtime::RtFn;
use crate::signature::Request;

impl Gen<'_> {
    /// Does the derivative of `callee` for `req` return no shadow for the pointer result
    /// of call `i`, which this function's analysis gives one?
    pub(super) fn callee_drops_result_shadow(
        &self,
        i: Value,
        callee: &Callee,
        req: &Request,
    ) -> bool {
        let Callee::Direct(f) = callee else {
            return false;
        };
        i.ty().is_pointer()
            && self.fx.act.is_shadowed(i)
            && callee_proves_result_constant(*f, &req.args, &self.sup.touchers)
    }

    /// Stops the program where the shadow `shadow` the augmented call `i` returned is
    /// null while its pointer result `primal` is not.
    pub(super) fn guard_result_shadow(&mut self, i: Value, primal: Value, shadow: Value) {
        let place = self.call_place(i);
        let callee = i
            .called_function()
            .map(|f| f.name())
            .unwrap_or_else(|| "the callee".to_string());
        let msg = format!(
            "ferrozyme: {place}: the pointer `{callee}` returns is taken to have a shadow here (the question was answered at a depth limit), but `{callee}`'s own analysis proves it constant and its derivative returns none, so the derivatives read or added through it cannot be tracked; let `{callee}` be inlined (remove `noinline`), or read what the pointer points to outside the differentiated code and pass it in (tests/README: crash45)\n"
        );
        let check = self.sup.rt(RtFn::CheckShadow);
        crate::global_args::emit_no_shadow_check(&self.b, self.fx.m, check, primal, shadow, &msg);
    }
}
