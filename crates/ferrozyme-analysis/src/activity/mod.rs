//! Activity analysis: which values carry derivatives and which pointers need shadows.
//!
//! Two facts per value, computed together to a fixed point (pointer shadows and float
//! activity feed each other through loads):
//!
//! * **shadowed** pointers: pointers that may point to memory holding differentiable data,
//!   so they get a *shadow* pointer to the matching adjoint memory. Sources: `Dup`
//!   arguments, allocations (`alloca`, `malloc`, ...) of non-integer data, mutable global
//!   variables holding floats, and pointers loaded from shadowed memory (the shadow memory
//!   holds shadow pointers). GEPs, casts, phis and selects propagate.
//! * **active** values: floating-point values (scalars, vectors, aggregates containing
//!   floats) that may depend on an active input — `Active` arguments, loads from shadowed
//!   memory, results of differentiable calls. Integers are never active; a cast from an
//!   integer (`sitofp`) starts a constant.
//!
//! The analysis over-approximates: calling a value active that is not costs speed, never
//! correctness (its adjoint is simply zero). It never under-approximates on the paths it
//! understands. Read-only functions returning integers and known inactive externals
//! (`printf`) are inactive calls.

use crate::hash::{HashMap, HashSet};
use std::fmt::Write;

use ferrozyme_llvm::{Opcode, Type, Value};

use crate::calls::{classify, CallKind};

mod constant_pointers;
mod constant_reads;
mod copy_slots;
mod descriptor_temps;
mod globals;
mod inactive_results;
mod int_bits;
mod kept_pointers;
mod local_stores;
mod returned_shadow;
mod rounding;
mod untyped_swap;
mod useful;

pub(crate) use globals::returned_values;
pub use local_stores::{
    may_update_param_in_place, param_writes, single_store_local, ParamWrites, PARAM_WRITES_DEPTH,
};
pub use returned_shadow::callee_proves_result_constant;

/// The name prefix of the transform's checkpointed and fixed-point loop functions.
pub const LOOP_FUNCTION_PREFIX: &str = "__fz_ckpt_call.";
pub use constant_reads::{
    base_object, constant_read_chain, immutable_memory_pointer, is_returned_allocation,
    pointer_base, returned_immutable_pointers,
};
pub use globals::{
    extracted_returned_arg, functions_referencing_shadowed_globals,
    functions_touching_shadowed_globals, global_needs_shadow, is_readnone_function,
    is_readonly_function, returned_param, returns_fresh_memory,
};
use int_bits::{holds_float_pair, used_as_float_pair};
pub use int_bits::{
    is_int_carrier_type, is_smuggled_pointer, is_unaddressable, moves_pointer_bits,
    pointer_as_integer,
};
pub use kept_pointers::{is_param_memory, stores_param, stores_param_or_pointer_in_it, HandedIn};
pub use untyped_swap::{shadowed_swap, swaps_untyped_bits, untyped_swap, UntypedSwap};

/// How an argument of the function being differentiated takes part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgActivity {
    /// No derivative.
    Const,
    /// Pointer with a shadow.
    Dup,
    /// Active float scalar (or vector/aggregate of floats).
    Active,
}

