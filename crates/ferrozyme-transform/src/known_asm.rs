//! Inline assembly that is one x86 instruction with a derivative rule, rewritten to the
//! LLVM operation it computes in the clone being differentiated (`clone::preprocess`).
//!
//! Eigen 3.4 computes `pmin`/`pmax` of float and double packets with one-instruction
//! `asm` statements under every compiler that says it is GNU C older than 6.3, which
//! clang does (`__GNUC__` is 4): `arch/SSE/PacketMath.h` and `arch/AVX/PacketMath.h`.
//! With AVX and FMA it also computes `pmadd` as `vfmadd231ps/pd`. So `maxCoeff()`,
//! `minCoeff()`, `cwiseMax`, `cwiseMin`, `.array().max(...)` of any vectorized Eigen
//! expression reach differentiated code as inline assembly. Each statement's meaning is
//! fixed by the instruction set, and this module recognizes exactly these shapes (the
//! template with its whitespace collapsed, the constraints without clobbers, every
//! operand and the result of one float or float-vector type whose element the mnemonic
//! names):
//!
//! * `maxpd $1, $0`, constraints `=x,x,0`, arguments `(a, r)`: x86's MAX returns its
//!   destination operand when it is greater, else its source (also for NaNs and equal
//!   zeros), so `r' = r > a ? r : a`: `select(fcmp ogt r, a), r, a)`. `min` likewise with
//!   `olt`. `ps`, `pd`, and the scalar `ss`, `sd` on scalar types only (on vectors they
//!   would keep the destination's upper lanes).
//! * `vmaxpd $1, $2, $0`, constraints `=x,x,x`, arguments `(a, b)` (AT&T order: Intel's
//!   `vmaxpd r, b, a`): `b > a ? b : a`; `vmin` with `olt`.
//! * `vfmadd231pd $1, $2, $0`, constraints `=x,x,x,0`, arguments `(a, b, c)`: Intel's
//!   `vfmadd231pd c, b, a`, i.e. `c' = b * a + c`: `llvm.fma(a, b, c)` (one rounding, as
//!   the instruction).
//!
//! Any other assembly stays what it is (an error naming it when it is on a derivative's
//! path). The user's primal program keeps the assembly.

use ferrozyme_llvm::{Builder, Module, Opcode, RealPredicate, Type, Value};

/// What a recognized statement computes.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Op {
    /// `select(pred(x, y), x, y)` with `x`, `y` the argument positions.
    Pick {
        pred: RealPredicate,
        x: usize,
        y: usize,
    },
    /// `fma(args[0], args[1], args[2])`.
    Fma,
}

/// The operation of the statement with template `template` and constraints
/// `constraints` (clobbers included) over operands of type `t` (the result's), if it is
/// one of the module's shapes.
fn recognize(template: &str, constraints: &str, t: Type) -> Option<Op> {
    let text: Vec<&str> = template.split_whitespace().collect();
    let cons: Vec<&str> = constraints
        .split(',')
        .filter(|c| !c.starts_with('~'))
        .collect();
    let (mnemonic, operands) = text.split_first()?;
    let operands = operands.concat();
    let elem = if t.is_fp_scalar() {
        t
    } else {
        t.element_type()
    };
    let c = t.context();
    let (stem, suffix) = mnemonic.split_at(mnemonic.len().checked_sub(2)?);
    let elem_ok = match suffix {
        "pd" => elem == c.f64() && !t.is_fp_scalar(),
        "ps" => elem == c.f32() && !t.is_fp_scalar(),
        "sd" => t == c.f64(),
        "ss" => t == c.f32(),
        _ => false,
    };
    if !elem_ok {
        return None;
    }
    let pick = |max: bool| {
        if max {
            RealPredicate::LLVMRealOGT
        } else {
            RealPredicate::LLVMRealOLT
        }
    };
    match (stem, operands.as_str(), cons.as_slice()) {
        ("max" | "min", "$1,$0", ["=x", "x", "0"]) => Some(Op::Pick {
            pred: pick(stem == "max"),
            x: 1,
            y: 0,
        }),
        ("vmax" | "vmin", "$1,$2,$0", ["=x", "x", "x"]) => Some(Op::Pick {
            pred: pick(stem == "vmax"),
            x: 1,
            y: 0,
        }),
        ("vfmadd231", "$1,$2,$0", ["=x", "x", "x", "0"]) => Some(Op::Fma),
        _ => None,
    }
}

/// The operation of the inline assembly call `call`, if it is one of the module's shapes.
fn classify(call: Value) -> Option<Op> {
    let asm = call.called_value();
    let t = call.ty();
    if !t.is_fp() || call.call_args().iter().any(|a| a.ty() != t) {
        return None;
    }
    let op = recognize(
        &asm.inline_asm_template()?,
        &asm.inline_asm_constraints()?,
        t,
    )?;
    let arity = match op {
        Op::Pick { .. } => 2,
        Op::Fma => 3,
    };
    (call.call_args().len() == arity).then_some(op)
}

