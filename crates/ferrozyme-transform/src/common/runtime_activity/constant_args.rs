//! What a callee does with a constant (shadowless) pointer argument: may it return a
//! pointer computed from it, or store one into memory it is given?
//!
//! A callee given an `enzyme_const` pointer that returns a pointer computed from it, read
//! out of what it points to, or read back from a slot it kept it in, returns that pointer
//! with a shadow only through runtime activity: its shadow is the pointer itself (a phi
//! with libstdc++'s `end()` sentinel, an iterator slot the constant node was stored into,
//! a node constructor storing the node as its own shadow). Enzyme's runtime activity
//! returns such a shadow and lets the caller check it; so do we: the caller counts the
//! result maybe-primal (its accesses through it are guarded, `shadow != primal`) and
//! tells the callee, in the request (`RuntimeIn::result`), that the caller checks the
//! pointer it returns, so that the callee may return a maybe-primal pointer. Without the
//! caller's flag the callee refused its own return (a `noinline` accessor chain returning
//! a pointer into an `enzyme_const` struct or a fallback its caller owns, tests/c/1386).
//!
//! The same callee may store such a pointer, as its own shadow, into memory the caller
//! gave it: `std::set::rbegin()` builds its `reverse_iterator` of `end()` in the caller's
//! shadowed `sret` slot. The caller then holds a constant pointer there (`holders.rs`)
//! and reads it back under checks; unflagged, `*k.rbegin()` of a constant set at -O0
//! added its adjoint into the set's last key (holders40, tests/cxx/458).
//!
//! [`constant_flow`] answers with a walk of the callee's IR (not its activity, which the
//! caller does not have): the values derived from the constant parameters (address
//! arithmetic, phis and selects, pointers loaded through them, the results of calls given
//! them) and the stack objects they are stored into (clang -O0 homes each parameter in a
//! slot), whose loads are derived too, followed into callees [`FLOW_DEPTH`] levels
//! deep. A derived pointer stored into memory that is not one of the function's own stack
//! objects counts as stored into every pointer argument of the call. Where the walk cannot
//! follow (a function without IR, the depth limit, recursion) the result counts as
//! derived, which costs checks, never a wrong derivative; stores it cannot see are not
//! assumed (MPI's wrappers hand communicator handles and buffers to Open MPI: assuming
//! every external call stored one into the other made their buffers holders and refused
//! the calls, tests/filetests/mpi_*), nor is a pointer stored into a global or into
//! memory reached through an argument's pointers followed further. A derivative's own
//! tape is not memory its caller gives it ([`into_tape`]): a higher-order derivative's
//! inner gradient caches the constant pointers its reverse sweep needs there, and calls
//! of Ferrozyme's runtime neither keep nor return the user's pointers.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::hash::{HashMap, HashSet};
use ferrozyme_llvm::{Opcode, Value};

use super::lacks_shadow;
use crate::common::base_object;

/// How many calls deep [`constant_flow`] walks (libstdc++'s -O0 accessors nest four
/// deep: `_Rb_tree_const_iterator::operator->` -> `_M_valptr` -> `_M_ptr` -> `_M_addr`).
const FLOW_DEPTH: u32 = 6;

/// What a function may do with the pointers derived from some of its parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Flow {
    /// Its result may be (or carry) one.
    pub derived: bool,
    /// ... one whose shadow runtime activity makes the pointer itself: merged with other
    /// pointers by a phi or select, or read back from memory (not the parameter, or an
    /// address computed from it, handed back as it is: `fz_win_of(win)` in
    /// `runtime/mpi_composed.c` returns the window handle, which has no shadow to check).
    pub own: bool,
    /// It may store one into memory other than its own stack objects (memory its
    /// caller gave it).
    pub stores: bool,
}

/// What the walk cannot see into: its result may be derived and its own shadow; a store
/// it cannot see is not assumed (as before holders40: only the stores the walk sees make
/// holders).
const UNKNOWN: Flow = Flow {
    derived: true,
    own: true,
    stores: false,
};

