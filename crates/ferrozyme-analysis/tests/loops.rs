//! Natural loops and trip counts (`ferrozyme_analysis::loops`) on small `.ll` inputs:
//! hand-written shapes in `tests/data/loops/shapes.ll` (each function's comment says what
//! its loops are) and the clang-compiled loops of `tests/data/cfg/`.
//!
//! `every_loop_matches_the_definition` recomputes, for every function of every input,
//! the natural loops from their definition (a back edge `t -> h` is one whose target
//! dominates its source, dominance being recomputed by graph search with `h` removed; the
//! loop of `h` is `h` plus every block that reaches a back-edge source without passing
//! through `h`) and compares them with `Loops::new`, together with latches, entry,
//! preheader and innermost loop.

mod common;
use common::{func, val};

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{defined_outside, trip_count, Loop, Loops};
use ferrozyme_llvm::{Block, Module, Value};

fn with_module(dir: &str, file: &str, body: impl FnOnce(Module)) {
    common::with_data_module(dir, file, body)
}

/// Runs `body` on the loops of `@name` in `tests/data/loops/shapes.ll`.
fn with_loops(name: &str, body: impl FnOnce(Value, &Loops)) {
    with_module("loops", "shapes.ll", |m| {
        let f = func(m, name);
        let cfg = Cfg::new(f);
        body(f, &Loops::new(&cfg));
    });
}

fn block(f: Value, name: &str) -> Block {
    f.blocks()
        .into_iter()
        .find(|b| b.name() == name)
        .unwrap_or_else(|| panic!("no block %{name} in @{}", f.name()))
}

fn names(bs: impl IntoIterator<Item = Block>) -> HashSet<String> {
    bs.into_iter().map(|b| b.name()).collect()
}

fn set(xs: &[&str]) -> HashSet<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// The loop whose header is `%header`.
fn loop_at<'a>(f: Value, loops: &'a Loops, header: &str) -> &'a Loop {
    let h = block(f, header);
    loops
        .loops
        .iter()
        .find(|l| l.header == h)
        .unwrap_or_else(|| panic!("no loop with header %{header} in @{}", f.name()))
}

#[test]
fn counted_loop_with_preheader() {
    with_loops("counted", |f, loops| {
        assert_eq!(loops.loops.len(), 1);
        let l = loop_at(f, loops, "body");
        assert_eq!(names(l.blocks.iter().copied()), set(&["body"]));
        assert_eq!(names(l.latches.iter().copied()), set(&["body"]));
        assert_eq!(l.entry, Some(block(f, "pre")));
        assert_eq!(l.preheader, Some(block(f, "pre")));
        let tc = trip_count(l).expect("i = 0, 1, ... until i + 1 == n");
        assert_eq!(tc.bound, val(f, "n"));
        assert_eq!(tc.start, 0);
    });
}

#[test]
fn guarded_loop_without_preheader_still_has_an_entry_and_a_trip_count() {
    // The guard branches into the loop and past it, so it is no preheader; it still runs
    // exactly once per execution of the loop, which is all the tape reservation needs.
    with_loops("guarded_no_preheader", |f, loops| {
        let l = loop_at(f, loops, "body");
        assert_eq!(l.entry, Some(block(f, "entry")));
        assert_eq!(l.preheader, None);
        let tc = trip_count(l).expect("i = 3, 4, ... until i == n");
        assert_eq!(tc.bound, val(f, "n"));
        assert_eq!(tc.start, 3);
    });
}