/// Result of activity analysis for one function.
#[derive(Default, Clone)]
pub struct Activity {
    pub active: HashSet<Value>,
    pub shadowed: HashSet<Value>,
    /// Active `i64` values that carry two `float`s (a struct `{float, float}` or
    /// `{int, float}` copied as one integer); their adjoint is a `<2 x float>`.
    pub packed: HashSet<Value>,
    /// Follow shadow pointers through aggregates returned by calls and taken apart with
    /// `extractvalue` (forward mode passes such aggregates' tangents along).
    pub through_aggregates: bool,
    /// Stack slots handed read-only to OpenMP regions (`captures`): shadowed only once a
    /// value stored into them has a derivative or a shadow.
    read_only_captures: HashSet<Value>,
    /// Stack slots filled only by copies (`copy_slots`), with the copies' sources:
    /// shadowed only once a source is.
    copy_slots: Vec<(Value, Vec<Value>)>,
    /// The field addresses of flang's descriptor temporaries (`descriptor_temps`), with
    /// their slot: a store there shadows the slot like a store into the slot itself.
    descriptor_fields: HashMap<Value, Value>,
    /// The pointer slots among `copy_slots` (`copy_slots::pointer_slot`): shadowed unless
    /// every pointer flowing in is provably constant (`constant_pointers`).
    pointer_slots: HashSet<Value>,
    /// Callee levels left for asking a callee whether its pointer result has a shadow
    /// (`returned_shadow`), and the answers so far.
    callee_depth: u32,
    callee_returns: HashMap<(Value, Vec<ArgActivity>), bool>,
    /// The analysis a derivative is synthesized from (not one nested in a question):
    /// it asks again, at the callee's own depth, where a callee's answer was "shadowed".
    top_level: bool,
    /// The top level's answers asked again at the callee's own depth (`returned_shadow`).
    callee_returns_deep: HashMap<(Value, Vec<ArgActivity>), bool>,
}

/// The integer bit operations through which a float carried in an integer keeps its
/// derivative (besides copies): lane moves of packed float pairs, and sign-bit tricks.
pub fn is_lane_op(i: Value) -> bool {
    use Opcode::*;
    let c = |k: u32| i.operand(k).const_int_value();
    match i.opcode() {
        Some(LLVMTrunc) | Some(LLVMZExt) => true,
        Some(LLVMLShr) | Some(LLVMShl) => c(1) == Some(32) && i.ty().int_width() == Some(64),
        Some(LLVMOr) | Some(LLVMAnd) | Some(LLVMXor) => true,
        _ => false,
    }
}

/// Is `v` a pointer parameter declared to point to a one-byte object
/// (`dereferenceable(1)`: clang's C++ reference to an empty class, such as Eigen's
/// `assign_op` functors or `std::less`)? Such an object holds neither floats nor
/// pointers, so a pointer to it needs no shadow of its own: where one is stored into
/// shadowed memory, the primal pointer serves as its shadow (what Enzyme does for
/// constant pointers), and nothing differentiable can be read or written through it.
pub fn is_empty_object_param(v: Value) -> bool {
    if !v.is_argument() || !v.ty().is_pointer() {
        return false;
    }
    let f = v.parent_function();
    let Some(k) = f.params().iter().position(|p| *p == v) else {
        return false;
    };
    f.param_int_attr(k as u32, "dereferenceable") == Some(1)
}

/// Does this type carry floating-point data we differentiate?
pub fn carries_fp(t: Type) -> bool {
    t.contains_fp()
}

/// Is `alloca` a C++ library object that holds no floats (`library_types`)?
fn is_float_free_object(alloca: Value) -> bool {
    alloca
        .allocated_type()
        .struct_name()
        .is_some_and(|n| crate::library_types::is_float_free_struct(&n))
}

/// Inputs to the analysis of one function.
pub struct ActivityInput<'a> {
    pub func: Value,
    pub args: &'a [ArgActivity],
    /// Functions that touch mutable float globals (from [`functions_touching_shadowed_globals`]).
    pub global_touchers: &'a HashSet<Value>,
}

impl Activity {
    pub fn run(input: &ActivityInput<'_>) -> Activity {
        Self::run_with_types(input, None)
    }

    /// As [`Activity::run`], also following floats carried in integers (an `i64` loaded
    /// from `double` memory, `bitcast double to i64`) when type analysis proves them.
    pub fn run_with_types(
        input: &ActivityInput<'_>,
        types: Option<&crate::types::TypeAnalysis>,
    ) -> Activity {
        Self::run_full(input, types, false)
    }

