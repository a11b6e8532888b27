//! The derivative functions of one `__enzyme_fixed_point` site, as IR text
//! (`fixed_point.rs` says what they compute). The plain loop, the primal trampoline and
//! the one-step gradient trampoline are the checkpointed while loop's (`text.rs`); the
//! fixed parameters carry the settings: `%start` the iteration limit, `%n` the reduction
//! (a double's bits), `%scheme` the control function; the states are the first regions.
//!
//! * Reverse mode: `@__fz_ckpt_aug.k` runs the loop and keeps one snapshot
//!   (`__fz_fp_forward`); `@__fz_ckpt_rev.k` iterates the one-step gradient at it
//!   (`__fz_fp_reverse`) and returns the float arguments' adjoints.
//! * Forward mode: `@__fz_ckpt_fwd.k` runs the loop, then `__fz_fp_tangent` iterates
//!   `@__fz_fp_tan.k`, the step's `__enzyme_fwddiff` over a block `fenv` holding each
//!   argument and, after pointers and floats, its tangent.

use std::fmt::Write;

use super::fixed_point::StateShadow;
use super::text::SiteShape;

impl SiteShape {
    fn fixed_states(&self) -> &[(StateShadow, u32)] {
        self.fixed.as_ref().map_or(&[], |f| f.states.as_slice())
    }

    /// `%sts`: per state its shadow `%d{j}`, its bytes and its element size.
    fn states_array(&self, out: &mut String) {
        let states = self.fixed_states();
        let arr = format!("[{} x {{ ptr, i64, i32, i32 }}]", states.len().max(1));
        let _ = writeln!(out, "  %sts = alloca {arr}, align 16");
        for (q, (state, elem)) in states.iter().enumerate() {
            let shadow = match state {
                StateShadow::Param(j) => format!("%d{j}"),
                StateShadow::Global(_) => {
                    let _ = writeln!(
                        out,
                        "  %gs{q} = call ptr @{}(ptr @__fz_fp_gstate.{}.{q})",
                        super::fixed_point::GLOBAL_SHADOW,
                        self.k
                    );
                    format!("%gs{q}")
                }
            };
            let _ = writeln!(
                out,
                "  %st{q} = getelementptr inbounds {arr}, ptr %sts, i64 0, i64 {q}\n  \
                 store {{ ptr, i64, i32, i32 }} zeroinitializer, ptr %st{q}\n  \
                 store ptr {shadow}, ptr %st{q}\n  \
                 %stb{q} = getelementptr inbounds {{ ptr, i64, i32, i32 }}, ptr %st{q}, i32 0, i32 1\n  \
                 store i64 %rb{q}, ptr %stb{q}\n  \
                 %ste{q} = getelementptr inbounds {{ ptr, i64, i32, i32 }}, ptr %st{q}, i32 0, i32 2\n  \
                 store i32 {elem}, ptr %ste{q}"
            );
        }
        out.push_str("  %red = bitcast i64 %n to double\n  %ctl = inttoptr i64 %scheme to ptr\n");
    }

    /// The forward block's fields: each argument, then its tangent after pointers and
    /// floats.
    fn fenv_fields(&self) -> Vec<(String, String)> {
        let mut f = Vec::new();
        for (j, t) in self.params.iter().enumerate() {
            f.push((t.to_string(), format!("a{j}")));
            if t.is_pointer() || t.is_fp() {
                f.push((t.to_string(), format!("d{j}")));
            }
        }
        f
    }

    fn fenv_type(&self) -> String {
        let f = self.fenv_fields();
        if f.is_empty() {
            "{ i8 }".into()
        } else {
            let types: Vec<&str> = f.iter().map(|(t, _)| t.as_str()).collect();
            format!("{{ {} }}", types.join(", "))
        }
    }

