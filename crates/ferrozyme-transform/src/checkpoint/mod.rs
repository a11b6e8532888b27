//! Checkpointed time loops: Enzyme's `__enzyme_checkpoint_for` / `__enzyme_checkpoint_while`
//! (`include/enzyme/checkpoint.h`).
//!
//! ```c
//! __enzyme_checkpoint_for((void *)step, start, n,
//!                         [enzyme_scheme, &scheme, &config,]
//!                         [enzyme_checkpoint_region, ptr, (int64_t)bytes,]... args...);
//! ```
//!
//! runs `for (i = start; i < start + n; i++) step(i, args...)`. A reverse-mode gradient
//! of the plain loop would tape every step; here the loop's state is kept in snapshots
//! instead, and one step's tape at a time: the memory of the gradient is the snapshots
//! plus one step's tape, paid for by recomputing steps (Griewank's binomial
//! checkpointing; the schedule comes from a scheme, Revolve by default).
//!
//! [`lower`] runs before anything is differentiated and rewrites each call into a call of
//! a generated function with the plain loop as its body (`text.rs`). When the call sits
//! in code some hook differentiates, that function also gets a registered gradient
//! (the pass's ordinary custom-derivative path, `custom/`): its augmented forward runs the
//! schedule up to the first turn, its reverse runs the rest, both in the C driver
//! (`driver.c`, compiled to `driver.ll`, linked on use) through two trampolines, the
//! primal step and the step's combined gradient, an ordinary `__enzyme_autodiff` of the
//! step that the pass then synthesizes like any other. Forward mode gets the plain loop
//! of the step's `__enzyme_fwddiff` (registered forward derivative). Elsewhere the
//! call is just the plain loop.
//!
//! Loops written without the interface are checkpointed automatically under
//! `FERROZYME_TAPE_BUDGET` (`auto.rs`): the candidates become such calls first.
//!
//! What a snapshot holds: the marked regions and every global the step may write
//! (`writes.rs`); a step writing through a pointer argument no region covers, or through
//! a pointer the analysis cannot trace, is a compile-time error.

pub(crate) mod auto;
mod counted;
mod demote;
mod fixed_loop;
mod fixed_point;
mod fixed_text;
pub(crate) mod inert;
pub(crate) mod marked;
mod ranges;
mod snapshot;
mod text;
mod while_outline;
mod writes;

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::{link_ir_for_target, Builder, DiagKind, Diagnostic, Module, Type, Value};

pub(crate) use fixed_loop::apply as outline_fixed_point_loops;
pub(crate) use fixed_point::lower_global_shadows;
use text::SiteShape;

/// The entry points, by the substring that names them.
const FOR: &str = "__enzyme_checkpoint_for";
const WHILE: &str = "__enzyme_checkpoint_while";
const FIXED: &str = "__enzyme_fixed_point";

/// Which entry point a call is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LoopKind {
    For,
    While,
    FixedPoint,
}

impl LoopKind {
    fn of(name: &str) -> LoopKind {
        if name.contains(FIXED) {
            LoopKind::FixedPoint
        } else if name.contains(WHILE) {
            LoopKind::While
        } else {
            LoopKind::For
        }
    }
    fn name(self) -> &'static str {
        match self {
            LoopKind::For => FOR,
            LoopKind::While => WHILE,
            LoopKind::FixedPoint => FIXED,
        }
    }
}

const DRIVER_IR: &str = include_str!("driver.ll");

/// One parsed call.
struct Site {
    call: Value,
    kind: LoopKind,
    is_while: bool,
    step: Value,
    start: Option<Value>,
    n: Option<Value>,
    scheme: Option<(Value, Value)>,
    regions: Vec<(Value, Value)>,
    /// `__enzyme_fixed_point`'s settings.
    fixed: Option<fixed_point::Spec>,
    args: Vec<Value>,
}

