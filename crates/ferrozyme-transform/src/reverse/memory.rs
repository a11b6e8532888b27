//! Which memory the primal function may write, and where: decides when a load can be
//! repeated in the reverse sweep instead of cached.
//!
//! We find the *underlying object* of every written address (through GEPs and casts):
//! an argument, a global, memory allocated in the function, or unknown. The reverse
//! sweep runs after the whole forward sweep, so a load may be repeated there when no
//! write that could change what it read can execute after it in the forward sweep
//! ([`stable_after`]): writes before the load do not matter (a buffer filled before a
//! loop and only read in it is re-read, not cached per iteration), writes reachable from
//! the load do (the same loop overwriting it in a later iteration, code after the loop).
//! Writes to other arguments or globals count unless either side is a `noalias`
//! argument; memory allocated in the function is distinct from every argument, global
//! and other allocation; a write to an unknown object (a pointer loaded from memory, a
//! call that may write anywhere) counts for every object. Frees are writes too, except
//! those the combined function moves after the reverse sweep ([`deferrable_frees`]).

use ferrozyme_analysis::activity::is_readonly_function;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Opcode, Value};

use crate::common::base_object;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Obj {
    Arg(Value),
    Global(Value),
    /// Allocated in the function (alloca, malloc).
    Local(Value),
    Unknown,
}

/// Every write of the function: the object written and the instruction (a store, or a
/// call that writes) that writes it.
pub(crate) type Writes = Vec<(Obj, Value)>;

/// At most this many pointers (phi and select operands included) are looked at to find
/// an address's object; more is [`Obj::Unknown`].
const MAX_POINTER_WALK: usize = 32;

/// The object every address `v` can hold points into: through GEPs and casts, and
/// through phis and selects when all their incoming pointers (a loop's pointer
/// induction `p = phi [base, pre], [p + 8, latch]`, Rust's slice iterators and
/// `split_at`, which advance a pointer rather than an index) lead to the same object.
/// Several objects, or a pointer of unknown origin among them, is [`Obj::Unknown`].
pub(crate) fn underlying(v: Value) -> Obj {
    let Some(bases) = pointer_bases(v) else {
        return Obj::Unknown;
    };
    let mut found: Option<Obj> = None;
    for b in bases {
        match (object_of(b), found) {
            (Obj::Unknown, _) => return Obj::Unknown,
            (o, None) => found = Some(o),
            (o, Some(f)) if o == f => {}
            _ => return Obj::Unknown,
        }
    }
    found.unwrap_or(Obj::Unknown)
}

/// The base pointers (no GEP or cast in front, no phi or select) address `v` may hold:
/// through GEPs, casts, phis and selects, each once; constant addresses in the null page
/// left out (an access through one faults: Rust's empty `Vec` and slices hold the
/// dangling `inttoptr (i64 8 to ptr)` beside the allocation). `None` past
/// [`MAX_POINTER_WALK`] pointers.
pub(crate) fn pointer_bases(v: Value) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let mut work = vec![v];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(p) = work.pop() {
        let b = base_object(p);
        if !seen.insert(b) {
            continue;
        }
        if seen.len() > MAX_POINTER_WALK {
            return None;
        }
        match b.opcode() {
            Some(Opcode::LLVMPHI) => work.extend(b.incoming().into_iter().map(|(x, _)| x)),
            Some(Opcode::LLVMSelect) => work.extend([b.operand(1), b.operand(2)]),
            _ if in_null_page(b) => {}
            _ => out.push(b),
        }
    }
    Some(out)
}

/// The size of the page at address 0, which no object occupies (Linux maps nothing
/// below `vm.mmap_min_addr`, 4096 by default and more on most systems).
const NULL_PAGE: i64 = 4096;

/// Is `v` a constant address in the null page (`null`, `inttoptr (i64 8 to ptr)`)?
fn in_null_page(v: Value) -> bool {
    if !v.is_constant() {
        return false;
    }
    if v.is_null() {
        return true;
    }
    v.const_opcode() == Some(Opcode::LLVMIntToPtr)
        && v.operand(0)
            .const_int_value()
            .is_some_and(|a| (0..NULL_PAGE).contains(&a))
}

