//! Which part of a split module defines each global (the analysis half of
//! `split_codegen`; nothing here changes the module but unnamed globals, which get names).
//!
//! Phases:
//! 1. The definitions code generation emits (functions, global variables; `llvm.*`
//!    arrays aside) are the nodes, weighed by instruction count (a variable weighs 1).
//! 2. Nodes that must share a part are joined: members of one comdat (the linker keeps
//!    or drops them together). Nodes that had better share one are joined too: a local
//!    symbol used from a few other nodes (a derivative's private helper, a constant one
//!    function reads, the tape runtime's state and its helpers) with those nodes, as
//!    long as the joined group stays under half a part's share (a chain of `static`
//!    functions each called by the next would otherwise be one group). A global read
//!    from another part is a declaration there, which LLVM does not take as
//!    dereferenceable: code generation may then not hoist or fold its loads.
//! 3. Groups go, heaviest first (ties in module order), to the least loaded part: the
//!    same module always gives the same parts.
//! 4. A local symbol used from a part other than its own is listed for promotion
//!    (hidden, external; `part.rs`) and, after the objects are linked, made local again.
//!    `llvm.global_ctors`-like arrays count as uses from part 0, which keeps them;
//!    `llvm.used` lists are cut per part and count as no use.

use std::collections::HashMap;

use ferrozyme_llvm::{AppendingArray, Module, Value};

/// Where each definition goes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The number of parts (at least 2).
    pub parts: usize,
    /// The part defining each named global.
    pub part_of: HashMap<String, usize>,
    /// Local symbols another part refers to, in module order.
    pub promoted: Vec<String>,
}

/// What a function costs code generation besides its instructions, in instructions
/// (its own passes, frame and section; measured: `chain` n = 640's 640 small primal
/// functions took as long as the other part's 50 large derivatives of the same
/// instruction count).
const FUNCTION_WEIGHT: usize = 80;

/// A local symbol with at most this many users joins them (the tape runtime's state and
/// the helpers that read it; a constant the functions of one derivative share).
const FEW_USERS: usize = 16;

/// Who uses a global: a node, part 0's ordered arrays, or nothing that counts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    Node(usize),
    PartZero,
}

/// Why a module is generated whole although a split was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Whole {
    /// Fewer than two parts were asked for.
    OnePart,
    /// Aliases or ifuncs, which the parts cannot drop.
    AliasesOrIfuncs,
    /// One group of definitions that must or should share a part holds everything.
    OneGroup,
}

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whole::OnePart => write!(f, "one part asked for"),
            Whole::AliasesOrIfuncs => write!(f, "the module has aliases or ifuncs"),
            Whole::OneGroup => write!(f, "one group of definitions holds nearly everything"),
        }
    }
}

