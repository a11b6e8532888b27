//! The functions one checkpointed call site gets, written as IR text.
//!
//! For a step `R step(I i, T1 a1, ..., Tm am)` and a call with `nr` regions, the site
//! gets (suffix `.k`, `k` the site's number):
//!
//! All are linked with external linkage and made internal after.
//!
//! * `@__fz_ckpt_call.k(i64 start, i64 n, i64 scheme, i64 data, [i64 ptr, i64 bytes]*nr,
//!   T1 a1, ..., Tm am)`: the plain loop. It replaces the call; the pointers the
//!   differentiated code must not see as values (the scheme, its data, the regions) are
//!   passed as integers, so they carry no derivative and need no shadow.
//! * Reverse mode (when the call is in differentiated code), registered as the call's
//!   gradient (`__enzyme_register_gradient_...`, Enzyme's convention, `custom/`):
//!   `@__fz_ckpt_aug.k(params with a shadow after every pointer)` builds the argument
//!   block `env` and the region list (the marked regions and the globals the step
//!   writes) and calls the driver's `__fz_ckpt_forward`, whose handle is the tape;
//!   `@__fz_ckpt_rev.k(params with shadows, ptr tape)` calls `__fz_ckpt_reverse` and
//!   returns the adjoints of the float arguments, summed over the steps.
//! * The driver's trampolines over `env`: `i32 @__fz_ckpt_prim.k(i64 i, ptr env)` runs the
//!   step (returns whether a while loop goes on) and `void @__fz_ckpt_grad.k(i64 i, ptr
//!   env)` its combined gradient, `__enzyme_autodiff(step, enzyme_const, i, enzyme_dup,
//!   a, da, ..., enzyme_out, x, ...)`, adding the float adjoints into `env`.
//! * Forward mode: `@__fz_ckpt_fwd.k`, registered as the call's forward derivative: the
//!   plain loop of `__enzyme_fwddiff(step, ...)` (for loops), or the `__enzyme_fwddiff` of
//!   a copy of the plain loop, `@__fz_ckpt_plain.k` (while loops).
//!
//! The step, the globals and the marker globals are referred to through placeholder
//! declarations (`@__fz_ckpt_step.k`, `@__fz_ckpt_glob.k.j`) that `mod.rs` replaces by the
//! real values after linking (a `static` step or global is internal: linking a
//! declaration of its name would not resolve to it).

use std::fmt::Write;

use ferrozyme_llvm::Type;

/// What the text of one site needs to know.
pub(crate) struct SiteShape {
    pub k: usize,
    /// A fixed-point loop's states (`__enzyme_fixed_point`; its derivative functions are
    /// `fixed_text.rs`'s).
    pub fixed: Option<super::fixed_point::FixedShape>,
    pub is_while: bool,
    /// The step's result and its first (index) parameter.
    pub ret: Type,
    pub index: Type,
    /// The step's other parameters.
    pub params: Vec<Type>,
    pub nregions: usize,
    /// Per parameter: a pointer the step's derivatives treat as constant (`inert.rs`).
    pub inert: Vec<bool>,
    /// Bytes of each written global (placeholders `@__fz_ckpt_glob.k.j`).
    pub globals: Vec<u64>,
    /// Generate the derivative functions (the call is in differentiated code).
    pub derivatives: bool,
}

impl SiteShape {
    fn env_fields(&self) -> Vec<String> {
        let mut f = Vec::new();
        for t in &self.params {
            f.push(t.to_string());
            if t.is_pointer() {
                f.push("ptr".into());
            }
        }
        for t in self.params.iter().filter(|t| t.is_fp()) {
            f.push(t.to_string());
        }
        f
    }

    pub(super) fn env_type(&self) -> String {
        let f = self.env_fields();
        if f.is_empty() {
            "{ i8 }".into()
        } else {
            format!("{{ {} }}", f.join(", "))
        }
    }