/// The object a base pointer (no GEP or cast in front) is: an argument, a global, an
/// allocation of the function, or unknown.
fn object_of(v: Value) -> Obj {
    if v.is_argument() {
        return Obj::Arg(v);
    }
    if v.is_global_variable() {
        return Obj::Global(v);
    }
    match v.opcode() {
        Some(Opcode::LLVMAlloca) => Obj::Local(v),
        Some(Opcode::LLVMCall)
            if matches!(
                classify(v),
                CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
            ) =>
        {
            Obj::Local(v)
        }
        _ => Obj::Unknown,
    }
}

/// Every object the function may write, with the instruction that writes it (stores and
/// frees in `deferred` excepted: they are moved after the reverse sweep, see
/// [`deferrable_stores`] and [`deferrable_frees`], or left out, see [`dropped_stores`]).
pub(crate) fn written_objects(
    f: Value,
    deferred: &ferrozyme_analysis::hash::HashSet<Value>,
) -> Writes {
    let mut out = Vec::new();
    let mut seen = ferrozyme_analysis::hash::HashMap::default();
    for b in f.blocks() {
        for i in b.instructions() {
            if deferred.contains(&i) {
                continue;
            }
            for o in writes_of(f, i, 4, &mut seen) {
                out.push((o, i));
            }
        }
    }
    out
}

/// What callee `g` writes, looked at `depth` levels deep (each callee once per depth).
type CalleeWrites = ferrozyme_analysis::hash::HashMap<(Value, u32), Vec<Obj>>;

/// Math library functions without a derivative rule that write no memory the program can
/// point to (at most `errno`, or `signgam`: [`signgam_written`]).
const QUIET_LIBM: &[&str] = &[
    "lgamma",
    "lgammaf",
    "tgamma",
    "tgammaf",
    "j0",
    "j1",
    "y0",
    "y1",
    "jn",
    "jnf",
    "yn",
    "ynf",
    "nextafter",
    "nextafterf",
    "remainder",
    "remainderf",
    "fmodf",
    "logb",
    "logbf",
    "nearbyint",
    "rint",
];

/// `lgamma`, `lgammaf` and `lgammal` also store the sign of Gamma(x) in the C library's
/// `signgam`, which the program may read after each call (when it declares it).
fn signgam_written(i: Value) -> Option<Obj> {
    let g = i.called_function()?;
    if !matches!(g.name().as_str(), "lgamma" | "lgammaf" | "lgammal") {
        return None;
    }
    g.parent_module().global("signgam").map(underlying)
}

/// Everything `f` (with callees `depth` levels deep) may write, as objects.
fn written_by(f: Value, depth: u32, seen: &mut CalleeWrites) -> Vec<Obj> {
    let mut w = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            w.extend(writes_of(f, i, depth, seen));
        }
    }
    w
}

