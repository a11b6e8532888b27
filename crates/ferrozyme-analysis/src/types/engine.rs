//! The fixed-point engine of type analysis: transfer rules per instruction, applied
//! until no tree changes, driven by a worklist so that adding code later (a clone made
//! for differentiation) costs in proportion to what that code teaches.
//!
//! Phases:
//! 1. *Scope*: the analysed function plus every defined function reachable from it in the
//!    undirected call graph (callees, callers, functions handed to `__enzyme_*` markers).
//! 2. *Registration* (`engine/solve.rs`): each instruction's relations between pointers
//!    (`types/period.rs`) and its *dependencies*: the values whose trees its rule reads
//!    (operands, the callee's parameters and returns for a call, itself). Global
//!    variables get the layout of their value type when first referenced; everything
//!    else is seeded by the rules themselves (IR types of floats and pointers, allocas,
//!    TBAA, ...).
//! 3. *Solving*: every registered instruction's rule runs in both directions, joining
//!    into two maps: `vals` (value trees of values whose IR type does not already say
//!    everything, i.e. integers and aggregates) and `ptrs` (pointee trees). Whenever a
//!    tree grows, the rules that read it become due again. Due rules run in the order of
//!    sweeps — function by function in scope order, each until it is locally stable,
//!    rounds over the scope until nothing is due (or [`solve::MAX_ROUNDS`]) — but a rule
//!    whose inputs did not change is skipped, since it would join nothing new.
//!
//! Invariants: rules only join and offsets are capped by the tree itself, so the lattice
//! has finite height and solving ends. A few rules are not monotone in what they
//! conclude (a strided element that looks uniform so far becomes "every offset"), so
//! the facts can depend on rule order; keeping the sweep order makes one analysis of a
//! scope give exactly the facts of sweeping it.
//!
//! Pointee facts nest (up to `types::MAX_DEPTH` pointers deep): a pointer stored into
//! memory leaves what it points to in that memory's tree (`TypeTree::inner`), so a
//! pointer loaded back — in another function, after the struct holding it was copied or
//! passed on — starts from what the stored one was known to point to. Unoptimized C++
//! keeps references in objects everywhere (a functor holding `const State &`, odeint's
//! `calculate_stage`, `std::bind`'s bound arguments, lambdas capturing by reference).
//!
//! Call edges: facts about a pointer cross between argument and parameter (result and
//! returned value) only within the bytes the callee declares `dereferenceable`, so a
//! reference names one object and callers do not see each other's objects through it.

mod access;
mod access_window;
mod address_only;
mod aggregates;
mod changes;
mod compared;
mod erased;
mod lanes;
mod library;
pub(super) mod scope;
mod sentinel;
mod solve;
mod typed_access;
mod unchanged;

use crate::hash::{HashMap, HashSet};
use std::rc::Rc;

use ferrozyme_llvm::{Module, Opcode, TypeKind, Value};

use super::layout::{self, GepOffset};
use super::period::Periods;
use super::{BaseType, Change, TypeTree};

/// What the IR type of `v` alone says about its value (floats, pointers; integers nothing).
pub(super) fn type_seed(m: Module, v: Value) -> TypeTree {
    let mut t = TypeTree::new();
    for (off, leaf) in layout::leaves(m, v.ty()) {
        let b = match leaf.kind() {
            TypeKind::Float => BaseType::Float,
            TypeKind::Double => BaseType::Double,
            TypeKind::Half => BaseType::Half,
            TypeKind::X86Fp80 => BaseType::LongDouble,
            TypeKind::Pointer => BaseType::Pointer,
            _ => BaseType::Unknown,
        };
        t.insert(off, b);
    }
    t
}

/// `into.merge(t)`, appending the keys it changes to `log` when there is one (the value
/// is watched, `engine/changes.rs`).
fn merge_logged(into: &mut TypeTree, t: &TypeTree, log: Option<&mut Vec<Change>>) -> bool {
    match log {
        Some(log) => into.merge_noting(t, &mut |c| log.push(c)),
        None => into.merge(t),
    }
}

/// May rules write facts about `v`? Only values that name one runtime object: not
/// constants like `null`, `undef` or literal integers, nor pointers made of them.
fn is_trackable(v: Value) -> bool {
    v.is_instruction()
        || v.is_argument()
        || v.is_global_variable()
        || (v.is_constant_expr() && !is_address_literal(v))
}