/// The hook calls the step trampolines make (`__enzyme_autodiff_fzckpt_k`,
/// `__enzyme_fwddiff_fzckpt_k`) continue the derivative of the loop's caller: they must
/// not zero the shadows of mutable globals as top-level derivatives do (`replace.rs`).
pub(crate) fn continues_shadows(call: Value) -> bool {
    call.called_function()
        .is_some_and(|f| f.name().contains("_fzckpt_"))
}

/// Is `name` one of the two entry points (declared functions only)?
pub(crate) fn is_checkpoint_entry(name: &str) -> bool {
    ferrozyme_abi::checkpoint_entry_point(name).is_some()
}

fn err(call: Value, msg: String, help: &str) -> Diagnostic {
    Diagnostic::new(DiagKind::BadAutodiffCall, msg)
        .at_value(call)
        .with_help(help.to_string())
}

fn parse(call: Value, kind: LoopKind) -> Result<Site, Diagnostic> {
    let is_while = kind != LoopKind::For;
    let what = kind.name();
    let ops = call.call_args();
    let step = ops
        .first()
        .map(|v| crate::request::strip_casts(writes::resolve(*v)))
        .filter(|v| v.is_function())
        .ok_or_else(|| {
            err(
                call,
                format!(
                    "`{what}`: the step (first argument) is not a function known at compile time"
                ),
                "pass the step function itself, e.g. (void *)step",
            )
        })?;
    let mut i = 1;
    let (start, n) = if is_while {
        (None, None)
    } else {
        if ops.len() < 3 {
            return Err(err(
                call,
                format!("`{what}` needs the step, the first step and the number of steps"),
                "write __enzyme_checkpoint_for((void *)step, start, n, args...)",
            ));
        }
        i = 3;
        (Some(ops[1]), Some(ops[2]))
    };
    let mut site = Site {
        call,
        kind,
        is_while,
        step,
        start,
        n,
        scheme: None,
        regions: Vec::new(),
        fixed: (kind == LoopKind::FixedPoint).then(fixed_point::Spec::default),
        args: Vec::new(),
    };
    while i < ops.len() {
        let Some(name) = crate::request::marker_name(ops[i]) else {
            break;
        };
        let pair = |i: usize| -> Result<(Value, Value), Diagnostic> {
            if i + 2 < ops.len() {
                Ok((ops[i + 1], ops[i + 2]))
            } else {
                Err(err(call, format!("`{what}`: `{name}` must be followed by two values"), "write enzyme_scheme, &scheme, &config or enzyme_checkpoint_region, ptr, (int64_t)bytes"))
            }
        };
        if let Some(spec) = site.fixed.as_mut() {
            if let Some(used) = spec.take_marker(call, &name, &ops[i + 1..])? {
                i += 1 + used;
                continue;
            }
        }
        match name.as_str() {
            "enzyme_scheme" if site.fixed.is_none() => site.scheme = Some(pair(i)?),
            "enzyme_checkpoint_region" => site.regions.push(pair(i)?),
            other => {
                return Err(err(
                    call,
                    format!("`{what}`: the marker `{other}` is not accepted here"),
                    "the step's arguments follow the enzyme_scheme and enzyme_checkpoint_region markers without activity markers: the activities come from the differentiated caller",
                ))
            }
        }
        i += 3;
    }
    site.args = ops[i..].to_vec();
    if let Some(spec) = &site.fixed {
        spec.check_states(call)?;
    }
    Ok(site)
}

