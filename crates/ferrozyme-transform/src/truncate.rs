//! Running a function in a narrower floating-point format: Enzyme's
//! `__enzyme_truncate_op_func` / `__enzyme_truncate_mem_func`, emulated with MPFR.
//!
//! ```c
//! double (*g)(double, double) = __enzyme_truncate_op_func((void *)f, 64, 32);   // float
//! double (*h)(double, double) = __enzyme_truncate_op_func((void *)f, 64, 5, 10); // half
//! ```
//!
//! The hook returns a pointer to a copy of `f` in which every operation on the *source*
//! type (`double` for 64, `float` for 32) — arithmetic, comparisons, integer
//! conversions, math intrinsics and libm calls — is computed by the runtime
//! (`truncate/fprt.c`, linked as IR; the program links `-lmpfr`): operands rounded to the
//! target format (`e` exponent bits, `m` mantissa bits, IEEE subnormals, round to nearest
//! even), the exact result rounded once. Values keep travelling in the source type, so
//! memory, arguments and results are unchanged in layout. Functions `f` calls that have
//! IR are truncated the same way (one copy per function and format); calls without IR
//! (`printf`) run as they are.
//!
//! `__enzyme_truncate_mem_func` differs in Enzyme in how memory holds the narrow values
//! (boxed numbers the caller converts with `__enzyme_truncate_mem_value` /
//! `__enzyme_expand_mem_value`); here memory holds the narrow values themselves in the
//! source type, `__enzyme_truncate_mem_value(x, from, to)` rounds `x` to the format and
//! `__enzyme_expand_mem_value` is the identity: the numbers a program computes are the
//! same, the representation in memory is the plain one.
//!
//! Vector operations are scalarized first (LLVM's `scalarizer`); an operation on the
//! source type the runtime has no function for is an error naming it.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{
    link_ir_for_target, run_function_passes, Builder, DiagKind, Diagnostic, Module, Opcode, Type,
    TypeKind, Value,
};

use crate::request::{make_err, strip_casts};

const RUNTIME_IR: &str = include_str!("truncate/fprt.ll");

/// Every symbol the runtime defines starts with this.
const PREFIX: &str = "__fz_fprt_";

/// A binary floating-point format: exponent and stored mantissa bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    pub e: u32,
    pub m: u32,
}

impl Format {
    /// The IEEE formats by total width.
    fn named(bits: i64) -> Option<Format> {
        match bits {
            16 => Some(Format { e: 5, m: 10 }),
            32 => Some(Format { e: 8, m: 23 }),
            64 => Some(Format { e: 11, m: 52 }),
            _ => None,
        }
    }
}

/// The constant integer arguments of a truncation hook after its first: `(from, to)` or
/// `(from, exponent, mantissa)`; the source type and the format.
fn parse_format(call: Value, args: &[Value]) -> Result<(Type, Format), Diagnostic> {
    let caller = call.parent_function().name();
    let err = make_err(call, &caller);
    let ints: Option<Vec<i64>> = args.iter().map(|a| a.const_int_value()).collect();
    let help = "write (f, 64, 32) or (f, 64, exponent_bits, mantissa_bits) with integer literals";
    let ints = ints.ok_or_else(|| {
        err(
            format!(
                "`{}` takes constant integer widths after the function",
                crate::hooks::hook_name(call)
            ),
            help,
        )
    })?;
    let ctx = call.ty().context();
    let (from, fmt) = match ints.as_slice() {
        [from, to] => (*from, Format::named(*to)),
        [from, e, m] => (
            *from,
            (*e > 0 && *m > 0).then_some(Format {
                e: *e as u32,
                m: *m as u32,
            }),
        ),
        _ => (0, None),
    };
    let (ty, max) = match from {
        64 => (ctx.f64(), Format { e: 11, m: 52 }),
        32 => (ctx.f32(), Format { e: 8, m: 23 }),
        _ => {
            return Err(err(
                format!("truncation from a {from}-bit type is not supported"),
                "truncate double (64) or float (32) functions",
            ))
        }
    };
    match fmt {
        Some(f) if f.e >= 2 && f.e <= max.e && f.m <= max.m => Ok((ty, f)),
        _ => Err(err(
            format!(
                "`{}`: the target format must be 16, 32 or 64 bits or an exponent width 2..{} and a mantissa width 1..{} (not wider than the {from}-bit source)",
                crate::hooks::hook_name(call),
                max.e,
                max.m
            ),
            help,
        )),
    }
}