    /// `(field of a_j, field of its shadow)` in `env`, and the accumulator fields.
    pub(super) fn layout(&self) -> (Vec<(usize, Option<usize>)>, Vec<usize>) {
        let mut idx = 0;
        let mut args = Vec::new();
        for t in &self.params {
            let a = idx;
            idx += 1;
            let s = t.is_pointer().then(|| {
                idx += 1;
                idx - 1
            });
            args.push((a, s));
        }
        let acc = self
            .params
            .iter()
            .filter(|t| t.is_fp())
            .map(|_| {
                idx += 1;
                idx - 1
            })
            .collect();
        (args, acc)
    }

    pub(super) fn fixed_params(&self) -> String {
        let mut p = vec![
            "i64 %start".to_string(),
            "i64 %n".into(),
            "i64 %scheme".into(),
            "i64 %data".into(),
        ];
        for r in 0..self.nregions {
            p.push(format!("i64 %rp{r}"));
            p.push(format!("i64 %rb{r}"));
        }
        p.join(", ")
    }

    /// The user parameters, with shadows after pointers (`shadows`) or tangents after
    /// floats and pointers (`tangents`).
    pub(super) fn user_params(&self, shadows: bool, tangents: bool) -> String {
        let mut p = Vec::new();
        for (j, t) in self.params.iter().enumerate() {
            p.push(format!("{t} %a{j}"));
            if (shadows && t.is_pointer()) || (tangents && (t.is_pointer() || t.is_fp())) {
                p.push(format!("{t} %d{j}"));
            }
        }
        p.iter().map(|s| format!(", {s}")).collect()
    }

    pub(super) fn index_from(&self, out: &mut String, v: &str, name: &str) {
        let bits = self.index.int_width().unwrap_or(64);
        if bits < 64 {
            let _ = writeln!(out, "  %{name} = trunc i64 {v} to {}", self.index);
        } else if bits > 64 {
            let _ = writeln!(out, "  %{name} = sext i64 {v} to {}", self.index);
        } else {
            let _ = writeln!(out, "  %{name} = add i64 {v}, 0");
        }
    }

    pub(super) fn step_call_args(&self, idx: &str) -> String {
        let mut a = vec![format!("{} {idx}", self.index)];
        for (j, t) in self.params.iter().enumerate() {
            a.push(format!("{t} %a{j}"));
        }
        a.join(", ")
    }

    /// The loop `for (i = start; i < start + n; i++)` or `i = 0; while (...)` around
    /// `body(out, "%i")`, in a function whose parameters are the fixed and user ones.
    fn loop_body(&self, out: &mut String, body: &dyn Fn(&mut String) -> Option<String>) {
        out.push_str("entry:\n");
        if self.is_while {
            out.push_str("  br label %loop\nloop:\n  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]\n");
            self.index_from(out, "%i", "ic");
            let cont = body(out).expect("invariant: a while step returns its condition");
            let _ = writeln!(out, "  %i1 = add i64 %i, 1");
            let _ = writeln!(out, "  %go = icmp ne {} {cont}, 0", self.ret);
            out.push_str("  br i1 %go, label %loop, label %exit\nexit:\n  ret void\n}\n\n");
        } else {
            out.push_str("  %end = add i64 %start, %n\n  br label %head\nhead:\n");
            out.push_str("  %i = phi i64 [ %start, %entry ], [ %i1, %body ]\n");
            out.push_str(
                "  %more = icmp slt i64 %i, %end\n  br i1 %more, label %body, label %exit\nbody:\n",
            );
            self.index_from(out, "%i", "ic");
            body(out);
            out.push_str("  %i1 = add i64 %i, 1\n  br label %head\nexit:\n  ret void\n}\n\n");
        }
    }

    pub(super) fn step_ret_use(&self, out: &mut String, call: &str) -> Option<String> {
        if self.ret.is_void() {
            let _ = writeln!(out, "  call void {call}");
            None
        } else {
            let _ = writeln!(out, "  %r = call {} {call}", self.ret);
            Some("%r".into())
        }
    }

