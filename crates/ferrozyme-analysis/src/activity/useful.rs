//! The backward half of activity analysis: a value stays active only if it can reach an
//! output (the return value, memory with a shadow, a call that may write such memory),
//! and a pointer keeps its shadow only if some use needs it.

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::{carries_fp, is_int_carrier_type, is_readonly_function, Activity};
use crate::calls::{classify, CallKind};

/// Does type analysis prove that integer load or store `i` (address operand `k`) moves
/// integers, not the bits of floats?
fn integer_access(types: Option<&crate::types::TypeAnalysis>, i: Value, k: u32) -> bool {
    use crate::types::BaseType;
    let Some(ty) = types else {
        return false;
    };
    let value = if i.opcode() == Some(Opcode::LLVMLoad) {
        i
    } else {
        i.operand(0)
    };
    let memory = ty.pointee_tree(i.operand(k));
    !memory.is_empty()
        && memory
            .iter()
            .all(|(_, b)| matches!(b, BaseType::Integer | BaseType::Pointer))
        && ty.int_carries_fp(value).is_none()
        && !ty.value_tree(value).iter().any(|(_, b)| b.is_float())
}

/// The pointers whose shadows `v`'s shadow is made from: the pointer operands of a
/// derived pointer (GEP base, cast, select/phi choices, vector lane moves), or the
/// address `v` was loaded from (a pointer read from shadowed memory gets its shadow from
/// the shadow memory).
fn derived_from(v: Value) -> Vec<Value> {
    use Opcode::*;
    match v.opcode() {
        Some(LLVMGetElementPtr)
        | Some(LLVMBitCast)
        | Some(LLVMAddrSpaceCast)
        | Some(LLVMFreeze)
        | Some(LLVMLoad) => vec![v.operand(0)],
        Some(LLVMSelect) => vec![v.operand(1), v.operand(2)],
        Some(LLVMPHI) => v.incoming().into_iter().map(|(x, _)| x).collect(),
        Some(LLVMExtractElement) => vec![v.operand(0)],
        Some(LLVMInsertElement) | Some(LLVMShuffleVector) => vec![v.operand(0), v.operand(1)],
        _ => Vec::new(),
    }
}

/// Do the bits of integer `v` (a `ptrtoint`) reach, through integer arithmetic, selects,
/// phis and freezes, a store of the integer (a pointer copied through integer memory:
/// the shadow memory gets the shadow's bits) or an `inttoptr`? In the latter case the
/// shadow stays so that the audit sees where the rebuilt pointer came from and refuses
/// it (a tagged pointer `(p | 1) & -2`: a silent 0 when the shadow was pruned, sweep19);
/// the shapes `intptr.rs` rewrites into pointer operations are gone by then.

fn bits_reach_pointer_use(v: Value) -> bool {
    use Opcode::*;
    let mut work = vec![v];
    let mut seen = HashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) || seen.len() > 64 {
            continue;
        }
        for u in x.users() {
            match u.opcode() {
                Some(LLVMStore) if u.operand(0) == x => return true,
                Some(LLVMIntToPtr) => return true,
                Some(
                    LLVMAdd | LLVMSub | LLVMAnd | LLVMOr | LLVMXor | LLVMMul | LLVMShl | LLVMLShr
                    | LLVMAShr | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMFreeze | LLVMSelect
                    | LLVMPHI,
                ) => work.push(u),
                _ => {}
            }
        }
    }
    false
}

impl Activity {
    /// The backward half of activity: a value is active only if it can also influence an
    /// output — the return value, memory with a shadow, or a call that may write such
    /// memory. A float computed and then dropped (or only compared, or converted to an
    /// integer) needs no adjoint; computing one anyway costs time and can turn a zero
    /// adjoint times an infinite partial into NaN.
    ///
    /// [`Activity::run`] gives the forward half only (what may depend on active inputs);
    /// the transform applies this on top.
    pub fn restrict_to_useful(&mut self, func: Value) {
        self.restrict_to_useful_with(func, None);
    }

