//! `__enzyme_fixed_point` (`include/enzyme/fixed_point.h`): a loop that iterates a state
//! `z = phi(z, x)` until the step says it has converged.
//!
//! ```c
//! __enzyme_fixed_point((void *)step, enzyme_fp_state, z, (int64_t)bytes,
//!                      [enzyme_fp_reduction, r,] [enzyme_fp_max_iters, n,]
//!                      [enzyme_fp_control, control,]
//!                      [enzyme_checkpoint_region, ptr, (int64_t)bytes,]... args...);
//! ```
//!
//! is `i = 0; while (step(i++, args...));`. Its derivative is not the derivative of every
//! iteration: at the fixed point `z* = phi(z*, x)`, `dz*/dx = (I - phi_z)^-1 phi_x`, so
//! reverse mode keeps one snapshot of the converged state and applies the adjoint of one
//! step there again and again (the two-phase adjoint), and forward mode iterates one
//! step's tangent there. The loop itself becomes a checkpointed while loop (`mod.rs`,
//! `text.rs`) whose derivative functions are `fixed_text.rs`'s, over the driver's
//! `__fz_fp_*` (`driver.c`).
//!
//! What this module decides: the markers, which of the step's parameters each state is
//! (its shadow is the one the derivative iterates) and whether it holds doubles or
//! floats, and that memory the step writes outside the states and regions is output
//! only (written before it is read, so the snapshot need not hold it): a step that reads
//! such memory carries a state the snapshot would miss, which is an error.

use ferrozyme_llvm::{Builder, Context, Diagnostic, Opcode, Value};

use super::{err, writes, FIXED};

/// The settings of one call.
#[derive(Default)]
pub(crate) struct Spec {
    /// `enzyme_fp_state, ptr, bytes`.
    pub states: Vec<(Value, Value)>,
    reduction: Option<Value>,
    max_iters: Option<Value>,
    control: Option<Value>,
}

/// Where a state's shadow comes from.
#[derive(Clone, Copy)]
pub(crate) enum StateShadow {
    /// The step's parameter (index after the step number): its shadow argument.
    Param(usize),
    /// A global the step reads and writes itself (a COMMON block): the pass's shadow of
    /// it, asked for with [`GLOBAL_SHADOW`] and placeholder `@__fz_fp_gstate.k.q`.
    Global(Value),
}

/// What the generated derivative functions need: per state, where its shadow is and the
/// bytes of one element (8: double, 4: float).
pub(crate) struct FixedShape {
    pub states: Vec<(StateShadow, u32)>,
}

/// `ptr @__fz_global_shadow(ptr @g)`: the address of global `g`'s shadow, lowered by
/// [`lower_global_shadows`] after differentiation (the generated derivative functions
/// name the shadow of a global state with it).
pub(crate) const GLOBAL_SHADOW: &str = "__fz_global_shadow";

/// Replaces each call of [`GLOBAL_SHADOW`] by the global's shadow.
pub(crate) fn lower_global_shadows(sup: &mut crate::services::Support) {
    let Some(f) = sup.module.function(GLOBAL_SHADOW) else {
        return;
    };
    for u in f.users() {
        if u.is_call() && u.called_value() == f {
            let g = crate::request::strip_casts(u.call_args()[0]);
            let s = sup.shadow_global(g, crate::lanes::Lane::FIRST);
            u.replace_all_uses_with(s);
            u.erase();
        }
    }
    if f.users().is_empty() {
        f.delete_function();
    }
}

impl Spec {
    /// Takes the fixed-point marker `name` and its values from `rest`; how many values it
    /// used, or `None` for a marker that is not one of them.
    pub fn take_marker(
        &mut self,
        call: Value,
        name: &str,
        rest: &[Value],
    ) -> Result<Option<usize>, Diagnostic> {
        let need = match name {
            "enzyme_fp_state" => 2,
            "enzyme_fp_reduction" | "enzyme_fp_max_iters" | "enzyme_fp_control" => 1,
            _ => return Ok(None),
        };
        if rest.len() < need {
            return Err(err(
                call,
                format!("`{FIXED}`: `{name}` must be followed by {need} value(s)"),
                "write enzyme_fp_state, ptr, (int64_t)bytes / enzyme_fp_reduction, r / enzyme_fp_max_iters, n / enzyme_fp_control, control",
            ));
        }
        match name {
            "enzyme_fp_state" => self.states.push((rest[0], rest[1])),
            "enzyme_fp_reduction" => self.reduction = Some(rest[0]),
            "enzyme_fp_max_iters" => self.max_iters = Some(rest[0]),
            _ => self.control = Some(rest[0]),
        }
        Ok(Some(need))
    }

    pub fn check_states(&self, call: Value) -> Result<(), Diagnostic> {
        if self.states.is_empty() {
            return Err(err(
                call,
                format!("`{FIXED}` needs at least one enzyme_fp_state"),
                "pass the state the step iterates: enzyme_fp_state, z, (int64_t)(n * sizeof(double))",
            ));
        }
        Ok(())
    }