/// The objects instruction `i` of `f` may write.
fn writes_of(f: Value, i: Value, depth: u32, seen: &mut CalleeWrites) -> Vec<Obj> {
    let mut w = Vec::new();
    match i.opcode() {
        Some(Opcode::LLVMStore) => w.push(underlying(i.operand(1))),
        Some(Opcode::LLVMAtomicRMW) | Some(Opcode::LLVMAtomicCmpXchg) => {
            w.push(underlying(i.operand(0)))
        }
        // The end (or a new start) of a stack object's lifetime: what it held is gone.
        Some(Opcode::LLVMCall) if i.is_lifetime_marker() => {
            w.push(underlying(i.call_args()[i.call_args().len() - 1]))
        }
        Some(Opcode::LLVMCall) => match classify(i) {
            // A math function with an output pointer writes it: frexp's and remquo's
            // `int *`, lgamma_r's sign (an -O0 stack slot a loop reloads each iteration).
            CallKind::Math(_) | CallKind::NoDerivative => {
                w.extend(
                    i.call_args()
                        .into_iter()
                        .filter(|a| a.ty().is_pointer())
                        .map(underlying),
                );
                w.extend(signgam_written(i));
            }
            CallKind::ReduceFAdd
            | CallKind::ReduceFMul
            | CallKind::ReduceFMinMax
            | CallKind::Malloc
            | CallKind::Calloc => {}
            CallKind::Memcpy | CallKind::Memmove | CallKind::Memset => {
                w.push(underlying(i.call_args()[0]))
            }
            CallKind::Free | CallKind::Realloc | CallKind::PosixMemalign => {
                w.push(underlying(i.call_args()[0]))
            }
            // flang's inactive routines may write through their pointer arguments (an
            // inquiry's result descriptor, an I/O status).
            // So do input functions (`sscanf`'s targets, `std::istream >>`'s operand).
            CallKind::InactiveExternal
                if ferrozyme_analysis::input_calls::is_input_call(i)
                    || i.called_function().is_some_and(|g| {
                        ferrozyme_rules::fortran::fortran_rule(&g.name()).is_some()
                    }) =>
            {
                for a in i.call_args() {
                    if a.ty().is_pointer() {
                        w.push(underlying(a));
                    }
                }
            }
            // A function the user marked inactive (`__enzyme_inactivefn`, the
            // `enzyme_inactive` attribute) carries no derivative but still writes: an
            // inactive global it updates, an `int *` it fills. (Enzyme's own entry points
            // marked so, `__enzyme_ignore_derivatives` and the contexts, write nothing.)
            // So does a C++ library template with IR copied as inactive because its
            // signature writes no floats (`std::sort<int *>`, `std::fill<int *, int>` at
            // -O0: `calls::float_free_library_call`): its body says what.
            CallKind::InactiveExternal => match i.called_function() {
                Some(g)
                    if (g.has_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR)
                        || !g.is_declaration())
                        && !g.name().starts_with(ferrozyme_abi::ENZYME_FUNCTION_PREFIX) =>
                {
                    w.extend(callee_writes(f, i, g, depth, seen))
                }
                // What the program can read back from an inactive library call: a
                // `strtol` end pointer or `snprintf`'s characters in an -O0 stack slot
                // reloaded in a loop.
                Some(g) if listed_inactive(&g.name()) => w.extend(
                    inactive_output_argument(i)
                        .and_then(|n| i.call_args().get(n).copied())
                        .map(underlying),
                ),
                // Inactive by its types alone (`calls::float_free_library_call`: a C++
                // library function without IR writing no floats, `std::string::append`)
                // or a runtime's inactive routine (`MPI_Comm_rank`'s `int *`): it writes
                // what its pointer arguments point to, unless it only reads. Taken to
                // write nothing, the string's length read in a loop before `S.append(..)`
                // was re-read in the reverse sweep after the last append (tests/cxx/464).
                Some(g) if g.memory_effects().is_some_and(|m| m.only_reads()) => {}
                _ => w.extend(
                    i.call_args()
                        .into_iter()
                        .filter(|a| a.ty().is_pointer())
                        .map(underlying),
                ),
            },
            CallKind::Defined(g) => w.extend(callee_writes(f, i, g, depth, seen)),
            CallKind::UnknownExternal
                if i.called_function()
                    .is_some_and(|g| QUIET_LIBM.contains(&g.name().as_str())) =>
            {
                w.extend(signgam_written(i))
            }
            _ => {
                w.push(Obj::Unknown);
            }
        },
        _ => {}
    }
    w
}

