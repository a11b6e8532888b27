//! Runtime activity: pointers whose activity is only known when the program runs.
//!
//! Unoptimized code (and Eigen's at every level) chooses at run time between memory that
//! has a shadow and memory that has none: a `phi` merging an `enzyme_const` matrix's data
//! with a duplicated temporary, a struct whose field receives an `enzyme_const` pointer
//! while the struct itself has a shadow. Enzyme handles such code in its runtime-activity
//! mode (`-enzyme-runtime-activity`, Enzyme.jl's `set_runtime_activity`), and so do we,
//! automatically, where the static analysis would otherwise report mismatched activity:
//!
//! * the **shadow of a constant pointer is the primal pointer itself** where it meets
//!   shadowed code (the incoming value of such a phi or select, the pointer stored into
//!   shadowed memory, alone or in a record stored whole): [`RuntimeActivity::own_shadow`];
//! * every derivative access through a shadow that **may** be such a primal is guarded at
//!   run time by `shadow != primal`: loaded tangents read zero, tangent stores and
//!   pointer-shadow stores go to a scratch slot, adjoint accumulation and the zeroing of
//!   a stored-over adjoint are masked off. Those pointers are
//!   [`RuntimeActivity::maybe_primal`]: the phis and selects above, what is computed from
//!   them by address arithmetic, merged from them, and pointers loaded through them; and
//!   when such a pointer was stored into shadowed memory, every pointer the function
//!   loads from shadowed memory.
//!
//! Everything else stays unguarded: a function that needs no runtime activity gets
//! exactly the code it got before. Across calls: a callee with IR given a maybe-primal
//! pointer, or shadowed memory that may hold one, gets its own derivative under checks
//! ([`RuntimeIn`] in its request: which parameters may be primals, whether pointers it
//! loads from shadowed memory may be), and a pointer it returns is maybe-primal to the
//! caller; such a call also makes the caller's later pointer loads maybe-primal (the
//! callee may have stored one). A callee given a constant pointer to floats that may
//! return one computed from it as its own shadow, or store one into memory it is given
//! (`constant_args.rs`), makes the result maybe-primal (the callee is told the caller
//! checks it: `RuntimeIn::result`) and that memory a holder. Memory intrinsics are
//! guarded by their length, `free` by
//! freeing null, a float `atomicrmw fadd` (an OpenMP reduction into shared memory that
//! a region reads through its struct of captures) by reading its adjoint, and adding its
//! tangent, only where the shadow is not the primal. Where a maybe-primal shadow would
//! go where no check can follow (a function without IR, an indirect call, a custom
//! derivative, the differentiated function's own return, an instruction whose
//! derivative touches memory otherwise),
//! [`RuntimeActivity::unguardable`] says so and it stays a compile-time "mismatched
//! activity" error naming the place.
//!
//! Enzyme's known silent-wrong case under runtime activity (a value that depends on the
//! inputs written through a pointer whose shadow is the primal, then read back: the
//! derivative goes nowhere) is refused: a compile-time error where this function itself
//! chose the pointer between constant and duplicated memory, and a run-time check that
//! aborts with a message when such a store really goes to constant memory, where the
//! pointer is only assumed maybe-primal (read from memory, or a parameter a caller
//! flagged) ([`RuntimeActivity::checked_stores`]). Storing into constant memory without reading
//! back through such pointers stays allowed, as for `enzyme_const` buffers (`audit::body`).

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::{is_unaddressable, Activity};
use ferrozyme_analysis::calls::{callee_args, classify, parallel_callee, CallKind};

use crate::signature::RuntimeIn;
use ferrozyme_llvm::{Block, Opcode, Type, TypeKind, Value};

mod checks;
mod constant_args;
mod holders;
mod records;

use checks::is_float_atomic_add;
pub(crate) use checks::{and_lanes, emit_store_check, masked_write_to_primal, written_address};
use constant_args::{constant_flow, hands_constant_to_keep};
use holders::{stores_no_pointers, Holders, CALLEE_DEPTH};
use records::{
    carries_pointer_field, hands_memory_to_constant_keeper, kept_record_fields,
    record_fields_keeping_constant, returns_record_keeping_constant,
    stores_record_keeping_constant, take_over_record,
};

