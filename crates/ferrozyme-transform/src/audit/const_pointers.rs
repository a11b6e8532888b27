//! Constant pointers stored into memory with a shadow (the audit's third check, see
//! `body.rs`), and what runtime activity takes over of them (`common::runtime_activity`).

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::{Activity, ArgActivity};
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::BaseType;
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::{describe_object, Finding};

/// A copy into memory with a shadow from a constant whose value holds the address of a
/// global that has a shadow: clang -O0 initialises `struct H h = {&G, 2.0}` by copying
/// `@__const.f.h = { ptr @G, double 2.0 }` into `h`. The constant has no shadow, so the
/// shadow of `h.s` stayed null instead of `G`'s shadow, and the first access through it
/// crashed (tests/errors/const_initializer_global_address.c; -O1 and above store `&G`
/// itself, which is mirrored).
pub(super) fn shadowed_global_in_copied_constant(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMCall)
        || !matches!(classify(i), CallKind::Memcpy | CallKind::Memmove)
    {
        return;
    }
    let a = i.call_args();
    let src = base_object(a[1]);
    if !act.is_shadowed(a[0]) || !src.is_global_variable() || !src.is_global_constant() {
        return;
    }
    let Some(init) = src.initializer() else {
        return;
    };
    let mut work = vec![(init, 0)];
    while let Some((v, depth)) = work.pop() {
        let g = base_object(v);
        // Globals holding pointers (`struct { double *data; } G`): the pointers read
        // through the local need their shadows. A global array of doubles (`{ COEF, 3 }`)
        // that is only read works without (activity finds its loads constant).
        if g.is_global_variable()
            && g != src
            && g.global_value_type().contains_pointer()
            && ferrozyme_analysis::activity::global_needs_shadow(g)
        {
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: format!(
                    "a local initialised from a constant that holds the address of global `{}` (clang -O0 copies `{{ &{}, ... }}` from `{}`): the copy gives the local no shadow of that address, so derivatives through it cannot be tracked",
                    g.name(),
                    g.name(),
                    src.name()
                ),
                help: "assign the pointer field in a statement (`h.s = &G;`) instead of in the initialiser, or compile with -O1 or above",
            });
            return;
        }
        if depth < 4 && !v.is_global_variable() && !v.is_function() {
            work.extend((0..v.num_operands()).map(|k| (v.operand(k), depth + 1)));
        }
    }
}

/// The `enzyme_const` pointer parameters of `f` under `args`.
pub(crate) fn const_pointer_params(f: Value, args: &[ArgActivity]) -> HashSet<Value> {
    f.params()
        .into_iter()
        .zip(args)
        .filter(|(p, a)| **a == ArgActivity::Const && p.ty().is_pointer())
        .map(|(p, _)| p)
        .collect()
}

/// `store ptr %c, ptr %slot` with `%c` an `enzyme_const` pointer argument (or an address
/// computed from one) and `%slot` memory with a shadow, not handed to a parallel region:
/// what runtime activity takes over (`common::runtime_activity`). A pointer kept in memory
/// the function allocates and returns (tests/c/1336) only where the caller guards its own
/// later reads (`caller_checks`: it found the keep with the same walk,
/// `activity::stores_param_or_pointer_in_it`); otherwise the body audit refuses the store.
/// A constant parameter stored as it is (`n->l = l` in a node constructor, given null by
/// most callers: tests/c/905, 1179) is taken over as before: a caller that hands it a
/// constant pointer to floats guards its reads (`hands_constant_to_keep` counts the
/// returned allocation), and one that hands it null reads back null as its own shadow.
pub(crate) fn runtime_activity_store(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
    caller_checks: bool,
    seeds: ConstantSeeds,
) -> bool {
    (stores_constant_pointer(i, act, types, const_params)
        || (seeds == ConstantSeeds::WithTables
            && stores_constant_table(i, act, types, const_params)))
        && !matches!(parallel_capture(i.operand(1)), Capture::Safe)
        && (caller_checks
            || const_params.contains(&stored_pointer_base(i.operand(0)))
            || !kept_in_returned_allocation(i.operand(1)))
}

/// Which constant pointers stored into shadowed memory runtime activity takes over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ConstantSeeds {
    /// Those [`stores_constant_pointer`] finds (pointers to floats, or to memory a
    /// derivative may reach floats through).
    Floats,
    /// Those, and pointers to constant tables of pointers or to memory type analysis
    /// learned nothing of ([`stores_constant_table`]).
    WithTables,
}

