//! Registration of code with the engine, and the schedule that runs due rules.
//!
//! Registering an instruction records which values its rule reads — its operands (and
//! the base of a constant-expression GEP operand, which the GEP rule reads too), the
//! instruction itself, and for a call of a defined function that function's parameters
//! and returned values — so that when one of those trees grows, exactly the rules that
//! read it become due. The cost of reaching the fixed point is then proportional to the
//! number of (rule, tree growth) pairs, not to sweeps over everything registered: code
//! added later (a clone) revisits the rest of its component only where it teaches
//! something new.
//!
//! The [`Schedule`] runs due rules in the order whole-scope sweeps would: functions in
//! registration order, each swept (due rules by position, links first) until it has
//! nothing due, rounds until no function has. A sweep visits every rule, but one whose
//! inputs did not change since its last visit joins nothing, so skipping it changes no
//! fact: the facts are those of the sweeps, at a cost that follows the changes.
//!
//! Strided-pointer classes (`types/period.rs`) are built from the relations of all
//! registered code. Code registered after solving can join or refine a class; the GEPs
//! of every class whose period changes are queued again, so they are re-read as array
//! indexing from then on (facts learned earlier remain: they were true shifts).
//!
//! Invariant: every rule reads only trees of values it registered a dependency on; a
//! rule that reads more would miss updates and stop short of the fixed point.

use crate::hash::{HashMap, HashSet};
use std::collections::BTreeSet;

use ferrozyme_llvm::{Opcode, Value};

use super::super::layout;
use super::super::{BaseType, TypeTree};
use super::scope::{self, stack_slot_links};
use super::{is_trackable, Engine, Item};

/// Rounds over the scope (interprocedural iterations) in one `solve`.
pub(in crate::types) const MAX_ROUNDS: usize = 20;
/// Sweeps of one function per round.
const MAX_LOCAL_SWEEPS: usize = 64;

/// Due rules, in sweep order.
#[derive(Default)]
pub(in crate::types) struct Schedule {
    /// Instruction → (function index, position in the function).
    pos: HashMap<Value, (u32, u32)>,
    /// Registered instructions, by function index and position.
    bodies: Vec<Vec<Value>>,
    /// Due positions, by function index.
    due: Vec<BTreeSet<u32>>,
    /// Functions with due rules.
    dirty: BTreeSet<u32>,
    due_links: BTreeSet<u32>,
}

impl Schedule {
    /// Registers a function body; returns its index.
    fn add_body(&mut self, body: Vec<Value>) -> u32 {
        let f = self.bodies.len() as u32;
        for (k, &i) in body.iter().enumerate() {
            self.pos.insert(i, (f, k as u32));
        }
        self.bodies.push(body);
        self.due.push(BTreeSet::new());
        f
    }

    fn make_due(&mut self, item: Item) {
        match item {
            Item::Inst(i) => {
                if let Some(&(f, k)) = self.pos.get(&i) {
                    self.due[f as usize].insert(k);
                    self.dirty.insert(f);
                }
            }
            Item::Link(k) => {
                self.due_links.insert(k);
            }
        }
    }

    fn clear(&mut self) {
        for f in std::mem::take(&mut self.dirty) {
            self.due[f as usize].clear();
        }
        self.due_links.clear();
    }
}

/// Depth to which constant expressions are searched for global variables to seed.
const CONST_DEPTH: u32 = 8;

impl Engine {
    /// Registers the bodies of `funcs` (not yet registered) and makes their rules due.
    pub(in crate::types) fn add_functions(&mut self, funcs: &[Value]) {
        let funcs: Vec<Value> = funcs
            .iter()
            .copied()
            .filter(|f| !f.is_declaration() && !self.functions.contains(f))
            .collect();
        // Returns first: a call's registration reads its callee's returned values.
        for &f in &funcs {
            self.functions.insert(f);
            self.returns.insert(f, crate::activity::returned_values(f));
        }
        let bodies: Vec<Vec<Value>> = funcs.iter().map(|f| f.instructions().collect()).collect();
        // Recursion among the new functions (clones added later call their originals'
        // callees but are called by nobody, so they join no cycle).
        let base = self.recursive.values().max().map_or(0, |m| m + 1);
        for (f, c) in scope::recursive_components(&funcs) {
            self.recursive.insert(f, base + c);
        }
        self.periods.begin_batch();
        for body in &bodies {
            for &i in body {
                self.relate(i);
            }
        }
        for body in &bodies {
            self.schedule.add_body(body.clone());
            for &i in body {
                self.register(i);
            }
        }
        self.add_links(&stack_slot_links(&bodies));
        for &f in &funcs {
            self.seed_signature(f);
        }
        self.requeue_if_periods_changed();
    }

    /// C++ functions: a parameter declared as a pointer or reference to `double`, `float`
    /// or `long double` (read from the mangled name) points to that type at offset 0, by
    /// the language's aliasing rules. This types unoptimized template code whose IR alone
    /// says nothing (`std::__copy_move_b<double>` of `std::sort` at `-O0` only `memmove`s
    /// its bytes). The demangled parameters are aligned with the IR's from the end (a
    /// hidden `this` or result slot comes first) and only when every parameter's kind
    /// fits; anything else (classes by value, variadic functions) seeds nothing.
    fn seed_signature(&mut self, f: Value) {
        use crate::library_types::{declared_params, fp_pointee};
        let Some(params) = declared_params(&f.name(), f) else {
            return;
        };
        for (t, p) in params {
            let b = match fp_pointee(&t) {
                Some("double") => BaseType::Double,
                Some("float") => BaseType::Float,
                Some("long double") => BaseType::LongDouble,
                _ => continue,
            };
            self.learn_ptr(p, &TypeTree::single(0, b));
        }
    }