/// What runtime activity needs in one function.
#[derive(Default, Debug, Clone)]
pub(crate) struct RuntimeActivity {
    /// Pointers without a shadow whose shadow is taken to be the pointer itself.
    pub own_shadow: HashSet<Value>,
    /// Pointers with a shadow that may, at run time, be the primal pointer.
    pub maybe_primal: HashSet<Value>,
    /// Where a maybe-primal shadow escapes what can be guarded: (instruction, why).
    pub unguardable: Vec<(Value, String)>,
    /// Pointers read from shadowed memory may be primals (a constant pointer was stored
    /// into shadowed memory here, by a caller, or possibly by a callee under checks).
    pub tainted: bool,
    /// Which shadowed memory may hold such a pointer, when `tainted` (holders.rs).
    holders: Holders,
    /// Stores of values that depend on the inputs through a maybe-primal pointer, in a
    /// function that also reads such values back through one, where the pointer is only
    /// *assumed* maybe-primal (read from memory that may hold one, or a parameter a
    /// caller flagged): checked at run time, aborting with a message when the shadow is
    /// the primal (the derivative would be lost). Where the function itself chose the
    /// pointer between constant and duplicated memory, it is a compile-time error.
    pub checked_stores: HashSet<Value>,
    /// `insertvalue`s building a record that holds an own-shadow pointer next to floats or
    /// shadowed pointers, stored whole into shadowed memory: their shadow is built field
    /// by field (that pointer itself, the shadows of shadowed pointers, the floats'
    /// tangents or zero adjoints, the integers as they are), also where activity gives
    /// the record none (`{w, s}` before the shadowed `out` joins it).
    pub own_records: HashSet<Value>,
    /// The constant records such an `insertvalue` chain starts from that hold a constant
    /// pointer (`{ptr @TABLE, double poison}`: instsimplify folds the first insertions of
    /// clang -O0's `pair c = {TABLE, s}; return c;`), with their shadow records: the
    /// constant pointers and integers as they are, zero elsewhere.
    pub record_constants: HashMap<Value, Value>,
}

impl RuntimeActivity {
    /// Does the function need run-time activity checks, and can all be inserted?
    pub fn active(&self) -> bool {
        (!self.own_shadow.is_empty() || !self.maybe_primal.is_empty() || self.tainted)
            && self.unguardable.is_empty()
    }

    /// What call `call` tells its callee (empty for calls that need no checks, so their
    /// derivatives are the ordinary ones).
    pub fn call_runtime(&self, call: Value) -> RuntimeIn {
        if !self.active() {
            return RuntimeIn::default();
        }
        let params: Vec<bool> = callee_args(call)
            .iter()
            .map(|a| a.is_some_and(|a| self.maybe_primal.contains(&a)))
            .collect();
        // A callee reads such pointers back only from memory that may hold one.
        let loads = self.tainted
            && callee_args(call)
                .into_iter()
                .flatten()
                .any(|a| a.ty().is_pointer() && self.holders.may_hold(a));
        if !loads && !params.iter().any(|b| *b) {
            // A result computed from a constant argument (constant_args.rs): checked
            // here.
            return RuntimeIn {
                result: returns_pointer(call) && self.maybe_primal.contains(&call),
                ..RuntimeIn::default()
            };
        }
        RuntimeIn {
            params,
            loads,
            result: false,
        }
    }

    /// Is `v`'s shadow the primal itself (a constant pointer meeting shadowed code)?
    pub fn is_own_shadow(&self, v: Value) -> bool {
        self.active() && self.own_shadow.contains(&v)
    }

    /// Is `i` an `insertvalue` whose shadow record is built field by field although
    /// activity may give it none ([`RuntimeActivity::own_records`])?
    pub fn builds_record_shadow(&self, i: Value) -> bool {
        self.active() && self.own_records.contains(&i)
    }

    /// The shadow of constant record `v` ([`RuntimeActivity::record_constants`]).
    pub fn constant_record_shadow(&self, v: Value) -> Option<Value> {
        if !self.active() {
            return None;
        }
        self.record_constants.get(&v).copied()
    }

