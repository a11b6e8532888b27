//! Strongly connected components of a directed graph given as successor lists: which
//! nodes lie on a cycle, and which cycle.
//!
//! One implementation serves every graph the pass needs cycles of: the CFG of a function
//! (`cfg.rs`: blocks that can run more than once), the call graph of a type-analysis
//! scope (`types`: recursive functions solved together) and the call graph of a module
//! (`CallCycles`: a callee whose tape may be nested in its caller's, `reverse/tape_nest.rs`
//! in the transform).
//!
//! Tarjan's algorithm, written with an explicit stack of `(node, next successor)` frames
//! instead of recursion: a call chain of 100,000 functions, or a function of as many
//! blocks, must not overflow the thread's stack.

use crate::hash::HashMap;

use ferrozyme_llvm::{Module, Value};

/// For every node, the index of its cycle (a component of several nodes, or one node with
/// an edge to itself), `None` for nodes on no cycle and nodes `include` leaves out (they
/// are neither visited nor entered). Component indices are dense, in completion order.
pub fn cyclic_components(
    succs: &[Vec<usize>],
    include: impl Fn(usize) -> bool,
) -> Vec<Option<u32>> {
    let n = succs.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![None; n];
    let (mut next, mut comps) = (0usize, 0u32);
    for root in 0..n {
        if index[root] != usize::MAX || !include(root) {
            continue;
        }
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = frames.last_mut() {
            if *k < succs[v].len() {
                let w = succs[v][*k];
                *k += 1;
                if !include(w) {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(u, _)) = frames.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] != index[v] {
                continue;
            }
            let mut comp = Vec::new();
            loop {
                let w = stack
                    .pop()
                    .expect("invariant: Tarjan's stack holds the component");
                on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 || succs[v].contains(&v) {
                for w in comp {
                    out[w] = Some(comps);
                }
                comps += 1;
            }
        }
    }
    out
}

/// The cycles of the direct-call graph among `funcs`: each function on a cycle (mutual
/// recursion, or a function calling itself) mapped to its component; functions on no
/// cycle are absent. A function passed as an argument of a call counts as called there
/// (a callback: recursion through OpenMP tasks is recursion).
pub fn call_components(funcs: &[Value]) -> HashMap<Value, u32> {
    let ix: HashMap<Value, usize> = funcs.iter().enumerate().map(|(k, &f)| (f, k)).collect();
    let succs: Vec<Vec<usize>> = funcs
        .iter()
        .map(|f| {
            let mut s: Vec<usize> = f
                .calls_and_invokes()
                .flat_map(|i| {
                    // A function handed to a call may be called back (an OpenMP task
                    // entry, which the derivative calls directly: `parallel/tasks.rs`).
                    let passed = i.call_args().into_iter().filter(|a| a.is_function());
                    i.called_function().into_iter().chain(passed)
                })
                .filter_map(|c| ix.get(&c).copied())
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect();
    cyclic_components(&succs, |_| true)
        .into_iter()
        .enumerate()
        .filter_map(|(k, c)| c.map(|c| (funcs[k], c)))
        .collect()
}

/// The recursive cycles of a module's direct-call graph, computed once per module state.
/// Calls through pointers are not edges: a caller that could reach itself only through
/// one must not rely on this (the transform never nests the tapes of indirect calls).
pub struct CallCycles {
    /// Every function that had a body: its cycle, if it is on one.
    comp: HashMap<Value, Option<u32>>,
}

impl CallCycles {
    pub fn new(module: Module) -> CallCycles {
        let funcs: Vec<Value> = module.definitions().collect();
        let cyc = call_components(&funcs);
        CallCycles {
            comp: funcs.iter().map(|f| (*f, cyc.get(f).copied())).collect(),
        }
    }

    /// Do `a` and `b` lie on one cycle of direct calls (`a == b` calling itself
    /// included)? A function is known only if it had a body when the cycles were
    /// computed; an unknown one is answered conservatively: on a cycle with anything.
    pub fn same_cycle(&self, a: Value, b: Value) -> bool {
        match (self.comp.get(&a), self.comp.get(&b)) {
            (Some(None), Some(_)) | (Some(_), Some(None)) => false,
            (Some(Some(x)), Some(Some(y))) => x == y,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cyclic_components;

    #[test]
    fn deep_chain_has_no_cycle_and_does_not_overflow() {
        let n = 100_000;
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|k| if k + 1 < n { vec![k + 1] } else { vec![] })
            .collect();
        let c = cyclic_components(&succs, |_| true);
        assert!(c.iter().all(|x| x.is_none()));
    }

    #[test]
    fn deep_ring_is_one_component() {
        let n = 100_000;
        let succs: Vec<Vec<usize>> = (0..n).map(|k| vec![(k + 1) % n]).collect();
        let c = cyclic_components(&succs, |_| true);
        assert!(c.iter().all(|x| *x == Some(0)));
    }

    #[test]
    fn self_loop_two_cycles_and_a_bridge() {
        // 0 -> 1 -> 2 -> 1 (cycle {1,2}); 2 -> 3; 3 -> 3 (self loop); 3 -> 4; 4 -> 5 -> 4.
        let succs = vec![vec![1], vec![2], vec![1, 3], vec![3, 4], vec![5], vec![4]];
        let c = cyclic_components(&succs, |_| true);
        assert_eq!(c[0], None);
        assert!(c[1].is_some() && c[1] == c[2]);
        assert!(c[3].is_some() && c[3] != c[1]);
        assert!(c[4].is_some() && c[4] == c[5] && c[4] != c[3] && c[4] != c[1]);
    }

    #[test]
    fn excluded_nodes_break_cycles() {
        // 0 -> 1 -> 2 -> 0, with 2 left out: no cycle.
        let succs = vec![vec![1], vec![2], vec![0]];
        let c = cyclic_components(&succs, |k| k != 2);
        assert!(c.iter().all(|x| x.is_none()));
    }
}
