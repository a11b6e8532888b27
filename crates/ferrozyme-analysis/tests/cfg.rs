//! CFG facts on small `.ll` inputs in `tests/data/cfg/`: hand-written shapes
//! (`shapes.ll`) and loops compiled by clang-22 at -O0 and -O2.
//!
//! Besides one test per property, `every_fact_matches_brute_force` recomputes
//! predecessors, reachability, cyclicity and dominance for every function in every
//! input by the definitions (graph search with a block removed) and compares.

mod common;
#[allow(unused_imports)]
use common::{func, val};

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{Block, Module, Value};

const FILES: &[&str] = &["shapes.ll", "loop_o2.ll", "loop_o0.ll", "nested_o2.ll"];

fn with_module(file: &str, body: impl FnOnce(Module)) {
    common::with_data_module("cfg", file, body)
}

/// Parses `file` and runs `body` on the CFG of `@name`.
fn with_cfg(file: &str, name: &str, body: impl FnOnce(Value, &Cfg)) {
    with_module(file, |m| {
        let f = m
            .function(name)
            .unwrap_or_else(|| panic!("no function @{name}"));
        let cfg = Cfg::new(f);
        body(f, &cfg);
    });
}

/// The block called `name` in `f`.
fn block(f: Value, name: &str) -> Block {
    f.blocks()
        .into_iter()
        .find(|b| b.name() == name)
        .unwrap_or_else(|| panic!("no block %{name} in @{}", f.name()))
}

fn names(bs: &[Block]) -> Vec<String> {
    bs.iter().map(|b| b.name()).collect()
}

fn name_set(bs: &[Block]) -> HashSet<String> {
    bs.iter().map(|b| b.name()).collect()
}

fn set(xs: &[&str]) -> HashSet<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Names of the blocks of `f` on which `pred` holds.
fn blocks_where(f: Value, pred: impl Fn(Block) -> bool) -> HashSet<String> {
    f.blocks()
        .into_iter()
        .filter(|&b| pred(b))
        .map(|b| b.name())
        .collect()
}

// --- brute-force oracle, straight from the definitions

fn raw_succs(b: Block) -> Vec<Block> {
    b.terminator().map(|t| t.successors()).unwrap_or_default()
}

/// Blocks reachable from `from` by one or more edges, never entering `avoid`.
fn reach(from: &[Block], avoid: Option<Block>) -> HashSet<Block> {
    let mut seen = HashSet::default();
    let mut work: Vec<Block> = from.to_vec();
    while let Some(b) = work.pop() {
        if Some(b) == avoid || !seen.insert(b) {
            continue;
        }
        work.extend(raw_succs(b));
    }
    seen
}

#[test]
fn straight_line_code_has_no_cyclic_block() {
    with_cfg("shapes.ll", "straight", |f, cfg| {
        for b in f.blocks() {
            assert!(!cfg.is_cyclic(b), "%{}", b.name());
            assert!(cfg.is_reachable(b), "%{}", b.name());
        }
        assert_eq!(names(&cfg.rpo()), ["entry", "mid", "last"]);
        assert_eq!(names(&cfg.preds(block(f, "mid"))), ["entry"]);
        assert_eq!(names(&cfg.succs(block(f, "mid"))), ["last"]);
        assert!(cfg.preds(block(f, "entry")).is_empty());
        assert!(cfg.succs(block(f, "last")).is_empty());
        // Each block dominates the ones after it and none before it.
        assert!(cfg.dominates(block(f, "mid"), block(f, "last")));
        assert!(!cfg.dominates(block(f, "last"), block(f, "mid")));
        assert_eq!(names(&cfg.return_blocks()), ["last"]);
    });
}