/// `store ptr %t, ptr %slot`: `%t` a pointer without a shadow (not a constant), read out
/// of constant memory (an `enzyme_const` parameter's, any number of loads deep, or a
/// constant global table's) to memory that holds pointers (flang's type descriptor in a `class(...)`
/// descriptor, a table of functions a C++ object points to) or that type analysis
/// learned nothing of (the object a `class(law), pointer` component points to, reached
/// only through its bindings), `%slot` shadowed memory. Its shadow was null (an inactive
/// pointer's shadow store writes null), and a derivative that reads through the shadow
/// copy of the object followed the null: flang -O0 copies a constant `class(...)`
/// descriptor field by field into a shadowed temporary, and the dispatch reads the type
/// descriptor's binding table through the temporary's shadow (a segmentation fault,
/// tests/fortran/31, 94; tests/cxx/466). Such a pointer is its own
/// shadow, as Enzyme makes a constant global its own shadow: the pointers read through it
/// are the primal's. Taken over by runtime activity, so every access through pointers
/// read back from there is guarded as for the other constant pointers (no adjoint is
/// added into the constant memory, tangents read there are zero); where runtime activity
/// cannot follow every use, the pointer keeps the null shadow it had (`analyses.rs`).
/// Pointers to memory known to hold only integers or floats keep their rules.
fn stores_constant_table(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    let Some((v, p)) = unshadowed_pointer_store(i, act) else {
        return false;
    };
    // A constant (a global table, a constant expression over one) has the shadow
    // `common::shadows::const_shadow` gives it: itself where it reaches no reals.
    if v.is_constant() {
        return false;
    }
    let read_from_constant =
        ferrozyme_analysis::activity::constant_read_chain(v, |b| const_params.contains(&b))
            .is_some_and(|chain| !chain.is_empty())
            || ferrozyme_analysis::activity::immutable_memory_pointer(v);
    let pointee = types.pointee_tree(v);
    handed_memory(p)
        && read_from_constant
        && (pointee.is_empty() || pointee.iter().any(|(_, b)| b == BaseType::Pointer))
}

/// Is `p` memory the function allocates and returns (not memory a parameter points to)?
fn kept_in_returned_allocation(p: Value) -> bool {
    !ferrozyme_analysis::activity::is_param_memory(p)
        && ferrozyme_analysis::activity::is_returned_allocation(p)
}

/// Is `v` an `enzyme_const` pointer parameter (or an address computed from one) to
/// floating-point data, which a callee storing it away would keep as its own shadow
/// (runtime activity)? Not a comparator or other empty object (`dereferenceable(1)`, also
/// through an -O0 slot): memory holding floats, also behind the pointers it holds, or
/// memory whose layout type analysis did not learn (a `const std::valarray<double> &` that an -O0
/// expression-template closure keeps, whose shadow closure then holds the primal
/// valarray: the reverse sweep added adjoints into the constant input, tests/cxx/380).
/// A `std::string` key (pointers to characters only) does not count, nor, where type
/// analysis learned nothing, a parameter C++ declares as a reference or pointer to
/// float-free data (`char const (&) [6]`, `std::string &&`: the keys `std::map::emplace`
/// keeps in the pair it builds at -O0, tests/cxx/124; `declared_float_free`).
pub(crate) fn kept_constant_pointer(
    v: Value,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    let base = stored_pointer_base(v);
    if !const_params.contains(&base) {
        return immutable_float_pointer(v, types);
    }
    !ferrozyme_analysis::activity::is_empty_object_param(v)
        && !ferrozyme_analysis::activity::is_empty_object_param(base)
        && {
            let pointee = types.pointee_tree(base);
            (pointee.is_empty() && !declared_float_free(base))
                || holds_floats(&pointee, FLOATS_BEHIND_POINTERS, Unlearned::Ignored)
        }
}

/// Is `v` a pointer to floating-point data in memory that holds no derivative in any run,
/// not a parameter's (`activity::immutable_memory_pointer`: a constant global table, a
/// pointer read out of one, what a function given no pointer returns out of one)? Its
/// shadow is the pointer itself where it is stored into shadowed memory, alone or as a
/// record's field (rec36, tests/c/1392-1394; the shadow field used to be null). Where
/// type analysis learned nothing of what it points to, the global it points into must
/// hold floats.
fn immutable_float_pointer(v: Value, types: &ferrozyme_analysis::types::TypeAnalysis) -> bool {
    if !ferrozyme_analysis::activity::immutable_memory_pointer(v) {
        return false;
    }
    let pointee = types.pointee_tree(v);
    if pointee.is_empty() {
        let g = base_object(v);
        return g.is_global_variable() && g.global_value_type().contains_fp();
    }
    holds_floats(&pointee, FLOATS_BEHIND_POINTERS, Unlearned::Ignored)
}