    /// Must accesses through `v`'s shadow be guarded by `shadow != primal`?
    pub fn is_guarded(&self, v: Value) -> bool {
        self.active() && self.maybe_primal.contains(&v)
    }

    /// The `--print-activity` lines: where run-time checks go.
    pub fn print(&self, f: Value) -> String {
        if !self.active() {
            return String::new();
        }
        let mut names: Vec<String> = self
            .maybe_primal
            .iter()
            .map(|v| short(*v))
            .collect::<Vec<_>>();
        names.sort();
        let mut own: Vec<String> = self.own_shadow.iter().map(|v| short(*v)).collect();
        own.sort();
        format!(
            "runtime activity in @{}: shadow = primal for {}; accesses guarded through {}\n",
            f.name(),
            own.join(", "),
            names.join(", ")
        )
    }
}

fn short(v: Value) -> String {
    let n = v.name();
    if n.is_empty() {
        let t = v.to_string();
        t.split(" = ").next().unwrap_or("").trim().to_string()
    } else {
        format!("%{n}")
    }
}

/// Does call `i` return a pointer, alone or in a record? A record's pointer fields are
/// followed like a pointer (taken out by `extractvalue`): a generated augmented forward
/// returns `{primal, shadow, tape}`, and a higher-order derivative's inner gradient
/// calling a callee that picks a constant or a duplicated pointer read the picked
/// pointer's tangent through the constant unguarded (tests/c/1478).
fn returns_pointer(i: Value) -> bool {
    i.ty().is_pointer() || carries_pointer_field(i.ty())
}

/// A pointer that has no shadow where one is needed: not null/undef/unaddressable.
pub(crate) fn lacks_shadow(act: &Activity, v: Value) -> bool {
    let harmless = v.is_undef() || (v.is_constant() && v.ty().zero() == v) || is_unaddressable(v);
    !harmless && !act.is_shadowed(v)
}

/// Types a guarded load or store can move: fp scalars and vectors, pointers, integers and
/// integer vectors (a `HashMap`'s SSE2 probe of its control bytes, `load <16 x i8>`, whose
/// table is the shared empty group or the heap; integers carrying float bits are refused
/// where their adjoint would move, `reverse::adjoint`'s `unguarded_runtime_access`).
fn guardable_type(t: Type) -> bool {
    t.is_fp_scalar()
        || t.is_pointer()
        || t.is_integer()
        || (t.kind() == TypeKind::Vector
            && (t.element_type().is_fp_scalar() || t.element_type().is_integer()))
}

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
    // Enzyme's silent-wrong case: a value that depends on the inputs stored through a
    // shadow that may be the primal (its tangent/adjoint then goes nowhere) and read
    // back through such a pointer (read as a constant). Refused.
    let reads_back = insts.iter().any(|&i| {
        matches!(accessed_pointer(i), Some((p, true)) if rt.maybe_primal.contains(&p))
            && act.is_active(i)
    });
    if reads_back {
        let direct = direct_choices(&insts, act, &rt);
        for &i in &insts {
            let Some((p, false)) = accessed_pointer(i) else {
                continue;
            };
            if rt.maybe_primal.contains(&p) && act.is_active(i.operand(0)) {
                if !direct.contains(&p) {
                    rt.checked_stores.insert(i);
                    continue;
                }
                rt.unguardable.push((
                    i,
                    "a value that depends on differentiable inputs is written through a pointer that is constant (enzyme_const) memory or differentiable memory depending on the run, and read back through such a pointer; when it is the constant memory, the value's derivative would be lost".to_string(),
                ));
            }
        }
    }
    // An active float added atomically through such a pointer (a region's reduction into
    // shared memory, read after the region): the same stop where it is constant memory.
    let added: Vec<Value> = insts
        .iter()
        .copied()
        .filter(|&i| {
            is_float_atomic_add(i)
                && rt.maybe_primal.contains(&i.operand(0))
                && act.is_active(i.operand(1))
        })
        .collect();
    if !added.is_empty() {
        let direct = direct_choices(&insts, act, &rt);
        for i in added {
            if direct.contains(&i.operand(0)) {
                rt.unguardable.push((
                    i,
                    "a value that depends on differentiable inputs is added atomically through a pointer that is constant (enzyme_const) memory or differentiable memory depending on the run; when it is the constant memory, the value's derivative would be lost".to_string(),
                ));
            } else {
                rt.checked_stores.insert(i);
            }
        }
    }
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