/// What call `i` of `f` to function `g` (its body looked at `depth` levels deep, each
/// callee once per depth) may write, seen from `f`: the callee's arguments become this
/// call's arguments; its own allocations do not matter. Without a body to look at (a
/// declaration, too deep, recursion) anything, unless its `memory` attribute says it
/// only reads.
fn callee_writes(f: Value, i: Value, g: Value, depth: u32, seen: &mut CalleeWrites) -> Vec<Obj> {
    if is_readonly_function(g) {
        return Vec::new();
    }
    if g.is_declaration() || depth == 0 || g == f {
        return vec![Obj::Unknown];
    }
    let args = i.call_args();
    let params = g.params();
    let callee = match seen.get(&(g, depth - 1)) {
        Some(w) => w.clone(),
        None => {
            let w = written_by(g, depth - 1, seen);
            seen.insert((g, depth - 1), w.clone());
            w
        }
    };
    let mut w = Vec::new();
    for o in callee {
        match o {
            Obj::Arg(a) => match params.iter().position(|p| *p == a) {
                Some(k) if k < args.len() => w.push(underlying(args[k])),
                _ => w.push(Obj::Unknown),
            },
            Obj::Local(_) => {}
            other => w.push(other),
        }
    }
    w
}

/// The argument through which inactive library call `i` stores data the program can
/// read back (the end pointer of `strtod`, the characters of `snprintf`, the result of
/// `time(&t)`): the library table's rows (`ferrozyme_abi::library`).
fn inactive_output_argument(i: Value) -> Option<usize> {
    let name = i.called_function()?.name();
    ferrozyme_abi::inactive_library(&name)?
        .writes
        .output_argument()
}

/// Is `name` a library function whose writes a table states: a row of the library table
/// (what it writes: [`inactive_output_argument`]), an output function of
/// `INACTIVE_EXTERNALS` (streams and the C library's own state), a table search (reads
/// only), or one of Enzyme's entry points?
fn listed_inactive(name: &str) -> bool {
    ferrozyme_abi::inactive_library(name).is_some()
        || ferrozyme_abi::INACTIVE_EXTERNALS.contains(&name)
        || ferrozyme_abi::table_search(name).is_some()
        || name.starts_with(ferrozyme_abi::ENZYME_FUNCTION_PREFIX)
}

/// Stores of the final results (`*err = value` at the end of the function) that combined
/// mode may perform after the reverse sweep instead: in a block that runs exactly once
/// on every path to a return, storing a float (or integer) to an argument or global, with
/// nothing after it that reads memory. Then the reverse sweep sees memory exactly as the
/// forward sweep's loads did, so loads elsewhere need not be cached because of them.
pub(crate) fn deferrable_stores(
    f: Value,
    cfg: &ferrozyme_analysis::cfg::Cfg,
    returns: &[ferrozyme_llvm::Block],
) -> ferrozyme_analysis::hash::HashSet<Value> {
    use ferrozyme_analysis::hash::HashSet;
    let mut out = HashSet::default();
    for blk in f.blocks() {
        if !cfg.is_reachable(blk)
            || cfg.is_cyclic(blk)
            || returns.is_empty()
            || !returns.iter().all(|r| cfg.dominates(blk, *r))
        {
            continue;
        }
        // Everything after a candidate, in this block and in the blocks reachable from it,
        // must not read memory.
        let mut later: Vec<Value> = Vec::new();
        let mut seen = HashSet::default();
        let mut work: Vec<ferrozyme_llvm::Block> = cfg.succs(blk);
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                later.extend(b.instructions());
                work.extend(cfg.succs(b));
            }
        }
        let reads = |i: Value| match i.opcode() {
            Some(Opcode::LLVMLoad)
            | Some(Opcode::LLVMAtomicRMW)
            | Some(Opcode::LLVMAtomicCmpXchg) => true,
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => !matches!(
                classify(i),
                CallKind::Free | CallKind::Math(_) | CallKind::NoDerivative | CallKind::TypeHint
            ),
            Some(Opcode::LLVMVAArg) => true,
            _ => false,
        };
        if later.iter().any(|i| reads(*i)) {
            continue;
        }
        let insts = blk.instructions();
        for (k, i) in insts.iter().enumerate() {
            if i.opcode() != Some(Opcode::LLVMStore) || i.is_volatile() || i.is_atomic_access() {
                continue;
            }
            let v = i.operand(0);
            let simple = v.ty().is_fp_scalar() || v.ty().is_integer();
            let target = matches!(underlying(i.operand(1)), Obj::Arg(_) | Obj::Global(_));
            // The operands must still be available after the reverse sweep: defined in
            // blocks that run once (values of loop blocks live in records popped by then).
            let once = |o: Value| !o.is_instruction() || !cfg.is_cyclic(o.parent_block());
            if simple
                && target
                && once(v)
                && once(i.operand(1))
                && !insts[k + 1..].iter().any(|j| reads(*j))
            {
                out.insert(*i);
            }
        }
    }
    out
}