/// What the defined callee of call `i` may do with the constant pointers to floats
/// (pointers without a shadow that `kept_constant` accepts: an `enzyme_const` parameter's
/// data or an address computed from it, `audit::const_pointers::kept_constant_pointer`)
/// it is given; `None` where it is given none or is not a function with IR. Other
/// shadowless pointers need no runtime activity: a `std::string` key moved into the node
/// `std::unordered_map::operator[]` allocates made the map a holder, and the node's value
/// pointer it returns was refused (tests/cxx/80 at -O0, holders40).
pub(super) fn constant_flow(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
    may_hold_floats: impl Fn(Value) -> bool,
) -> Option<Flow> {
    if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
        return None;
    }
    let CallKind::Defined(g) = classify(i) else {
        return None;
    };
    let params = g.params();
    let args = i.call_args();
    let lacking = |k: usize| args[k].ty().is_pointer() && lacks_shadow(act, args[k]);
    let kept: Vec<usize> = (0..args.len())
        .filter(|&k| lacking(k) && kept_constant(args[k]))
        .collect();
    // The other constant pointers the callee itself would take over (`callee_keeps`),
    // walked apart: where that walk cannot follow (the depth limit, recursion) it
    // assumes nothing, as for the stores it cannot see. Assuming the
    // worst there made every `std::map<int, double>::operator[](int &&)` of a local
    // histogram return a maybe-primal pointer (its key's `tuple<int &&>` walked past the
    // depth limit into `_M_emplace_hint_unique`), refused (tests/cxx/508).
    let others: Vec<usize> = (0..args.len())
        .filter(|&k| {
            lacking(k)
                && !kept.contains(&k)
                && may_hold_floats(args[k])
                && params.get(k).is_some_and(|p| callee_keeps(*p))
        })
        .collect();
    if kept.is_empty() && others.is_empty() {
        return None;
    }
    let mut flow = Flow::default();
    for (params, seeds) in [(kept, Seeds::Floats), (others, Seeds::Others)] {
        if !params.is_empty() {
            let f = flow_of(g, &params, FLOW_DEPTH, &mut Memo::new(seeds));
            flow.derived |= f.derived;
            flow.own |= f.own;
            flow.stores |= f.stores;
        }
    }
    Some(flow)
}

/// Would the callee's own derivative take over a constant pointer given as parameter `p`
/// where it stores it into memory with a shadow (`audit::const_pointers`'s
/// `stores_constant_pointer`: any `enzyme_const` pointer parameter but an empty object,
/// one C++ declares float-free or a reference to an integer, or one to integers only,
/// which the caller asks of its own type analysis: `may_hold_floats`)? The caller's `kept_constant` asks for floats it can see,
/// and libstdc++'s -O0 `_Rb_tree_iterator(_Rb_tree_node_base *)` is handed a node of a
/// constant `std::map<double, double>` whose doubles its caller's type analysis never
/// learns (`_M_lower_bound`'s loop reads the keys through `_S_key`): the constructor
/// stored the node as its own shadow into the shadowed iterator slot, and nobody above
/// checked the pointer returned from there, so `m.lower_bound(y)->second * y` added its
/// adjoint into the constant map (map46, tests/cxx/503).
fn callee_keeps(p: Value) -> bool {
    p.ty().is_pointer()
        && !ferrozyme_analysis::activity::is_empty_object_param(p)
        && !crate::audit::const_pointers::declared_as(p, |t| {
            ferrozyme_analysis::library_types::declared_float_free_pointee(t)
                || ferrozyme_analysis::library_types::declared_integer_reference(t)
        })
}