    /// [`Activity::restrict_to_useful`], then the same for shadows: a pointer needs a
    /// shadow only if differentiable data can flow through it (see
    /// [`Activity::keep_needed_shadows`]). `types` (when given) proves integer-only
    /// memory.
    pub fn restrict_to_useful_with(
        &mut self,
        func: Value,
        types: Option<&crate::types::TypeAnalysis>,
    ) {
        let insts: Vec<Value> = func.instructions().collect();
        self.keep_useful(&insts);
        self.keep_needed_shadows(&insts, types);
    }

    /// The backward half for pointers: an instruction keeps its shadow only if some use
    /// needs it — a load of an active value or of a pointer that needs its own shadow, a
    /// store of floats or pointers (or of integers that may carry floats) into the memory,
    /// a call that may read or write through it (anything but the inactive library
    /// functions: `fprintf(stderr, ...)` needs no shadow of `stderr`), a return, or an
    /// escape into memory or an aggregate. Pointers derived from it (GEPs, casts, phis,
    /// selects, vector lane moves, loads of pointers) pass the need back. Comparisons and
    /// `ptrtoint` need no shadow, but for a `ptrtoint` whose bits are stored or made a
    /// pointer again. A pointer whose shadow nobody needs gets none: no
    /// shadow allocation, no run-time guard for pointers read from globals.
    fn keep_needed_shadows(&mut self, insts: &[Value], types: Option<&crate::types::TypeAnalysis>) {
        let mut needed: HashSet<Value> = HashSet::default();
        let mut work: Vec<Value> = Vec::new();
        for &i in insts {
            for (k, o) in i.operands().into_iter().enumerate() {
                if o.is_instruction()
                    && o.ty().is_pointer_like()
                    && self.shadowed.contains(&o)
                    && self.use_needs_shadow(i, k as u32, types)
                    && needed.insert(o)
                {
                    work.push(o);
                }
            }
        }
        while let Some(v) = work.pop() {
            for o in derived_from(v) {
                if o.is_instruction()
                    && self.shadowed.contains(&o)
                    && o.ty().is_pointer_like()
                    && needed.insert(o)
                {
                    work.push(o);
                }
            }
        }
        // Only pointers are pruned: aggregates carrying shadow pointers (forward mode
        // through the tape runtime's `{ptr, i64}`) keep theirs.
        self.shadowed
            .retain(|v| !v.is_instruction() || !v.ty().is_pointer_like() || needed.contains(v));
    }

