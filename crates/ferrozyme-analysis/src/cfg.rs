//! Control-flow facts the reverse sweep needs: predecessors, which blocks can run more
//! than once, and dominance.
//!
//! The reverse pass replays the forward trace backwards. Two facts decide how it stores
//! what it needs:
//!
//! * a block that lies on a cycle of the CFG (a non-trivial strongly connected component,
//!   found with Tarjan's algorithm — this covers natural and irreducible loops alike) can
//!   run many times per call, so values defined there go on a stack; other blocks run at
//!   most once, so one slot suffices (or nothing, when the value dominates the exits);
//! * a block with several distinct predecessors needs the predecessor it was entered from
//!   recorded, so the reverse sweep knows where to go next.
//!
//! Dominators use the Cooper–Harvey–Kennedy iterative algorithm over reverse postorder.
//! Unreachable blocks have no dominator and are never "on a cycle".

use crate::hash::HashMap;

use ferrozyme_llvm::{Block, Value};

/// CFG facts of one function, computed once.
pub struct Cfg {
    /// Blocks in function order.
    pub blocks: Vec<Block>,
    index: HashMap<Block, usize>,
    /// Distinct predecessors of each block, in first-seen order.
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
    cyclic: Vec<bool>,
    reachable: Vec<bool>,
    /// Immediate dominator (index), `None` for the entry and unreachable blocks.
    idom: Vec<Option<usize>>,
    rpo_number: Vec<usize>,
}

impl Cfg {
    pub fn new(f: Value) -> Cfg {
        let blocks = f.blocks();
        let index: HashMap<Block, usize> =
            blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let n = blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for (i, b) in blocks.iter().enumerate() {
            for s in b.successors() {
                if let Some(&j) = index.get(&s) {
                    if !succs[i].contains(&j) {
                        succs[i].push(j);
                    }
                    if !preds[j].contains(&i) {
                        preds[j].push(i);
                    }
                }
            }
        }
        let mut cfg = Cfg {
            blocks,
            index,
            preds,
            succs,
            cyclic: vec![false; n],
            reachable: vec![false; n],
            idom: vec![None; n],
            rpo_number: vec![usize::MAX; n],
        };
        if n > 0 {
            cfg.compute_cycles();
            cfg.compute_dominators();
        }
        cfg
    }

    pub fn index_of(&self, b: Block) -> Option<usize> {
        self.index.get(&b).copied()
    }
    /// Distinct predecessors of `b`.
    pub fn preds(&self, b: Block) -> Vec<Block> {
        self.index_of(b)
            .map(|i| self.preds[i].iter().map(|&p| self.blocks[p]).collect())
            .unwrap_or_default()
    }
    pub fn succs(&self, b: Block) -> Vec<Block> {
        self.index_of(b)
            .map(|i| self.succs[i].iter().map(|&p| self.blocks[p]).collect())
            .unwrap_or_default()
    }
    /// Can `b` execute more than once per call?
    pub fn is_cyclic(&self, b: Block) -> bool {
        self.index_of(b).is_some_and(|i| self.cyclic[i])
    }
    pub fn is_reachable(&self, b: Block) -> bool {
        self.index_of(b).is_some_and(|i| self.reachable[i])
    }
    /// The blocks the entry reaches, in layout order.
    pub fn reachable_blocks(&self) -> Vec<Block> {
        self.blocks
            .iter()
            .zip(&self.reachable)
            .filter(|(_, r)| **r)
            .map(|(b, _)| *b)
            .collect()
    }
    /// The immediate dominator of `b` (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: Block) -> Option<Block> {
        let i = self.index_of(b)?;
        self.idom[i].map(|d| self.blocks[d])
    }
    /// Does `a` dominate `b` (reflexive)?
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (Some(a), Some(mut b)) = (self.index_of(a), self.index_of(b)) else {
            return false;
        };
        if !self.reachable[a] || !self.reachable[b] {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            match self.idom[b] {
                Some(d) => b = d,
                None => return false,
            }
        }
    }
    /// Reachable blocks in reverse postorder (every block after its dominators).
    pub fn rpo(&self) -> Vec<Block> {
        let mut v: Vec<usize> = (0..self.blocks.len())
            .filter(|&i| self.reachable[i])
            .collect();
        v.sort_by_key(|&i| self.rpo_number[i]);
        v.into_iter().map(|i| self.blocks[i]).collect()
    }
    /// Blocks ending in `ret`.
    pub fn return_blocks(&self) -> Vec<Block> {
        self.blocks
            .iter()
            .copied()
            .filter(|b| {
                b.terminator().and_then(|t| t.opcode()) == Some(ferrozyme_llvm::Opcode::LLVMRet)
            })
            .collect()
    }

    fn compute_cycles(&mut self) {
        // Tarjan's SCC (`crate::scc`, iterative to survive huge functions), over the
        // blocks reachable from the entry.
        // Reachability from the entry first; SCCs only over reachable blocks.
        let mut work = vec![0usize];
        self.reachable[0] = true;
        while let Some(b) = work.pop() {
            for &s in &self.succs[b] {
                if !self.reachable[s] {
                    self.reachable[s] = true;
                    work.push(s);
                }
            }
        }
        let reachable = &self.reachable;
        let comps = crate::scc::cyclic_components(&self.succs, |b| reachable[b]);
        for (b, c) in comps.into_iter().enumerate() {
            self.cyclic[b] = c.is_some();
        }
    }

    fn compute_dominators(&mut self) {
        let n = self.blocks.len();
        // Reverse postorder from the entry.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut call: Vec<(usize, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < self.succs[v].len() {
                let w = self.succs[v][*i];
                *i += 1;
                if !seen[w] {
                    seen[w] = true;
                    call.push((w, 0));
                }
            } else {
                order.push(v);
                call.pop();
            }
        }
        order.reverse();
        for (k, &b) in order.iter().enumerate() {
            self.rpo_number[b] = k;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        idom[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &self.preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => self.intersect(&idom, p, cur),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        idom[0] = None;
        self.idom = idom;
    }

    fn intersect(&self, idom: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        while a != b {
            while self.rpo_number[a] > self.rpo_number[b] {
                a = idom[a].expect("processed blocks have an idom");
            }
            while self.rpo_number[b] > self.rpo_number[a] {
                b = idom[b].expect("processed blocks have an idom");
            }
        }
        a
    }
}
