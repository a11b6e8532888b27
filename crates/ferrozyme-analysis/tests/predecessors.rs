//! Predecessor rules (`ferrozyme_analysis::predecessors`) against executions: for every
//! block of every function in `tests/data/predecessors/`, `tests/data/cfg/` and
//! `tests/data/loops/` that gets a `Branch` rule, random walks over the CFG check that
//! each time the block is entered, the side the dominating branch took at its last
//! execution maps to the predecessor the walk actually came from. Plus the shapes the
//! rules are for (`@invariant_guard_in_loop`: GMM's loop-invariant guard inside a loop
//! body) and one they must refuse.

mod common;
use common::func;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::hash::HashMap;
use ferrozyme_analysis::predecessors::{derivable, PredRule, Side};
use ferrozyme_llvm::{Block, Module, Value};

fn block(f: Value, name: &str) -> Block {
    f.blocks()
        .into_iter()
        .find(|b| b.name() == name)
        .unwrap_or_else(|| panic!("no block %{name} in @{}", f.name()))
}

/// The block that ends in the conditional branch on `cond`.
fn branch_block(f: Value, cond: Value) -> Block {
    f.blocks()
        .into_iter()
        .find(|b| {
            b.terminator()
                .is_some_and(|t| t.num_operands() == 3 && t.operand(0) == cond)
        })
        .expect("the rule's condition is a branch condition")
}

/// The predecessor a rule names, given the side each branch block took last.
fn evaluate(f: Value, rule: &PredRule, last: &HashMap<Block, bool>) -> Option<u32> {
    let pick = |cond: Value| last.get(&branch_block(f, cond)).copied();
    match rule {
        PredRule::Branch {
            cond,
            on_true,
            on_false,
        } => Some(if pick(*cond)? { *on_true } else { *on_false }),
        PredRule::Tree {
            cond,
            on_true,
            on_false,
        } => {
            let s = if pick(*cond)? { on_true } else { on_false };
            match s.as_ref() {
                Side::Pred(k) => Some(*k),
                Side::Rule(r) => evaluate(f, r, last),
            }
        }
        PredRule::Counter { .. } => None,
    }
}

/// Random walks from the entry: every entry into `blk` must come from the predecessor
/// the rule names for the sides the deciding branches took last.
fn check_rule_by_walks(f: Value, cfg: &Cfg, blk: Block, rule: &PredRule) {
    if matches!(rule, PredRule::Counter { .. }) {
        return;
    }
    let preds = cfg.preds(blk);
    let mut state = 0x2545F4914F6CDD1Du64;
    let mut rnd = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let entry = f.entry_block().unwrap();
    for _ in 0..300 {
        let mut at = entry;
        let mut last: HashMap<Block, bool> = HashMap::default();
        for _ in 0..400 {
            let succs = at.successors();
            if succs.is_empty() {
                break;
            }
            let k = rnd(succs.len());
            let next = succs[k];
            if succs.len() == 2 {
                last.insert(at, k == 0);
            }
            if next == blk {
                let from = preds.iter().position(|p| *p == at).unwrap() as u32;
                let want =
                    evaluate(f, rule, &last).expect("the deciding branches ran before the join");
                assert_eq!(
                    from,
                    want,
                    "@{}: %{} entered from %{} but the rule says %{}",
                    f.name(),
                    blk.name(),
                    at.name(),
                    preds[want as usize].name()
                );
            }
            at = next;
        }
    }
}

fn check_module(m: Module) {
    for f in m.functions() {
        if f.is_declaration() {
            continue;
        }
        let cfg = Cfg::new(f);
        for b in f.blocks() {
            if let Some(rule) = derivable(&cfg, b) {
                check_rule_by_walks(f, &cfg, b, &rule);
            }
        }
    }
}

#[test]
fn branch_rules_agree_with_random_executions() {
    for (dir, file) in [
        ("predecessors", "shapes.ll"),
        ("cfg", "shapes.ll"),
        ("cfg", "loop_o0.ll"),
        ("cfg", "loop_o2.ll"),
        ("cfg", "nested_o2.ll"),
        ("loops", "shapes.ll"),
    ] {
        common::with_data_module(dir, file, check_module);
    }
}

#[test]
fn loop_invariant_guard_decides_the_join() {
    common::with_data_module("predecessors", "shapes.ll", |m| {
        let f = func(m, "invariant_guard_in_loop");
        let cfg = Cfg::new(f);
        let join = block(f, "join");
        match derivable(&cfg, join) {
            Some(PredRule::Branch { cond, .. }) => assert_eq!(cond.name(), "pos"),
            other => panic!("expected the branch on %pos to decide %join, got {other:?}"),
        }
    });
}

#[test]
fn join_reentered_below_the_branch_is_not_derivable() {
    common::with_data_module("predecessors", "shapes.ll", |m| {
        let f = func(m, "rejoin_below_branch");
        let cfg = Cfg::new(f);
        assert_eq!(derivable(&cfg, block(f, "join")), None);
    });
}

#[test]
fn three_way_join_decided_by_nested_invariant_guards() {
    common::with_data_module("predecessors", "shapes.ll", |m| {
        let f = func(m, "three_way_join");
        let cfg = Cfg::new(f);
        match derivable(&cfg, block(f, "join")) {
            Some(PredRule::Tree { cond, .. }) => assert_eq!(cond.name(), "pos"),
            other => panic!("expected a nested rule on %pos for %join, got {other:?}"),
        }
    });
}