/// Rewrites the recognized inline assembly calls of `f` (see the module documentation).
pub fn rewrite(m: Module, f: Value) {
    let calls: Vec<(Value, Op)> = f
        .instructions()
        .filter(|i| i.opcode() == Some(Opcode::LLVMCall) && i.is_inline_asm_call())
        .filter_map(|i| classify(i).map(|op| (i, op)))
        .collect();
    if calls.is_empty() {
        return;
    }
    let b = Builder::new(m.context());
    for (call, op) in calls {
        b.position_before(call);
        let args = call.call_args();
        let v = match op {
            Op::Pick { pred, x, y } => {
                let cmp = b.fcmp(pred, args[x], args[y]);
                b.select(cmp, args[x], args[y])
            }
            Op::Fma => {
                let Some(fma) = m.intrinsic("llvm.fma", &[call.ty()]) else {
                    continue;
                };
                b.call_fn(fma, &args)
            }
        };
        call.replace_all_uses_with(v);
        call.erase();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IR: &str = r#"
define <2 x double> @sse_max(<2 x double> %a, <2 x double> %b) {
  %r = call <2 x double> asm "maxpd $1, $0", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(<2 x double> %a, <2 x double> %b)
  ret <2 x double> %r
}
define <4 x float> @avx_min(<4 x float> %a, <4 x float> %b) {
  %r = call <4 x float> asm "vminps $1, $2, $0", "=x,x,x,~{dirflag},~{fpsr},~{flags}"(<4 x float> %a, <4 x float> %b)
  ret <4 x float> %r
}
define <4 x double> @fma(<4 x double> %a, <4 x double> %b, <4 x double> %c) {
  %r = call <4 x double> asm "vfmadd231pd $1, $2, $0", "=x,x,x,0,~{dirflag},~{fpsr},~{flags}"(<4 x double> %a, <4 x double> %b, <4 x double> %c)
  ret <4 x double> %r
}
define double @scalar_max(double %a, double %b) {
  %r = call double asm "maxsd $1, $0", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(double %a, double %b)
  ret double %r
}
define <2 x double> @lane0_only(<2 x double> %a, <2 x double> %b) {
  %r = call <2 x double> asm "maxsd $1, $0", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(<2 x double> %a, <2 x double> %b)
  ret <2 x double> %r
}
define <4 x float> @wrong_element(<4 x float> %a, <4 x float> %b) {
  %r = call <4 x float> asm "maxpd $1, $0", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(<4 x float> %a, <4 x float> %b)
  ret <4 x float> %r
}
define <2 x double> @other_order(<2 x double> %a, <2 x double> %b) {
  %r = call <2 x double> asm "maxpd $0, $1", "=x,x,0,~{dirflag},~{fpsr},~{flags}"(<2 x double> %a, <2 x double> %b)
  ret <2 x double> %r
}
define <4 x double> @fma213(<4 x double> %a, <4 x double> %b, <4 x double> %c) {
  %r = call <4 x double> asm "vfmadd213pd $1, $2, $0", "=x,x,x,0,~{dirflag},~{fpsr},~{flags}"(<4 x double> %a, <4 x double> %b, <4 x double> %c)
  ret <4 x double> %r
}
"#;

    /// The function's body after the rewrite, one instruction a line.
    fn rewritten(m: Module, name: &str) -> String {
        let f = m.function(name).expect("function exists");
        rewrite(m, f);
        f.instructions()
            .map(|i| i.to_string().trim().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn eigen_shapes_become_operations() {
        let ctx = inkwell::context::Context::create();
        let im = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&im);
        let sse = rewritten(m, "sse_max");
        assert!(sse.contains("fcmp ogt <2 x double> %b, %a"), "{sse}");
        assert!(
            sse.contains("select <2 x i1> %1, <2 x double> %b, <2 x double> %a"),
            "{sse}"
        );
        let avx = rewritten(m, "avx_min");
        assert!(avx.contains("fcmp olt <4 x float> %b, %a"), "{avx}");
        let fma = rewritten(m, "fma");
        assert!(
            fma.contains("@llvm.fma.v4f64(<4 x double> %a, <4 x double> %b, <4 x double> %c)"),
            "{fma}"
        );
        let sd = rewritten(m, "scalar_max");
        assert!(sd.contains("fcmp ogt double %b, %a"), "{sd}");
        for left in ["lane0_only", "wrong_element", "other_order", "fma213"] {
            assert!(rewritten(m, left).contains("asm"), "{left} is left alone");
        }
        assert!(im.verify().is_ok());
    }
}