/// A constant pointer made from a literal integer (`inttoptr (i64 8 to ptr)`, and GEPs
/// and casts of it): the dangling address an empty `Vec` or `Box<[T]>` holds (Rust's
/// `NonNull::dangling()`, the element type's alignment). It points at no object, and it
/// is one value in the whole module: tracked, it would join every empty buffer of that
/// alignment with every other (a `Vec<f64>`'s doubles and a `Vec<Vec<f64>>`'s
/// length fields, through the phis choosing between a fresh allocation and the
/// dangling pointer in `to_vec`: cannot-deduce-type, rust15).
fn is_address_literal(v: Value) -> bool {
    let mut cur = v;
    for _ in 0..8 {
        match cur.const_opcode() {
            Some(Opcode::LLVMIntToPtr) => return cur.operand(0).const_int_value().is_some(),
            Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => {
                cur = cur.operand(0)
            }
            _ => return false,
        }
    }
    false
}

/// Walks back from `ptr` through constant-offset GEPs while the accumulated offset stays
/// at most `limit`; returns the pointer reached and the offset of `ptr` from it.
fn strip_constant_geps(m: Module, ptr: Value, limit: i64) -> (Value, i64) {
    let (mut cur, mut acc) = (ptr, 0i64);
    for _ in 0..8 {
        if acc == limit {
            break;
        }
        let is_gep = cur.opcode() == Some(Opcode::LLVMGetElementPtr)
            || cur.const_opcode() == Some(Opcode::LLVMGetElementPtr);
        if !is_gep {
            break;
        }
        match layout::gep_offset(m, cur) {
            Some(GepOffset {
                constant,
                stride: None,
                ..
            }) if constant >= 0 && acc + constant <= limit => {
                acc += constant;
                cur = cur.operand(0);
            }
            _ => break,
        }
    }
    (cur, acc)
}

/// Is integer `v` the `this` adjustment of a C++ member-function pointer: the second
/// field of the Itanium ABI's `{i64, i64}` pair (`extractvalue %mp, 1`, as clang emits the
/// call `(obj.*pm)(...)`)?
fn is_member_pointer_adjustment(v: Value) -> bool {
    if v.opcode() != Some(Opcode::LLVMExtractValue) || v.aggregate_indices() != [1] {
        return false;
    }
    let ty = v.operand(0).ty();
    ty.kind() == TypeKind::Struct
        && ty.struct_fields().len() == 2
        && ty.struct_fields().iter().all(|f| f.int_width() == Some(64))
}

/// What the worklist holds: an instruction whose rule runs, or a link between two values
/// (a clone's parameter and its original's, pointers through a `-O0` stack slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Inst(Value),
    Link(u32),
}

/// What a load or store's metadata says beyond its operands.
#[derive(Clone, Copy, Default)]
struct Hints {
    /// For a pointer moved: only its pointee's first bytes move with it (an embedded
    /// sentinel node, `engine/sentinel.rs`).
    window: Option<i64>,
    /// The `!tbaa` types the whole integer moved: the memory's other facts are not the
    /// value's (`engine/typed_access.rs`).
    typed: bool,
}

/// The state of one analysis: facts, the rules' dependencies and the queue.
pub(super) struct Engine {
    m: Module,
    vals: HashMap<Value, TypeTree>,
    /// Shared trees: linked pointers (casts, phis, arguments and parameters) come to hold
    /// one tree, so reading one is a reference count and re-linking them is a comparison.
    ptrs: HashMap<Value, Rc<TypeTree>>,
    returns: HashMap<Value, Vec<Value>>,
    periods: Periods,
    ptr_size: u64,
    /// Functions whose bodies are registered.
    functions: HashSet<Value>,
    /// `deps[v]`: the items whose rules read the trees of `v`.
    deps: HashMap<Value, Vec<Item>>,
    links: Vec<(Value, Value)>,
    /// Which rules are due, in the order a sweep would visit them (`solve.rs`).
    schedule: solve::Schedule,
    /// Global variables whose layout is seeded.
    seeded: HashSet<Value>,
    /// Rules that read strided-pointer periods (GEPs, instructions with GEP operands).
    gep_rules: Vec<Item>,
    /// Rounds the last `solve` took.
    rounds: usize,
    /// Functions on a cycle of the call graph, by component (`scope::recursive_components`).
    recursive: HashMap<Value, u32>,
    /// Parameters their functions only measure (`engine/address_only.rs`).
    address_only: address_only::AddressOnly,
    /// Parameters their functions only access at fixed offsets (`engine/access_window.rs`).
    access_windows: access_window::AccessWindows,
    /// Keys changed in the pointee trees that GEP rules read (`engine/changes.rs`).
    changes: changes::ChangeLog,
    /// Per constant-offset GEP, what its rule read at its last firing (`engine/access.rs`).
    gep_reads: HashMap<Value, access::GepReads>,
    /// Versions of the values' trees, to skip pair rules whose inputs did not change
    /// (`engine/unchanged.rs`).
    unchanged: unchanged::Unchanged,
}