fn is_noalias(o: Obj) -> bool {
    match o {
        Obj::Arg(a) => a
            .parent_function()
            .has_param_attr(param_index(a), "noalias"),
        _ => false,
    }
}

fn param_index(a: Value) -> u32 {
    a.parent_function()
        .params()
        .iter()
        .position(|p| *p == a)
        .unwrap_or(0) as u32
}

/// Can a write to `w` change memory of object `o`?
pub(crate) fn may_alias(o: Obj, w: Obj) -> bool {
    match (o, w) {
        (Obj::Unknown, _) | (_, Obj::Unknown) => true,
        // A fresh allocation is distinct from every other object.
        (Obj::Local(a), Obj::Local(b)) => a == b,
        (Obj::Local(_), _) | (_, Obj::Local(_)) => false,
        (Obj::Global(a), Obj::Global(b)) => a == b,
        (a, b) if a == b => true,
        (a, b) => !(is_noalias(a) || is_noalias(b)),
    }
}

/// May the load `load` (of `addr`) be repeated in the reverse sweep: can no write that
/// may change what it read execute after it in the forward sweep? `after(a, b)` says
/// whether instruction `b` can execute after instruction `a` ([`Reach::after`]).
pub(crate) fn stable_after(
    writes: &Writes,
    addr: Value,
    load: Value,
    mut after: impl FnMut(Value, Value) -> bool,
) -> bool {
    let o = underlying(addr);
    o != Obj::Unknown
        && writes
            .iter()
            .all(|(w, inst)| !may_alias(o, *w) || !after(load, *inst))
}

/// Which blocks can execute after which (memoized per starting block).
#[derive(Default)]
pub(crate) struct Reach {
    from: ferrozyme_analysis::hash::HashMap<
        ferrozyme_llvm::Block,
        ferrozyme_analysis::hash::HashSet<ferrozyme_llvm::Block>,
    >,
}

impl Reach {
    /// Blocks reachable from `b` through at least one edge (`b` itself when it is on a
    /// cycle).
    fn reachable(
        &mut self,
        cfg: &ferrozyme_analysis::cfg::Cfg,
        b: ferrozyme_llvm::Block,
    ) -> &ferrozyme_analysis::hash::HashSet<ferrozyme_llvm::Block> {
        self.from.entry(b).or_insert_with(|| {
            let mut seen = ferrozyme_analysis::hash::HashSet::default();
            let mut work = cfg.succs(b);
            while let Some(x) = work.pop() {
                if seen.insert(x) {
                    work.extend(cfg.succs(x));
                }
            }
            seen
        })
    }

    /// Can instruction `later` execute after instruction `first` (in the same run of the
    /// function)?
    pub(crate) fn after(
        &mut self,
        cfg: &ferrozyme_analysis::cfg::Cfg,
        first: Value,
        later: Value,
    ) -> bool {
        let (bf, bl) = (first.parent_block(), later.parent_block());
        if bf == bl {
            let insts = bf.instructions();
            let pf = insts.iter().position(|i| *i == first);
            let pl = insts.iter().position(|i| *i == later);
            if let (Some(pf), Some(pl)) = (pf, pl) {
                if pl > pf {
                    return true;
                }
            }
        }
        self.reachable(cfg, bf).contains(&bl)
    }
}

