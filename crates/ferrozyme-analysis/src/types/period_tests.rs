//! Unit tests of `period.rs`: the union-find with offsets, against a brute-force
//! computation on random relation graphs. For a connected graph of relations
//! `a = b + c`, give every node a potential along a spanning tree; each other edge closes
//! a cycle whose offset sum is `pot(a) - pot(b) - c`, and the gcd of those sums is the
//! gcd of every cycle's sum (the fundamental cycles generate all cycles). That gcd is
//! the period `Periods` must report (none when it is 0).

use ferrozyme_llvm::{Module, Value};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;

use super::*;

/// Runs `body` with `n` distinct values (the parameters of a function).
fn with_values(n: usize, body: impl FnOnce(&[Value])) {
    let params: Vec<String> = (0..n).map(|k| format!("ptr %p{k}")).collect();
    let ir = format!("define void @f({}) {{\n  ret void\n}}\n", params.join(", "));
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "p.ll");
    let m = ctx.create_module_from_ir(buf).expect("parses");
    let f = Module::from_inkwell(&m).function("f").expect("@f");
    body(&f.params());
}

#[test]
fn cycles_give_periods() {
    with_values(4, |v| {
        let mut p = Periods::default();
        // p1 = p0 + 8 and p0 = p1 + 0 (a phi over `gep p, 8`): a cycle of 8.
        p.relate(v[1], v[0], 8);
        assert_eq!(p.period(v[0]), None, "a chain has no period");
        p.relate(v[0], v[1], 0);
        assert_eq!((p.period(v[0]), p.period(v[1])), (Some(8), Some(8)));
        // Another class with a cycle of 12, then merged: gcd(8, 12) = 4.
        p.relate(v[3], v[2], 12);
        p.relate(v[2], v[3], 0);
        assert_eq!(p.period(v[2]), Some(12));
        p.relate(v[2], v[0], 100);
        assert_eq!(p.period(v[3]), Some(4));
        assert_eq!(p.period(v[1]), Some(4));
    });
}

#[test]
fn cycles_summing_to_zero_give_none() {
    with_values(3, |v| {
        let mut p = Periods::default();
        p.relate(v[1], v[0], 8);
        p.relate(v[2], v[1], -8);
        p.relate(v[0], v[2], 0);
        assert_eq!(p.period(v[0]), None, "p0 -> p0+8 -> p0: no walk");
        p.relate(v[2], v[0], 0);
        assert_eq!(p.period(v[0]), None, "consistent with the above");
    });
}

#[test]
fn union_find_agrees_with_fundamental_cycles() {
    const N: usize = 9;
    with_values(N, |v| {
        let (mut periodic, mut plain) = (0, 0);
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for _ in 0..300 {
            let edges: Vec<(usize, usize, i64)> = (0..next(14))
                .map(|_| {
                    let a = next(N as u64) as usize;
                    let b = next(N as u64) as usize;
                    // Offsets from a few multiples, so some cycles cancel and some do not.
                    let c = [0i64, 8, -8, 16, 24, -24, 12][next(7) as usize];
                    (a, b, c)
                })
                .collect();
            let mut p = Periods::default();
            for &(a, b, c) in &edges {
                p.relate(v[a], v[b], c);
            }
            for (node, want) in brute_periods(N, &edges).into_iter().enumerate() {
                assert_eq!(p.period(v[node]), want, "node {node}, edges {edges:?}");
                match want {
                    Some(_) => periodic += 1,
                    None => plain += 1,
                }
            }
        }
        // Both answers occur often, so the comparison is not vacuous.
        assert!(
            periodic > 200 && plain > 200,
            "{periodic} periodic, {plain} not"
        );
    });
}

/// Per node: the gcd of the cycle sums of its component (`None` when 0).
fn brute_periods(n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<u64>> {
    // Potentials by graph search over edges used in both directions (a = b + c).
    let mut pot: Vec<Option<i64>> = vec![None; n];
    let mut comp = vec![usize::MAX; n];
    for root in 0..n {
        if pot[root].is_some() {
            continue;
        }
        pot[root] = Some(0);
        comp[root] = root;
        let mut work = vec![root];
        while let Some(x) = work.pop() {
            for &(a, b, c) in edges {
                let (y, py) = if a == x && pot[b].is_none() {
                    (b, pot[x].unwrap() - c)
                } else if b == x && pot[a].is_none() {
                    (a, pot[x].unwrap() + c)
                } else {
                    continue;
                };
                pot[y] = Some(py);
                comp[y] = root;
                work.push(y);
            }
        }
    }
    let mut g = vec![0u64; n];
    for &(a, b, c) in edges {
        let d = (pot[a].unwrap() - pot[b].unwrap() - c).unsigned_abs();
        let r = comp[a];
        g[r] = gcd(g[r], d);
    }
    (0..n)
        .map(|x| Some(g[comp[x]]).filter(|p| *p > 0))
        .collect()
}