    /// As [`Activity::run_with_types`]; with `through_aggregates`, pointers with shadows
    /// are also followed through aggregate values (call results, `extractvalue`).
    pub fn run_full(
        input: &ActivityInput<'_>,
        types: Option<&crate::types::TypeAnalysis>,
        through_aggregates: bool,
    ) -> Activity {
        Self::run_at_depth(
            input,
            types,
            through_aggregates,
            returned_shadow::RETURNED_SHADOW_DEPTH,
            true,
        )
    }

    /// The analysis of a callee asked about its result (`returned_shadow`), with
    /// `callee_depth` levels left for its own callees; `top_level` as a derivative's own
    /// analysis runs (`callee_proves_result_constant`).
    fn run_nested(
        input: &ActivityInput<'_>,
        through_aggregates: bool,
        callee_depth: u32,
        top_level: bool,
    ) -> Activity {
        Self::run_at_depth(input, None, through_aggregates, callee_depth, top_level)
    }

    fn run_at_depth(
        input: &ActivityInput<'_>,
        types: Option<&crate::types::TypeAnalysis>,
        through_aggregates: bool,
        callee_depth: u32,
        top_level: bool,
    ) -> Activity {
        let mut a = Activity {
            through_aggregates,
            callee_depth,
            top_level,
            ..Activity::default()
        };
        for (p, act) in input.func.params().into_iter().zip(input.args) {
            match act {
                ArgActivity::Dup if p.ty().is_pointer() => {
                    a.shadowed.insert(p);
                }
                ArgActivity::Active if carries_fp(p.ty()) => {
                    a.active.insert(p);
                }
                _ => {}
            }
        }
        let insts: Vec<Value> = input.func.instructions().collect();
        a.read_only_captures = insts
            .iter()
            .copied()
            .filter(|&i| crate::captures::is_read_only_capture(i))
            .collect();
        a.copy_slots = insts
            .iter()
            .filter_map(|&i| Some((i, copy_slots::copy_slot_sources(i)?)))
            .collect();
        // Copy slots holding pointers count as pointer slots: what their sources hold
        // must be provably constant too (`constant_pointers`).
        a.pointer_slots = a
            .copy_slots
            .iter()
            .map(|(s, _)| *s)
            .filter(|s| s.allocated_type().contains_pointer())
            .collect();
        // Pointer slots (`copy_slots::pointer_slot`): shadowed once a pointer stored into
        // them (through a field address too) or one of their links is not provably
        // constant.
        for &i in &insts {
            if a.copy_slots.iter().any(|(s, _)| *s == i) {
                continue;
            }
            if let Some(ps) = copy_slots::pointer_slot(i) {
                a.pointer_slots.insert(i);
                a.descriptor_fields
                    .extend(ps.fields.into_iter().map(|f| (f, i)));
                a.copy_slots.push((i, ps.links));
            }
        }
        a.read_only_captures
            .extend(a.copy_slots.iter().map(|(slot, _)| *slot));
        for &i in &insts {
            if let Some(fields) = descriptor_temps::descriptor_temp_fields(i) {
                a.read_only_captures.insert(i);
                a.descriptor_fields
                    .extend(fields.into_iter().map(|f| (f, i)));
            }
        }
        loop {
            let before = (a.active.len(), a.shadowed.len());
            for k in 0..a.copy_slots.len() {
                let (slot, ref sources) = a.copy_slots[k];
                if a.pointer_slots.contains(&slot) {
                    // What a link copies in (or receives) must be provably constant.
                    let sources = sources.clone();
                    if !a.shadowed.contains(&slot)
                        && sources
                            .iter()
                            .any(|&s| !constant_pointers::provably_constant(&mut a, s, input))
                    {
                        a.shadowed.insert(slot);
                    }
                } else if sources.iter().any(|&s| a.is_shadowed(s)) {
                    a.shadowed.insert(slot);
                }
            }
            for &i in &insts {
                a.visit(i, input);
                if let Some(ta) = types {
                    a.visit_int_carrier(i, ta);
                }
            }
            if (a.active.len(), a.shadowed.len()) == before {
                break;
            }
        }
        a
    }