/// The stack slot whose lifetime `i` starts when `i` is one of several
/// `llvm.lifetime.start`s of that slot: the optimizer gave one `alloca` to objects with
/// disjoint lifetimes, of different types (numba inlining two helpers that return through
/// a slot: an array record, then a float; front35). Each lifetime starts on fresh memory,
/// so its shadow must start at zero too: pointer shadows stored there for the earlier
/// object would otherwise be read back as adjoints of the later one's floats. The forward
/// sweep zeroes it at each start, the reverse sweep when it leaves each lifetime (at the
/// start's place), for the other order (floats first, then pointers). A slot typed as
/// floats only (a local array of doubles in an unrolled loop) never gets anything but
/// adjoints in its shadow, which each lifetime consumes: it is left alone.
pub(super) fn restarted_slot(i: Value) -> Option<Value> {
    if !i.is_lifetime_start() {
        return None;
    }
    let slot = *i.call_args().last()?;
    if slot.opcode() != Some(Opcode::LLVMAlloca) || holds_only_floats(slot.allocated_type()) {
        return None;
    }
    let starts = slot
        .users()
        .into_iter()
        .filter(|u| u.is_lifetime_start())
        .count();
    (starts > 1).then_some(slot)
}

/// Is every leaf of `t` a differentiated float (`double`, `[4 x double]`, `{float, float}`)?
fn holds_only_floats(t: ferrozyme_llvm::Type) -> bool {
    use ferrozyme_llvm::TypeKind;
    match t.kind() {
        TypeKind::Vector | TypeKind::Array => holds_only_floats(t.element_type()),
        TypeKind::Struct => t.struct_fields().into_iter().all(holds_only_floats),
        _ => t.is_fp_scalar(),
    }
}

/// Frees the combined function performs after the reverse sweep instead of in the
/// forward sweep: calls of `free` (and MPI handle frees, flang's `Destroy` of a local,
/// `llvm.lifetime.end` of stack objects) in a block that runs exactly once on every path
/// to a return (not on a cycle, dominating every return), of a pointer defined outside every cycle (its value must still be readable
/// after the reverse sweep: values of loop blocks live in records popped by then). The
/// memory then stays valid while the reverse sweep runs, so loads of buffers the function
/// allocates, fills and only reads afterwards can be repeated there instead of cached
/// (GMM's `Qdiags`).
pub(crate) fn deferrable_frees(
    f: Value,
    cfg: &ferrozyme_analysis::cfg::Cfg,
    returns: &[ferrozyme_llvm::Block],
) -> ferrozyme_analysis::hash::HashSet<Value> {
    let mut out = ferrozyme_analysis::hash::HashSet::default();
    for (blk, every_path) in blocks_run_at_most_once(f, cfg, returns) {
        if !every_path {
            continue;
        }
        for i in blk.instructions() {
            let once = |o: Value| !o.is_instruction() || !cfg.is_cyclic(o.parent_block());
            if i.opcode() == Some(Opcode::LLVMCall)
                && (matches!(classify(i), CallKind::Free)
                    || is_mpi_handle_free(i)
                    || (is_fortran_deallocation(i) && !crate::fortran::destroys_argument(i))
                    || i.called_function()
                        .is_some_and(|f| f.is_intrinsic("llvm.lifetime.end")))
                && i.call_args().into_iter().all(once)
            {
                out.insert(i);
            }
        }
    }
    out
}