impl Engine {
    pub(super) fn new(m: Module) -> Engine {
        let ptr_size = m.store_size(m.context().ptr());
        Engine {
            m,
            vals: HashMap::default(),
            ptrs: HashMap::default(),
            returns: HashMap::default(),
            periods: Periods::default(),
            ptr_size,
            functions: HashSet::default(),
            deps: HashMap::default(),
            links: Vec::new(),
            schedule: solve::Schedule::default(),
            seeded: HashSet::default(),
            gep_rules: Vec::new(),
            rounds: 0,
            recursive: HashMap::default(),
            address_only: address_only::AddressOnly::default(),
            access_windows: access_window::AccessWindows::default(),
            changes: changes::ChangeLog::default(),
            gep_reads: HashMap::default(),
            unchanged: unchanged::Unchanged::default(),
        }
    }

    // --- the two maps

    /// The learned trees of `v`: value tree (beyond its IR type) and pointee tree.
    pub(super) fn facts(&self, v: Value) -> (Option<&TypeTree>, Option<&Rc<TypeTree>>) {
        (self.vals.get(&v), self.ptrs.get(&v))
    }
    /// All learned trees: `(vals, ptrs)`.
    pub(super) fn into_facts(self) -> (HashMap<Value, TypeTree>, HashMap<Value, Rc<TypeTree>>) {
        (self.vals, self.ptrs)
    }

    fn value_tree(&self, v: Value) -> TypeTree {
        let mut t = type_seed(self.m, v);
        if let Some(s) = self.vals.get(&v) {
            t.merge(s);
        }
        t
    }
    fn pointee(&self, v: Value) -> Rc<TypeTree> {
        self.ptrs.get(&v).cloned().unwrap_or_default()
    }
    /// Joins `t` into the value tree of `v`, unless the IR type already says everything
    /// (floats and pointers are what they are).
    fn learn_val(&mut self, v: Value, t: &TypeTree) {
        if t.is_empty() || !(v.is_instruction() || v.is_argument()) {
            return;
        }
        let ty = v.ty();
        let elem = if ty.kind() == TypeKind::Vector {
            ty.element_type()
        } else {
            ty
        };
        if matches!(
            elem.kind(),
            TypeKind::Half
                | TypeKind::Float
                | TypeKind::Double
                | TypeKind::X86Fp80
                | TypeKind::Pointer
        ) || !layout::is_sized(ty)
        {
            return;
        }
        if self.vals.entry(v).or_default().merge(t) {
            self.touch(v);
        }
    }
    fn learn_val_at(&mut self, v: Value, off: i64, b: BaseType) {
        if b != BaseType::Unknown {
            self.learn_val(v, &TypeTree::single(off, b));
        }
    }
    fn learn_ptr(&mut self, v: Value, t: &TypeTree) {
        if t.is_empty() || !is_trackable(v) {
            return;
        }
        let log = self.changes.log_of(v);
        let changed = match self.ptrs.get_mut(&v) {
            Some(cur) if cur.subsumes(t) => false,
            Some(cur) => merge_logged(Rc::make_mut(cur), t, log),
            None => {
                let mut fresh = TypeTree::new();
                merge_logged(&mut fresh, t, log);
                self.ptrs.insert(v, Rc::new(fresh));
                true
            }
        };
        if changed {
            self.touch(v);
        }
    }
    /// [`Engine::learn_ptr`] of another value's shared tree: adopted when `v` knows
    /// nothing yet, shared again when the merge makes both equal.
    fn learn_ptr_shared(&mut self, v: Value, t: &Rc<TypeTree>) {
        if t.is_empty() || !is_trackable(v) {
            return;
        }
        let log = self.changes.log_of(v);
        let changed = match self.ptrs.get_mut(&v) {
            Some(cur) if Rc::ptr_eq(cur, t) || cur.subsumes(t) => false,
            Some(cur) => {
                let changed = merge_logged(Rc::make_mut(cur), t, log);
                if **cur == **t {
                    *cur = Rc::clone(t);
                }
                changed
            }
            None => {
                if let Some(log) = log {
                    log.extend(t.keys());
                }
                self.ptrs.insert(v, Rc::clone(t));
                true
            }
        };
        if changed {
            self.touch(v);
        }
    }
    fn integer(&mut self, v: Value) {
        let ty = v.ty();
        if let Some(w) = ty.int_width() {
            // Integer arithmetic makes the whole value an integer, all its pieces.
            let mut t = TypeTree::new();
            t.insert_integer(0, (w as i64 + 7) / 8);
            self.learn_val(v, &t);
        } else if ty.kind() == TypeKind::Vector {
            // The same rule lane by lane (the loop vectorizer's `<8 x i64>` induction
            // vectors stored into an index array, `sitofp` of a loaded `<4 x i64>`).
            // Lanes narrower than a byte (`<8 x i1>` masks) have no memory layout here.
            let Some(w) = ty.element_type().int_width().filter(|w| w % 8 == 0) else {
                return;
            };
            let lane = w as i64 / 8;
            let mut t = TypeTree::new();
            for k in 0..ty.vector_len() as i64 {
                t.insert_integer(k * lane, lane);
            }
            self.learn_val(v, &t);
        }
    }