#[test]
fn diamond_dominance() {
    with_cfg("shapes.ll", "diamond", |f, cfg| {
        let [entry, then, els, join] = ["entry", "then", "else", "join"].map(|n| block(f, n));
        for b in [entry, then, els, join] {
            assert!(cfg.dominates(entry, b), "entry dominates %{}", b.name());
            assert!(cfg.dominates(b, b), "dominance is reflexive");
            assert!(!cfg.is_cyclic(b));
        }
        assert!(!cfg.dominates(then, join), "join is also entered from else");
        assert!(!cfg.dominates(els, join), "join is also entered from then");
        assert!(!cfg.dominates(then, els));
        assert!(!cfg.dominates(join, then));
        assert!(!cfg.dominates(then, entry));
        assert_eq!(name_set(&cfg.preds(join)), set(&["then", "else"]));
        assert_eq!(names(&cfg.succs(entry)), ["then", "else"]);
        assert_eq!(names(&cfg.rpo()).first().map(String::as_str), Some("entry"));
        assert_eq!(names(&cfg.rpo()).last().map(String::as_str), Some("join"));
    });
}

#[test]
fn self_loop_is_cyclic() {
    with_cfg("shapes.ll", "self_loop", |f, cfg| {
        assert_eq!(blocks_where(f, |b| cfg.is_cyclic(b)), set(&["spin"]));
        let spin = block(f, "spin");
        assert_eq!(name_set(&cfg.preds(spin)), set(&["entry", "spin"]));
        assert!(cfg.succs(spin).contains(&spin));
        assert!(cfg.dominates(spin, block(f, "exit")));
        assert!(!cfg.dominates(block(f, "exit"), spin));
    });
}

#[test]
fn irreducible_cycle_is_cyclic() {
    with_cfg("shapes.ll", "irreducible", |f, cfg| {
        let [entry, a, b, exit] = ["entry", "a", "b", "exit"].map(|n| block(f, n));
        assert_eq!(blocks_where(f, |x| cfg.is_cyclic(x)), set(&["a", "b"]));
        // Two entries into the cycle: neither block dominates the other.
        assert!(!cfg.dominates(a, b));
        assert!(!cfg.dominates(b, a));
        assert!(cfg.dominates(b, exit), "exit is only reached through b");
        assert!(!cfg.dominates(a, exit));
        assert!(cfg.dominates(entry, a) && cfg.dominates(entry, b));
        assert_eq!(name_set(&cfg.preds(a)), set(&["entry", "b"]));
        assert_eq!(name_set(&cfg.preds(b)), set(&["entry", "a"]));
    });
}

#[test]
fn rotated_o2_loop_cycles_through_body_only() {
    with_cfg("loop_o2.ll", "sum", |f, cfg| {
        // The rotated loop's header is its body: a single block with a back edge.
        assert_eq!(blocks_where(f, |b| cfg.is_cyclic(b)), set(&["for.body"]));
        let body = block(f, "for.body");
        let pre = block(f, "for.body.preheader");
        let exit = block(f, "for.cond.cleanup");
        assert!(!cfg.is_cyclic(pre), "preheader runs once");
        assert!(!cfg.is_cyclic(exit), "exit runs once");
        assert_eq!(
            name_set(&cfg.preds(body)),
            set(&["for.body.preheader", "for.body"])
        );
        assert_eq!(name_set(&cfg.preds(exit)), set(&["entry", "for.body"]));
        assert!(cfg.dominates(pre, body));
        assert!(
            !cfg.dominates(body, exit),
            "the zero-trip path skips the loop"
        );
        assert!(!cfg.dominates(pre, exit));
        assert_eq!(names(&cfg.return_blocks()), ["for.cond.cleanup"]);
    });
}

#[test]
fn o0_loop_cycles_through_cond_body_and_inc() {
    with_cfg("loop_o0.ll", "sum0", |f, cfg| {
        assert_eq!(
            blocks_where(f, |b| cfg.is_cyclic(b)),
            set(&["for.cond", "for.body", "for.inc"])
        );
        let cond = block(f, "for.cond");
        assert!(cfg.dominates(cond, block(f, "for.body")));
        assert!(cfg.dominates(cond, block(f, "for.inc")));
        assert!(cfg.dominates(cond, block(f, "for.end")));
        assert!(!cfg.dominates(block(f, "for.body"), block(f, "for.end")));
        assert_eq!(name_set(&cfg.preds(cond)), set(&["entry", "for.inc"]));
    });
}