/// How many calls deep [`constant_call_result`] follows a constant pointer through the
/// results of calls given it.
const CONSTANT_CALLS_DEEP: u32 = 3;

/// How many pointers deep [`kept_constant_pointer`] looks for floats: as deep as a type
/// tree goes (`r->m->s->l->w` is four, tests/c/1335).
const FLOATS_BEHIND_POINTERS: u32 = 2 * ferrozyme_analysis::types::MAX_DEPTH as u32;

/// Does the C++ signature of the function parameter `p` belongs to (its mangled name, or
/// the name of the function it was cloned from) declare it as pointing to data without
/// floats (`library_types::declared_float_free_pointee`)?
fn declared_float_free(p: Value) -> bool {
    declared_as(
        p,
        ferrozyme_analysis::library_types::declared_float_free_pointee,
    )
}

/// Does the C++ signature of the function parameter `p` belongs to declare a type `is`
/// accepts?
pub(crate) fn declared_as(p: Value, is: impl Fn(&str) -> bool) -> bool {
    if !p.is_argument() {
        return false;
    }
    let f = p.parent_function();
    ferrozyme_analysis::library_types::declared_params(&f.source_name(), f)
        .is_some_and(|ps| ps.iter().any(|(t, q)| *q == p && is(t)))
}

/// Does `tree` hold floats, directly or behind the pointers it holds (`depth` levels;
/// a pointer whose target type analysis did not learn counts as `unlearned` says)?
/// A pointer filed at "every offset" (an array of pointers indexed by a variable,
/// `r->layers[i]`, tests/c/1337) is followed into what each element points to, which
/// type analysis may know per element.
fn holds_floats(
    tree: &ferrozyme_analysis::types::TypeTree,
    depth: u32,
    unlearned: Unlearned,
) -> bool {
    let may = unlearned == Unlearned::MayHold;
    if may && tree.is_empty() {
        return true;
    }
    tree.iter().any(|(off, b)| {
        let inner = if off == -1 {
            tree.inner_remapped(|_| Some(0)).inner(0)
        } else {
            tree.inner(off)
        };
        b.fp_type().is_some()
            || (may && b == BaseType::Anything)
            || (b == BaseType::Pointer
                && if depth == 0 || inner.is_empty() {
                    may
                } else {
                    holds_floats(&inner, depth - 1, unlearned)
                })
    })
}

/// What [`holds_floats`] makes of a pointer whose target type analysis did not learn
/// (or conflicting facts).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unlearned {
    /// Holds no floats as far as anyone knows.
    Ignored,
    /// May hold floats.
    MayHold,
}

/// Does `v` point into memory that type analysis knows holds integers only (a
/// `const int &` key)? A callee's derivative does not take such a pointer over as its own
/// shadow ([`stores_constant_pointer`]), so a caller need not check for it
/// (`runtime_activity::constant_args`).
pub(crate) fn points_to_integers_only(
    v: Value,
    types: &ferrozyme_analysis::types::TypeAnalysis,
) -> bool {
    integers_only(stored_pointer_base(v), types)
}

/// Does `base` point to memory that type analysis knows holds integers only?
fn integers_only(base: Value, types: &ferrozyme_analysis::types::TypeAnalysis) -> bool {
    let pointee = types.pointee_tree(base);
    !pointee.is_empty()
        && pointee.iter().all(|(_, b)| b == BaseType::Integer)
        && within_tracked_offsets(base, &pointee)
}

/// `(value, address)` of store `i` when it stores a pointer without a shadow into memory
/// with one.
fn unshadowed_pointer_store(i: Value, act: &Activity) -> Option<(Value, Value)> {
    if i.opcode() != Some(Opcode::LLVMStore) {
        return None;
    }
    let (v, p) = (i.operand(0), i.operand(1));
    (v.ty().is_pointer() && !act.is_shadowed(v) && act.is_shadowed(p)).then_some((v, p))
}

