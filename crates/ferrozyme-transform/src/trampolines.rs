//! Internal procedures passed through trampolines, turned into direct calls in the clone.
//!
//! flang-22 at -O0 passes a Fortran internal procedure that uses its host's variables
//! (after `contains` in a procedure) as an actual argument through a trampoline:
//! `llvm.init.trampoline(mem, @inner, frame)` writes an executable stub into the stack
//! slot `mem`, `llvm.adjust.trampoline(mem)` gives the stub's address, and a call through
//! that address calls `@inner` with `frame` (the tuple of the host's variables) added as
//! its `nest` argument. The derivative cannot see through the stub (tests/fortran/96:
//! Simpson's rule and a Newton solver called with internal procedures). At -O2 LLVM's
//! inliner and InstCombine remove the trampolines; in a clone about to be differentiated,
//! [`resolve`] does the same, and only there (the user's functions keep theirs):
//!
//! 1. Calls in the clone that receive a trampoline's address (`simpson(g, a, b, m)`) are
//!    inlined, level by level (at most [`LEVELS`]), so the calls through the address
//!    land in the clone.
//! 2. A call through `adjust.trampoline(mem)` becomes a direct call of `@inner` with
//!    `frame` inserted at its `nest` parameter, where `mem` is an `alloca` written by
//!    exactly one `init.trampoline` and otherwise only adjusted or marked by lifetime
//!    markers (so the stub holds `@inner` and `frame` at every call: a call before the
//!    init would be undefined) and `frame` is defined everywhere in the function (an
//!    `alloca` of the entry block, an argument or a constant).
//! 3. `adjust.trampoline` calls left without users are erased, then the
//!    `init.trampoline` (and lifetime markers) of a slot nothing else uses.
//!
//! What is left (the address stored to memory or returned, a callee that passes it to
//! itself, an indirect callee the inliner cannot reach) keeps its trampoline and the
//! error that names it (`common/diags.rs`).

use ferrozyme_abi::CUSTOM_RULE_ATTR;
use ferrozyme_llvm::{Builder, Module, Opcode, Value};

/// How many levels of calls that pass a trampoline's address on are inlined.
const LEVELS: usize = 4;

/// Is `v` a call of `llvm.adjust.trampoline`?
pub(crate) fn is_adjust(v: Value) -> bool {
    v.calls_intrinsic("llvm.adjust.trampoline")
}

/// Is `v` a call of `llvm.init.trampoline`?
pub(crate) fn is_init(v: Value) -> bool {
    v.calls_intrinsic("llvm.init.trampoline")
}

/// The calls of `f`.
fn calls(f: Value) -> Vec<Value> {
    f.calls().collect()
}

/// The function and the frame of the trampoline in stack slot `mem` (step 2's
/// conditions), when they hold.
fn trampoline_of(f: Value, mem: Value) -> Option<(Value, Value)> {
    if mem.opcode() != Some(Opcode::LLVMAlloca) {
        return None;
    }
    let mut init = None;
    for u in mem.users() {
        if is_init(u) && u.call_args().first() == Some(&mem) && init.is_none() {
            init = Some(u);
        } else if !(is_adjust(u) || u.is_lifetime_marker()) {
            return None;
        }
    }
    let args = init?.call_args();
    let (inner, frame) = (args[1], args[2]);
    let entry = f.entry_block()?;
    let everywhere = frame.is_argument()
        || frame.is_constant()
        || (frame.opcode() == Some(Opcode::LLVMAlloca) && frame.parent_block() == entry);
    (inner.is_function() && everywhere).then_some((inner, frame))
}

/// Step 2 for one call through a trampoline: the direct call replacing it.
fn call_directly(b: &Builder, f: Value, call: Value) -> Option<Value> {
    let target = call.called_value();
    if !is_adjust(target) {
        return None;
    }
    let (inner, frame) = trampoline_of(f, target.call_args()[0])?;
    let params = inner.params();
    let nest = (0..params.len()).find(|&k| inner.has_param_attr(k as u32, "nest"))?;
    let mut args = call.call_args();
    if args.len() + 1 != params.len() || call.called_function_type().is_vararg() {
        return None;
    }
    args.insert(nest, frame);
    if args.iter().zip(&params).any(|(a, p)| a.ty() != p.ty())
        || call.ty() != inner.function_type().return_type()
    {
        return None;
    }
    b.position_before(call);
    let direct = b.call(inner.function_type(), inner, &args);
    direct.copy_debug_loc(call);
    Some(direct)
}

/// Steps 1-3 on `f`, a clone about to be differentiated.
pub(crate) fn resolve(m: Module, f: Value) -> Result<(), String> {
    if !calls(f).into_iter().any(is_init) {
        return Ok(());
    }
    for _ in 0..LEVELS {
        let passing: Vec<Value> = calls(f)
            .into_iter()
            .filter(|c| c.call_args().into_iter().any(is_adjust))
            .filter(|c| {
                c.called_function().is_some_and(|g| {
                    !g.is_declaration()
                        && g != f
                        && !g.has_string_fn_attr(CUSTOM_RULE_ATTR)
                        && !crate::generated::is_generated(g)
                        && !g.function_type().is_vararg()
                })
            })
            .collect();
        if passing.is_empty() {
            break;
        }
        crate::settings::inline_call_sites(m, &passing)?;
    }
    let b = Builder::new(m.context());
    for call in calls(f) {
        if call.called_function().is_none() {
            if let Some(direct) = call_directly(&b, f, call) {
                call.replace_all_uses_with(direct);
                call.erase();
            }
        }
    }
    for adjust in calls(f).into_iter().filter(|&c| is_adjust(c)) {
        if adjust.users().is_empty() {
            adjust.erase();
        }
    }
    for init in calls(f).into_iter().filter(|&c| is_init(c)) {
        let mem = init.call_args()[0];
        let others = mem.users().into_iter().filter(|&u| u != init);
        if others.clone().all(|u| u.is_lifetime_marker()) {
            for u in others {
                u.erase();
            }
            init.erase();
        }
    }
    Ok(())
}