/// The maybe-primal pointers this function itself chose between constant and duplicated
/// memory (its phis and selects with a constant incoming, what is computed from them,
/// pointers read through them), as opposed to those only assumed maybe-primal.
fn direct_choices(insts: &[Value], act: &Activity, rt: &RuntimeActivity) -> HashSet<Value> {
    use Opcode::*;
    let mut d: HashSet<Value> = HashSet::default();
    for &i in insts {
        if matches!(i.opcode(), Some(LLVMPHI | LLVMSelect)) && rt.maybe_primal.contains(&i) {
            let choices: Vec<Value> = if i.opcode() == Some(LLVMSelect) {
                vec![i.operand(1), i.operand(2)]
            } else {
                i.incoming().into_iter().map(|(v, _)| v).collect()
            };
            if choices.iter().any(|v| rt.own_shadow.contains(v)) {
                d.insert(i);
            }
        }
    }
    loop {
        let n = d.len();
        for &i in insts {
            if !rt.maybe_primal.contains(&i) || d.contains(&i) {
                continue;
            }
            let hit = match i.opcode() {
                Some(
                    LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMLoad,
                ) => d.contains(&i.operand(0)),
                Some(LLVMPHI) => i.incoming().into_iter().any(|(v, _)| d.contains(&v)),
                Some(LLVMSelect) => d.contains(&i.operand(1)) || d.contains(&i.operand(2)),
                _ => false,
            };
            if hit && act.is_shadowed(i) {
                d.insert(i);
            }
        }
        if d.len() == n {
            return d;
        }
    }
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

fn is_call(i: Value) -> bool {
    matches!(
        i.opcode(),
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
    ) && !harmless_intrinsic(i)
}

fn harmless_intrinsic(i: Value) -> bool {
    [
        "llvm.lifetime",
        "llvm.dbg",
        "llvm.assume",
        "llvm.experimental.noalias",
        // A hint: reads nothing the program sees (Eigen's `internal::prefetch` at -O0).
        "llvm.prefetch",
    ]
    .iter()
    .any(|b| i.called_function().is_some_and(|f| f.name().starts_with(b)))
}

/// Can callee `i` read a pointer out of shadowed memory it is given, unchecked? Functions
/// with IR are generated under checks, OpenMP regions' outlined bodies too (the C seed
/// 3057 of difftest: constant weights in a stack struct beside a `parallel for`
/// reduction, tests/c/1395); the library calls the engine knows (allocation,
/// memory intrinsics that copy shadow bytes as bytes, math, inactive functions) do not
/// read pointers as pointers; unknown externals, indirect calls and custom derivatives
/// might.
fn may_read_back_pointers(i: Value) -> bool {
    !is_mem_intrinsic(i)
        && !is_blas(i)
        && parallel_callee(i).is_none()
        && !targets_have_ir(i)
        && matches!(
            classify(i),
            CallKind::Custom(_)
                | CallKind::UnknownExternal
                | CallKind::UnknownIntrinsic
                | CallKind::Indirect
                | CallKind::InlineAsm
                | CallKind::OpenMp(_)
                | CallKind::Mpi(_)
        )
}

/// Is `i` a call through a pointer whose possible targets (`call_targets`: the functions
/// a `select` of them chooses, else those of its type whose address the module takes;
/// a first derivative's dispatch chooses generated ones) all have IR and no registered
/// derivative? `common/dispatch.rs` picks the target's derivative from the primal pointer,
/// requested with this call's [`RuntimeIn`] like a direct call's, so each target is
/// generated under the same checks: `std::function`'s manager and invoker, called through
/// the pointers its constructor stored, given the storage that holds a lambda capturing
/// an `enzyme_const` array by reference at -O0 (difftest C++ seed 8026, tests/cxx/452).
fn targets_have_ir(i: Value) -> bool {
    if !matches!(classify(i), CallKind::Indirect) {
        return false;
    }
    let targets = ferrozyme_analysis::calls::call_targets(i);
    !targets.is_empty()
        && targets
            .iter()
            .all(|f| !f.is_declaration() && !f.has_string_fn_attr(ferrozyme_abi::CUSTOM_RULE_ATTR))
}

/// A BLAS/LAPACK function with rules (`cblas_ddot`, `dgemv_`): it reads and writes
/// arrays of floats and integers passed by address, never a pointer out of memory (a
/// constant weights pointer stored beside the active data does not stop run-time
/// activity from taking the store over: fuzz36's difftest C seed 7, tests/c/1481).
fn is_blas(i: Value) -> bool {
    i.called_function()
        .is_some_and(|f| ferrozyme_rules::blas::blas_function(&f.name()).is_some())
}

fn is_mem_intrinsic(i: Value) -> bool {
    ["llvm.memset", "llvm.memcpy", "llvm.memmove"]
        .iter()
        .any(|b| i.called_function().is_some_and(|f| f.name().starts_with(b)))
}

/// Is `i` given shadowed memory that may hold pointers? Memory type analysis knows to
/// hold only floats and integers (Eigen's `pminmax_impl::run(const double &a, const
/// double &b, op)` calling `op(a, b)` through a function pointer, tests/cxx/123, 418)
/// has no pointer to read back.
fn passes_shadowed_pointer(
    act: &Activity,
    i: Value,
    holds_pointers: impl Fn(Value) -> bool,
) -> bool {
    i.call_args()
        .into_iter()
        .any(|a| a.ty().is_pointer() && act.is_shadowed(a) && holds_pointers(a))
}

fn callee_name(i: Value) -> String {
    i.called_function()
        .map(|f| format!("`{}`", f.name()))
        .unwrap_or_else(|| "an indirect callee".to_string())
}

fn callee_reads_msg(i: Value) -> String {
    format!(
        "a constant (enzyme_const) pointer was stored into memory that has a shadow, and {} is given shadowed memory it may read that pointer back from; run-time activity checks cannot follow a call into a function without IR (external or indirect)",
        callee_name(i)
    )
}

/// Why the use `u` of maybe-primal `v` cannot be guarded, if it cannot.
fn unguardable_use(act: &Activity, v: Value, u: Value, allow_ret: bool) -> Option<String> {
    use Opcode::*;
    match u.opcode() {
        Some(LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze)
            if u.operand(0) == v =>
        {
            None
        }
        Some(LLVMPHI | LLVMICmp | LLVMPtrToInt) => None,
        // A struct moving the pointer: what is taken out of it is maybe-primal itself.
        Some(LLVMExtractValue | LLVMInsertValue) => None,
        Some(LLVMSelect) if u.operand(0) != v => None,
        Some(LLVMLoad) if guardable_type(u.ty()) => None,
        // A float atomic add (an OpenMP reduction or `atomic update`): its adjoint is read,
        // and its tangent added, only where the shadow is not the primal
        // (`rev_atomic_rmw`, `tangent_atomic_rmw`); a checked store besides.
        Some(LLVMAtomicRMW) if u.operand(0) == v && is_float_atomic_add(u) => None,
        Some(LLVMStore) if u.operand(1) == v && guardable_type(u.operand(0).ty()) => None,
        Some(LLVMStore) if u.operand(0) == v && u.operand(1) != v => None,
        Some(LLVMCall | LLVMInvoke | LLVMCallBr) if harmless_intrinsic(u) => None,
        // Its derivative is generated under checks too (`RuntimeIn`), also each possible
        // target's of a call through a pointer whose targets all have IR.
        Some(LLVMCall | LLVMInvoke)
            if (matches!(classify(u), CallKind::Defined(_)) && u.called_function() != Some(v))
                || (targets_have_ir(u) && u.called_value() != v) =>
        {
            None
        }
        // A captured argument of an OpenMP region: the outlined body's derivative is
        // generated under checks (`callee_args`).
        Some(LLVMCall)
            if parallel_callee(u).is_some()
                && u.call_args().iter().skip(3).any(|a| *a == v) =>
        {
            None
        }
        Some(LLVMRet) if allow_ret => None,
        // A struct holding a maybe-primal pointer, returned to a caller that did not put
        // this function under checks: left as before structs were followed (the caller
        // reads the field's shadow unguarded). Refusing it refused `std::map::emplace`'s
        // `pair<iterator, bool>` at -O0 (tests/cxx/124), whose node pointer is only
        // assumed maybe-primal because a constant key was kept; a caller that hands a
        // constant over is under checks itself and allows the return (tests/cxx/380).
        Some(LLVMRet) if !v.ty().is_pointer() => None,
        // Memory intrinsics: the shadow copy or clear is guarded by its length.
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::Memcpy | CallKind::Memmove | CallKind::Memset)
                && u.call_args().iter().position(|a| *a == v).is_some_and(|k| k < 2) =>
        {
            None
        }
        // A library function that cannot carry a derivative (`operator<` of two
        // `std::string`s, a string's destructor: no IR at -O0, tests/cxx/345): it gets
        // the primal pointer only, whatever the shadow is, and the transform writes no
        // shadow for it. Input functions are not among them: the transform zeroes the
        // shadow of what they read in, which may be the primal itself.
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::InactiveExternal)
                && !ferrozyme_analysis::input_calls::is_input_call(u)
                && u.called_function() != Some(v) =>
        {
            None
        }
        // A masked load, store, gather or scatter of floats: its derivative's access is
        // masked lane by lane where the shadow is the primal (`and_lanes`).
        Some(LLVMCall) if masked_float_pointer(u) == Some(v) => None,
        // `free(p)`: the shadow is freed unless it is the primal (guarded).
        Some(LLVMCall | LLVMInvoke)
            if matches!(classify(u), CallKind::Free)
                && ferrozyme_analysis::calls::freed_pointer(u) == v =>
        {
            None
        }
        Some(LLVMCall | LLVMInvoke | LLVMCallBr) => Some(format!(
            "a pointer that is constant or differentiable depending on the run is passed to {}; run-time activity checks cannot follow a call into a function without IR (external, indirect or a memory intrinsic)",
            callee_name(u)
        )),
        Some(LLVMRet) => Some(
            "a pointer that is constant or differentiable depending on the run is returned from the differentiated function, whose caller cannot check it at run time"
                .to_string(),
        ),
        _ if !act.is_shadowed(u) && !u.ty().contains_pointer() && u.ty().is_integer() => None,
        _ => Some(format!(
            "a pointer that is constant or differentiable depending on the run is used by `{}`, whose derivative cannot be guarded at run time",
            u.opcode().map(ferrozyme_llvm::opcode_name).unwrap_or("an operand")
        )),
    }
}