/// Which constant pointers a walk starts from, and so what it assumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seeds {
    /// Pointers to floats the caller sees (`kept_constant`): where the walk cannot see,
    /// the worst ([`UNKNOWN`]); a copy out of derived memory moves what it points to (a
    /// constant struct's pointers to floats copied whole, `c = *r` at -O0).
    Floats,
    /// The other pointers a callee may take over (`callee_keeps`): where the walk cannot
    /// see, nothing; only the pointer itself moving counts (stored, or a slot holding it
    /// copied), not a copy of the bytes it points to. The callee's derivative takes over
    /// stored pointers only (`audit::const_pointers`), and Rust's `<[f64]>::to_vec` of a
    /// `Const` slice copies the slice into a fresh buffer its `Vec` keeps: counted as
    /// keeping the slice, it made the caller's `Vec` a holder, the buffer pointer read
    /// back maybe-primal, and `RawVecInner::reserve`'s `__rust_realloc` of it refused
    /// (tests/rust's debug build, front18_user::nested_product, map47).
    Others,
}

impl Seeds {
    /// What is assumed where the walk cannot see (a function without IR, the depth
    /// limit, recursion).
    fn unseen(self) -> Flow {
        match self {
            Seeds::Floats => UNKNOWN,
            Seeds::Others => Flow::default(),
        }
    }
}

/// Answers per (function, derived parameters), also for calls in progress (recursion),
/// for one kind of seeds.
struct Memo {
    answers: HashMap<(Value, Vec<usize>), Flow>,
    seeds: Seeds,
}

impl Memo {
    fn new(seeds: Seeds) -> Memo {
        Memo {
            answers: HashMap::default(),
            seeds,
        }
    }
}

/// What `g` may do with the values derived from its parameters `params`.
fn flow_of(g: Value, params: &[usize], depth: u32, memo: &mut Memo) -> Flow {
    if g.is_declaration() || depth == 0 {
        return memo.seeds.unseen();
    }
    let key = (g, params.to_vec());
    if let Some(&known) = memo.answers.get(&key) {
        return known;
    }
    memo.answers.insert(key.clone(), memo.seeds.unseen());
    let answer = Derived::walk(g, params, depth, memo);
    memo.answers.insert(key, answer);
    answer
}

/// What one walk of a function knows.
#[derive(Default)]
struct Derived {
    /// Values derived from the parameters.
    values: HashSet<Value>,
    /// Those among them whose shadow may be the value itself ([`Flow::own`]).
    own: HashSet<Value>,
    /// Stack objects a derived pointer was stored into.
    slots: HashSet<Value>,
    /// What the function does with them.
    flow: Flow,
}

impl Derived {
    fn walk(g: Value, params: &[usize], depth: u32, memo: &mut Memo) -> Flow {
        use Opcode::*;
        let ps = g.params();
        let mut d = Derived {
            values: params.iter().filter_map(|&k| ps.get(k).copied()).collect(),
            ..Derived::default()
        };
        let insts: Vec<Value> = g
            .blocks()
            .into_iter()
            .flat_map(|b| b.instructions())
            .collect();
        loop {
            let before = (d.values.len(), d.own.len(), d.slots.len(), d.flow);
            for &i in &insts {
                // (derived, own shadow)
                let (hit, own) = match i.opcode() {
                    Some(LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze) => {
                        d.get(i.operand(0))
                    }
                    Some(LLVMPHI) => d.merge(i.incoming().into_iter().map(|(v, _)| v)),
                    Some(LLVMSelect) => d.merge([i.operand(1), i.operand(2)]),
                    Some(LLVMExtractValue) => d.get(i.operand(0)),
                    Some(LLVMInsertValue) => d.merge([i.operand(0), i.operand(1)]),
                    Some(LLVMLoad) => {
                        let hit = i.ty().contains_pointer() && d.reads(i.operand(0));
                        (hit, hit)
                    }
                    Some(LLVMStore) => {
                        let v = i.operand(0);
                        if v.ty().contains_pointer() && d.has(v) && !into_tape(i) {
                            d.keep(i.operand(1));
                        }
                        (false, false)
                    }
                    Some(LLVMCall | LLVMInvoke) => d.call(i, depth, memo),
                    Some(LLVMRet) => {
                        if i.num_operands() == 1 {
                            let (derived, own) = d.get(i.operand(0));
                            d.flow.derived |= derived;
                            d.flow.own |= own;
                        }
                        (false, false)
                    }
                    _ => (false, false),
                };
                if hit {
                    d.values.insert(i);
                }
                if own {
                    d.own.insert(i);
                }
            }
            let after = (d.values.len(), d.own.len(), d.slots.len(), d.flow);
            if d.flow == UNKNOWN || after == before {
                return d.flow;
            }
        }
    }