/// The runtime function for an operation on the source type, by LLVM intrinsic base name
/// or libm name (`f` variants included), with its number of floating operands.
fn runtime_name(callee: &str) -> Option<(&'static str, usize)> {
    let base = callee
        .strip_prefix("llvm.")
        .map(|s| s.split('.').next().unwrap_or(s))
        .unwrap_or(callee);
    let base = if callee.starts_with("llvm.") {
        base
    } else {
        base.strip_suffix('f')
            .filter(|b| !b.is_empty())
            .unwrap_or(base)
    };
    Some(match base {
        "sqrt" => ("sqrt", 1),
        "cbrt" => ("cbrt", 1),
        "exp" => ("exp", 1),
        "exp2" => ("exp2", 1),
        "expm1" => ("expm1", 1),
        "log" => ("log", 1),
        "log2" => ("log2", 1),
        "log10" => ("log10", 1),
        "log1p" => ("log1p", 1),
        "sin" => ("sin", 1),
        "cos" => ("cos", 1),
        "tan" => ("tan", 1),
        "asin" => ("asin", 1),
        "acos" => ("acos", 1),
        "atan" => ("atan", 1),
        "sinh" => ("sinh", 1),
        "cosh" => ("cosh", 1),
        "tanh" => ("tanh", 1),
        "asinh" => ("asinh", 1),
        "acosh" => ("acosh", 1),
        "atanh" => ("atanh", 1),
        "fabs" => ("fabs", 1),
        "floor" => ("floor", 1),
        "ceil" => ("ceil", 1),
        "trunc" => ("trunc", 1),
        "round" => ("roundaway", 1),
        "pow" => ("pow", 2),
        "atan2" => ("atan2", 2),
        "hypot" => ("hypot", 2),
        "fmod" => ("frem", 2),
        "fmax" | "maxnum" => ("fmax", 2),
        "fmin" | "minnum" => ("fmin", 2),
        "fma" => ("fma", 3),
        // `llvm.fmuladd` may be fused or not; unfused, as on targets without FMA.
        "fmuladd" => ("fmuladd", 3),
        "powi" => ("powi", 1),
        _ => return None,
    })
}

/// Truncated copies made in this run, by (function, source type, format).
#[derive(Default)]
pub struct Truncations {
    made: HashMap<(Value, Type, Format), Value>,
    linked: bool,
}

impl Truncations {
    /// Replaces `__enzyme_truncate_{op,mem}_func(f, ...)` by the truncated copy of `f`.
    pub fn replace_func(&mut self, module: Module, call: Value) -> Result<(), Diagnostic> {
        let caller = call.parent_function().name();
        let err = make_err(call, &caller);
        let args = call.call_args();
        let f = args
            .first()
            .map(|v| strip_casts(*v))
            .filter(|f| f.is_function());
        let Some(f) = f.filter(|f| !f.is_declaration()) else {
            return Err(err(
                format!(
                    "the first argument of `{}` must be a function with IR in this module",
                    crate::hooks::hook_name(call)
                ),
                "pass the function itself: __enzyme_truncate_op_func((void *)f, 64, 32)",
            ));
        };
        let (ty, fmt) = parse_format(call, &args[1..])?;
        let g = self.truncated(module, f, ty, fmt)?;
        if !call.ty().is_void() {
            call.replace_all_uses_with(g);
        }
        call.erase();
        Ok(())
    }

    /// Replaces `__enzyme_truncate_mem_value(x, from, to)` by `x` rounded to the format,
    /// `__enzyme_expand_mem_value(x, ...)` by `x`.
    pub fn replace_value(
        &mut self,
        module: Module,
        call: Value,
        expand: bool,
    ) -> Result<(), Diagnostic> {
        let args = call.call_args();
        let caller = call.parent_function().name();
        let x = *args.first().ok_or_else(|| {
            make_err(call, &caller)(
                format!("`{}` takes the value first", crate::hooks::hook_name(call)),
                "write __enzyme_truncate_mem_value(x, 64, 32)",
            )
        })?;
        let (ty, fmt) = parse_format(call, &args[1..])?;
        let b = Builder::new(module.context());
        b.position_before(call);
        let x = crate::marshal::convert(&b, x, ty);
        let v = if expand {
            x
        } else {
            self.link(module)?;
            self.round(&b, module, x, ty, fmt)
        };
        if !call.ty().is_void() {
            call.replace_all_uses_with(crate::marshal::convert(&b, v, call.ty()));
        }
        call.erase();
        Ok(())
    }