    /// Loads of the arguments (and shadows) out of `env`.
    fn load_env(&self, out: &mut String, shadows: bool) {
        let env = self.env_type();
        let (args, _) = self.layout();
        for (j, (t, (a, s))) in self.params.iter().zip(args).enumerate() {
            let _ = writeln!(
                out,
                "  %pa{j} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {a}"
            );
            let _ = writeln!(out, "  %a{j} = load {t}, ptr %pa{j}");
            if let (Some(s), true) = (s, shadows) {
                let _ = writeln!(
                    out,
                    "  %pd{j} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {s}"
                );
                let _ = writeln!(out, "  %d{j} = load ptr, ptr %pd{j}");
            }
        }
    }

    /// Stores of the arguments, shadows and zero accumulators into a new `env`.
    pub(super) fn build_env(&self, out: &mut String) {
        let env = self.env_type();
        let (args, acc) = self.layout();
        let _ = writeln!(out, "  %env = alloca {env}, align 16");
        for (j, (t, (a, s))) in self.params.iter().zip(args).enumerate() {
            let _ = writeln!(
                out,
                "  %ea{j} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {a}"
            );
            let _ = writeln!(out, "  store {t} %a{j}, ptr %ea{j}");
            if let Some(s) = s {
                let _ = writeln!(
                    out,
                    "  %ed{j} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {s}"
                );
                let _ = writeln!(out, "  store ptr %d{j}, ptr %ed{j}");
            }
        }
        let floats: Vec<&Type> = self.params.iter().filter(|t| t.is_fp()).collect();
        for (q, (f, t)) in acc.iter().zip(floats).enumerate() {
            let _ = writeln!(
                out,
                "  %eacc{q} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {f}"
            );
            let _ = writeln!(out, "  store {t} 0.0, ptr %eacc{q}");
        }
    }

    /// The return type of the reverse rule and of the gradient hook: the float
    /// arguments' adjoints.
    pub(super) fn adjoint_type(&self) -> String {
        let floats: Vec<String> = self
            .params
            .iter()
            .filter(|t| t.is_fp())
            .map(|t| t.to_string())
            .collect();
        match floats.len() {
            0 => "void".into(),
            1 => floats[0].clone(),
            _ => format!("{{ {} }}", floats.join(", ")),
        }
    }

    pub fn text(&self) -> String {
        let k = self.k;
        let mut out = String::new();
        let step_params: Vec<String> = std::iter::once(self.index.to_string())
            .chain(self.params.iter().map(|t| t.to_string()))
            .collect();
        let _ = writeln!(
            out,
            "declare {} @__fz_ckpt_step.{k}({})",
            self.ret,
            step_params.join(", ")
        );
        for j in 0..self.globals.len() {
            let _ = writeln!(out, "@__fz_ckpt_glob.{k}.{j} = external global i8");
        }
        out.push('\n');
        self.plain_loop(&mut out, "call");
        if !self.derivatives {
            return out;
        }
        self.derivative_text(&mut out);
        out
    }

    /// The plain loop, `@__fz_ckpt_<kind>.k`.
    fn plain_loop(&self, out: &mut String, kind: &str) {
        let k = self.k;
        let _ = writeln!(
            out,
            "define void @__fz_ckpt_{kind}.{k}({}{}) {{",
            self.fixed_params(),
            self.user_params(false, false)
        );
        let call = format!("@__fz_ckpt_step.{k}({})", self.step_call_args("%ic"));
        self.loop_body(out, &|o| self.step_ret_use(o, &call));
    }

    /// Forward mode of a while loop: the forward derivative of a copy of the plain loop
    /// (`@__fz_ckpt_plain.k`, which has no registered rule).
    fn while_forward(&self, out: &mut String) {
        let k = self.k;
        self.plain_loop(out, "plain");
        let _ = writeln!(out, "declare void @__enzyme_fwddiff_fzckpt_{k}(ptr, ...)\n");
        let _ = writeln!(
            out,
            "define void @__fz_ckpt_fwd.{k}({}{}) {{\nentry:\n  %mc = load i32, ptr @enzyme_const\n  %md = load i32, ptr @enzyme_dup",
            self.fixed_params(),
            self.user_params(false, true)
        );
        let mut fw = vec![format!("ptr @__fz_ckpt_plain.{k}")];
        let mut fixed = vec![
            "start".to_string(),
            "n".into(),
            "scheme".into(),
            "data".into(),
        ];
        for r in 0..self.nregions {
            fixed.push(format!("rp{r}"));
            fixed.push(format!("rb{r}"));
        }
        for f in fixed {
            fw.push(format!("i32 %mc, i64 %{f}"));
        }
        fw.extend(self.forward_user_args());
        let _ = writeln!(
            out,
            "  call void (ptr, ...) @__enzyme_fwddiff_fzckpt_{k}({})\n  ret void\n}}\n",
            fw.join(", ")
        );
        let _ = writeln!(
            out,
            "@__enzyme_register_derivative_fzckpt_{k} = global [2 x ptr] [ptr @__fz_ckpt_call.{k}, ptr @__fz_ckpt_fwd.{k}]\n"
        );
    }