#[test]
fn nested_o2_loops() {
    with_cfg("nested_o2.ll", "matsum", |f, cfg| {
        // Everything inside the outer loop can run many times, including the inner
        // loop's preheader and exit; the outer preheader and exit run once.
        assert_eq!(
            blocks_where(f, |b| cfg.is_cyclic(b)),
            set(&[
                "for.cond1.preheader",
                "for.body4.lr.ph",
                "for.body4",
                "for.cond.cleanup3"
            ])
        );
        assert_eq!(
            blocks_where(f, |b| !cfg.is_cyclic(b)),
            set(&["entry", "for.cond1.preheader.lr.ph", "for.cond.cleanup"])
        );
        let outer = block(f, "for.cond1.preheader");
        let inner = block(f, "for.body4");
        let latch = block(f, "for.cond.cleanup3");
        assert!(cfg.dominates(outer, inner));
        assert!(cfg.dominates(outer, latch));
        assert!(
            !cfg.dominates(inner, latch),
            "the inner loop may run zero times"
        );
        assert!(!cfg.dominates(inner, outer));
        assert_eq!(
            name_set(&cfg.preds(outer)),
            set(&["for.cond1.preheader.lr.ph", "for.cond.cleanup3"])
        );
    });
}

#[test]
fn loop_with_early_return() {
    with_cfg("shapes.ll", "find", |f, cfg| {
        assert_eq!(
            blocks_where(f, |b| cfg.is_cyclic(b)),
            set(&["head", "body", "next"])
        );
        assert_eq!(name_set(&cfg.return_blocks()), set(&["found", "notfound"]));
        assert!(cfg.dominates(block(f, "body"), block(f, "found")));
        assert!(cfg.dominates(block(f, "head"), block(f, "notfound")));
        assert!(!cfg.dominates(block(f, "body"), block(f, "notfound")));
    });
}

#[test]
fn unreachable_blocks_are_not_reachable_cyclic_or_dominating() {
    with_cfg("shapes.ll", "with_dead", |f, cfg| {
        let dead = ["dead", "dead.loop", "dead.back"].map(|n| block(f, n));
        let entry = block(f, "entry");
        let exit = block(f, "exit");
        for d in dead {
            assert!(!cfg.is_reachable(d), "%{}", d.name());
            assert!(
                !cfg.is_cyclic(d),
                "%{} is on a cycle nobody enters",
                d.name()
            );
            for b in f.blocks() {
                assert!(
                    !cfg.dominates(d, b),
                    "%{} dominates %{}",
                    d.name(),
                    b.name()
                );
            }
            assert!(
                !cfg.dominates(entry, d),
                "nothing dominates an unreachable block"
            );
        }
        assert!(cfg.is_reachable(exit));
        // The edge from the unreachable dead.loop does not spoil exit's dominator.
        assert!(cfg.dominates(entry, exit));
        assert_eq!(name_set(&cfg.preds(exit)), set(&["entry", "dead.loop"]));
        assert_eq!(names(&cfg.rpo()), ["entry", "exit"]);
        assert_eq!(names(&cfg.reachable_blocks()), ["entry", "exit"]);
    });
}

#[test]
fn switch_preds_are_distinct() {
    with_cfg("shapes.ll", "switch_dup", |f, cfg| {
        let entry = block(f, "entry");
        let same = block(f, "same");
        let other = block(f, "other");
        assert_eq!(
            entry.terminator().unwrap().successors().len(),
            4,
            "four switch edges"
        );
        assert_eq!(cfg.preds(same), [entry]);
        assert_eq!(cfg.preds(other), [entry]);
        assert_eq!(name_set(&cfg.succs(entry)), set(&["same", "other"]));
        assert_eq!(cfg.succs(entry).len(), 2);
        assert_eq!(name_set(&cfg.return_blocks()), set(&["same", "other"]));
    });
}

