//! The analysis itself ([`analyze`]): which constant pointers are their own shadows,
//! which shadowed pointers may be primals (propagated to a fixed point through address
//! arithmetic, merges, loads from memory that may hold one, and calls), which memory may
//! hold one (`holders.rs`), and where a maybe-primal shadow escapes every check
//! (`guards.rs`) or would lose a derivative (`lost_derivatives.rs`). Phases: seeds (phis
//! and selects with a shadowless incoming, constant pointers stored into shadowed memory,
//! records keeping one, calls handed one: `records.rs`, `constant_args.rs`), then the
//! fixed point, then the uses of every maybe-primal pointer.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{callee_args, classify, parallel_callee, CallKind};
use ferrozyme_llvm::{Block, Opcode, Value};

use super::constant_args::{constant_flow, hands_constant_to_keep};
use super::guards::{
    callee_reads_msg, is_call, may_read_back_pointers, passes_shadowed_pointer, targets_have_ir,
    unguardable_use,
};
use super::holders::{stores_no_pointers, Holders, CALLEE_DEPTH};
use super::lost_derivatives::refuse_lost_derivatives;
use super::records::{
    carries_pointer_field, hands_memory_to_constant_keeper, kept_record_fields,
    record_fields_keeping_constant, returns_record_keeping_constant,
    stores_record_keeping_constant, take_over_record,
};
use super::{lacks_shadow, returns_pointer, RuntimeActivity};
use crate::signature::RuntimeIn;