    fn derivative_text(&self, out: &mut String) {
        let k = self.k;
        let env = self.env_type();
        let (args, acc) = self.layout();
        out.push_str(
            "@enzyme_const = external global i32\n@enzyme_dup = external global i32\n\
             @enzyme_out = external global i32\n@enzyme_const_return = external global i32\n\
             declare ptr @__fz_ckpt_forward(ptr, ptr, i64, i64, ptr, i64, ptr, ptr)\n\
             declare void @__fz_ckpt_reverse(ptr, ptr, ptr, ptr)\n\n",
        );
        // The primal trampoline.
        let _ = writeln!(
            out,
            "define i32 @__fz_ckpt_prim.{k}(i64 %i, ptr %env) {{\nentry:"
        );
        self.load_env(out, false);
        self.index_from(out, "%i", "ic");
        let call = format!("@__fz_ckpt_step.{k}({})", self.step_call_args("%ic"));
        match self.step_ret_use(out, &call) {
            Some(r) if self.is_while => {
                let _ = writeln!(
                    out,
                    "  %go = icmp ne {} {r}, 0\n  %goi = zext i1 %go to i32\n  ret i32 %goi\n}}\n",
                    self.ret
                );
            }
            _ => out.push_str("  ret i32 1\n}\n\n"),
        }
        // The one-step gradient.
        let adj = self.adjoint_type();
        let _ = writeln!(
            out,
            "declare {adj} @__enzyme_autodiff_fzckpt_{k}(ptr, ...)\n"
        );
        let _ = writeln!(
            out,
            "define void @__fz_ckpt_grad.{k}(i64 %i, ptr %env) {{\nentry:"
        );
        self.load_env(out, true);
        self.index_from(out, "%i", "ic");
        out.push_str("  %mc = load i32, ptr @enzyme_const\n  %md = load i32, ptr @enzyme_dup\n  %mo = load i32, ptr @enzyme_out\n");
        let mut hook = vec![format!("ptr @__fz_ckpt_step.{k}")];
        if self.ret.is_fp() {
            out.push_str("  %mcr = load i32, ptr @enzyme_const_return\n");
            hook.push("i32 %mcr".into());
        }
        hook.push("i32 %mc".into());
        hook.push(format!("{} %ic", self.index));
        for (j, t) in self.params.iter().enumerate() {
            if t.is_pointer() && self.inert[j] {
                hook.push(format!("i32 %mc, ptr %a{j}"));
            } else if t.is_pointer() {
                hook.push(format!("i32 %md, ptr %a{j}, ptr %d{j}"));
            } else if t.is_fp() {
                hook.push(format!("i32 %mo, {t} %a{j}"));
            } else {
                hook.push(format!("i32 %mc, {t} %a{j}"));
            }
        }
        let floats: Vec<Type> = self.params.iter().copied().filter(|t| t.is_fp()).collect();
        if floats.is_empty() {
            let _ = writeln!(
                out,
                "  call void (ptr, ...) @__enzyme_autodiff_fzckpt_{k}({})",
                hook.join(", ")
            );
        } else {
            let _ = writeln!(
                out,
                "  %g = call {adj} (ptr, ...) @__enzyme_autodiff_fzckpt_{k}({})",
                hook.join(", ")
            );
            for (q, t) in floats.iter().enumerate() {
                let v = if floats.len() == 1 {
                    "%g".to_string()
                } else {
                    let _ = writeln!(out, "  %g{q} = extractvalue {adj} %g, {q}");
                    format!("%g{q}")
                };
                let _ = writeln!(
                    out,
                    "  %pacc{q} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {}",
                    acc[q]
                );
                let _ = writeln!(out, "  %acc{q} = load {t}, ptr %pacc{q}");
                let _ = writeln!(out, "  %nacc{q} = fadd {t} %acc{q}, {v}");
                let _ = writeln!(out, "  store {t} %nacc{q}, ptr %pacc{q}");
            }
        }
        out.push_str("  ret void\n}\n\n");
        let _ = args;
        // The augmented forward.
        let nreg = self.nregions + self.globals.len();
        let _ = writeln!(
            out,
            "define ptr @__fz_ckpt_aug.{k}({}{}) {{\nentry:",
            self.fixed_params(),
            self.user_params(true, false)
        );
        self.build_env(out);
        if self.fixed.is_some() {
            self.fixed_point_derivatives(out);
            return;
        }
        self.build_regions(out);
        // A for loop with n < 0 runs no step, as the plain loop (the driver reads n = -1
        // as a while loop).
        let n = if self.is_while {
            "-1"
        } else {
            out.push_str("  %nneg = icmp slt i64 %n, 0\n  %nn = select i1 %nneg, i64 0, i64 %n\n");
            "%nn"
        };
        let _ = writeln!(
            out,
            "  %sp = inttoptr i64 %scheme to ptr\n  %dp = inttoptr i64 %data to ptr\n  \
             %h = call ptr @__fz_ckpt_forward(ptr %sp, ptr %dp, i64 %start, i64 {n}, ptr %regs, i64 {nreg}, ptr @__fz_ckpt_prim.{k}, ptr %env)\n  ret ptr %h\n}}\n"
        );
        // The reverse.
        self.reverse_rule_start(out);
        let _ = writeln!(out, "  call void @__fz_ckpt_reverse(ptr %tape, ptr @__fz_ckpt_prim.{k}, ptr @__fz_ckpt_grad.{k}, ptr %env)");
        self.return_adjoints(out);
        let _ = writeln!(
            out,
            "@__enzyme_register_gradient_fzckpt_{k} = global [3 x ptr] [ptr @__fz_ckpt_call.{k}, ptr @__fz_ckpt_aug.{k}, ptr @__fz_ckpt_rev.{k}]\n"
        );
        if self.is_while {
            self.while_forward(out);
            return;
        }
        // Forward mode: the loop of the step's tangent.
        let _ = writeln!(out, "declare void @__enzyme_fwddiff_fzckpt_{k}(ptr, ...)\n");
        let _ = writeln!(
            out,
            "define void @__fz_ckpt_fwd.{k}({}{}) {{",
            self.fixed_params(),
            self.user_params(false, true)
        );
        let fwcall = self.fwddiff_args();
        self.loop_body(out, &|o| {
            let _ = writeln!(
                o,
                "  %mc = load i32, ptr @enzyme_const\n  %md = load i32, ptr @enzyme_dup"
            );
            let _ = writeln!(
                o,
                "  call void (ptr, ...) @__enzyme_fwddiff_fzckpt_{k}({fwcall})"
            );
            None
        });
        let _ = writeln!(
            out,
            "@__enzyme_register_derivative_fzckpt_{k} = global [2 x ptr] [ptr @__fz_ckpt_call.{k}, ptr @__fz_ckpt_fwd.{k}]\n"
        );
    }