    /// Is this (possibly constant) pointer shadowed?
    pub fn is_shadowed(&self, v: Value) -> bool {
        if self.shadowed.contains(&v) {
            return true;
        }
        if global_needs_shadow(v) {
            return true;
        }
        if v.is_constant_expr() {
            return match v.const_opcode() {
                Some(Opcode::LLVMGetElementPtr)
                | Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast) => self.is_shadowed(v.operand(0)),
                _ => false,
            };
        }
        false
    }

    pub fn is_active(&self, v: Value) -> bool {
        self.active.contains(&v)
    }

    /// Is a call "active": does it need a derivative?
    pub fn call_is_active(&self, call: Value, global_touchers: &HashSet<Value>) -> bool {
        let args = call.call_args();
        let any_in = args
            .iter()
            .any(|&x| self.is_active(x) || (x.ty().contains_pointer() && self.is_shadowed(x)));
        match classify(call) {
            CallKind::Defined(f) => {
                let ret = call.ty();
                // A result holding a pointer with a shadow (a pointer, or `{ptr, i64}`) needs
                // the callee's shadow even when the callee only reads.
                if is_readonly_function(f)
                    && !self.is_active(call)
                    && !(ret.contains_pointer() && self.is_shadowed(call))
                {
                    // Reads only, and its result carries no derivative (or is unused).
                    return false;
                }
                any_in
                    || global_touchers.contains(&f)
                    || self.is_active(call)
                    || (ret.contains_pointer() && self.is_shadowed(call))
            }
            CallKind::InactiveExternal | CallKind::NoDerivative | CallKind::TypeHint => false,
            // A checkpointed or fixed-point loop (the transform's `__fz_ckpt_call.k`, whose
            // registered rules run the step's own derivative) over state in mutable float
            // globals needs its rule even when no argument is active: skipping it dropped
            // every derivative that flows through those globals. A user's rule only
            // returns its arguments' adjoints, so it stays as it was.
            CallKind::Custom(f) => {
                any_in
                    || self.is_active(call)
                    || (f.name().starts_with(LOOP_FUNCTION_PREFIX) && global_touchers.contains(&f))
            }
            CallKind::Indirect => {
                any_in
                    || self.is_active(call)
                    || crate::calls::call_targets(call)
                        .iter()
                        .any(|c| global_touchers.contains(c))
            }
            CallKind::OpenMp(ferrozyme_rules::openmp::OmpRule::Fork) => {
                any_in
                    || crate::calls::parallel_callee(call)
                        .is_some_and(|m| global_touchers.contains(&m))
            }
            _ => any_in || self.is_active(call),
        }
    }

    fn visit(&mut self, i: Value, input: &ActivityInput<'_>) {
        let Some(op) = i.opcode() else { return };
        let ty = i.ty();
        let ops = i.operands();
        let any_active = |s: &Activity| ops.iter().any(|&o| s.is_active(o));
        let any_shadowed = |s: &Activity| {
            ops.iter()
                .any(|&o| o.ty().is_pointer_like() && s.is_shadowed(o))
        };
        use Opcode::*;
        match op {
            LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze
                if ty.is_pointer_like() =>
            {
                if self.is_shadowed(ops[0]) {
                    self.shadowed.insert(i);
                }
            }
            LLVMPHI | LLVMSelect | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector
                if ty.is_pointer_like() =>
            {
                if any_shadowed(self) {
                    self.shadowed.insert(i);
                }
            }
            LLVMAlloca => {
                let t = i.allocated_type();
                // Byte buffers (`alloca i8, n`, `[n x i8]`) are untyped storage: they may
                // hold anything, so they get a shadow too.
                let bytes = t.int_width() == Some(8)
                    || (t.kind() == ferrozyme_llvm::TypeKind::Array
                        && t.element_type().int_width() == Some(8));
                // A C++ library object that holds no floats (a `std::string`, a string
                // stream, a file buffer: `library_types`) needs no shadow.
                if !is_float_free_object(i)
                    && !self.read_only_captures.contains(&i)
                    && (t.contains_fp() || t.contains_pointer() || bytes)
                {
                    self.shadowed.insert(i);
                }
            }
            LLVMStore
                if self.read_only_captures.contains(&ops[1])
                    || self.descriptor_fields.contains_key(&ops[1]) =>
            {
                let v = ops[0];
                let slot = self
                    .descriptor_fields
                    .get(&ops[1])
                    .copied()
                    .unwrap_or(ops[1]);
                // Into a pointer slot, a pointer must be proved constant, not merely
                // unshadowed (`constant_pointers`: c/508's global pool at -O0).
                let pointer_in = v.ty().contains_pointer()
                    && if self.pointer_slots.contains(&slot) {
                        !self.shadowed.contains(&slot)
                            && !constant_pointers::provably_constant(self, v, input)
                    } else {
                        self.is_shadowed(v)
                    };
                if self.is_active(v) || pointer_in {
                    self.shadowed.insert(slot);
                }
            }
            LLVMAtomicRMW => {
                // The old value, read from shadowed memory: active like a load.
                if self.is_shadowed(ops[0]) && carries_fp(ty) {
                    self.active.insert(i);
                }
            }
            LLVMLoad => {
                if self.is_shadowed(ops[0]) && !inactive_results::loads_inactive_result(i) {
                    if ty.is_pointer() || ty.contains_pointer() {
                        self.shadowed.insert(i);
                    }
                    if carries_fp(ty) {
                        self.active.insert(i);
                    }
                }
            }
            LLVMCall => {
                let kind = classify(i);
                match kind {
                    CallKind::Malloc | CallKind::Calloc | CallKind::Realloc => {
                        self.shadowed.insert(i);
                    }
                    // The allocation is written to `*ops[0]`: that slot holds a pointer
                    // with a shadow.
                    CallKind::PosixMemalign => {
                        if ops[0].is_instruction() || ops[0].is_argument() {
                            self.shadowed.insert(ops[0]);
                        }
                    }
                    CallKind::MaskedLoad | CallKind::MaskedGather => {
                        let p = ops[0];
                        if carries_fp(ty) && (self.is_shadowed(p) || self.is_active(ops[2])) {
                            self.active.insert(i);
                        }
                        // Pointers gathered from shadowed memory have shadows there too.
                        if ty.is_pointer_like() && self.is_shadowed(p) {
                            self.shadowed.insert(i);
                        }
                    }
                    CallKind::Math(_)
                    | CallKind::ReduceFAdd
                    | CallKind::ReduceFMul
                    | CallKind::ReduceFMinMax => {
                        if carries_fp(ty) && any_active(self) {
                            self.active.insert(i);
                        }
                    }
                    CallKind::Defined(_) | CallKind::Custom(_) | CallKind::Indirect => {
                        let touches = match kind {
                            CallKind::Defined(f) | CallKind::Custom(f) => {
                                input.global_touchers.contains(&f)
                            }
                            _ => false,
                        };
                        let inputs = any_active(self) || any_shadowed(self) || touches;
                        if inputs && carries_fp(ty) {
                            self.active.insert(i);
                        }
                        // A callee that returns one of its arguments (Eigen's
                        // `cast_to_pointer_type`), or a pointer into it (a table search,
                        // `bsearch`, whose built-in rule offsets the table's shadow): the
                        // result has that argument's shadow, or none when the argument is
                        // constant (the key's activity does not reach the result).
                        let returned = match kind {
                            CallKind::Defined(f) if ty.is_pointer() => returned_param(f, 2),
                            CallKind::Custom(f) if ty.is_pointer() => {
                                ferrozyme_abi::table_search(&f.name())
                            }
                            _ => None,
                        };
                        let shadowed = match returned.and_then(|k| i.call_args().get(k).copied()) {
                            Some(arg) => self.is_shadowed(arg),
                            None => {
                                inputs
                                    && (ty.is_pointer()
                                        || (self.through_aggregates && ty.contains_pointer()))
                                    && self.callee_may_return_shadow(kind, i, input)
                            }
                        };
                        if shadowed {
                            self.shadowed.insert(i);
                        }
                        // A wrapper around malloc (`my_alloc(n)`) takes no differentiable
                        // input, yet the memory it returns may receive active values: it
                        // needs a shadow as much as malloc's result does.
                        if let CallKind::Defined(f) = kind {
                            let holds_pointer = ty.is_pointer()
                                || (self.through_aggregates && ty.contains_pointer());
                            if holds_pointer && returns_fresh_memory(f, 4) {
                                self.shadowed.insert(i);
                            }
                        }
                    }
                    _ => {}
                }
            }
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMFPExt
            | LLVMFPTrunc | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector
            | LLVMExtractValue | LLVMInsertValue | LLVMPHI | LLVMSelect | LLVMFreeze
            | LLVMBitCast => {
                if carries_fp(ty) && any_active(self) && !rounding::is_magic_rounding(i) {
                    self.active.insert(i);
                }
                if ty.contains_pointer() && any_shadowed(self) && !ty.is_pointer() {
                    self.shadowed.insert(i);
                }
                // One pointer of a call's aggregate result that the callee always takes
                // from one argument: shadowed exactly when that argument is.
                if op == LLVMExtractValue && self.through_aggregates && ty.is_pointer() {
                    if let Some(arg) = extracted_returned_arg(i) {
                        if self.is_shadowed(arg) {
                            self.shadowed.insert(i);
                        }
                        return;
                    }
                }
                let agg_shadowed = ops
                    .iter()
                    .any(|&o| o.ty().contains_pointer() && self.shadowed.contains(&o));
                if self.through_aggregates && ty.contains_pointer() && agg_shadowed {
                    self.shadowed.insert(i);
                }
            }
            _ => {}
        }
    }

    /// Integers that carry floats: loads of float memory, bitcasts of active floats, and
    /// phis/selects/freezes of those.
    fn visit_int_carrier(&mut self, i: Value, ta: &crate::types::TypeAnalysis) {
        if i.opcode() == Some(Opcode::LLVMAlloca) {
            if is_float_free_object(i) || self.read_only_captures.contains(&i) {
                return;
            }
            let t = ta.pointee_tree(i);
            let holds = t.iter().any(|(_, b)| {
                matches!(
                    b,
                    crate::types::BaseType::Half
                        | crate::types::BaseType::LongDouble
                        | crate::types::BaseType::Float
                        | crate::types::BaseType::Double
                        | crate::types::BaseType::Pointer
                        | crate::types::BaseType::IntOrPointer
                )
            });
            // A local C union whose bytes hold a float in some runs and an integer in
            // others (`struct { int tag; union { long i; double d; } u; }` at -O0): its
            // facts conflict there, and the active double stored into it needs a shadow
            // (tests/cxx/499).
            let union_conflict = || {
                let m = i.parent_function().parent_module();
                let unions = crate::types::union_ranges(m, i.allocated_type());
                t.iter().any(|(o, b)| {
                    b == crate::types::BaseType::Anything
                        && unions.iter().any(|&(lo, hi)| (lo..hi).contains(&o))
                })
            };
            if holds || union_conflict() {
                self.shadowed.insert(i);
            }
            return;
        }
        if !is_int_carrier_type(i.ty()) {
            return;
        }
        if moves_pointer_bits(i, ta) && self.is_shadowed(i.operand(0)) {
            self.shadowed.insert(i);
        }
        // rustmap: a swap of untyped bytes (a `HashMap` rehashed in place) moves its
        // shadow bytes the same way, whatever they are (`untyped_swap.rs`).
        if swaps_untyped_bits(i, ta, |p| self.is_shadowed(p)) {
            self.shadowed.insert(i);
        }
        use Opcode::*;
        let carries = match i.opcode() {
            Some(LLVMLoad) => {
                // Proof that the bits are a float: type analysis, or a direct use as one
                // (`bitcast i64 %v to double`), which outranks a `long` TBAA tag on a
                // type-punning access.
                let used_as_fp = i
                    .users()
                    .iter()
                    .any(|u| u.opcode() == Some(LLVMBitCast) && u.ty().is_fp());
                let shadowed = self.is_shadowed(i.operand(0));
                if shadowed
                    && i.ty().int_width() == Some(64)
                    && (holds_float_pair(ta, i) || used_as_float_pair(i))
                {
                    self.packed.insert(i);
                    true
                } else {
                    shadowed && (ta.int_carries_fp(i).is_some() || used_as_fp)
                }
            }
            // The integer lane of a struct `{int, float}` moved as one `i64` (clang's
            // coerced by-value struct, after SROA of a helper inlined into the clone:
            // `coerced_structs.rs` in the transform): type analysis proves it an integer,
            // which carries no derivative.
            Some(LLVMTrunc)
                if is_lane_op(i)
                    && i.ty().int_width().is_some_and(|w| w <= 32)
                    && ta.value_tree(i).get(0) == crate::types::BaseType::Integer =>
            {
                false
            }
            Some(LLVMTrunc) | Some(LLVMZExt) | Some(LLVMLShr) | Some(LLVMShl) | Some(LLVMOr)
            | Some(LLVMAnd) | Some(LLVMXor)
                if is_lane_op(i) =>
            {
                let any = i.operands().iter().any(|&o| self.is_active(o));
                let from_packed = i.operands().iter().any(|o| self.packed.contains(o));
                let widening = i.opcode() == Some(LLVMZExt) && i.ty().int_width() == Some(64);
                if any && i.ty().int_width() == Some(64) && (from_packed || widening) {
                    self.packed.insert(i);
                }
                any
            }
            Some(LLVMBitCast) => self.is_active(i.operand(0)) && i.operand(0).ty().is_fp(),
            Some(LLVMPHI)
            | Some(LLVMSelect)
            | Some(LLVMFreeze)
            | Some(LLVMShuffleVector)
            | Some(LLVMExtractElement)
            | Some(LLVMInsertElement) => {
                let ops = i.operands();
                let vals: Vec<Value> = if i.opcode() == Some(LLVMSelect) {
                    ops[1..].to_vec()
                } else {
                    ops
                };
                if vals.iter().any(|o| self.packed.contains(o)) && i.ty().int_width() == Some(64) {
                    self.packed.insert(i);
                }
                vals.iter()
                    .any(|&o| self.is_active(o) && (o.ty().is_fp() || is_int_carrier_type(o.ty())))
            }
            _ => false,
        };
        if carries {
            self.active.insert(i);
        }
    }

    /// Per-instruction printout for `ferrozyme opt --print-activity`.
    pub fn print(&self, f: Value) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "activity for @{}", f.name());
        for p in f.params() {
            let _ = writeln!(s, "  {} : {}", p, self.label(p));
        }
        for b in f.blocks() {
            let _ = writeln!(s, "{}:", b.name());
            for i in b.instructions() {
                let _ = writeln!(s, "  {} : {}", i, self.label(i));
            }
        }
        s
    }

    fn label(&self, v: Value) -> &'static str {
        match (self.is_active(v), self.is_shadowed(v)) {
            (true, true) => "active, shadowed",
            (true, false) => "active",
            (false, true) => "shadowed",
            (false, false) => "inactive",
        }
    }
}
