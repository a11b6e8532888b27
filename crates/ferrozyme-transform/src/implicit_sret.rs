//! A struct result that `__enzyme_fwddiff` returns in place of the function's own `sret`
//! output (`output`), and the seed `__enzyme_autodiff` takes for it in Enzyme's order,
//! first (`reverse_seed`): recognised while the call is parsed, without touching the IR
//! (a call is parsed several times), and given its scratch slot and shadow lanes once,
//! when the call is replaced (`AutodiffCall::make_scratch_slots`).

use ferrozyme_abi::Marker;
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::Value;

use crate::request::{AutodiffCall, CallArg, Mode, Shadow};

impl AutodiffCall {
    /// Makes the caller's scratch slots for implicit `sret` outputs (`sret_scratch`):
    /// parsing leaves the IR untouched (a call is parsed several times), so this runs
    /// once, on the parse the replacement uses.
    pub fn make_scratch_slots(&mut self) {
        for a in &mut self.args {
            let Some(ty) = a.sret_scratch.take() else {
                continue;
            };
            let entry = self
                .call
                .parent_function()
                .entry_block()
                .and_then(|e| e.first_instruction())
                .expect("invariant: a hook call's caller has an entry instruction");
            let b = ferrozyme_llvm::Builder::new(ty.context());
            b.position_before(entry);
            a.primal = b.alloca(ty, "fz.sret.primal");
            let Shadow::Lanes(lanes) = &mut a.shadow else {
                unreachable!("an implicit sret output has one shadow lane until here")
            };
            let out = lanes[0];
            let size = self.call.parent_function().parent_module().alloc_size(ty);
            b.position_before(self.call);
            let i64t = ty.context().i64();
            lanes.extend((1..self.width as u64).map(|k| b.byte_gep(out, i64t.const_int(k * size))));
        }
    }
}

/// `__enzyme_fwddiff` declared to return the struct `func` returns through its own `sret`
/// pointer (a C struct of three doubles, a C++ `Vec3` or `Eigen::Vector3d` returned by
/// value): as for a struct returned in registers, the hook's result is the tangent of
/// that struct (with `enzyme_width, N`: N of them, lane 0 first). The function's `sret`
/// parameter is then not among the call's operands: its primal is a scratch slot of the
/// caller, its shadow (lane `k`'s tangent) the hook's own `sret` memory at `k` times the
/// struct's size. Reverse mode takes the output written out (`enzyme_dup, &out, &seed`)
/// or, in Enzyme's order, its seed first (`reverse_seed`).
pub(crate) fn output(call: Value, func: Value, mode: Mode, width: u32) -> Option<CallArg> {
    if mode != Mode::Forward {
        return None;
    }
    let hook_ty = call.call_sret_type(0)?;
    let ty = func
        .param_sret_type(0)
        .filter(|_| !func.params().is_empty())?;
    let m = call.parent_function().parent_module();
    let lanes = width as u64;
    let leaves = |t| {
        let mut out = Vec::new();
        crate::marshal::fp_leaves(t, &mut Vec::new(), &mut out);
        out.into_iter().map(|(_, t)| t).collect::<Vec<_>>()
    };
    let one = leaves(ty);
    let fits = if width == 1 {
        hook_ty == ty
    } else {
        m.alloc_size(hook_ty) == lanes * m.alloc_size(ty)
            && !one.is_empty()
            && leaves(hook_ty) == one.repeat(width as usize)
    };
    if !fits {
        return None;
    }
    let out = call.call_args()[0];
    Some(CallArg {
        activity: ArgActivity::Dup,
        noneed: false,
        placeholder: false,
        primal: out,
        // Lane 0 only; `make_scratch_slots` adds the others.
        shadow: Shadow::Lanes(vec![out]),
        marker: Some(Marker::Dup),
        sret_scratch: Some(ty),
    })
}

/// Whether `__enzyme_autodiff`'s call `call` may be in Enzyme's reverse-mode order for a
/// function returning a struct through its own `sret` pointer: the function does, and
/// the hook does not return through `sret` itself.
pub(crate) fn reverse_seed_applies(call: Value, func: Value, mode: Mode) -> bool {
    mode == Mode::Reverse
        && call.call_sret_type(0).is_none()
        && !func.params().is_empty()
        && func.param_sret_type(0).is_some()
}

/// Enzyme's reverse-mode order for such a function (`__enzyme_autodiff((void *)f, &dS,
/// args...)`): the first operand is the shadow of the struct `f` returns, holding the
/// seed of each of its floats (the reverse pass consumes it, zeroing it, as any output
/// shadow); the primal result goes to a scratch slot of the caller, made by
/// `make_scratch_slots` when the call is replaced. Width 1 only.
pub(crate) fn reverse_seed(func: Value, seed: Value) -> Option<CallArg> {
    let ty = func.param_sret_type(0)?;
    Some(CallArg {
        activity: ArgActivity::Dup,
        noneed: false,
        placeholder: false,
        primal: seed,
        shadow: Shadow::Lanes(vec![seed]),
        marker: Some(Marker::Dup),
        sret_scratch: Some(ty),
    })
}

#[cfg(test)]
mod tests {
    use crate::request::{parse, Mode, Shadow};
    use ferrozyme_llvm::Module;
    use ferrozyme_llvm::Opcode;

    /// `__enzyme_fwddiff` of a function returning a struct of two doubles through `sret`,
    /// width 2: parsing (as the planner does several times) leaves the caller untouched;
    /// the scratch slot and lane 1's pointer are made once, by `make_scratch_slots`.
    #[test]
    fn implicit_sret_output_is_made_once_at_replacement() {
        let ir = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
%P = type { double, double }
@enzyme_width = external global i32
declare void @__enzyme_fwddiff(ptr sret([4 x double]), ptr, ...)
define void @f(ptr sret(%P) %out, double %x) {
  store double %x, ptr %out
  ret void
}
define void @caller(ptr %res, double %x) {
  %w = load i32, ptr @enzyme_width
  call void (ptr, ptr, ...) @__enzyme_fwddiff(ptr sret([4 x double]) %res, ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.0)
  ret void
}
"#;
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let caller = module.function("caller").expect("caller exists");
        let call = caller
            .instructions()
            .find(|i| {
                i.is_call()
                    && i.called_function().map(|f| f.name()).as_deref() == Some("__enzyme_fwddiff")
            })
            .expect("the hook call");
        let before = caller.instruction_count();
        let mut ac = parse(call, "caller", Mode::Forward).expect("parses");
        parse(call, "caller", Mode::Forward).expect("parses again");
        assert_eq!(caller.instruction_count(), before, "parsing made IR");
        assert!(ac.args[0].sret_scratch.is_some());
        ac.make_scratch_slots();
        // One alloca and one GEP (lane 1 is 16 bytes into the hook's sret memory).
        assert_eq!(caller.instruction_count(), before + 2);
        assert_eq!(ac.args[0].primal.opcode(), Some(Opcode::LLVMAlloca));
        let Shadow::Lanes(l) = &ac.args[0].shadow else {
            panic!("lanes expected")
        };
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], call.call_args()[0]);
        assert!(m.verify().is_ok());
    }
}