/// MPI handle frees (`MPI_Comm_free`, `MPI_Type_free`) in a block that runs at most once
/// (not on a cycle), under a branch or not. Like `deferrable_frees` they run after the
/// reverse sweep, which still communicates on the handle, but only when the forward sweep
/// reached them, on a copy of the handle taken where the primal frees it
/// (`branched_free.rs`): by the end the variable may hold another handle (two
/// create-and-free pairs on one variable, a loop of two trips unrolled: the last handle
/// was freed twice and the first leaked, an MPI error at run time; hpc37, tests/mpi/80).
pub(crate) fn branched_handle_frees(
    f: Value,
    cfg: &ferrozyme_analysis::cfg::Cfg,
    returns: &[ferrozyme_llvm::Block],
) -> ferrozyme_analysis::hash::HashSet<Value> {
    let mut out = ferrozyme_analysis::hash::HashSet::default();
    for (blk, _) in blocks_run_at_most_once(f, cfg, returns) {
        out.extend(
            blk.instructions()
                .into_iter()
                .filter(|i| i.opcode() == Some(Opcode::LLVMCall) && is_mpi_handle_free(*i)),
        );
    }
    out
}

/// The reachable blocks of `f` that are on no cycle (none when `f` never returns), each
/// with whether it dominates every return (runs once on every path) or not (under a
/// branch).
fn blocks_run_at_most_once<'a>(
    f: Value,
    cfg: &'a ferrozyme_analysis::cfg::Cfg,
    returns: &'a [ferrozyme_llvm::Block],
) -> impl Iterator<Item = (ferrozyme_llvm::Block, bool)> + 'a {
    f.blocks()
        .into_iter()
        .filter(move |b| !returns.is_empty() && cfg.is_reachable(*b) && !cfg.is_cyclic(*b))
        .map(move |b| (b, returns.iter().all(|r| cfg.dominates(b, *r))))
}

/// A call of `MPI_Comm_free`/`MPI_Type_free` (or their Fortran bindings): the adjoint
/// communication still uses the handle, so it is freed after the reverse sweep too
/// (`ferrozyme_rules::mpi::MpiRule::HandleFree`; elsewhere `check.rs` rejects it).
pub(crate) fn is_mpi_handle_free(i: Value) -> bool {
    i.called_function().is_some_and(|f| {
        matches!(
            ferrozyme_rules::mpi::mpi_rule(&f.name()),
            Some(ferrozyme_rules::mpi::MpiRule::HandleFree { .. })
        )
    })
}

/// Is the handle an MPI handle free `free` frees (`MPI_Comm_free(&c)`) held in a stack
/// slot of the function that frees it: a handle that function made (`MPI_Comm_split(...,
/// &c)`) rather than one it was handed (`MPI_Comm_free(&this->comm)`, `&s->pair`), which
/// its callers' adjoint communication may still use after its own reverse sweep is over?
pub(crate) fn frees_local_handle(free: Value) -> bool {
    free.call_args()
        .first()
        .is_some_and(|h| crate::common::base_object(*h).opcode() == Some(Opcode::LLVMAlloca))
}

/// A call of flang's `_FortranADestroy` (`ferrozyme_rules::fortran::FortranRule::
/// Deallocation`): it frees the allocatable components of a derived-type variable, which
/// the reverse sweep still reads, so it runs after the reverse sweep, on the variable's
/// descriptor and on its shadow's (elsewhere `check.rs` rejects it). An `intent(out)`
/// dummy's, on entry, frees what the caller had there: it runs at once, on the primal
/// only (`calls.rs`).
pub(crate) fn is_fortran_deallocation(i: Value) -> bool {
    i.called_function().is_some_and(|f| {
        matches!(
            ferrozyme_rules::fortran::fortran_rule(&f.name()),
            Some(ferrozyme_rules::fortran::FortranRule::Deallocation { .. })
        )
    })
}

/// Is pointer `p` (freed by the function) memory the function was given: an argument, a
/// pointer read out of an argument's memory (`free(s->buf)`), or (unoptimized code) one
/// read back from a stack slot that only ever holds such pointers? A pointer read from
/// one of the function's own objects was put there by a callee that allocated it (Eigen's
/// evaluator constructor allocating into a local evaluator): the replay of that
/// allocation frees its shadow, so freeing it here too was a double free.
pub(crate) fn freed_pointer_is_given(p: Value) -> bool {
    given(p, 4)
}