    /// Does instruction `user` need the shadow of its operand `k` (a shadowed pointer)?
    /// Uses that only pass the pointer on to a derived pointer answer no: the derived
    /// pointer's own uses decide.
    fn use_needs_shadow(
        &self,
        user: Value,
        k: u32,
        types: Option<&crate::types::TypeAnalysis>,
    ) -> bool {
        use Opcode::*;
        match user.opcode() {
            // An integer load may move a float's bits (a copy through `long`): the shadow
            // stays unless type analysis proves the value and the memory integers, so
            // an ambiguous access is still reported (`cannot-deduce-type`).
            Some(LLVMLoad) => {
                self.is_active(user)
                    || self.shadowed.contains(&user)
                    || (is_int_carrier_type(user.ty()) && !integer_access(types, user, k))
            }
            Some(LLVMStore) if k == 1 => {
                let v = user.operand(0);
                let t = v.ty();
                // A shadowed pointer stored as its integer (`store i64 (ptrtoint p)`:
                // a `std::reference_wrapper` pushed into a vector at -O2, tests/cxx/390):
                // the shadow memory gets the shadow's bits, or reads of the pointer back
                // find a null shadow.
                if carries_fp(t)
                    || t.contains_pointer()
                    || self.is_active(v)
                    || self.shadowed.contains(&v)
                    || super::pointer_as_integer(v).is_some_and(|p| self.shadowed.contains(&p))
                {
                    return true;
                }
                is_int_carrier_type(t) && !integer_access(types, user, k)
            }
            // The pointer itself stored into memory: its shadow goes into shadow memory.
            Some(LLVMStore) => true,
            // The callee of a call through a pointer needs no shadow: its derivative is
            // found from the primal pointer.
            Some(LLVMCall) | Some(LLVMInvoke) if k + 1 == user.num_operands() => false,
            Some(LLVMCall) | Some(LLVMInvoke) => !matches!(
                classify(user),
                CallKind::InactiveExternal | CallKind::NoDerivative | CallKind::TypeHint
            ),
            Some(LLVMICmp) => false,
            // A pointer stored as an integer (`store i64 (ptrtoint p)`, SROA's form of an
            // `Option<&f64>` in a stack slot): the shadow memory gets the shadow's bits.
            Some(LLVMPtrToInt) => bits_reach_pointer_use(user),
            // Derived pointers: their own uses decide.
            Some(LLVMGetElementPtr)
            | Some(LLVMBitCast)
            | Some(LLVMAddrSpaceCast)
            | Some(LLVMSelect)
            | Some(LLVMPHI)
            | Some(LLVMFreeze)
            | Some(LLVMExtractElement)
            | Some(LLVMInsertElement)
            | Some(LLVMShuffleVector) => false,
            // Returned, put into an aggregate, or anything else: keep it.
            _ => true,
        }
    }

    fn keep_useful(&mut self, insts: &[Value]) {
        use Opcode::*;
        let mut useful: HashSet<Value> = HashSet::default();
        let mut work: Vec<Value> = Vec::new();
        let mark = |v: Value, useful: &mut HashSet<Value>, work: &mut Vec<Value>| {
            if (v.is_instruction() || v.is_argument()) && useful.insert(v) {
                work.push(v);
            }
        };
        for &i in insts {
            let roots: Vec<Value> = match i.opcode() {
                Some(LLVMRet) => i.operands(),
                Some(LLVMStore) if self.is_shadowed(i.operand(1)) => vec![i.operand(0)],
                // An atomic update (OpenMP atomics, reductions) writes shadowed memory too.
                Some(LLVMAtomicRMW) if self.is_shadowed(i.operand(0)) => vec![i.operand(1)],
                // Memory from a function without IR or rule has no shadow; a derivative
                // stored there stays visible (the transform reports it) rather than being
                // pruned into a silent zero.
                Some(LLVMStore) if crate::calls::untracked_source(i.operand(1)).is_some() => {
                    vec![i.operand(0)]
                }
                Some(LLVMCall) => {
                    let writes = match i.called_function() {
                        Some(f) => {
                            !is_readonly_function(f)
                                && !matches!(
                                    classify(i),
                                    CallKind::Math(_) | CallKind::NoDerivative
                                )
                        }
                        None => true,
                    };
                    if writes {
                        i.call_args()
                    } else {
                        Vec::new()
                    }
                }
                _ => Vec::new(),
            };
            for r in roots {
                mark(r, &mut useful, &mut work);
            }
        }
        while let Some(v) = work.pop() {
            if !v.is_instruction() {
                continue;
            }
            // A comparison or a float-to-integer conversion passes no derivative back to
            // its operands: a value used only there (`exp(x) > 2` deciding a branch or a
            // select) is not useful, whatever the comparison's result feeds.
            if matches!(
                v.opcode(),
                Some(LLVMFCmp | LLVMICmp | LLVMFPToSI | LLVMFPToUI)
            ) {
                continue;
            }
            let ops: Vec<Value> = if v.opcode() == Some(LLVMPHI) {
                v.incoming().into_iter().map(|(x, _)| x).collect()
            } else {
                v.operands()
            };
            for o in ops {
                mark(o, &mut useful, &mut work);
            }
        }
        self.active.retain(|v| useful.contains(v));
        self.packed.retain(|v| useful.contains(v));
    }
}