#[test]
fn declaration_has_empty_cfg() {
    with_cfg("shapes.ll", "external", |_, cfg| {
        assert!(cfg.blocks.is_empty());
        assert!(cfg.rpo().is_empty());
        assert!(cfg.return_blocks().is_empty());
    });
}

#[test]
fn blocks_of_another_function_are_unknown() {
    with_module("shapes.ll", |m| {
        let f = m.function("diamond").unwrap();
        let g = m.function("straight").unwrap();
        let cfg = Cfg::new(f);
        let foreign = g.entry_block().unwrap();
        assert_eq!(cfg.index_of(foreign), None);
        assert!(!cfg.is_reachable(foreign));
        assert!(!cfg.is_cyclic(foreign));
        assert!(cfg.preds(foreign).is_empty());
        assert!(!cfg.dominates(foreign, foreign));
    });
}

/// For every function in every input: preds/succs, reachability, cyclicity, dominance
/// and the order of `rpo` agree with the definitions.
#[test]
fn every_fact_matches_brute_force() {
    for file in FILES {
        with_module(file, |m| {
            for f in m.definitions() {
                check_against_brute_force(f);
            }
        });
    }
}

fn check_against_brute_force(f: Value) {
    let cfg = Cfg::new(f);
    let blocks = f.blocks();
    let entry = blocks[0];
    let reachable = reach(&[entry], None);
    let at = |b: Block| format!("@{} %{}", f.name(), b.name());
    assert_eq!(cfg.blocks, blocks);
    for &b in &blocks {
        assert_eq!(cfg.index_of(b).map(|i| cfg.blocks[i]), Some(b));

        // Distinct successors and predecessors, as sets.
        let succs: HashSet<Block> = raw_succs(b).into_iter().collect();
        let cs = cfg.succs(b);
        assert_eq!(cs.len(), succs.len(), "{} succs not distinct", at(b));
        assert_eq!(cs.into_iter().collect::<HashSet<_>>(), succs, "{}", at(b));
        let preds: HashSet<Block> = blocks
            .iter()
            .copied()
            .filter(|&p| raw_succs(p).contains(&b))
            .collect();
        let cp = cfg.preds(b);
        assert_eq!(cp.len(), preds.len(), "{} preds not distinct", at(b));
        assert_eq!(cp.into_iter().collect::<HashSet<_>>(), preds, "{}", at(b));

        assert_eq!(cfg.is_reachable(b), reachable.contains(&b), "{}", at(b));
        // On a cycle: reachable, and reachable from itself by at least one edge.
        let cyclic = reachable.contains(&b) && reach(&raw_succs(b), None).contains(&b);
        assert_eq!(cfg.is_cyclic(b), cyclic, "{} cyclic", at(b));

        // a dominates b: both reachable and b cannot be reached from entry avoiding a.
        for &a in &blocks {
            let dom = reachable.contains(&a)
                && reachable.contains(&b)
                && (a == b || !reach(&[entry], Some(a)).contains(&b));
            assert_eq!(cfg.dominates(a, b), dom, "{} dominates {}", at(a), at(b));
        }
    }

    // rpo: each reachable block once, the entry first, every block after its dominators
    // and after all its predecessors along forward (non-back) edges.
    let rpo = cfg.rpo();
    assert_eq!(rpo.iter().copied().collect::<HashSet<_>>(), reachable);
    assert_eq!(rpo.len(), reachable.len(), "rpo repeats a block");
    assert_eq!(rpo[0], entry);
    let pos = |b: Block| rpo.iter().position(|&x| x == b).unwrap();
    for &b in &rpo {
        for &a in &rpo {
            if a != b && cfg.dominates(a, b) {
                assert!(pos(a) < pos(b), "{} before its dominator {}", at(b), at(a));
            }
        }
        for p in cfg.preds(b).into_iter().filter(|p| reachable.contains(p)) {
            // A predecessor placed later must close a cycle through b.
            if pos(p) > pos(b) {
                assert!(
                    reach(&[b], None).contains(&p) && cfg.is_cyclic(b),
                    "{} -> {}",
                    at(p),
                    at(b)
                );
            }
        }
    }
}
