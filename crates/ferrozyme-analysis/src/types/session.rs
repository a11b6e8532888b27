//! Type analysis shared by all the clones made while differentiating one module.
//!
//! The transform differentiates a *clone* of each function, and type analysis of a clone
//! needs the clone's whole call-graph component: facts flow in from callers (what a
//! buffer argument holds) and from callees (what they store through a pointer). Doing
//! that once per clone is quadratic on call chains and trees — a chain of n functions
//! makes n clones, each analysed with all n functions.
//!
//! A session keeps one engine per component instead. The first clone of a component
//! registers the component's functions and solves once; each further clone is
//! *registered into the same engine* (its parameters linked to its original's), and the
//! worklist revisits only the rules that read trees the clone makes grow. The facts of a
//! clone are then those of the fixed point over the component plus every clone made so
//! far: the per-clone analysis's facts (same rules, same scope, same links), plus what
//! earlier clones taught — which describe the same computations as their originals, so
//! they add precision rather than conflicts. Each function's facts are computed once per
//! session and reused: the summary of a function is its registered rules' fixed point.
//!
//! The caller's duties (the invariants the engine relies on):
//! * every clone passed in stays alive (not deleted) as long as the session: the engine
//!   holds its values, and a deleted value's address can be reused by a new one;
//! * the module's other functions do not change during the session, apart from the
//!   functions `skip` names (the ones being generated), which are never analysed.
//!
//! Components are found with the same call-graph walk as a single analysis; when a
//! clone's callees reach a second component (it calls something its original did not),
//! the smaller component's code is registered into the larger one's engine.

use crate::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Value};

use super::engine::scope::scope_from;
use super::engine::Engine;
use super::TypeAnalysis;

/// Depth to which constant-expression operands are followed when taking a clone's facts.
const CONST_DEPTH: u32 = 8;

/// One call-graph component's engine and the code registered with it.
struct Component {
    engine: Engine,
    /// Registered functions (clones included).
    functions: Vec<Value>,
    /// `(clone, original)` pairs whose parameters are linked.
    clones: Vec<(Value, Value)>,
}

/// Type analyses for the clones of one pass over a module (see the module docs).
pub struct TypeSession {
    module: Module,
    components: Vec<Option<Component>>,
    /// Function (user function or registered clone) → its component.
    owner: HashMap<Value, usize>,
}

impl TypeSession {
    pub fn new(module: Module) -> TypeSession {
        TypeSession {
            module,
            components: Vec::new(),
            owner: HashMap::default(),
        }
    }

    /// Type analysis of `clone`, a copy of `original` made for differentiation (see
    /// [`TypeAnalysis::run_for_clone`]; same facts for the clone, computed incrementally).
    /// Functions `skip` names (those being generated) are left out of every component.
    /// The result answers for the clone's arguments, instructions and the globals and
    /// constant expressions they use.
    pub fn analyse_clone(
        &mut self,
        clone: Value,
        original: Value,
        skip: &dyn Fn(Value) -> bool,
    ) -> TypeAnalysis {
        // The clone's own walk first, then the original's: the scope order of
        // `TypeAnalysis::run_for_clone`, so the first clone of a component gets exactly
        // its facts.
        let c = self.component_for(&[clone, original], skip);
        let module = self.module;
        let comp = self.live(c);
        let links: Vec<(Value, Value)> =
            clone.params().into_iter().zip(original.params()).collect();
        comp.engine.add_links(&links);
        comp.clones.push((clone, original));
        comp.engine.solve();
        facts_of(module, &comp.engine, clone)
    }

    /// Type analysis of `f` itself, sharing the work with the clones of its component.
    pub fn analyse_function(&mut self, f: Value, skip: &dyn Fn(Value) -> bool) -> TypeAnalysis {
        let c = self.component_for(&[f], skip);
        let module = self.module;
        let comp = self.live(c);
        comp.engine.solve();
        facts_of(module, &comp.engine, f)
    }

    fn live(&mut self, c: usize) -> &mut Component {
        self.components[c]
            .as_mut()
            .expect("owners only name live components")
    }

    /// The component holding `starts` and everything connected to them, created,
    /// extended or merged as needed; the functions not registered before are registered,
    /// in the order of a walk from each start in turn.
    fn component_for(&mut self, starts: &[Value], skip: &dyn Fn(Value) -> bool) -> usize {
        let mut reached: HashSet<usize> = HashSet::default();
        let mut fresh: Vec<Value> = Vec::new();
        let mut in_fresh: HashSet<Value> = HashSet::default();
        for &start in starts {
            let owner = &self.owner;
            let walk = scope_from(&[start], &mut |g| {
                if let Some(&c) = owner.get(&g) {
                    reached.insert(c);
                    return true;
                }
                skip(g)
            });
            fresh.extend(walk.into_iter().filter(|g| in_fresh.insert(*g)));
        }
        let mut reached: Vec<usize> = reached.into_iter().collect();
        // The largest component absorbs the others (rare: a clone calling into code its
        // original never reached).
        reached.sort_by_key(|&c| {
            std::cmp::Reverse(self.components[c].as_ref().map_or(0, |k| k.functions.len()))
        });
        let target = match reached.first() {
            Some(&c) => c,
            None => {
                self.components.push(Some(Component {
                    engine: Engine::new(self.module),
                    functions: Vec::new(),
                    clones: Vec::new(),
                }));
                self.components.len() - 1
            }
        };
        for &other in reached.iter().skip(1) {
            let Some(old) = self.components[other].take() else {
                continue;
            };
            let comp = self.live(target);
            comp.engine.add_functions(&old.functions);
            comp.functions.extend(&old.functions);
            for &(clone, original) in &old.clones {
                let links: Vec<(Value, Value)> =
                    clone.params().into_iter().zip(original.params()).collect();
                comp.engine.add_links(&links);
            }
            comp.clones.extend(old.clones);
            for &f in &old.functions {
                self.owner.insert(f, target);
            }
        }
        let comp = self.live(target);
        comp.engine.add_functions(&fresh);
        comp.functions.extend(&fresh);
        for f in fresh {
            self.owner.insert(f, target);
        }
        target
    }
}

/// The facts of `f`'s arguments and instructions, and of the globals and constant
/// expressions its instructions use.
fn facts_of(module: Module, eng: &Engine, f: Value) -> TypeAnalysis {
    let mut vals = HashMap::default();
    let mut ptrs = HashMap::default();
    let mut take = |v: Value| {
        let (val, ptr) = eng.facts(v);
        if let Some(t) = val {
            vals.insert(v, t.clone());
        }
        if let Some(t) = ptr {
            ptrs.insert(v, t.clone());
        }
    };
    for p in f.params() {
        take(p);
    }
    let mut seen: HashSet<Value> = HashSet::default();
    let mut consts: Vec<(Value, u32)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            take(i);
            for op in i.operands() {
                if (op.is_global_variable() || op.is_constant_expr()) && seen.insert(op) {
                    consts.push((op, CONST_DEPTH));
                }
            }
        }
    }
    while let Some((c, depth)) = consts.pop() {
        take(c);
        if c.is_constant_expr() && depth > 0 {
            for op in c.operands() {
                if (op.is_global_variable() || op.is_constant_expr()) && seen.insert(op) {
                    consts.push((op, depth - 1));
                }
            }
        }
    }
    TypeAnalysis::from_facts(module, vals, ptrs, eng.rounds())
}