    /// Continues `@__fz_ckpt_aug.k` after its `env` (see the module docs) and adds the
    /// reverse and forward rules.
    pub(super) fn fixed_point_derivatives(&self, out: &mut String) {
        let k = self.k;
        let nreg = self.nregions + self.globals.len();
        let ns = self.fixed_states().len();
        self.build_regions(out);
        let _ = writeln!(
            out,
            "  %h = call ptr @__fz_fp_forward(ptr %regs, i64 {nreg}, ptr @__fz_ckpt_prim.{k}, ptr %env)\n  ret ptr %h\n}}\n\n\
             declare ptr @__fz_fp_forward(ptr, i64, ptr, ptr)\n\
             declare void @__fz_fp_reverse(ptr, ptr, ptr, ptr, i64, i64, double, ptr)\n\
             declare void @__fz_fp_tangent(ptr, i64, ptr, i64, i64, double, ptr, i64, ptr, ptr)\n\
             declare ptr @{}(ptr)\n",
            super::fixed_point::GLOBAL_SHADOW
        );
        for (q, (state, _)) in self.fixed_states().iter().enumerate() {
            if let StateShadow::Global(_) = state {
                let _ = writeln!(out, "@__fz_fp_gstate.{k}.{q} = external global i8");
            }
        }
        // The reverse.
        self.reverse_rule_start(out);
        self.states_array(out);
        let _ = writeln!(
            out,
            "  call void @__fz_fp_reverse(ptr %tape, ptr @__fz_ckpt_grad.{k}, ptr %env, ptr %sts, i64 {ns}, i64 %start, double %red, ptr %ctl)"
        );
        self.return_adjoints(out);
        let _ = writeln!(
            out,
            "@__enzyme_register_gradient_fzckpt_{k} = global [3 x ptr] [ptr @__fz_ckpt_call.{k}, ptr @__fz_ckpt_aug.{k}, ptr @__fz_ckpt_rev.{k}]\n"
        );
        self.fixed_point_forward(out);
    }

    fn fixed_point_forward(&self, out: &mut String) {
        let k = self.k;
        let nreg = self.nregions + self.globals.len();
        let ns = self.fixed_states().len();
        let fenv = self.fenv_type();
        let fields = self.fenv_fields();
        // The tangent trampoline.
        let _ = writeln!(
            out,
            "declare void @__enzyme_fwddiff_fzckpt_{k}(ptr, ...)\n\n\
             define void @__fz_fp_tan.{k}(i64 %i, ptr %fenv) {{\nentry:"
        );
        for (f, (t, name)) in fields.iter().enumerate() {
            let _ = writeln!(
                out,
                "  %p{name} = getelementptr inbounds {fenv}, ptr %fenv, i32 0, i32 {f}\n  %{name} = load {t}, ptr %p{name}"
            );
        }
        self.index_from(out, "%i", "ic");
        let _ = writeln!(
            out,
            "  %mc = load i32, ptr @enzyme_const\n  %md = load i32, ptr @enzyme_dup\n  \
             call void (ptr, ...) @__enzyme_fwddiff_fzckpt_{k}({})\n  ret void\n}}\n",
            self.fwddiff_args()
        );
        // The forward rule: the plain loop, then the tangent iteration.
        let _ = writeln!(
            out,
            "define void @__fz_ckpt_fwd.{k}({}{}) {{\nentry:\n  br label %loop\nloop:\n  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]",
            self.fixed_params(),
            self.user_params(false, true)
        );
        self.index_from(out, "%i", "ic");
        let call = format!("@__fz_ckpt_step.{k}({})", self.step_call_args("%ic"));
        let r = self
            .step_ret_use(out, &call)
            .expect("invariant: a fixed-point step returns whether to go on");
        let _ = writeln!(
            out,
            "  %i1 = add i64 %i, 1\n  %go = icmp ne {} {r}, 0\n  br i1 %go, label %loop, label %exit\nexit:\n  %fenv = alloca {fenv}, align 16",
            self.ret
        );
        for (f, (t, name)) in fields.iter().enumerate() {
            let _ = writeln!(
                out,
                "  %f{name} = getelementptr inbounds {fenv}, ptr %fenv, i32 0, i32 {f}\n  store {t} %{name}, ptr %f{name}"
            );
        }
        self.build_regions(out);
        self.states_array(out);
        let _ = writeln!(
            out,
            "  call void @__fz_fp_tangent(ptr %regs, i64 {nreg}, ptr %sts, i64 {ns}, i64 %start, double %red, ptr %ctl, i64 %i, ptr @__fz_fp_tan.{k}, ptr %fenv)\n  ret void\n}}\n"
        );
        let _ = writeln!(
            out,
            "@__enzyme_register_derivative_fzckpt_{k} = global [2 x ptr] [ptr @__fz_ckpt_call.{k}, ptr @__fz_ckpt_fwd.{k}]\n"
        );
    }
}