    /// `trunc` read back as a float: the result is the operand's low bytes (x86-64 is
    /// little-endian). InstCombine copies two floats with one `i64` load and store
    /// (`memcpy(y + 8, sa + 1, 2 * sizeof(float))`) and takes the first one back out
    /// with `trunc i64 to i32` + `bitcast i32 to float`; calling that trunc integer
    /// arithmetic would make the loaded pair, and every buffer it is stored into,
    /// integer and float at once (difftest C++ seed 9307, tests/cxx/465).
    fn low_bytes(&mut self, i: Value) {
        let Some(w) = i.ty().int_width() else {
            return;
        };
        let n = (w as i64 + 7) / 8;
        let src = i.operand(0);
        let from_src = self.value_tree(src).bounded(n);
        self.learn_val(i, &from_src);
        let from_result = self.value_tree(i).bounded(n);
        self.learn_val(src, &from_result);
    }

    /// `a` and `b` are the same data (phi, select, casts, call argument and parameter).
    fn link(&mut self, a: Value, b: Value) {
        if !self.unchanged.must_run(a, b, unchanged::PairRule::Link) {
            return;
        }
        let (ta, tb) = (self.value_tree(a), self.value_tree(b));
        self.learn_val(a, &tb);
        self.learn_val(b, &ta);
        let pb = self.pointee(b);
        self.learn_ptr_shared(a, &pb);
        drop(pb);
        let pa = self.pointee(a);
        self.learn_ptr_shared(b, &pa);
    }

    /// `link` across a call edge (argument and parameter, result and returned value),
    /// where the callee declares the pointer `dereferenceable(limit)`: only facts about
    /// those bytes cross ("every offset" facts as facts about each of those bytes:
    /// `std::swap<double>` called on an array's doubles and on a pair's `first` must not
    /// tell the pair that its `int` is a double, `TypeTree::bounded`). A C++ reference or `this` names one
    /// object of that size; beyond it, the caller's pointer may be anywhere inside a
    /// bigger object, and a function called with `&s.f[0]` from one place and `&s.f[1]`
    /// from another would otherwise hand each caller the other's view of `s`, shifted
    /// (context-insensitive facts smeared along the object until everything conflicts;
    /// odeint's `boost::array<double, 1>::operator[]` on the stage arrays of one stepper).
    /// Facts only go missing this way, never wrong: a callee reaching past its reference
    /// (a CRTP base casting `this` to the derived class) keeps its own facts.
    fn link_call_edge(&mut self, a: Value, b: Value, limit: Option<u64>) {
        let Some(n) = limit.filter(|_| a.ty().is_pointer()) else {
            return self.link(a, b);
        };
        if !self.unchanged.must_run(a, b, unchanged::PairRule::CallEdge) {
            return;
        }
        let n = (n as i64).min(super::MAX_OFFSET);
        let (pa, pb) = (self.pointee(a).bounded(n), self.pointee(b).bounded(n));
        self.learn_ptr(a, &pb);
        self.learn_ptr(b, &pa);
    }

