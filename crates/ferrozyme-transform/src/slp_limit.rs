//! Keeping LLVM's SLP vectorizer off huge straight-line generated functions during the
//! post-AD pipeline (compile time, issue 18).
//!
//! SLP seeds its trees at stores to neighbouring addresses of one object and schedules
//! each candidate bundle in a region of the basic block; the region and its memory
//! dependencies are rebuilt per attempt, so its cost grows with the number of stores
//! times the size of the block. Measured with `opt-22 -passes='default<O2>'
//! -time-passes` on the module after AD of `bench/compile_scaling`'s `big` (one kernel of
//! n unrolled statements), n = 640: SLP took 0.41 s of the pipeline's 0.57 s, 0.25 s of
//! it in the augmented forward (3.3k instructions in one block, 496 of them stores into
//! the tape, each of a different value: nothing there to pack) and 0.13 s in the reverse
//! sweep (one block of 27k instructions before the pipeline); clang's own SLP run on the
//! primal kernel (2.3k instructions, one store) took 1.4 ms. The vectorizations SLP finds
//! in those two functions are a handful of two-lane bundles (11 in the reverse, none in
//! the forward; `-pass-remarks=slp-vectorizer`) in code of thousands of instructions.
//!
//! [`mark`] gives `noimplicitfloat` (which SLP and the loop vectorizer honour by leaving
//! the function alone) to each generated function that is `noinline` (so the attribute
//! cannot spread to a caller by inlining), has no cycle in its control flow (no loop for
//! the loop vectorizer to miss) and has a basic block of more than [`MIN_BLOCK`]
//! instructions; [`unmark`] removes it again after the pipeline, before code generation.
//! Functions with loops, the primal, and every smaller function are vectorized as before.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::{Module, Value};

use crate::generated::is_generated;

/// Blocks with more instructions than this (before the post-AD pipeline) keep their
/// straight-line function out of SLP. The primal's blocks of `big` and the benchmarks'
/// generated blocks are below it; `big`'s augmented forward at n = 640 (3.3k) is above.
/// Was 2,000 while adjoints were all stack slots; block-local adjoints kept as values
/// (`reverse/adj_regs.rs`) made straight-line reverses about 3x shorter before the
/// pipeline (the filetest's 48-statement kernel: 3,183 -> 1,089, its 6-statement one
/// 453 -> 165), so the same reverses are kept out with 1,000.
pub const MIN_BLOCK: usize = 1000;

const ATTR: &str = "noimplicitfloat";

/// What [`mark`] did: the functions that had `noimplicitfloat` before it (the user's,
/// e.g. from `-mno-implicit-float`), which [`unmark`] leaves alone.
pub struct Marked {
    before: HashSet<String>,
    marked: usize,
}

impl Marked {
    /// How many functions [`mark`] kept out of SLP.
    pub fn count(&self) -> usize {
        self.marked
    }
}

/// Marks the functions described in the module documentation.
pub fn mark(module: Module) -> Marked {
    let functions = module.functions();
    let before = functions
        .iter()
        .filter(|f| f.has_fn_attr(ATTR))
        .map(|f| f.name())
        .collect();
    let mut marked = 0;
    for &f in &functions {
        let target = if candidate(f) {
            Some(f)
        } else {
            merged_candidate(f)
        };
        if let Some(t) = target.filter(|t| !t.has_fn_attr(ATTR)) {
            t.add_fn_attr(ATTR);
            marked += 1;
        }
    }
    Marked { before, marked }
}

/// Removes the attribute [`mark`] added, also from copies the pipeline made of a marked
/// function (function specialization clones `f` with its attributes into
/// `f.specialized.1`): every function that has it now and did not before loses it.
pub fn unmark(module: Module, marked: &Marked) {
    if marked.marked == 0 {
        return;
    }
    for f in module.functions() {
        if f.has_fn_attr(ATTR) && !marked.before.contains(&f.name()) {
            f.remove_fn_attr(ATTR);
        }
    }
}

fn candidate(f: Value) -> bool {
    if f.is_declaration()
        || !is_generated(f)
        || !f.has_fn_attr("noinline")
        || f.has_fn_attr("alwaysinline")
        || f.has_fn_attr(ATTR)
    {
        return false;
    }
    let blocks = f.blocks();
    blocks.iter().any(|b| b.instruction_count() > MIN_BLOCK) && forward_only(&blocks)
}

/// A generated straight-line function with a huge block that `merge.rs` merges into
/// its caller (`alwaysinline`, merged whatever its size when that dissolves a tape
/// buffer, `frame_buffers.rs`): the generated function it ends up in (following single
/// call sites through further merged functions), which SLP would meet the block in. That
/// host may have loops (the user's code around the call): they lose the loop vectorizer
/// in this run, as the merged block's size costs SLP more than the rest can gain.
fn merged_candidate(f: Value) -> Option<Value> {
    if f.has_fn_attr(ATTR) {
        return None;
    }
    merged_host(f)
}

/// The host [`merged_candidate`] describes, whatever the function's attributes say about
/// implicit floating point (`early_inline.rs` asks the same question).
pub(crate) fn merged_host(f: Value) -> Option<Value> {
    if f.is_declaration() || !is_generated(f) || !f.has_fn_attr("alwaysinline") {
        return None;
    }
    let blocks = f.blocks();
    if !(blocks.iter().any(|b| b.instruction_count() > MIN_BLOCK) && forward_only(&blocks)) {
        return None;
    }
    let mut host = f;
    // Bounded walk up the merge chain (each step one call site).
    for _ in 0..64 {
        let users = host.users();
        let [call] = users.as_slice() else {
            return None;
        };
        if !call.is_instruction() {
            return None;
        }
        let caller = call.parent_function();
        if !is_generated(caller) {
            return None;
        }
        if !caller.has_fn_attr("alwaysinline") {
            return Some(caller);
        }
        host = caller;
    }
    None
}

/// Whether every branch goes to a block later in layout order: then the control flow has
/// no cycle (layout order is a topological order). A function laid out otherwise counts
/// as having loops, which only keeps it on the usual path.
pub(crate) fn forward_only(blocks: &[ferrozyme_llvm::Block]) -> bool {
    let index: HashMap<_, _> = blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    blocks.iter().enumerate().all(|(i, b)| {
        b.successors()
            .iter()
            .all(|s| index.get(s).is_some_and(|&j| j > i))
    })
}