    /// `%regs`: the regions (`EnzymeCkptRegion`s) a snapshot holds, the marked ones and
    /// the globals the step writes.
    pub(super) fn build_regions(&self, out: &mut String) {
        let k = self.k;
        let nreg = self.nregions + self.globals.len();
        let _ = writeln!(
            out,
            "  %regs = alloca [{} x {{ ptr, i64, i32, i32 }}], align 16",
            nreg.max(1)
        );
        let arr = format!("[{} x {{ ptr, i64, i32, i32 }}]", nreg.max(1));
        for j in 0..self.nregions {
            // A constant aggregate cannot hold SSA values: store the fields one by one.
            let _ = writeln!(out, "  %rpp{j} = inttoptr i64 %rp{j} to ptr");
            let _ = writeln!(
                out,
                "  %rg{j} = getelementptr inbounds {arr}, ptr %regs, i64 0, i64 {j}"
            );
            let _ = writeln!(
                out,
                "  store {{ ptr, i64, i32, i32 }} zeroinitializer, ptr %rg{j}"
            );
            let _ = writeln!(out, "  store ptr %rpp{j}, ptr %rg{j}");
            let _ = writeln!(out, "  %rgb{j} = getelementptr inbounds {{ ptr, i64, i32, i32 }}, ptr %rg{j}, i32 0, i32 1");
            let _ = writeln!(out, "  store i64 %rb{j}, ptr %rgb{j}");
        }
        for (j, bytes) in self.globals.iter().enumerate() {
            let r = self.nregions + j;
            let _ = writeln!(
                out,
                "  %rg{r} = getelementptr inbounds {arr}, ptr %regs, i64 0, i64 {r}"
            );
            let _ = writeln!(out, "  store {{ ptr, i64, i32, i32 }} {{ ptr @__fz_ckpt_glob.{k}.{j}, i64 {bytes}, i32 0, i32 0 }}, ptr %rg{r}");
        }
    }