    // --- strided pointers

    /// Records how `i` relates pointers by constant offsets (see `types/period.rs`).
    fn relate(&mut self, i: Value) {
        let same = |this: &mut Engine, a: Value, b: Value| {
            let pointerish = |v: Value| v.ty().is_pointer() || v.ty().is_integer();
            if is_trackable(a) && is_trackable(b) && pointerish(a) && pointerish(b) {
                this.periods.relate(a, b, 0);
            }
        };
        let geps = i
            .operands()
            .into_iter()
            .filter(|o| o.const_opcode() == Some(Opcode::LLVMGetElementPtr));
        let geps: Vec<Value> = geps
            .chain(std::iter::once(i).filter(|i| i.opcode() == Some(Opcode::LLVMGetElementPtr)))
            .collect();
        for g in geps {
            if let Some(GepOffset {
                constant,
                stride: None,
                ..
            }) = layout::gep_offset(self.m, g)
            {
                if is_trackable(g.operand(0)) {
                    self.periods.relate(g, g.operand(0), constant);
                }
            }
        }
        use Opcode::*;
        match i.opcode() {
            Some(LLVMPHI) => i.incoming().into_iter().for_each(|(v, _)| same(self, i, v)),
            Some(LLVMSelect) => {
                same(self, i, i.operand(1));
                same(self, i, i.operand(2));
            }
            Some(LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMPtrToInt | LLVMIntToPtr) => {
                same(self, i, i.operand(0))
            }
            Some(LLVMCall | LLVMInvoke) if !i.is_inline_asm_call() => {
                let Some(callee) = i.called_function() else {
                    return;
                };
                if callee.is_declaration()
                    || callee.name().starts_with("__enzyme_")
                    || !self.call_may_walk(i, callee)
                {
                    return;
                }
                for (a, p) in i.call_args().into_iter().zip(callee.params()) {
                    same(self, a, p);
                }
                for r in self.returns.get(&callee).cloned().unwrap_or_default() {
                    same(self, i, r);
                }
            }
            _ => {}
        }
    }

