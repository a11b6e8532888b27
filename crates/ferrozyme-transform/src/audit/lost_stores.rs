//! Active values stored into memory without a shadow and read back (the audit's second
//! check, see `body.rs`): Enzyme's mismatched activity.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::{carries_fp, is_int_carrier_type, Activity};
use ferrozyme_analysis::calls::{classify, parallel_callee, CallKind};
use ferrozyme_llvm::{Block, DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::{describe_object, Finding};
use super::call_targets::indexed_args;
use super::call_writes::{root_object, stored_once};
use super::callee_reads::reads_floats;
use super::reach::Where;

/// Does `v` depend on differentiable inputs? The activity the transforms use is
/// restricted to values that reach an output, so a value whose only use is a store into
/// memory without a shadow is not in it; this walks back from `v` to an active value, an
/// active parameter, a load from memory with a shadow, or a call given such memory.
fn depends_on_active(v: Value, act: &Activity, active_params: &HashSet<Value>) -> bool {
    let mut work = vec![v];
    let mut seen = HashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) || seen.len() > 256 {
            continue;
        }
        if act.is_active(x) || active_params.contains(&x) {
            return true;
        }
        let Some(op) = x.opcode() else { continue };
        match op {
            Opcode::LLVMLoad => {
                // The object, not only the address: activity analysis marks a load (and
                // its address) inactive when its value only reaches memory without a
                // shadow, as at -O0, where `scratch[i] = x[i] * x[i]` reloads `x[i]`
                // apart from the `x[i]` that is differentiated. The value still came
                // from differentiable data (tests/c/670: -O0 silently dropped the
                // derivative read back from the `enzyme_const` scratch).
                let p = x.operand(0);
                if act.is_shadowed(p) || act.is_shadowed(base_object(p)) || through_home(p, act) {
                    return true;
                }
            }
            Opcode::LLVMCall => {
                let args = x.call_args();
                if args
                    .iter()
                    .any(|a| a.ty().is_pointer_like() && act.is_shadowed(*a))
                {
                    return true;
                }
                work.extend(args.into_iter().filter(|a| !a.ty().is_pointer_like()));
            }
            Opcode::LLVMPHI => work.extend(x.incoming().into_iter().map(|(y, _)| y)),
            Opcode::LLVMAlloca | Opcode::LLVMStore => {}
            _ => work.extend(
                x.operands()
                    .into_iter()
                    .filter(|o| o.is_instruction() || o.is_argument()),
            ),
        }
    }
    false
}

/// Is `p` computed from a pointer reloaded from the home of a shadowed one: a slot
/// stored once that an OpenMP region also reads, kept at -O0 (`x[0] * x[1]` reloads `x`
/// from its home each time; activity marks the reloads inactive when the value only
/// reaches memory without a shadow)?
fn through_home(p: Value, act: &Activity) -> bool {
    let b = base_object(p);
    b.opcode() == Some(Opcode::LLVMLoad)
        && stored_once(base_object(b.operand(0))).is_some_and(|v| act.is_shadowed(base_object(v)))
}

/// Active values written to memory without a shadow, then read again in the function.
pub(super) fn lost_stores(
    insts: &[Value],
    act: &Activity,
    active_params: &HashSet<Value>,
    out: &mut Vec<Finding>,
) {
    // Objects that receive values depending on differentiable inputs (with or without a
    // shadow): copying from them into memory without a shadow loses derivatives too.
    // Floats, or integers that activity analysis found to carry a float's bits (an
    // integer in general, like a size computed from a shadowed object, carries none).
    let active_store = |i: Value| {
        let v = i.operand(0);
        (carries_fp(v.ty()) && depends_on_active(v, act, active_params))
            || (is_int_carrier_type(v.ty()) && act.is_active(v))
    };
    let active_bases: HashSet<Value> = insts
        .iter()
        .filter(|i| i.opcode() == Some(Opcode::LLVMStore) && active_store(**i))
        .map(|i| base_object(i.operand(1)))
        .collect();
    // Base object → the first store of an active value into it, and the blocks that can
    // run after that store.
    let mut written: HashMap<Value, (Value, HashSet<Block>)> = HashMap::default();
    for &i in insts {
        let dst = lossy_write(i, act, &active_store, &active_bases);
        if let Some(p) = dst {
            written
                .entry(base_object(p))
                .or_insert_with(|| (i, reachable_after(i)));
        }
    }
    if written.is_empty() {
        return;
    }
    let mut reported = HashSet::default();
    for &i in insts {
        let read = read_of_written(i, act, &written);
        let Some(p) = read else { continue };
        let Some((store, after)) = written.get(&base_object(p)) else {
            continue;
        };
        let store = *store;
        let later = if i.parent_block() == store.parent_block() {
            comes_after(store, i) || after.contains(&i.parent_block())
        } else {
            after.contains(&i.parent_block())
        };
        if !later {
            // Read before the write (the function's input): not a lost derivative.
            continue;
        }
        if !reported.insert(store) {
            continue;
        }
        let base = base_object(p);
        // A parameter's -O0 home reloaded: name the parameter.
        let root = root_object(base);
        let target = describe_object(if root.is_argument() && !act.is_shadowed(root) {
            root
        } else {
            base
        });
        let declared =
            base.is_global_variable() && ferrozyme_analysis::global_uses::declared_inactive(base);
        let at = i
            .source_loc()
            .map(|l| format!(" at {l}"))
            .unwrap_or_default();
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: store,
            msg: format!(
                "mismatched activity: a value that depends on differentiable inputs is written to memory without a shadow ({target}) and read back{at}; its derivative would be lost"
            ),
            help: if declared {
                "the global is declared inactive (__enzyme_inactive_global or enzyme_inactive): remove that declaration, since derivatives flow through it"
            } else {
                "pass that buffer with enzyme_dup (and a shadow buffer) so derivatives can flow through it, or keep the intermediate value in a local variable"
            },
        });
    }
}