#[test]
fn nested_loops_and_innermost() {
    with_loops("nested", |f, loops| {
        assert_eq!(loops.loops.len(), 2);
        // Smallest first: the inner loop, then the outer one.
        assert_eq!(loops.loops[0].header, block(f, "inner"));
        assert_eq!(loops.loops[1].header, block(f, "outer.head"));
        let inner = loop_at(f, loops, "inner");
        let outer = loop_at(f, loops, "outer.head");
        assert_eq!(names(inner.blocks.iter().copied()), set(&["inner"]));
        assert_eq!(
            names(outer.blocks.iter().copied()),
            set(&["outer.head", "inner", "outer.latch"])
        );
        assert_eq!(inner.preheader, Some(block(f, "outer.head")));
        assert_eq!(outer.preheader, Some(block(f, "entry")));
        assert_eq!(names(outer.latches.iter().copied()), set(&["outer.latch"]));
        let by_block = |b: &str| loops.innermost(block(f, b)).map(|l| l.header.name());
        assert_eq!(by_block("inner").as_deref(), Some("inner"));
        assert_eq!(by_block("outer.head").as_deref(), Some("outer.head"));
        assert_eq!(by_block("outer.latch").as_deref(), Some("outer.head"));
        assert_eq!(by_block("entry"), None);
        assert_eq!(by_block("exit"), None);
        let ti = trip_count(inner).expect("j = 0.. until 1 + j == m");
        assert_eq!((ti.bound, ti.start), (val(f, "m"), 0));
        let to = trip_count(outer).expect("i = 0.. until i + 1 == n");
        assert_eq!((to.bound, to.start), (val(f, "n"), 0));
    });
}

#[test]
fn back_edges_to_one_header_make_one_loop() {
    with_loops("two_latches", |f, loops| {
        assert_eq!(loops.loops.len(), 1);
        let l = loop_at(f, loops, "head");
        assert_eq!(
            names(l.blocks.iter().copied()),
            set(&["head", "odd", "even"])
        );
        assert_eq!(names(l.latches.iter().copied()), set(&["odd", "even"]));
        let tc = trip_count(l).expect("+1 on both back edges, exit on i + 1 == n");
        assert_eq!((tc.bound, tc.start), (val(f, "n"), 0));
    });
}

#[test]
fn no_trip_count_without_a_unit_step_or_an_invariant_bound() {
    with_loops("uncounted", |f, loops| {
        assert_eq!(loops.loops.len(), 2);
        assert_eq!(trip_count(loop_at(f, loops, "by2")), None, "steps by 2");
        assert_eq!(
            trip_count(loop_at(f, loops, "grow")),
            None,
            "float exit test"
        );
    });
    with_loops("moving_bound", |f, loops| {
        assert_eq!(
            trip_count(loop_at(f, loops, "body")),
            None,
            "bound loaded in the loop"
        );
    });
}

#[test]
fn irreducible_cycles_and_straight_code_have_no_natural_loop() {
    with_loops("irreducible", |f, loops| {
        assert!(loops.loops.is_empty());
        // The CFG analysis still knows the blocks are on a cycle: the transform records
        // their values per execution all the same.
        let cfg = Cfg::new(f);
        assert!(cfg.is_cyclic(block(f, "a")) && cfg.is_cyclic(block(f, "b")));
    });
    with_loops("straight", |_, loops| assert!(loops.loops.is_empty()));
}

#[test]
fn defined_outside_means_invariant_by_construction() {
    with_loops("moving_bound", |f, loops| {
        let l = loop_at(f, loops, "body");
        assert!(defined_outside(l, val(f, "p")), "an argument");
        assert!(!defined_outside(l, val(f, "lim")), "loaded in the loop");
        assert!(!defined_outside(l, val(f, "i")), "the loop's own phi");
        let one = val(f, "i.next").operand(1);
        assert!(defined_outside(l, one), "an integer constant");
    });
}

#[test]
fn clang_loops() {
    with_module("cfg", "loop_o2.ll", |m| {
        let f = func(m, "sum");
        let loops = Loops::new(&Cfg::new(f));
        let l = loop_at(f, &loops, "for.body");
        assert_eq!(l.preheader, Some(block(f, "for.body.preheader")));
        let tc = trip_count(l).expect("the rotated -O2 loop is counted");
        assert_eq!((tc.bound, tc.start), (val(f, "wide.trip.count"), 0));
    });
    with_module("cfg", "loop_o0.ll", |m| {
        // -O0: the counter lives in memory, so there is a loop but no induction phi.
        let f = func(m, "sum0");
        let loops = Loops::new(&Cfg::new(f));
        assert_eq!(loops.loops.len(), 1);
        assert_eq!(trip_count(&loops.loops[0]), None);
    });
}

