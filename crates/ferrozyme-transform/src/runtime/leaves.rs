//! The tape stack's one-block helpers written into their callers.
//!
//! `__fz_top`, `__fz_pop` and `__fz_push_reserved` (`ir/stack.ll`) are a load of the
//! stack's length, an add or a subtract, perhaps a store and the slot's address. The
//! synthesis calls them (the record sizes are patched into the calls' operands when a
//! derivative is finished, `reverse/finish.rs`), and LLVM's AlwaysInliner used to inline
//! them in the post-AD pipeline: a few hundred `InlineFunction` calls for a few
//! instructions each (`chain` n = 80: 400 of the pipeline's 567 inlined call sites,
//! bench/compile_scaling/README.md "cc34"). Copying the body in place before the pipeline
//! gives the same instructions for a fraction of the work.

use ferrozyme_analysis::hash::HashMap;
use ferrozyme_llvm::{Builder, Module, Opcode, Value};

use super::RtFn;

/// The helpers [`inline_stack_leaves`] writes into their callers.
const STACK_LEAVES: [RtFn; 3] = [RtFn::Top, RtFn::Pop, RtFn::PushReserved];

/// Replaces `call` of the one-block function `g` by copies of `g`'s instructions, its
/// parameters replaced by the call's arguments and the call's value by the returned one.
/// The copies keep their metadata (`!ferrozyme.tape.int`) and take the call's debug
/// location, as LLVM's inliner does for a callee without debug information.
pub(crate) fn inline_leaf_call(b: &Builder, call: Value, g: Value) {
    let mut map: HashMap<Value, Value> = g.params().into_iter().zip(call.call_args()).collect();
    b.position_before(call);
    let mut ret = None;
    for i in g.blocks()[0].instructions() {
        if i.opcode() == Some(Opcode::LLVMRet) {
            ret = (i.num_operands() > 0).then(|| i.operand(0));
            break;
        }
        let c = i.clone_instruction();
        for k in 0..c.num_operands() {
            if let Some(&v) = map.get(&c.operand(k)) {
                c.set_operand(k, v);
            }
        }
        b.insert(c);
        c.copy_debug_loc(call);
        map.insert(i, c);
    }
    if let Some(r) = ret {
        call.replace_all_uses_with(map.get(&r).copied().unwrap_or(r));
    }
    call.erase();
}

/// Writes every call of the stack's one-block helpers in the module's generated
/// functions into its caller (`ferrozyme cc` before the post-AD pipeline at `-O1` and
/// above). The helpers stay defined (internal, no callers left: the pipeline's GlobalOpt
/// deletes them), so the module is the one AlwaysInliner would have made.
pub fn inline_stack_leaves(m: Module) {
    let b = Builder::new(m.context());
    for f in STACK_LEAVES {
        let Some(g) = m.function(f.name()).filter(|g| !g.is_declaration()) else {
            continue;
        };
        if g.blocks().len() != 1 {
            continue;
        }
        for call in g.users() {
            let inside_generated = call.opcode() == Some(Opcode::LLVMCall)
                && call.called_function() == Some(g)
                && crate::generated::is_generated(call.parent_function());
            if inside_generated {
                inline_leaf_call(&b, call, g);
            }
        }
    }
}