    /// Links pairs of values as the same data (clone and original parameters).
    pub(in crate::types) fn add_links(&mut self, links: &[(Value, Value)]) {
        self.periods.begin_batch();
        self.relate_links(links);
        self.requeue_if_periods_changed();
        for &(a, b) in links {
            let item = Item::Link(self.links.len() as u32);
            self.links.push((a, b));
            self.depend(a, item);
            self.depend(b, item);
            self.schedule.make_due(item);
        }
    }

    /// Runs due rules in sweep order until none is due (the fixed point) or the round
    /// bound is reached.
    pub(in crate::types) fn solve(&mut self) {
        let mut rounds = 0;
        while !self.schedule.dirty.is_empty() || !self.schedule.due_links.is_empty() {
            if rounds == MAX_ROUNDS {
                self.schedule.clear();
                break;
            }
            rounds += 1;
            if self.schedule.dirty.is_empty() {
                self.run_links();
            }
            let mut next = 0u32;
            while let Some(&f) = self.schedule.dirty.range(next..).next() {
                for _ in 0..MAX_LOCAL_SWEEPS {
                    self.run_links();
                    self.sweep(f);
                    if self.schedule.due[f as usize].is_empty()
                        && self.schedule.due_links.is_empty()
                    {
                        break;
                    }
                }
                if self.schedule.due[f as usize].is_empty() {
                    self.schedule.dirty.remove(&f);
                }
                next = f + 1;
            }
        }
        self.rounds = rounds;
    }

    /// One sweep over function `f`: its due rules by position, including those that
    /// become due further on during the sweep.
    fn sweep(&mut self, f: u32) {
        let mut at = 0u32;
        while let Some(&k) = self.schedule.due[f as usize].range(at..).next() {
            self.schedule.due[f as usize].remove(&k);
            let i = self.schedule.bodies[f as usize][k as usize];
            self.visit(i);
            at = k + 1;
        }
    }

    fn run_links(&mut self) {
        while let Some(k) = self.schedule.due_links.pop_first() {
            let (a, b) = self.links[k as usize];
            self.link(a, b);
        }
    }

    /// Rounds the last `solve` took.
    pub(in crate::types) fn rounds(&self) -> usize {
        self.rounds
    }

    /// Makes every rule that reads `v` due (its trees just grew).
    pub(super) fn touch(&mut self, v: Value) {
        self.unchanged.bump(v);
        let Some(items) = self.deps.get(&v) else {
            return;
        };
        for &item in items {
            self.schedule.make_due(item);
        }
    }

    fn depend(&mut self, v: Value, item: Item) {
        if is_trackable(v) {
            self.deps.entry(v).or_default().push(item);
        }
    }

    /// Records what the rule of `i` reads, seeds the globals it references, makes it due.
    fn register(&mut self, i: Value) {
        let item = Item::Inst(i);
        self.depend(i, item);
        // GEPs, and comparisons of pointers (`engine/compared.rs` reads the walk's period).
        let mut reads_periods = i.opcode() == Some(Opcode::LLVMGetElementPtr)
            || (i.opcode() == Some(Opcode::LLVMICmp) && i.operand(0).ty().is_pointer());
        let mut seen = HashSet::default();
        for op in i.operands() {
            if !seen.insert(op) {
                continue;
            }
            self.depend(op, item);
            if op.const_opcode() == Some(Opcode::LLVMGetElementPtr) {
                self.depend(op.operand(0), item);
                reads_periods = true;
            }
            self.seed_globals(op, CONST_DEPTH);
        }
        if reads_periods {
            self.gep_rules.push(item);
        }
        if matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke))
            && !i.is_inline_asm_call()
        {
            if let Some(callee) = i.called_function().filter(|c| !c.is_declaration()) {
                for p in callee.params() {
                    self.depend(p, item);
                }
                let rets = self.returns.get(&callee).cloned().unwrap_or_default();
                for r in rets {
                    self.depend(r, item);
                }
            }
        }
        self.schedule.make_due(item);
    }

    /// Global variables (also inside constant expressions) get the layout of their value
    /// type, once.
    fn seed_globals(&mut self, v: Value, depth: u32) {
        if v.is_global_variable() {
            if self.seeded.insert(v) {
                let t = layout::type_tree(self.m, v.global_value_type(), true);
                self.learn_ptr(v, &t);
            }
        } else if v.is_constant_expr() && depth > 0 {
            for op in v.operands() {
                self.seed_globals(op, depth - 1);
            }
        }
    }

    /// Code registered later changed the period of a class that earlier code belongs
    /// to (rare): every rule reading periods runs again.
    fn requeue_if_periods_changed(&mut self) {
        if self.periods.take_old_changes() {
            for item in self.gep_rules.clone() {
                self.schedule.make_due(item);
            }
        }
    }
}