// ---------------------------------------------------------------- brute force

/// Blocks reachable from `from` (inclusive) without entering `avoid`.
fn reach(from: Block, avoid: Option<Block>) -> HashSet<Block> {
    let mut seen = HashSet::default();
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if Some(b) == avoid || !seen.insert(b) {
            continue;
        }
        work.extend(b.successors());
    }
    seen
}

/// Does `a` dominate `b`: is `b` unreachable from the entry once `a` is removed?
fn dominates(f: Value, a: Block, b: Block) -> bool {
    let entry = f.entry_block().expect("defined");
    a == b || (reach(entry, None).contains(&b) && !reach(entry, Some(a)).contains(&b))
}

/// The natural loops of `f` by definition: header -> (blocks, latches).
fn brute_loops(f: Value) -> HashMap<Block, (HashSet<Block>, HashSet<Block>)> {
    let entry = f.entry_block().expect("defined");
    let live = reach(entry, None);
    let mut out: HashMap<Block, (HashSet<Block>, HashSet<Block>)> = HashMap::default();
    for &t in &live {
        for h in t.successors() {
            if dominates(f, h, t) {
                out.entry(h).or_default().1.insert(t);
            }
        }
    }
    for (h, (blocks, latches)) in out.iter_mut() {
        blocks.insert(*h);
        for &b in &live {
            if latches.iter().any(|t| reach(b, Some(*h)).contains(t)) {
                blocks.insert(b);
            }
        }
    }
    out
}

fn check_against_definition(f: Value) {
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let want = brute_loops(f);
    let fname = f.name();
    assert_eq!(loops.loops.len(), want.len(), "number of loops in @{fname}");
    for l in &loops.loops {
        let (blocks, latches) = want
            .get(&l.header)
            .unwrap_or_else(|| panic!("@{fname}: %{} is no loop header", l.header.name()));
        let h = l.header.name();
        assert_eq!(&l.blocks, blocks, "@{fname}: blocks of the loop at %{h}");
        let got: HashSet<Block> = l.latches.iter().copied().collect();
        assert_eq!(&got, latches, "@{fname}: latches of the loop at %{h}");
        let outside: Vec<Block> = f
            .blocks()
            .into_iter()
            .filter(|p| !blocks.contains(p) && p.successors().contains(&l.header))
            .filter(|p| reach(f.entry_block().unwrap(), None).contains(p))
            .collect();
        let entry = match outside.as_slice() {
            [p] => Some(*p),
            _ => None,
        };
        assert_eq!(l.entry, entry, "@{fname}: entry of the loop at %{h}");
        let pre = entry.filter(|p| p.successors() == vec![l.header]);
        assert_eq!(l.preheader, pre, "@{fname}: preheader of the loop at %{h}");
    }
    for b in f.blocks() {
        let smallest = want
            .iter()
            .filter(|(_, (bs, _))| bs.contains(&b))
            .min_by_key(|(_, (bs, _))| bs.len())
            .map(|(h, _)| *h);
        assert_eq!(
            loops.innermost(b).map(|l| l.header),
            smallest,
            "@{fname}: innermost loop of %{}",
            b.name()
        );
    }
    for w in loops.loops.windows(2) {
        assert!(
            w[0].blocks.len() <= w[1].blocks.len(),
            "@{fname}: sorted by size"
        );
    }
}

#[test]
fn every_loop_matches_the_definition() {
    let files = [
        ("loops", "shapes.ll"),
        ("cfg", "shapes.ll"),
        ("cfg", "loop_o2.ll"),
        ("cfg", "loop_o0.ll"),
        ("cfg", "nested_o2.ll"),
    ];
    for (dir, file) in files {
        with_module(dir, file, |m| {
            for f in m.definitions() {
                check_against_definition(f);
            }
        });
    }
}