    fn has(&self, v: Value) -> bool {
        self.values.contains(&v)
    }

    /// Is `v` derived, and its own shadow?
    fn get(&self, v: Value) -> (bool, bool) {
        (self.has(v), self.own.contains(&v))
    }

    /// A phi or select of `choices` (a record built of them): derived if one is, its own
    /// shadow if one is, or if derived and other choices meet.
    fn merge(&self, choices: impl IntoIterator<Item = Value>) -> (bool, bool) {
        let (mut any, mut all, mut own) = (false, true, false);
        for v in choices {
            let (derived, o) = self.get(v);
            any |= derived;
            all &= derived;
            own |= o;
        }
        (any, own || (any && !all))
    }

    /// May a pointer read through `p` be derived (`p` is, or addresses a slot holding
    /// one)?
    fn reads(&self, p: Value) -> bool {
        self.has(p) || self.slots.contains(&base_object(p))
    }

    /// A derived pointer may be stored through `p`.
    fn keep(&mut self, p: Value) {
        let b = base_object(p);
        if b.opcode() == Some(Opcode::LLVMAlloca) {
            self.slots.insert(b);
        } else {
            self.flow.stores = true;
        }
    }

    /// Is call `i`'s result derived, and its own shadow? Given derived pointers (or slots
    /// holding one), a defined callee is walked, and one that stores them may have
    /// stored them into any memory it is given; a copy moves what its source holds.
    fn call(&mut self, i: Value, depth: u32, memo: &mut Memo) -> (bool, bool) {
        if i.is_lifetime_marker() {
            return (false, false);
        }
        let args = i.call_args();
        let given: Vec<usize> = (0..args.len())
            .filter(|&k| args[k].ty().is_pointer() && self.reads(args[k]))
            .collect();
        if given.is_empty() {
            return (false, false);
        }
        let result = i.ty().contains_pointer();
        if runtime_call(i) {
            return (false, false);
        }
        match classify(i) {
            CallKind::Memcpy | CallKind::Memmove => {
                let moves = match memo.seeds {
                    Seeds::Floats => self.reads(args[1]),
                    Seeds::Others => self.slots.contains(&base_object(args[1])),
                };
                if moves && !into_tape(i) {
                    self.keep(args[0]);
                }
                (false, false)
            }
            CallKind::Math(_)
            | CallKind::NoDerivative
            | CallKind::TypeHint
            | CallKind::Memset
            | CallKind::Free => (false, false),
            CallKind::Defined(h) => {
                let flow = flow_of(h, &given, depth - 1, memo);
                if flow.stores {
                    self.keep_in_args(&args, &given);
                }
                (result && flow.derived, result && flow.own)
            }
            _ if i
                .called_function()
                .is_some_and(|h| h.name().starts_with("llvm.dbg")) =>
            {
                (false, false)
            }
            // Without IR: its result may be what it was given (libstdc++'s
            // `_Rb_tree_increment`); a store it may make is not seen (`UNKNOWN`).
            _ => (result, result),
        }
    }

    /// A callee given derived pointers (`given`) may store them into its other pointer
    /// arguments' memory.
    fn keep_in_args(&mut self, args: &[Value], given: &[usize]) {
        for (k, &a) in args.iter().enumerate() {
            let null = a.is_undef() || (a.is_constant() && a.ty().zero() == a);
            if a.ty().is_pointer() && !given.contains(&k) && !null {
                self.keep(a);
            }
        }
    }
}