/// The plan for `parts` parts, or why the module does not split usefully.
pub fn plan(m: Module, parts: usize) -> Result<Plan, Whole> {
    if parts < 2 {
        return Err(Whole::OnePart);
    }
    if m.has_aliases_or_ifuncs() {
        return Err(Whole::AliasesOrIfuncs);
    }
    let nodes: Vec<Value> = m
        .definitions()
        .chain(
            m.globals()
                .into_iter()
                .filter(|g| !g.is_declaration() && g.appending_array().is_none()),
        )
        .collect();
    // Parts find their globals by name.
    for (i, v) in nodes.iter().enumerate() {
        if v.name().is_empty() {
            v.set_name(&format!("__fz_part_unnamed.{i}"));
        }
    }
    let index: HashMap<Value, usize> = nodes.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let weight: Vec<usize> = nodes
        .iter()
        .map(|v| {
            if v.is_function() {
                v.instruction_count() + FUNCTION_WEIGHT
            } else {
                1
            }
        })
        .collect();
    let total: usize = weight.iter().sum();
    let holders: Vec<Vec<Holder>> = nodes.iter().map(|v| holders_of(*v, &index)).collect();

    // Phase 2: groups.
    let mut uf = UnionFind::new(&weight);
    let mut comdats: HashMap<usize, usize> = HashMap::new();
    for (i, v) in nodes.iter().enumerate() {
        if let Some(c) = v.comdat_key() {
            let first = *comdats.entry(c).or_insert(i);
            uf.union(first, i);
        }
    }
    let cap = total / (2 * parts);
    for (i, v) in nodes.iter().enumerate() {
        if !v.is_local_linkage() {
            continue;
        }
        let users: Vec<usize> = holders[i]
            .iter()
            .filter_map(|h| match h {
                Holder::Node(j) => Some(*j),
                Holder::PartZero => None,
            })
            .collect();
        if users.is_empty() || users.len() < holders[i].len() || users.len() > FEW_USERS {
            continue;
        }
        let mut roots: Vec<usize> = users.iter().map(|&j| uf.find(j)).collect();
        roots.push(uf.find(i));
        roots.sort_unstable();
        roots.dedup();
        let joined: usize = roots.iter().map(|&r| uf.weight_of(r)).sum();
        if joined <= cap || roots.len() == 1 {
            for &j in &users {
                uf.union(i, j);
            }
        }
    }

    // Phase 3: balance.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for i in 0..nodes.len() {
        if uf.find(i) == i {
            groups.push((uf.weight_of(i), i));
        }
    }
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut loads = vec![0usize; parts];
    let mut part_of_group: HashMap<usize, usize> = HashMap::new();
    for (w, leader) in groups {
        let p = (0..parts).min_by_key(|&p| (loads[p], p)).unwrap_or(0);
        loads[p] += w;
        part_of_group.insert(leader, p);
    }
    if loads.iter().filter(|&&l| l > 0).count() < 2 {
        return Err(Whole::OneGroup);
    }
    let part: Vec<usize> = (0..nodes.len())
        .map(|i| part_of_group[&uf.find(i)])
        .collect();

    // Phase 4: promotions.
    let mut promoted = Vec::new();
    for (i, v) in nodes.iter().enumerate() {
        let crosses = holders[i].iter().any(|h| match h {
            Holder::Node(j) => part[*j] != part[i],
            Holder::PartZero => part[i] != 0,
        });
        if crosses && v.is_local_linkage() {
            promoted.push(v.name());
        }
    }
    let part_of = nodes
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name(), part[i]))
        .collect();
    Ok(Plan {
        parts,
        part_of,
        promoted,
    })
}

/// The nodes (and part 0's arrays) that use `v`, through constants; each once.
fn holders_of(v: Value, index: &HashMap<Value, usize>) -> Vec<Holder> {
    let mut out = Vec::new();
    let mut stack = v.users();
    let mut seen = std::collections::HashSet::new();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        let h = if u.is_instruction() {
            index.get(&u.parent_function()).map(|&i| Holder::Node(i))
        } else if u.is_global_variable() {
            match u.appending_array() {
                Some(AppendingArray::Used) => None,
                Some(AppendingArray::Ordered) => Some(Holder::PartZero),
                None => index.get(&u).map(|&i| Holder::Node(i)),
            }
        } else if u.is_constant() {
            stack.extend(u.users());
            None
        } else {
            None
        };
        if let Some(h) = h {
            if !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

/// Union-find over node indices that keeps each group's weight at its root.
struct UnionFind {
    parent: Vec<usize>,
    weight: Vec<usize>,
}

impl UnionFind {
    fn new(weight: &[usize]) -> Self {
        UnionFind {
            parent: (0..weight.len()).collect(),
            weight: weight.to_vec(),
        }
    }
    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }
    fn weight_of(&mut self, i: usize) -> usize {
        let r = self.find(i);
        self.weight[r]
    }
    /// Joins two groups; the root is the smaller index (so groups are named by their
    /// first member in module order).
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let (root, child) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[child] = root;
        self.weight[root] += self.weight[child];
    }
}