/// The pointer `i` writes an active value through when that memory has no shadow: a
/// store, or a copy out of memory holding active data.
fn lossy_write(
    i: Value,
    act: &Activity,
    active_store: &dyn Fn(Value) -> bool,
    active_bases: &HashSet<Value>,
) -> Option<Value> {
    match i.opcode() {
        Some(Opcode::LLVMStore) => {
            let p = i.operand(1);
            (!act.is_shadowed(p) && !p.is_undef() && active_store(i)).then_some(p)
        }
        Some(Opcode::LLVMCall) if matches!(classify(i), CallKind::Memcpy | CallKind::Memmove) => {
            let a = i.call_args();
            let src = base_object(a[1]);
            let holds_active =
                (src.is_argument() && act.is_shadowed(src)) || active_bases.contains(&src);
            (act.is_shadowed(a[1]) && !act.is_shadowed(a[0]) && holds_active).then_some(a[0])
        }
        _ => None,
    }
}

/// The pointer through which `i` may read memory in `written`: a load, a copy into
/// shadowed memory, or a call of code that may read it (its own, or code we cannot see).
fn read_of_written(
    i: Value,
    act: &Activity,
    written: &HashMap<Value, (Value, HashSet<Block>)>,
) -> Option<Value> {
    match i.opcode() {
        Some(Opcode::LLVMLoad)
            if (carries_fp(i.ty()) || is_int_carrier_type(i.ty()))
                && !act.is_shadowed(i.operand(0)) =>
        {
            Some(i.operand(0))
        }
        Some(Opcode::LLVMCall) if matches!(classify(i), CallKind::Memcpy | CallKind::Memmove) => {
            let a = i.call_args();
            act.is_shadowed(a[0]).then_some(a[1])
        }
        // A parallel region given that memory (by address, or the address of the
        // pointer's home: clang captures by reference) whose body reads floats out of it.
        Some(Opcode::LLVMCall) if parallel_callee(i).is_some() => {
            region_read_of_written(i, written)
        }
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke)
            if matches!(
                classify(i),
                CallKind::Defined(_) | CallKind::UnknownExternal | CallKind::Indirect
            ) =>
        {
            i.call_args()
                .into_iter()
                .find(|a| a.ty().is_pointer() && written.contains_key(&base_object(*a)))
        }
        _ => None,
    }
}

/// The memory in `written` (its key) that the parallel region forked by `fork` reads
/// floats out of (`callee_reads::reads_floats` in its outlined body).
fn region_read_of_written(
    fork: Value,
    written: &HashMap<Value, (Value, HashSet<Block>)>,
) -> Option<Value> {
    let body = parallel_callee(fork)?;
    for (k, a) in indexed_args(fork) {
        if !a.ty().is_pointer() {
            continue;
        }
        let root = root_object(a);
        let Some(w) = written.keys().find(|w| root_object(**w) == root) else {
            continue;
        };
        let mut seen = HashSet::default();
        let shadowless: HashSet<usize> = [k].into_iter().collect();
        if reads_floats(body, &Where::param(k), &shadowless, &[None], 0, &mut seen).is_some() {
            return Some(*w);
        }
    }
    None
}

/// The blocks that can run after instruction `i` in the same call: those reachable from
/// its block's successors (its own block too when it lies on a cycle).
pub(super) fn reachable_after(i: Value) -> HashSet<Block> {
    let mut seen = HashSet::default();
    let mut work: Vec<Block> = i.parent_block().successors();
    while let Some(b) = work.pop() {
        if seen.insert(b) {
            work.extend(b.successors());
        }
    }
    seen
}

/// Does `b` come after `a` in their (common) block?
pub(super) fn comes_after(a: Value, b: Value) -> bool {
    let mut cur = a.next_instruction();
    while let Some(x) = cur {
        if x == b {
            return true;
        }
        cur = x.next_instruction();
    }
    false
}