/// Is store or copy `i` one of a derivative's own tape writes: a cached value stored
/// into a tape slot (`!alias.scope` `ferrozyme.tape`, `reverse/alias.rs`), into a record
/// a tape runtime function handed out (`__fz_push`, `__fz_top`, `__fz_tape_alloc`), or
/// the runtime's move of a stack into a larger buffer (`!ferrozyme.tape.move`)? The tape
/// is memory of the derivative itself, which its caller never reads: a higher-order
/// derivative's inner gradient caching the `enzyme_const` model's `Term *` it calls
/// through made the outer caller's shadowed buffers holders, and every load of the inner
/// tape maybe-primal, down to `__fz_grow_plain`'s `realloc` (tests/cxx/485, 486).
fn into_tape(i: Value) -> bool {
    let ctx = i.ty().context();
    if crate::reverse::alias::is_tape_access(ctx, i)
        || i.metadata(ctx.md_kind(ferrozyme_analysis::types::TAPE_MOVE_MD))
            .is_some()
    {
        return true;
    }
    let at = if i.opcode() == Some(Opcode::LLVMStore) {
        i.operand(1)
    } else {
        i.call_args()[0]
    };
    let b = base_object(at);
    matches!(b.opcode(), Some(Opcode::LLVMCall)) && runtime_call(b)
}

/// Is `i` a call of Ferrozyme's runtime (tape stacks, pools, the shadow registry, the
/// adjoint copies)? It keeps no pointer of the user's where the caller reads it back and
/// returns none derived from one: its stores are the tape's, its state its own.
fn runtime_call(i: Value) -> bool {
    i.called_function()
        .is_some_and(|g| crate::runtime::is_runtime_symbol(&g.name()))
}

/// Does call `i` give a defined callee a constant pointer to floating-point data
/// (`kept_constant`: an `enzyme_const` parameter of this function, or an address computed
/// from one) together with shadowed memory (or take back shadowed memory it returns), and
/// the callee stores the constant away, or keeps a pointer it reads out of it, any number
/// of loads deep (`c->w = r->weights`, `c->w = r->m->s->l->w`: tests/c/1301, 1302, 1335),
/// in that shadowed memory (or in the memory it allocates and returns, tests/c/1336)? The
/// callee's derivative then stores the pointer as its own shadow (runtime activity, in the
/// callee: `audit::const_pointers` finds the store with the same walk), so pointers this
/// function reads back from shadowed memory afterwards may be primals: an Eigen
/// `Map<const VectorXd> y(data, n)` built at `-O0` (the constructor keeps `data`) and
/// read by the evaluators of `(h - y)`.
pub(super) fn hands_constant_to_keep(
    act: &Activity,
    i: Value,
    kept_constant: impl Fn(Value) -> bool,
) -> bool {
    let CallKind::Defined(g) = classify(i) else {
        return false;
    };
    let args = i.call_args();
    // Where a pointer read out of the constant counts as kept: memory handed in with a
    // shadow, or returned with one (not a node the callee allocates and links elsewhere,
    // tests/cxx/80).
    let shadowed: Vec<bool> = args
        .iter()
        .map(|a| a.ty().is_pointer() && act.is_shadowed(*a))
        .collect();
    let result = i.ty().is_pointer() && act.is_shadowed(i);
    if !result && !shadowed.iter().any(|b| *b) {
        return false;
    }
    let handed = ferrozyme_analysis::activity::HandedIn {
        params: &shadowed,
        result,
    };
    args.iter().enumerate().any(|(k, &a)| {
        a.ty().is_pointer()
            && lacks_shadow(act, a)
            && kept_constant(a)
            && ferrozyme_analysis::activity::stores_param_or_pointer_in_it(g, k, 3, handed)
    })
}