/// The analysis of `f` (its `blocks` reachable ones). `store_seed` says whether a store of
/// a pointer without a shadow into shadowed memory is a constant pointer that runtime
/// activity should take over (the body audit's "constant pointer stored" finding);
/// `kept_constant` accepts the constant pointers to floats callees may keep as their own
/// shadows, `may_hold_floats` the pointers type analysis does not know to address
/// integers only; `select_handled` whether a select is already guarded by the older select scheme
/// (`reverse/mixed.rs`: null shadow plus masked accesses).
#[allow(clippy::too_many_arguments)]
pub(crate) fn analyze(
    blocks: &[Block],
    act: &Activity,
    f: Value,
    boundary: &RuntimeIn,
    store_seed: impl Fn(Value) -> bool,
    kept_constant: impl Fn(Value) -> bool,
    may_hold_floats: impl Fn(Value) -> bool,
    select_handled: impl Fn(Value) -> bool,
    holds_pointers: impl Fn(Value) -> bool,
) -> RuntimeActivity {
    use Opcode::*;
    let insts: Vec<Value> = blocks.iter().flat_map(|b| b.instructions()).collect();
    let mut rt = RuntimeActivity::default();
    let mut tainted = boundary.loads;
    // The memory that may hold a constant taken over (holders.rs).
    let mut holders = Holders::new(boundary.loads);
    for (p, flagged) in f.params().into_iter().zip(&boundary.params) {
        if *flagged && act.is_shadowed(p) {
            rt.maybe_primal.insert(p);
        }
    }
    for &i in &insts {
        match i.opcode() {
            Some(LLVMPHI | LLVMSelect) if i.ty().is_pointer() && act.is_shadowed(i) => {
                let choices: Vec<Value> = if i.opcode() == Some(LLVMSelect) {
                    vec![i.operand(1), i.operand(2)]
                } else {
                    i.incoming().into_iter().map(|(v, _)| v).collect()
                };
                let lacking: Vec<Value> = choices
                    .into_iter()
                    .filter(|v| lacks_shadow(act, *v))
                    .collect();
                if lacking.is_empty() || (i.opcode() == Some(LLVMSelect) && select_handled(i)) {
                    continue;
                }
                rt.own_shadow.extend(lacking);
                rt.maybe_primal.insert(i);
            }
            Some(LLVMStore) => {
                let v = i.operand(0);
                if (v.ty().is_pointer() && lacks_shadow(act, v) && store_seed(i))
                    || stores_record_keeping_constant(act, i, &kept_constant)
                {
                    rt.own_shadow.insert(v);
                    tainted = true;
                    holders.add(i.operand(1));
                } else if let Some(kept) = record_fields_keeping_constant(act, i, &kept_constant) {
                    take_over_record(&mut rt, act, v, kept);
                    tainted = true;
                    holders.add(i.operand(1));
                }
            }
            // The record returned by value (clang -O0's `return c;` of a `{TABLE, s}`
            // after SSA construction): its shadow goes to the caller, built the same way.
            Some(LLVMRet) if i.num_operands() == 1 => {
                let v = i.operand(0);
                if act.is_shadowed(v) || act.is_active(v) {
                    if let Some(kept) = kept_record_fields(act, v, &kept_constant) {
                        take_over_record(&mut rt, act, v, kept);
                        tainted = true;
                        holders.everywhere();
                    }
                }
            }
            Some(LLVMCall | LLVMInvoke)
                if hands_constant_to_keep(act, i, &kept_constant)
                    || hands_memory_to_constant_keeper(act, i, &kept_constant) =>
            {
                tainted = true;
                holders.everywhere();
            }
            Some(LLVMCall | LLVMInvoke)
                if returns_record_keeping_constant(act, i, &kept_constant) =>
            {
                // The callee's derivative builds the record's shadow with the constant
                // its own shadow (it stores it into its shadowed return slot).
                rt.maybe_primal.insert(i);
                tainted = true;
                holders.everywhere();
            }
            _ => {}
        }
        // A callee computing its result from a constant argument, or storing such a
        // pointer into memory given with a shadow (constant_args.rs).
        if let Some(flow) = constant_flow(act, i, &kept_constant, &may_hold_floats) {
            if flow.own && returns_pointer(i) && act.is_shadowed(i) {
                rt.maybe_primal.insert(i);
            }
            if flow.stores {
                for a in i.call_args() {
                    if a.ty().is_pointer() && act.is_shadowed(a) {
                        tainted = true;
                        holders.add(a);
                    }
                }
            }
        }
    }
    if rt.own_shadow.is_empty() && rt.maybe_primal.is_empty() && !tainted {
        return rt;
    }
    // Propagate to a fixed point.
    loop {
        let before = (rt.maybe_primal.len(), tainted, holders.size());
        for &i in &insts {
            let shadowed = act.is_shadowed(i);
            let from = |v: Value| rt.maybe_primal.contains(&v);
            // A struct holding a pointer (clang -O0 returns valarray's expression closure
            // `{double, const valarray *}` by value) carries a maybe-primal pointer in its
            // shadow like a pointer does: followed through loads, calls' results and
            // `extractvalue`/`insertvalue` to the pointer taken out of it.
            let record = carries_pointer_field(i.ty()) && (shadowed || act.is_active(i));
            let hit = match i.opcode() {
                Some(LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze) => {
                    shadowed && from(i.operand(0))
                }
                Some(LLVMPHI) => shadowed && i.incoming().into_iter().any(|(v, _)| from(v)),
                Some(LLVMSelect) => shadowed && (from(i.operand(1)) || from(i.operand(2))),
                Some(LLVMLoad) => {
                    let p = i.operand(0);
                    let loaded = match home_value(p) {
                        Some(v) => from(v) || rt.own_shadow.contains(&v),
                        None => tainted && act.is_shadowed(p) && holders.may_hold(p),
                    };
                    ((shadowed && i.ty().is_pointer()) || record) && (from(p) || loaded)
                }
                Some(LLVMExtractValue) => {
                    ((shadowed && i.ty().is_pointer()) || record) && from(i.operand(0))
                }
                Some(LLVMInsertValue) => record && (from(i.operand(0)) || from(i.operand(1))),
                Some(LLVMStore) => {
                    if from(i.operand(0)) && act.is_shadowed(i.operand(1)) {
                        tainted = true;
                        holders.add(i.operand(1));
                    }
                    false
                }
                // A copy out of memory whose shadow may be the primal moves its pointers'
                // shadows as bytes: the constant pointers there are their own shadows in
                // the destination's shadow too, read back unchecked otherwise.
                Some(LLVMCall | LLVMInvoke)
                    if matches!(classify(i), CallKind::Memcpy | CallKind::Memmove) =>
                {
                    let (dst, src) = (i.call_args()[0], i.call_args()[1]);
                    if from(src) && act.is_shadowed(dst) && holds_pointers(src) {
                        tainted = true;
                    }
                    // A copy of memory that may hold the constant holds it too.
                    if (from(src) || (tainted && holders.may_hold(src))) && act.is_shadowed(dst) {
                        holders.add(dst);
                    }
                    false
                }
                Some(LLVMCall | LLVMInvoke)
                    if matches!(classify(i), CallKind::Defined(_))
                        || parallel_callee(i).is_some()
                        || targets_have_ir(i) =>
                {
                    // A callee under checks (given a maybe-primal pointer, or shadowed
                    // memory that may hold one) may return such a pointer, or store one
                    // into memory the caller reads later. An OpenMP region's outlined
                    // body is such a callee, given the captured arguments.
                    let args = callee_args(i).into_iter().flatten().collect::<Vec<_>>();
                    let checked = args.iter().any(|&a| {
                        from(a) || (tainted && a.ty().is_pointer() && act.is_shadowed(a))
                    });
                    if checked {
                        tainted = true;
                    }
                    // Given the constant or memory holding it, a callee that stores
                    // pointers may keep it anywhere.
                    let handed = args.iter().any(|&a| {
                        from(a) || (tainted && a.ty().is_pointer() && holders.may_hold(a))
                    });
                    // (The callee's body is walked only when it is handed one.)
                    if handed
                        && !matches!(classify(i),
                            CallKind::Defined(g) if stores_no_pointers(g, CALLEE_DEPTH))
                    {
                        holders.everywhere();
                    }
                    checked && ((shadowed && i.ty().is_pointer()) || record)
                }
                _ => false,
            };
            if hit {
                rt.maybe_primal.insert(i);
            }
        }
        if (rt.maybe_primal.len(), tainted, holders.size()) == before {
            break;
        }
    }
    rt.tainted = tainted;
    rt.holders = holders;
    let allow_ret = boundary.result_checked();
    for &v in &rt.maybe_primal.clone() {
        for u in v.users() {
            if let Some(why) = unguardable_use(act, v, u, allow_ret) {
                rt.unguardable.push((u, why));
            }
        }
    }
    refuse_lost_derivatives(&insts, act, &mut rt);
    if tainted {
        for &i in &insts {
            // Memory intrinsics copy or clear shadow memory as bytes, whatever pointers
            // it holds; only their own address operands matter (checked above).
            if is_call(i)
                && may_read_back_pointers(i)
                && passes_shadowed_pointer(act, i, |a| holds_pointers(a) && rt.holders.may_hold(a))
            {
                rt.unguardable.push((i, callee_reads_msg(i)));
            }
        }
    }
    rt.unguardable.sort_by_key(|(i, _)| i.to_string());
    rt.unguardable.dedup_by_key(|(i, _)| *i);
    rt
}
/// What every load from `slot` gives, where it is a stack slot holding one value that
/// no callee writes: a parameter's -O0 home, also one handed to OpenMP regions that only
/// read it (`captures::read_only_capture_value`). A pointer loaded from there is
/// maybe-primal only when the stored one is, not because shadowed memory elsewhere may
/// hold a constant (difftest's C++ seed 3036: `y` reloaded from its home, captured by a
/// region, was passed to `cblas_dnrm2` as maybe-primal and refused; tests/cxx/480).
fn home_value(slot: Value) -> Option<Value> {
    ferrozyme_analysis::activity::single_store_local(slot)
        .or_else(|| ferrozyme_analysis::captures::read_only_capture_value(slot))
}
