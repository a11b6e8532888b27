//! Which record a cyclic block's cached values go into.
//!
//! Each block on a CFG cycle that has values the reverse sweep needs used to get a record
//! of its own: one stack, one push per execution, one pop, one release. In a loop with a
//! branch (`if (t > 0.5) ... else ...`: the chain/tree units of `bench/compile_scaling`)
//! that is two or three stacks per loop. A block whose innermost loop's header lies on
//! every cycle through it runs at most once per run of that header, after it, and the
//! reverse sweep replays it before it leaves the header backwards; so its values can be
//! fields of the header's record of the same iteration, read at the top of the header's
//! stack: one push per iteration for the whole loop body. A block with a cycle that
//! avoids the header (an inner loop, irreducible flow inside the loop) keeps its own
//! record. Fields of a block that did not run in an iteration stay unwritten, and are
//! never read (their reverse block does not run either).

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::Block;

use super::Gen;

impl Gen<'_> {
    /// The block whose record holds the cached values of cyclic block `def`: the header
    /// of its innermost loop when every cycle through `def` passes that header (no inner
    /// loop, no cycle among the other blocks: `def` runs at most once per run of the
    /// header, after it), else `def` itself. One push per iteration instead of one per
    /// block of the iteration: the header's record of the current iteration is on top of
    /// its stack from the header's push until the reverse sweep leaves the header, which
    /// is after it has replayed every other block of the iteration.
    pub(super) fn record_block(&mut self, def: Block) -> Block {
        let Some(k) = self.fx.loops.innermost_index(def) else {
            return def;
        };
        let l = &self.fx.loops.loops[k];
        if l.header == def {
            return def;
        }
        let header = l.header;
        let shared = match self.caches.shared_records.get(&header) {
            Some(&s) => s,
            None => {
                let s = header_on_every_cycle(&self.fx.cfg, l);
                self.caches.shared_records.insert(header, s);
                s
            }
        };
        if shared {
            header
        } else {
            def
        }
    }
}

/// Does every cycle through a block of `l` pass `l`'s header (no cycle among the other
/// blocks, `ferrozyme_analysis::scc`)?
fn header_on_every_cycle(cfg: &Cfg, l: &Loop) -> bool {
    let mut blocks = l.blocks_in(&cfg.blocks);
    blocks.retain(|b| *b != l.header);
    let ix: ferrozyme_analysis::hash::HashMap<Block, usize> =
        blocks.iter().enumerate().map(|(k, b)| (*b, k)).collect();
    let succs: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            cfg.succs(*b)
                .into_iter()
                .filter_map(|s| ix.get(&s).copied())
                .collect()
        })
        .collect();
    ferrozyme_analysis::scc::cyclic_components(&succs, |_| true)
        .iter()
        .all(|c| c.is_none())
}