/// Is `p` memory a caller handed in, memory the function allocates and returns, or a
/// local slot (rec36: a record passed by value at -O2, `ctx c = {hd->tab, ..}` copied
/// into the `byval` slot, tests/c/1392)?
fn handed_memory(p: Value) -> bool {
    ferrozyme_analysis::activity::is_param_memory(p)
        || ferrozyme_analysis::activity::is_returned_allocation(p)
        || base_object(p).opcode() == Some(Opcode::LLVMAlloca)
}

/// The store a constant pointer into shadowed memory (see [`constant_pointer_stored`]).
fn stores_constant_pointer(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    let Some((v, p)) = unshadowed_pointer_store(i, act) else {
        return false;
    };
    let base = stored_pointer_base(v);
    if !const_params.contains(&base) {
        let handed = handed_memory(p);
        return constant_call_result(v, act, types, const_params, CONSTANT_CALLS_DEEP)
            || (handed && pointer_read_from_constant(v, types, const_params))
            || immutable_float_pointer(v, types);
    }
    if ferrozyme_analysis::activity::is_empty_object_param(v) {
        return false;
    }
    !integers_only(base, types)
}

/// The object a stored pointer `v` points into (`activity::pointer_base`), also where `v`
/// is loaded back from a parameter's -O0 home that OpenMP regions only read
/// (`captures::read_only_capture_value`): the home escapes into `__kmpc_fork_call`, so
/// the clone's promotion leaves it, and the `enzyme_const` weights read back from it and
/// stored into a shadowed struct were not seen as constant (their shadow field stayed
/// null: a SIGSEGV in the helper's reverse sweep, tests/c/1396).
fn stored_pointer_base(v: Value) -> Value {
    use ferrozyme_analysis::activity::pointer_base;
    let base = pointer_base(v);
    if base.opcode() == Some(Opcode::LLVMLoad) {
        if let Some(stored) = ferrozyme_analysis::captures::read_only_capture_value(base.operand(0))
        {
            return pointer_base(stored);
        }
    }
    base
}

/// Is `v` a pointer to floating-point data returned, without a shadow, by a call of a
/// function with IR given pointers without shadows only besides empty objects, one of
/// them a constant one (the pointer itself, or one pointer of an aggregate it returns)?
/// It is computed from constant memory alone: `std::vector::begin()` of a constant
/// object's member at -O0, kept in a shadowed iterator (tests/cxx/173: the shadow
/// iterator held null and the reverse sweep added the knot's adjoint through it), or
/// `std::unordered_map::find(key)` of a constant map given the key in a local without a
/// shadow (tests/cxx/424, 430: the same crash). Pointers to integers only (a
/// `std::vector<std::pair<int, int>>` walked the same way, tests/cxx/115) need no
/// runtime activity. The constant pointer it is given may itself be such a result,
/// `depth` calls deep: `std::prev(m.upper_bound(k))` of a constant map at -O0 (holders40,
/// tests/cxx/457: the iterator slot's shadow held null, a SIGSEGV in the gradient).
fn constant_call_result(
    v: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
    depth: u32,
) -> bool {
    let mut c = base_object(v);
    if c.opcode() == Some(Opcode::LLVMExtractValue) {
        // One pointer of an aggregate returned by value: `std::views::counted(w, n)`
        // returns the `std::span` `{const double *, size_t}` (tests/cxx/420).
        c = c.operand(0);
    }
    if c.opcode() != Some(Opcode::LLVMCall) {
        return false;
    }
    let CallKind::Defined(g) = classify(c) else {
        return false;
    };
    // The callee's empty objects (`this` of a stateless function object such as
    // `std::views::counted`, `dereferenceable(1)`) hold nothing the result can point to.
    let params = g.params();
    let ptrs = c
        .call_args()
        .into_iter()
        .enumerate()
        .filter(|(k, a)| {
            a.ty().is_pointer()
                && !params
                    .get(*k)
                    .is_some_and(|p| ferrozyme_analysis::activity::is_empty_object_param(*p))
        })
        .map(|(_, a)| a)
        .collect::<Vec<_>>();
    if ptrs.iter().any(|a| act.is_shadowed(*a)) {
        return false;
    }
    // Floats also behind the pointers it points to: `*tab | std::views::values` returns
    // the `elements_view` holding the address of a constant
    // `std::vector<std::pair<int, double>>` (tests/cxx/421). Links whose targets type
    // analysis did not learn count too: `std::map::begin()` of a constant map at -O0
    // returns a node `{color, parent, left, right, key...}` whose value libstdc++ reaches
    // through `_M_valptr()`, unseen by the tree (tests/cxx/422: the shadow iterator held
    // null, and `_Rb_tree_increment`'s shadow walk crashed), and so does a result type
    // analysis learned nothing of (`std::map<std::string, double>::find`, cxx/430).
    // A global without a shadow given as it is counts as constant memory too: `M.find(K[0])`
    // of a `std::map` and a key table both declared `__enzyme_inactive_global` at -O0 (the
    // iterator slot's shadow held null and the gradient crashed, map46: tests/cxx/503).
    ptrs.iter().any(|p| {
        const_params.contains(&stored_pointer_base(*p))
            || p.is_global_variable()
            || (depth > 1 && constant_call_result(*p, act, types, const_params, depth - 1))
    }) && holds_floats(
        &types.pointee_tree(v),
        FLOATS_BEHIND_POINTERS,
        Unlearned::MayHold,
    )
}