    /// The step's arguments in a `__enzyme_fwddiff` call: each pointer or float with its
    /// tangent `%d{j}` (`%md` = enzyme_dup), integers and inert pointers constant (`%mc`).
    fn forward_user_args(&self) -> Vec<String> {
        let mut fw = Vec::new();
        for (j, t) in self.params.iter().enumerate() {
            if t.is_pointer() && self.inert[j] {
                fw.push(format!("i32 %mc, {t} %a{j}"));
            } else if t.is_pointer() || t.is_fp() {
                fw.push(format!("i32 %md, {t} %a{j}, {t} %d{j}"));
            } else {
                fw.push(format!("i32 %mc, {t} %a{j}"));
            }
        }
        fw
    }

    /// The arguments of `__enzyme_fwddiff` of the step at index `%ic`: `%mc`/`%md` are the
    /// loaded markers, `%a{j}`/`%d{j}` the arguments and their tangents.
    pub(super) fn fwddiff_args(&self) -> String {
        let k = self.k;
        let mut fw = vec![format!("ptr @__fz_ckpt_step.{k}")];
        fw.push("i32 %mc".into());
        fw.push(format!("{} %ic", self.index));
        fw.extend(self.forward_user_args());
        fw.join(", ")
    }

    /// The start of the reverse rule `@__fz_ckpt_rev.k`: its signature and `env`.
    pub(super) fn reverse_rule_start(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "define {} @__fz_ckpt_rev.{}({}{}, ptr %tape) {{\nentry:",
            self.adjoint_type(),
            self.k,
            self.fixed_params(),
            self.user_params(true, false)
        );
        self.build_env(out);
    }

    /// The end of a reverse rule: the float arguments' adjoints summed in `env`, returned.
    pub(super) fn return_adjoints(&self, out: &mut String) {
        let env = self.env_type();
        let (_, acc) = self.layout();
        let adj = self.adjoint_type();
        let floats: Vec<Type> = self.params.iter().copied().filter(|t| t.is_fp()).collect();
        if floats.is_empty() {
            out.push_str("  ret void\n}\n\n");
        } else {
            let mut agg = "undef".to_string();
            for (q, t) in floats.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  %racc{q} = getelementptr inbounds {env}, ptr %env, i32 0, i32 {}",
                    acc[q]
                );
                let _ = writeln!(out, "  %rv{q} = load {t}, ptr %racc{q}");
                if floats.len() > 1 {
                    let _ = writeln!(out, "  %agg{q} = insertvalue {adj} {agg}, {t} %rv{q}, {q}");
                    agg = format!("%agg{q}");
                } else {
                    agg = format!("%rv{q}");
                }
            }
            let _ = writeln!(out, "  ret {adj} {agg}\n}}\n");
        }
    }
}