    fn link(&mut self, module: Module) -> Result<(), Diagnostic> {
        if self.linked || module.function("__fz_fprt_to_format").is_some() {
            self.linked = true;
            return Ok(());
        }
        link_ir_for_target(module, RUNTIME_IR, "ferrozyme-fprt").map_err(|e| {
            Diagnostic::new(
                DiagKind::Internal,
                format!("linking the truncation runtime failed: {e}"),
            )
        })?;
        for g in module.functions() {
            if g.name().starts_with(PREFIX) && !g.is_declaration() {
                g.set_linkage_internal();
                crate::generated::mark(g);
            }
        }
        self.linked = true;
        Ok(())
    }

    /// `v` (of the source type) rounded to the format.
    fn round(&self, b: &Builder, module: Module, v: Value, ty: Type, fmt: Format) -> Value {
        self.runtime_call(b, module, "to_format", &[v], &[], ty, fmt)
    }

    /// A call of runtime function `__fz_fprt_<name>(floats as double..., ints..., e, m)`
    /// returning a value of `ty`.
    #[allow(clippy::too_many_arguments)]
    fn runtime_call(
        &self,
        b: &Builder,
        module: Module,
        name: &str,
        floats: &[Value],
        ints: &[Value],
        ty: Type,
        fmt: Format,
    ) -> Value {
        let ctx = module.context();
        let f = module
            .function(&format!("{PREFIX}{name}"))
            .expect("invariant: the truncation runtime defines every function runtime_name names");
        let mut args: Vec<Value> = floats
            .iter()
            .map(|x| crate::marshal::convert(b, *x, ctx.f64()))
            .collect();
        args.extend(ints.iter().map(|i| b.int_cast(*i, ctx.i32())));
        args.push(ctx.i32().const_int(fmt.e as u64));
        args.push(ctx.i32().const_int(fmt.m as u64));
        let r = b.call_fn(f, &args);
        crate::marshal::convert(b, r, ty)
    }

    /// The truncated copy of `f` (made on first request).
    fn truncated(
        &mut self,
        module: Module,
        f: Value,
        ty: Type,
        fmt: Format,
    ) -> Result<Value, Diagnostic> {
        if let Some(&g) = self.made.get(&(f, ty, fmt)) {
            return Ok(g);
        }
        self.link(module)?;
        let name = format!("fz_trunc_{}_{}_{}", fmt.e, fmt.m, f.name());
        let g = crate::clone::clone_function(module, f, &name);
        crate::generated::mark(g);
        self.made.insert((f, ty, fmt), g);
        let has_vector_fp = g
            .instructions()
            .any(|i| i.ty().kind() == TypeKind::Vector && i.ty().element_type() == ty);
        if has_vector_fp {
            run_function_passes(g, "scalarizer<load-store>,instsimplify").map_err(|e| {
                Diagnostic::new(
                    DiagKind::Internal,
                    format!("scalarizing `{}` failed: {e}", f.name()),
                )
            })?;
        }
        let insts: Vec<Value> = g.instructions().collect();
        let b = Builder::new(module.context());
        for i in insts {
            self.rewrite(module, &b, f, i, ty, fmt)?;
        }
        Ok(g)
    }