    /// The step writes through its parameter `j`: fine for a state or a region (the
    /// snapshot holds them), and for memory the step does not read (an output);
    /// otherwise an error.
    pub fn check_written(
        &self,
        call: Value,
        step: Value,
        regions: &[(Value, Value)],
        args: &[Value],
        j: usize,
    ) -> Result<(), Diagnostic> {
        let a = writes::resolve(args[j]);
        let covered = self
            .states
            .iter()
            .chain(regions)
            .any(|(p, _)| writes::resolve(*p) == a);
        if covered {
            return Ok(());
        }
        let name = step.name();
        let help = "list memory the step both reads and writes with enzyme_fp_state (or enzyme_checkpoint_region), ptr, (int64_t)bytes";
        match writes::read(step) {
            Ok(r) if !r.params.contains(&j) => Ok(()),
            Ok(_) => Err(err(call, format!("`{FIXED}`: the step `{name}` reads and writes through its pointer argument #{}, which is neither a state nor a region: it carries a state the snapshot would not hold, and the derivative would be wrong", j + 1), help)),
            Err(u) => Err(err(call, format!("`{FIXED}`: the step `{name}` writes through its pointer argument #{}, which is neither a state nor a region, and reads memory through {} (in `{}`), so whether it reads that argument back is unknown", j + 1, u.why, u.inst.parent_function().name()), help)),
        }
    }

    /// Which parameter of the step each state is, and its element size.
    pub fn shape(
        &self,
        call: Value,
        step: Value,
        args: &[Value],
    ) -> Result<FixedShape, Diagnostic> {
        let mut states = Vec::new();
        for (k, (p, _)) in self.states.iter().enumerate() {
            let want = writes::resolve(*p);
            let global = global_base(want);
            let param = args
                .iter()
                .position(|a| a.ty().is_pointer() && writes::resolve(*a) == want);
            let (shadow, elem) = match (param, global) {
                (Some(j), _) => (StateShadow::Param(j), element_bytes(step.params()[j + 1])),
                (None, Some(g)) => (StateShadow::Global(g), global_element_bytes(g)),
                (None, None) => {
                    return Err(err(
                        call,
                        format!("`{FIXED}`: state #{} is neither one of the arguments passed to the step nor a global", k + 1),
                        "pass the state's pointer to the step too: the derivative iterates the step's shadow of it",
                    ))
                }
            };
            let elem = elem.ok_or_else(|| {
                err(
                    call,
                    format!("`{FIXED}`: state #{} of the step `{}` is not read or written as doubles or as floats only", k + 1, step.name()),
                    "a state is an array of doubles or of floats",
                )
            })?;
            states.push((shadow, elem));
        }
        Ok(FixedShape { states })
    }

    /// The call's fixed arguments: the adjoint iteration limit (-1: default), the
    /// reduction's bits as an integer (-1.0: default), the control function (0: none), 0.
    pub fn fixed_args(
        &self,
        b: &Builder,
        ctx: Context,
        call: Value,
    ) -> Result<Vec<Value>, Diagnostic> {
        let i64t = ctx.i64();
        let bad = |what: &str| {
            err(
                call,
                format!("`{FIXED}`: {what}"),
                "pass enzyme_fp_reduction, (double)r, enzyme_fp_max_iters, (int64_t)n, enzyme_fp_control, control",
            )
        };
        let max = match self.max_iters {
            None => i64t.const_i64(-1),
            Some(v) => match v.ty().int_width() {
                Some(64) => v,
                Some(w) if w < 64 => b.sext(v, i64t),
                _ => return Err(bad("enzyme_fp_max_iters takes an integer")),
            },
        };
        let red = match self.reduction {
            None => ctx.f64().const_float(-1.0),
            Some(v) if v.ty().is_fp_scalar() && v.ty().fp_bits() == 64 => v,
            Some(v) if v.ty().is_fp_scalar() && v.ty().fp_bits() < 64 => b.fpext(v, ctx.f64()),
            Some(_) => return Err(bad("enzyme_fp_reduction takes a double")),
        };
        let control = match self.control {
            None => i64t.zero(),
            Some(v) if v.ty().is_pointer() => b.ptrtoint(v, i64t),
            Some(_) => return Err(bad("enzyme_fp_control takes a function")),
        };
        Ok(vec![max, b.bitcast(red, i64t), control, i64t.zero()])
    }
}

/// The global a state pointer is (or points into at offset zero).
fn global_base(v: Value) -> Option<Value> {
    let v = crate::request::strip_casts(v);
    if v.is_global_variable() && !v.is_global_constant() {
        return Some(v);
    }
    let zero_gep = v.is_constant_expr()
        && v.const_opcode() == Some(Opcode::LLVMGetElementPtr)
        && (1..v.num_operands()).all(|i| v.operand(i).is_null());
    zero_gep.then(|| global_base(v.operand(0))).flatten()
}

/// 8 or 4 for a global of doubles or floats (scalars, arrays, arrays of arrays).
fn global_element_bytes(g: Value) -> Option<u32> {
    let mut t = g.global_value_type();
    while t.kind() == ferrozyme_llvm::TypeKind::Array {
        t = t.element_type();
    }
    match (t.is_fp_scalar(), t.fp_bits()) {
        (true, 64) => Some(8),
        (true, 32) => Some(4),
        _ => None,
    }
}

/// 8 or 4 when every float access through `param` (and what it is passed on as) is of
/// doubles, or of floats.
fn element_bytes(param: Value) -> Option<u32> {
    let bits: Vec<_> = super::inert::derived_uses(param)?
        .into_iter()
        .filter_map(|(u, p)| match u.opcode() {
            Some(Opcode::LLVMLoad) => Some(u.ty()),
            Some(Opcode::LLVMStore) if u.operand(1) == p => Some(u.operand(0).ty()),
            _ => None,
        })
        .collect();
    let mut widths = bits.into_iter().filter_map(|t| {
        if t.is_fp_scalar() {
            Some(t.fp_bits())
        } else if t.is_fp() {
            Some(t.element_type().fp_bits())
        } else {
            None
        }
    });
    let first = widths.next()?;
    if !widths.all(|w| w == first) {
        return None;
    }
    match first {
        64 => Some(8),
        32 => Some(4),
        _ => None,
    }
}