/// The step's parameter types after `i`, checked against the call.
fn shape_types(site: &Site) -> Result<(Type, Type, Vec<Type>), Diagnostic> {
    let what = site.kind.name();
    let fty = site.step.global_value_type();
    let params = fty.param_types();
    let ret = fty.return_type();
    let name = site.step.name();
    if fty.is_vararg() || params.is_empty() || !params[0].is_integer() {
        return Err(err(site.call, format!("`{what}`: the step `{name}` must take the step number (an integer) first, and no variable arguments"), "declare the step as void step(int64_t i, ...args)"));
    }
    if params.len() - 1 != site.args.len() {
        return Err(err(site.call, format!("`{what}`: the step `{name}` takes {} arguments after the step number, the call passes {}", params.len() - 1, site.args.len()), "pass the step's arguments after the markers"));
    }
    for t in &params[1..] {
        if !(t.is_pointer() || t.is_integer() || t.is_fp_scalar()) {
            return Err(err(site.call, format!("`{what}`: the step `{name}` takes an argument of type {t}; checkpointed steps take pointers, integers and float scalars"), "pass structures by pointer"));
        }
    }
    if site.is_while && !ret.is_integer() {
        return Err(err(
            site.call,
            format!(
                "`{what}`: the step `{name}` must return whether to go on (an integer or bool)"
            ),
            "declare the step as int step(int64_t i, ...)",
        ));
    }
    Ok((ret, params[0], params[1..].to_vec()))
}