    /// Rewrites one instruction of a truncated copy.
    fn rewrite(
        &mut self,
        module: Module,
        b: &Builder,
        f: Value,
        i: Value,
        ty: Type,
        fmt: Format,
    ) -> Result<(), Diagnostic> {
        use Opcode::*;
        let Some(op) = i.opcode() else {
            return Ok(());
        };
        let unsupported = |what: String| {
            Diagnostic::new(
                DiagKind::UnsupportedInstruction,
                format!("cannot truncate `{}`: {what}", f.name()),
            )
            .in_function(f.source_name())
            .at_instruction(i.to_string())
            .at_loc(i.source_loc())
            .with_help("truncate a function whose floating-point work is scalar arithmetic and the math functions of the C library")
        };
        match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem if i.ty() == ty => {
                b.position_before(i);
                let name = match op {
                    LLVMFAdd => "fadd",
                    LLVMFSub => "fsub",
                    LLVMFMul => "fmul",
                    LLVMFDiv => "fdiv",
                    _ => "frem",
                };
                let r =
                    self.runtime_call(b, module, name, &[i.operand(0), i.operand(1)], &[], ty, fmt);
                i.replace_all_uses_with(r);
                i.erase();
            }
            LLVMFCmp if i.operand(0).ty() == ty => {
                b.position_before(i);
                let x = self.round(b, module, i.operand(0), ty, fmt);
                let y = self.round(b, module, i.operand(1), ty, fmt);
                i.set_operand(0, x);
                i.set_operand(1, y);
            }
            LLVMSIToFP | LLVMUIToFP if i.ty() == ty => {
                let users = i.users();
                b.position_after(i);
                let r = self.round(b, module, i, ty, fmt);
                for u in users {
                    for k in 0..u.num_operands() {
                        if u.operand(k) == i {
                            u.set_operand(k, r);
                        }
                    }
                }
            }
            LLVMCall => self.rewrite_call(module, b, i, ty, fmt, &unsupported)?,
            _ if i.ty().kind() == TypeKind::Vector
                && i.ty().element_type() == ty
                && matches!(op, LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem) =>
            {
                return Err(unsupported("vector floating-point arithmetic".to_string()));
            }
            _ => {}
        }
        Ok(())
    }

    /// A call in a truncated function: functions with IR are truncated too (copies), math
    /// functions of the C library and intrinsics go to the runtime's versions.
    fn rewrite_call(
        &mut self,
        module: Module,
        b: &Builder,
        i: Value,
        ty: Type,
        fmt: Format,
        unsupported: &dyn Fn(String) -> Diagnostic,
    ) -> Result<(), Diagnostic> {
        let Some(callee) = i.called_function() else {
            return Ok(());
        };
        let fp_args = i.call_args().iter().any(|a| a.ty() == ty);
        if !callee.is_declaration() && callee.intrinsic_id() == 0 {
            if crate::generated::is_generated(callee) {
                return Ok(());
            }
            let t = self.truncated(module, callee, ty, fmt)?;
            i.set_operand(i.num_operands() - 1, t);
            return Ok(());
        }
        if !(fp_args && (i.ty() == ty || i.ty().is_void()))
            && !(fp_args && callee.name().starts_with("llvm.powi"))
        {
            return Ok(());
        }
        if i.ty() != ty {
            return Ok(());
        }
        let Some((name, nf)) = runtime_name(&callee.name()) else {
            if callee.intrinsic_id() != 0 {
                return Err(unsupported(format!(
                    "the intrinsic `{}` has no truncated version",
                    callee.name()
                )));
            }
            // A library function without IR outside the math library (runs as is).
            return Ok(());
        };
        b.position_before(i);
        let args = i.call_args();
        let r = if name == "fmuladd" {
            let p = self.runtime_call(b, module, "fmul", &args[..2], &[], ty, fmt);
            self.runtime_call(b, module, "fadd", &[p, args[2]], &[], ty, fmt)
        } else if name == "powi" {
            self.runtime_call(b, module, name, &args[..1], &args[1..2], ty, fmt)
        } else if args.len() >= nf {
            self.runtime_call(b, module, name, &args[..nf], &[], ty, fmt)
        } else {
            return Ok(());
        };
        i.replace_all_uses_with(r);
        i.erase();
        Ok(())
    }
}

/// Deletes the runtime functions nothing calls.
pub fn prune(module: Module) {
    module.prune_unused_functions(PREFIX);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_defines_what_the_rewrite_calls() {
        for n in [
            "sqrt",
            "llvm.sqrt.f64",
            "sinf",
            "llvm.fma.f32",
            "pow",
            "llvm.powi.f64.i32",
            "fmod",
            "llvm.maxnum.f64",
            "round",
        ] {
            let (name, _) = runtime_name(n).unwrap_or_else(|| panic!("{n}"));
            assert!(
                RUNTIME_IR.contains(&format!("@{PREFIX}{name}(")),
                "fprt.ll lacks {name}"
            );
        }
        assert!(RUNTIME_IR.contains("@__fz_fprt_to_format("));
        assert!(runtime_name("printf").is_none());
    }

    /// fprt.ll is what tools/gen_truncate_runtime.sh makes of fprt.c (when clang-22 and
    /// the MPFR header are here).
    #[test]
    fn runtime_ir_is_up_to_date() {
        if !std::path::Path::new("/usr/include/mpfr.h").exists() {
            eprintln!("mpfr.h not found: fprt.ll not regenerated");
            return;
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = std::env::temp_dir().join(format!("fz-fprt-{}.ll", std::process::id()));
        let run = std::process::Command::new("bash")
            .arg(root.join("tools/gen_truncate_runtime.sh"))
            .arg(&out)
            .output();
        let Ok(run) = run else {
            return;
        };
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let fresh = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        assert!(
            fresh == RUNTIME_IR,
            "fprt.ll is out of date: run tools/gen_truncate_runtime.sh"
        );
    }
}