/// Is `v` (an address computed from) a pointer to floating-point data read out of the
/// memory of an `enzyme_const` parameter, any number of loads deep
/// (`activity::constant_read_chain`, the walk the caller's keep-walk confirms its finds
/// with): `c->w = r->weights`, `c->w = r->m->s->l->w` with `r` constant? Stored into
/// shadowed memory the caller handed in (`c`), or that the function allocates and returns
/// to it, it had a null shadow, and a later reader's adjoint went through it (a crash,
/// tests/c/1301, 1302, 1335, 1336); runtime activity makes it its own shadow instead. Not
/// into a node the function allocates and keeps elsewhere: libstdc++'s
/// `unordered_map::operator[]` keeps bucket pointers read out of a constant map in the
/// nodes it allocates, which must stay as they are (tests/cxx/80).
fn pointer_read_from_constant(
    v: Value,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
) -> bool {
    ferrozyme_analysis::activity::constant_read_chain(v, |b| const_params.contains(&b))
        .is_some_and(|chain| !chain.is_empty())
        && types
            .pointee_tree(v)
            .iter()
            .any(|(_, b)| b.fp_type().is_some())
}

/// `store ptr %c, ptr %slot` with `%c` an `enzyme_const` pointer argument (or an address
/// computed from one) and `%slot` memory with a shadow.
///
/// Not when the constant memory holds no data a derivative could need: type analysis
/// knows it and finds only integers there (a C++ functor without members, such as an
/// ODE right-hand side `struct rhs { void operator()(...) const; }` whose one byte
/// is padding, held by reference in odeint's `calculate_stage`). A pointer read back
/// with a null shadow then only ever reaches integers, which have no shadow to read.
pub(super) fn constant_pointer_stored(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    const_params: &HashSet<Value>,
    runtime_activity: bool,
    out: &mut Vec<Finding>,
) {
    if !stores_constant_pointer(i, act, types, const_params) {
        return;
    }
    let p = i.operand(1);
    let base = stored_pointer_base(i.operand(0));
    match parallel_capture(p) {
        // Runtime activity (common/runtime_activity/) gives the pointer itself as its
        // shadow and guards the accesses through pointers read back.
        Capture::No | Capture::Unsafe if runtime_activity => return,
        Capture::No => {}
        Capture::Safe => return,
        Capture::Unsafe => {
            // At -O0 a slot whose address a lambda keeps (`[&]`) gets a shadow when the
            // closure also holds differentiated data (C++ seed 8013, tests/cxx/456).
            let by_reference = address_stored(base_object(p));
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: format!(
                    "mismatched activity: {}, which has no shadow, is handed to an OpenMP parallel region in memory that has one (the region reads floating-point data through it or writes it, or the memory also holds differentiated data{}); derivatives would be added through its missing shadow",
                    describe_object(base)
                    .replace(", passed without a shadow (enzyme_const)", " (enzyme_const)")
                    .replace(", which has no shadow", ""),
                    if by_reference {
                        ": the slot's address is also kept elsewhere, as a lambda capturing it by reference (`[&]`) keeps it at -O0"
                    } else {
                        ""
                    }
                ),
                help: if by_reference {
                    "capture that argument by value in the lambda (`[=]` or `[name, &other]`), pass it with enzyme_dup and a zero-initialised shadow buffer (its adjoint is then simply not used), or compile with -O1 or higher"
                } else {
                    "pass that argument with enzyme_dup and a zero-initialised shadow buffer (its adjoint is then simply not used)"
                },
            });
            return;
        }
    }
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "mismatched activity: {}, which has no shadow, is stored into memory that has one (at -O0 a lambda capturing it by reference keeps it in such a slot); pointers read back from there would have a null shadow",
            describe_object(base)
                    .replace(", passed without a shadow (enzyme_const)", " (enzyme_const)")
                    .replace(", which has no shadow", "")
        ),
        help: "pass that argument with enzyme_dup (and a shadow buffer), capture it by value in lambdas ([=] or [y]), or compile with -O1 or higher",
    });
}