    /// Can a walk through memory pass through call `i` of `callee`, so that its
    /// arguments and parameters (and its result and returned values) must be related as
    /// the same pointers? Only when the call is a step of a recursion (caller and callee
    /// in one cycle of the call graph: a recursive call on `p + 8`), or when it is the
    /// callee's only call (a loop calling a helper that returns `p + 8`). A parameter of a
    /// function called from several places stands for several different pointers: one
    /// class for all of them would make `&s.f[1]` passed at one call and `&s.f[2]` at
    /// another look like `s` walking in steps of 8 (odeint's `boost::array<double, 1>`
    /// members of one stepper object, each handed to the same `operator[]`), and the
    /// whole object would be read as an array of one element type.
    fn call_may_walk(&self, i: Value, callee: Value) -> bool {
        let caller = i.parent_function();
        if let (Some(a), Some(b)) = (self.recursive.get(&caller), self.recursive.get(&callee)) {
            if a == b {
                return true;
            }
        }
        let mut calls = callee.users().into_iter().filter(|u| {
            matches!(u.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
                && u.called_function() == Some(callee)
        });
        calls.next().is_some() && calls.next().is_none()
    }

    /// Linked pointers (parameters of a clone and of its original, pointers passed
    /// through `-O0` stack slots) are the same pointer: a slot holding `p` and `p + 8`
    /// walks memory like a loop phi does.
    fn relate_links(&mut self, links: &[(Value, Value)]) {
        for &(a, b) in links {
            let pointerish = |v: Value| v.ty().is_pointer() || v.ty().is_integer();
            if is_trackable(a) && is_trackable(b) && pointerish(a) && pointerish(b) {
                self.periods.relate(a, b, 0);
            }
        }
    }

    // --- rules

    fn visit(&mut self, i: Value) {
        for op in i.operands() {
            if op.const_opcode() == Some(Opcode::LLVMGetElementPtr) {
                self.gep(op);
            }
        }
        let Some(op) = i.opcode() else { return };
        use Opcode::*;
        match op {
            LLVMAlloca => {
                // A lone integer slot is how C code puns floats (`long t; memcpy(&t, &d, 8)`),
                // so its declared type is no evidence; aggregates' integer fields are,
                // except an unnamed struct of wide integers: clang names the structs it
                // declares (`%struct.*`, `%class.*`, `%union.*`); `{ i64, i64 }` is a
                // union the optimizer retyped (`std::function`'s `_Any_data`, laid out as
                // a member-function pointer: the temporary of `std::reverse`'s swaps of a
                // `std::vector<std::function>` at -O2, whose Integer facts left the
                // captured pointers' shadows behind: exchanged adjoints,
                // tests/errors/func46_std_function_vector_reverse_O2.cpp) or an ABI
                // coercion slot (`{float, int}` passed as an `i64`).
                let at = i.allocated_type();
                let lone_int = matches!(at.int_width(), Some(32) | Some(64))
                    || layout::unnamed_wide_int_struct(at);
                let t = layout::type_tree(self.m, at, !lone_int);
                self.learn_ptr(i, &t);
                self.integer(i.operand(0));
            }
            LLVMLoad => self.access(i, i.operand(0), i),
            LLVMStore => self.access(i, i.operand(1), i.operand(0)),
            LLVMGetElementPtr => self.gep(i),
            LLVMPHI => {
                for (v, _) in i.incoming() {
                    self.link(i, v);
                }
            }
            LLVMSelect => {
                self.link(i, i.operand(1));
                self.link(i, i.operand(2));
            }
            LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze | LLVMPtrToInt | LLVMIntToPtr => {
                self.link(i, i.operand(0));
            }
            LLVMAnd | LLVMOr | LLVMXor => {
                // Bit masks on float bits (fabs, fneg, copysign) keep the data's type.
                self.link(i, i.operand(0));
                self.link(i, i.operand(1));
            }
            LLVMAdd | LLVMSub => self.add_sub(i, op),
            LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem => {
                self.integer(i);
                self.integer(i.operand(0));
                self.integer(i.operand(1));
            }
            LLVMShl | LLVMLShr | LLVMAShr => {
                self.integer(i);
                self.integer(i.operand(1));
                // `(x << c) >> c`: the sign or zero extension of x's low bits (flang's
                // `sext` of an extent read as i64 from a descriptor). A shift alone may
                // move a packed float lane, but a float's bits shifted out and back
                // carry nothing: x is an integer.
                let x = i.operand(0);
                let c = i.operand(1).const_int_value();
                if op != LLVMShl
                    && c.is_some()
                    && x.opcode() == Some(LLVMShl)
                    && x.operand(1).const_int_value() == c
                {
                    self.integer(x.operand(0));
                }
            }
            LLVMICmp => {
                self.integer(i.operand(0));
                self.integer(i.operand(1));
                if i.operand(0).ty().is_pointer() {
                    self.compared_pointers(i.operand(0), i.operand(1));
                }
            }
            LLVMTrunc if read_as_float(i) => self.low_bytes(i),
            LLVMZExt | LLVMSExt | LLVMTrunc => {
                self.integer(i);
                self.integer(i.operand(0));
            }
            LLVMSIToFP | LLVMUIToFP => self.integer(i.operand(0)),
            LLVMFPToSI | LLVMFPToUI => self.integer(i),
            LLVMSwitch => self.integer(i.operand(0)),
            LLVMExtractValue => self.extract_value(i),
            LLVMInsertValue => self.insert_value(i),
            LLVMExtractElement => self.extract_element(i),
            LLVMInsertElement => self.insert_element(i),
            LLVMAtomicRMW => {
                let v = self.value_tree(i.operand(1));
                self.access_value(i.operand(0), i.operand(1), &v, Hints::default());
                self.link(i, i.operand(1));
            }
            LLVMAtomicCmpXchg => {
                let v = self.value_tree(i.operand(2));
                self.access_value(i.operand(0), i.operand(2), &v, Hints::default());
                self.link(i.operand(1), i.operand(2));
            }
            LLVMCall | LLVMInvoke => self.call(i),
            _ => {}
        }
    }
}

/// Is scalar `trunc` `i` bitcast to a floating-point type by some user (the low float
/// of an integer-typed pair, [`Engine::low_bytes`])?
fn read_as_float(i: Value) -> bool {
    i.ty().int_width().is_some()
        && i.users()
            .into_iter()
            .any(|u| u.opcode() == Some(Opcode::LLVMBitCast) && u.ty().is_fp_scalar())
}