/// The pointer operand (one pointer, or a vector of them) of a masked load, store, gather
/// or scatter of floats; `None` for other instructions.
pub(crate) fn masked_float_pointer(i: Value) -> Option<Value> {
    if i.opcode() != Some(Opcode::LLVMCall) {
        return None;
    }
    let a = i.call_args();
    match classify(i) {
        CallKind::MaskedLoad | CallKind::MaskedGather if i.ty().is_fp() => Some(a[0]),
        CallKind::MaskedStore | CallKind::MaskedScatter if a[0].ty().is_fp() => Some(a[1]),
        _ => None,
    }
}

/// The pointer a load (or a masked load or gather of floats) reads through, or a store
/// (or a masked store or scatter of floats) writes through, with whether `i` reads.
fn accessed_pointer(i: Value) -> Option<(Value, bool)> {
    match i.opcode() {
        Some(Opcode::LLVMLoad) => Some((i.operand(0), true)),
        Some(Opcode::LLVMStore) => Some((i.operand(1), false)),
        _ => masked_float_pointer(i).map(|p| (p, masked_reads(i))),
    }
}

/// Is `i` a masked load or gather (as opposed to a store or scatter)?
fn masked_reads(i: Value) -> bool {
    i.opcode() == Some(Opcode::LLVMCall)
        && matches!(classify(i), CallKind::MaskedLoad | CallKind::MaskedGather)
}