/// Is the address of stack slot `slot` stored into memory (a by-reference capture)?
fn address_stored(slot: Value) -> bool {
    slot.opcode() == Some(Opcode::LLVMAlloca)
        && slot
            .users()
            .into_iter()
            .any(|u| u.opcode() == Some(Opcode::LLVMStore) && u.operand(0) == slot)
}

/// Whether the memory a constant pointer is stored into is handed to an OpenMP region.
enum Capture {
    /// Not memory handed to a parallel region.
    No,
    /// A field of a struct of captures (flang) the region only reads integers through.
    Safe,
    /// A captured slot with a shadow (a slot the region only reads gets one only when
    /// it also holds differentiated data: `ferrozyme_analysis::captures`), or a field the
    /// region reads floats (or further pointers) through: runtime activity takes it over
    /// (the pointer is its own shadow, the region's derivative is generated under checks:
    /// tests/openmp/71), refused only where runtime activity cannot be used.
    Unsafe,
}

/// Is `p` (shadowed memory a constant pointer is stored into) a stack slot, or a field
/// of a struct of slots, handed to an OpenMP parallel region (`__kmpc_fork_call`)? A
/// slot clang hands a region that only reads it has no shadow unless it also holds
/// differentiated data (`ferrozyme_analysis::captures`; tests/openmp/04, 09), so a
/// shadowed one is unsafe: pointers read from it, in the caller or the region, would
/// have the null shadow. A field of flang's struct of captures (its first field too,
/// `openmp::is_capture_struct`) keeps the constant
/// pointer's null shadow, safe when the region only reads integers through it
/// (tests/openmp/06: `n`), unsafe when it reads floats (its adjoints would go through
/// the null shadow; a segfault before such stores went to runtime activity, hpc39).
fn parallel_capture(p: Value) -> Capture {
    use crate::parallel::openmp;
    let slot = base_object(p);
    if slot.opcode() != Some(Opcode::LLVMAlloca) {
        return Capture::No;
    }
    let forked = slot.users().into_iter().any(|u| {
        u.opcode() == Some(Opcode::LLVMCall)
            && ferrozyme_analysis::calls::parallel_callee(u).is_some()
    });
    if !forked {
        return Capture::No;
    }
    let safe = (p != slot || openmp::is_capture_struct(slot))
        && openmp::constant_offset(p)
            .is_some_and(|(s, off)| s == slot && openmp::field_reads_integers_only(slot, off));
    if safe {
        Capture::Safe
    } else {
        Capture::Unsafe
    }
}

/// Does what type analysis knows of the memory a parameter points to stop before the
/// offsets it tracks end (`types::MAX_OFFSET`)? A larger object (a `std::mt19937`, 5000
/// bytes, held by reference in `std::uniform_real_distribution`'s adaptor, tests/cxx/181
/// at -O0) has facts only for its first bytes: "integers only" then says nothing about
/// the rest, where a callee typed differently clears the adjoint of a store through the
/// null shadow (a SIGSEGV in `_M_gen_rand`'s reverse sweep before sweep20). The
/// parameter's `dereferenceable` size, when the user's function carries it, says so too.
fn within_tracked_offsets(base: Value, pointee: &ferrozyme_analysis::types::TypeTree) -> bool {
    let limit = ferrozyme_analysis::types::MAX_OFFSET;
    // The widest scalar a tree entry stands for.
    const WIDEST: i64 = 16;
    if pointee.iter().any(|(o, _)| o + WIDEST >= limit) {
        return false;
    }
    if !base.is_argument() {
        return true;
    }
    let f = base.parent_function();
    let Some(k) = f.params().iter().position(|p| *p == base) else {
        return true;
    };
    // The clone being differentiated keeps only `dereferenceable(1)` (clone.rs): the size
    // is the user's function's.
    let user_fn = f
        .parent_module()
        .function(&f.source_name())
        .filter(|g| g.params().len() == f.params().len())
        .unwrap_or(f);
    user_fn
        .dereferenceable_bytes(Some(k as u32))
        .is_none_or(|n| n <= limit as u64)
}