fn given(p: Value, depth: u32) -> bool {
    let b = base_object(p);
    if b.is_argument() {
        return true;
    }
    if depth == 0 || b.opcode() != Some(Opcode::LLVMLoad) {
        return false;
    }
    let from = base_object(b.operand(0));
    if from.is_argument() {
        return true;
    }
    if from.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    // A plain stack slot (an unoptimized local variable: only loaded from and stored to
    // as a whole, never handed to a call): every pointer stored into it must be given.
    // An object on the stack a callee filled (a constructor's `this`) is not given.
    let users = from.users();
    let plain = users.iter().all(|u| match u.opcode() {
        Some(Opcode::LLVMLoad) => true,
        Some(Opcode::LLVMStore) => u.operand(1) == from && u.operand(0) != from,
        _ => false,
    });
    let stored: Vec<Value> = users
        .into_iter()
        .filter(|u| u.opcode() == Some(Opcode::LLVMStore))
        .map(|u| u.operand(0))
        .collect();
    plain && !stored.is_empty() && stored.into_iter().all(|v| given(v, depth - 1))
}

/// Does `f` allocate nothing: no allocation function, and no call of a function that
/// could hand back memory (a call with a pointer result)? Then every pointer it frees
/// was given to it.
pub(crate) fn allocates_nothing(f: Value) -> bool {
    f.calls_and_invokes().all(|i| {
        !i.ty().contains_pointer()
            && !matches!(
                classify(i),
                CallKind::Malloc | CallKind::Calloc | CallKind::Realloc | CallKind::PosixMemalign
            )
    })
}

/// Stores the forward sweep leaves out because the caller marked their memory
/// `enzyme_dupnoneed` (it does not need what the function writes there) and nothing in
/// the function reads it back. For each such argument `a`, every pointer derived from it
/// (through GEPs and casts) must be used only as the address of stores or in
/// comparisons: then the function never reads `a`'s memory (no load, no call gets the
/// pointer) nor lets the pointer escape. A store of a float or integer to it is then dropped when `a` is `noalias`
/// (no other pointer reaches that memory), or when it is a final store (`deferred`:
/// nothing reads memory after it). The reverse sweep still takes the adjoint of every
/// such store from the shadow; only the primal write is skipped, and with it whatever
/// computed only the stored value.
pub(crate) fn dropped_stores(
    f: Value,
    noneed: &[bool],
    deferred: &ferrozyme_analysis::hash::HashSet<Value>,
) -> ferrozyme_analysis::hash::HashSet<Value> {
    let mut out = ferrozyme_analysis::hash::HashSet::default();
    for (k, a) in f.params().into_iter().enumerate() {
        if !noneed.get(k).copied().unwrap_or(false) || !a.ty().is_pointer() {
            continue;
        }
        let noalias = f.has_param_attr(k as u32, "noalias");
        let mut stores = Vec::new();
        let mut work = vec![a];
        let mut seen = ferrozyme_analysis::hash::HashSet::default();
        let mut ok = true;
        'walk: while let Some(d) = work.pop() {
            if !seen.insert(d) {
                continue;
            }
            for u in d.users() {
                match u.opcode() {
                    Some(Opcode::LLVMGetElementPtr)
                        if u.operand(0) == d
                            && (1..u.num_operands()).all(|j| u.operand(j) != d) =>
                    {
                        work.push(u)
                    }
                    Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => work.push(u),
                    Some(Opcode::LLVMICmp) => {}
                    Some(Opcode::LLVMStore)
                        if u.operand(1) == d
                            && u.operand(0) != d
                            && !u.is_volatile()
                            && !u.is_atomic_access()
                            && (u.operand(0).ty().is_fp() || u.operand(0).ty().is_integer()) =>
                    {
                        stores.push(u)
                    }
                    _ => {
                        ok = false;
                        break 'walk;
                    }
                }
            }
        }
        if !ok {
            continue;
        }
        out.extend(
            stores
                .into_iter()
                .filter(|s| noalias || deferred.contains(s)),
        );
    }
    out
}