/// Rewrites every checkpointed call of `module` (see the module docs); `differentiated`
/// gives the functions some hook call differentiates (computed only when there is a call).
pub(crate) fn lower(
    module: Module,
    differentiated: fn(Module) -> HashSet<Value>,
) -> Result<(), Vec<Diagnostic>> {
    let mut calls = Vec::new();
    for f in module.functions() {
        if !f.is_declaration() || !is_checkpoint_entry(&f.name()) {
            continue;
        }
        let kind = LoopKind::of(&f.name());
        for u in f.users() {
            if u.is_call() && u.called_value() == f {
                calls.push((u, kind));
            }
        }
    }
    if calls.is_empty() {
        return Ok(());
    }
    let differentiated = &differentiated(module);
    let mut diags = Vec::new();
    let mut k = 0;
    while module.function(&format!("__fz_ckpt_call.{k}")).is_some() {
        k += 1;
    }
    for (call, kind) in calls {
        match parse(call, kind).and_then(|s| lower_one(module, &s, k, differentiated)) {
            Ok(()) => k += 1,
            Err(d) => diags.push(d),
        }
    }
    // The driver stays external while later sites link their declarations of it.
    for name in [
        "__fz_ckpt_forward",
        "__fz_ckpt_reverse",
        "__fz_fp_forward",
        "__fz_fp_reverse",
        "__fz_fp_tangent",
    ] {
        if let Some(f) = module.function(name).filter(|f| !f.is_declaration()) {
            f.set_linkage_internal();
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

fn lower_one(
    module: Module,
    site: &Site,
    k: usize,
    differentiated: &HashSet<Value>,
) -> Result<(), Diagnostic> {
    let what = site.kind.name();
    let (ret, index, params) = shape_types(site)?;
    let derivatives = differentiated.contains(&site.call.parent_function());
    let mut globals = Vec::new();
    if derivatives {
        let w = writes::written(site.step).map_err(|u| {
            err(site.call, format!("`{what}`: the step `{}` writes memory through {} (in `{}`{}), which no snapshot can hold", site.step.name(), u.why, u.inst.parent_function().name(), u.inst.source_loc().map(|l| format!(", {l}")).unwrap_or_default()), "let the step write only its pointer arguments (marked with enzyme_checkpoint_region), globals and its own locals")
        })?;
        for j in w.params {
            let a = writes::resolve(site.args[j]);
            if let Some(spec) = &site.fixed {
                spec.check_written(site.call, site.step, &site.regions, &site.args, j)?;
                continue;
            }
            if !site.regions.iter().any(|(p, _)| writes::resolve(*p) == a) {
                return Err(err(site.call, format!("`{what}`: the step `{}` writes through its pointer argument #{} after the step number, which no enzyme_checkpoint_region covers: the snapshots would not hold it and the gradient would be wrong", site.step.name(), j + 1), "add enzyme_checkpoint_region, ptr, (int64_t)bytes for the memory the step changes, before the step's arguments"));
            }
        }
        for g in w.globals {
            let ty = g.global_value_type();
            if g.is_declaration() {
                return Err(err(site.call, format!("`{what}`: the step `{}` writes the global `{}`, which is defined in another file: its size is unknown here", site.step.name(), g.name()), "define the global in the file that calls __enzyme_checkpoint_for, or pass its memory as an argument with enzyme_checkpoint_region"));
            }
            globals.push((g, module.store_size(ty).max(module.alloc_size(ty))));
        }
    }
    let fixed = match &site.fixed {
        Some(spec) if derivatives => Some(spec.shape(site.call, site.step, &site.args)?),
        _ => None,
    };
    let shape = SiteShape {
        k,
        fixed,
        is_while: site.is_while,
        ret,
        index,
        params: params.clone(),
        nregions: site.regions.len() + site.fixed.as_ref().map_or(0, |f| f.states.len()),
        inert: inert::inert_params(site.step),
        globals: globals.iter().map(|(_, b)| *b).collect(),
        derivatives,
    };
    let internal = |e: ferrozyme_llvm::LinkError| {
        Diagnostic::new(
            DiagKind::Internal,
            format!("linking the checkpointed loop of `{what}` failed: {e}"),
        )
    };
    if derivatives
        && module
            .function("__fz_ckpt_forward")
            .is_none_or(|f| f.is_declaration())
    {
        link_ir_for_target(module, DRIVER_IR, "ferrozyme checkpoint driver").map_err(internal)?;
    }
    link_ir_for_target(module, &shape.text(), "ferrozyme checkpointed loop").map_err(internal)?;
    // The placeholders become the step and the globals.
    if let Some(p) = module.function(&format!("__fz_ckpt_step.{k}")) {
        p.replace_all_uses_with(site.step);
        p.delete_function();
    }
    for (j, (g, _)) in globals.iter().enumerate() {
        if let Some(p) = module.global(&format!("__fz_ckpt_glob.{k}.{j}")) {
            p.replace_all_uses_with(*g);
            p.delete_global();
        }
    }
    let states = shape.fixed.iter().flat_map(|f| f.states.iter());
    for (q, (state, _)) in states.enumerate() {
        if let fixed_point::StateShadow::Global(g) = state {
            if let Some(p) = module.global(&format!("__fz_fp_gstate.{k}.{q}")) {
                p.replace_all_uses_with(*g);
                p.delete_global();
            }
        }
    }
    // Linked with external linkage (the linker moves only what is visible or used), made
    // internal now.
    for kind in ["call", "plain", "prim", "grad", "aug", "rev", "fwd"] {
        if let Some(f) = module.function(&format!("__fz_ckpt_{kind}.{k}")) {
            f.set_linkage_internal();
        }
    }
    if let Some(f) = module.function(&format!("__fz_fp_tan.{k}")) {
        f.set_linkage_internal();
    }
    for kind in ["gradient", "derivative"] {
        if let Some(g) = module.global(&format!("__enzyme_register_{kind}_fzckpt_{k}")) {
            g.set_linkage_internal();
        }
    }
    let wrapper = module
        .function(&format!("__fz_ckpt_call.{k}"))
        .ok_or_else(|| {
            Diagnostic::new(
                DiagKind::Internal,
                "the checkpointed loop's function is missing after linking",
            )
        })?;
    // The loop function's parameters: start, n, scheme, data, two per region, the step's.
    let first_user = 4 + 2 * shape.nregions;
    for (j, inert) in shape.inert.iter().enumerate() {
        if *inert {
            wrapper.add_param_string_attr((first_user + j) as u32, inert::INERT_SHADOW, "");
        }
    }
    if !shape.inert.is_empty() {
        wrapper.add_param_string_attr(first_user as u32, inert::FIRST_STEP_ARG, "");
    }
    replace_call(module, site, wrapper, &params)
}

/// `call` becomes `__fz_ckpt_call.k(start, n, scheme, data, regions..., args...)`.
fn replace_call(
    module: Module,
    site: &Site,
    wrapper: Value,
    params: &[Type],
) -> Result<(), Diagnostic> {
    let ctx = module.context();
    let b = Builder::new(ctx);
    b.position_before(site.call);
    let i64t = ctx.i64();
    let what = site.kind.name();
    let to_i64 = |v: Value| -> Result<Value, Diagnostic> {
        let t = v.ty();
        if t.is_pointer() {
            Ok(b.ptrtoint(v, i64t))
        } else if let Some(bits) = t.int_width() {
            Ok(match bits.cmp(&64) {
                std::cmp::Ordering::Less => b.sext(v, i64t),
                std::cmp::Ordering::Greater => b.trunc(v, i64t),
                std::cmp::Ordering::Equal => v,
            })
        } else {
            Err(err(site.call, format!("`{what}`: a value of type {t} where an integer or a pointer is expected"), "pass the step range as integers, the scheme, config and regions as pointers and their sizes as integers"))
        }
    };
    let zero = i64t.zero();
    let mut args = match &site.fixed {
        Some(spec) => spec.fixed_args(&b, ctx, site.call)?,
        None => vec![
            site.start.map(to_i64).transpose()?.unwrap_or(zero),
            site.n.map(to_i64).transpose()?.unwrap_or(zero),
        ],
    };
    match site.scheme {
        Some((s, d)) => {
            args.push(to_i64(s)?);
            args.push(to_i64(d)?);
        }
        None if site.fixed.is_none() => {
            args.push(zero);
            args.push(zero);
        }
        None => {}
    }
    let states = site.fixed.iter().flat_map(|f| f.states.iter());
    for (p, n) in states.chain(&site.regions) {
        args.push(to_i64(*p)?);
        args.push(to_i64(*n)?);
    }
    for (a, t) in site.args.iter().zip(params) {
        let at = a.ty();
        let v = if at == *t {
            *a
        } else if at.is_integer() && t.is_integer() {
            let (x, y) = (at.int_width().unwrap_or(0), t.int_width().unwrap_or(0));
            if x < y {
                b.sext(*a, *t)
            } else {
                b.trunc(*a, *t)
            }
        } else if at.is_fp_scalar() && t.is_fp_scalar() {
            if at.fp_bits() > t.fp_bits() {
                b.fptrunc(*a, *t)
            } else {
                b.fpext(*a, *t)
            }
        } else {
            return Err(err(
                site.call,
                format!("`{what}`: an argument of type {at} for the step's parameter of type {t}"),
                "pass the step's arguments with the types it declares",
            ));
        };
        args.push(v);
    }
    b.call_fn(wrapper, &args);
    if !site.call.users().is_empty() {
        return Err(err(
            site.call,
            format!("`{what}` returns nothing, but its result is used"),
            "declare it returning void, as <enzyme/checkpoint.h> does",
        ));
    }
    site.call.erase();
    Ok(())
}

#[cfg(test)]
mod tests {
    /// driver.ll is what scripts/gen-ckpt-runtime.sh makes of driver.c and the header
    /// (checked where clang-22 is installed).
    #[test]
    fn driver_ir_is_up_to_date() {
        if std::process::Command::new("clang-22")
            .arg("--version")
            .output()
            .is_err()
        {
            return;
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = std::env::temp_dir().join(format!("fz-ckpt-driver-{}.ll", std::process::id()));
        let st = std::process::Command::new("bash")
            .arg(root.join("scripts/gen-ckpt-runtime.sh"))
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        let fresh = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        assert!(
            fresh == super::DRIVER_IR,
            "driver.ll is stale: run bash scripts/gen-ckpt-runtime.sh"
        );
    }
}
