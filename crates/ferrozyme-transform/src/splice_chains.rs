//! Chained recurrence splices folded into one: a vector loop's value from `k + 1`
//! iterations back read as one shuffle of vectors the loop already carries, not as a
//! splice of a carried splice.
//!
//! The rising exact streams (`streams/rising.rs`) keep each cell's contributions in
//! fixed-order recurrences of order up to 4: scalar phi chains `p1 = phi [i1, x]`,
//! `p2 = phi [i2, p1]`, ... LoopVectorize vectorizes each phi of the chain on its own: the
//! first as `s1 = shufflevector(v1, x, <n-1, n, ..., 2n-2>)` (`v1` the last iteration's
//! `x`, spliced one lane), the second as `s2 = shufflevector(v2, s1, <same>)` with `v2`
//! carrying the last `s1`, and so on (with interleaving, the same per part). Lane 0 of
//! `s2` is `v2`'s last lane, which is a lane of the last iteration's `x`, so a lane of
//! `v1` now: `s2` is one shuffle of `(v1, x)` (on x86-64-v3 one `vperm2f128` of four
//! doubles where the chain took two splices of two instructions each), and `v2` (one
//! carried vector register) goes. The periodic-`if` Brusselator's reverse vector body at
//! `-O3 -march=x86-64-v3`: 80 -> 66 instructions, spills included (bench/README.md
//! "perf29").
//!
//! The rewrite, in a single-block loop (LoopVectorize's vector body `h`), for a
//! `shufflevector` `s` in `h`: each lane of `s` is traced through shuffles to its source
//! value and lane. Where a lane comes from lane `l` of a phi `pb` of `h` (`[ib, pre],
//! [L, h]`) that only `s` uses, and lane `l` of `L` traces to lane `m` of a value `x`
//! that is the latch value of another phi `p1` of `h` (`[i1, pre], [x, h]`), the lane
//! reads `p1`'s lane `m` instead: in every iteration after the first, `pb`'s lane `l` is
//! the last iteration's `L` lane `l`, which is the last `x`'s lane `m`, which is `p1`'s
//! lane `m` now; for the first, `p1`'s initial vector gets `ib`'s lane `l` at `m`. That
//! is allowed when no other user of `p1` reads lane `m` (or reads the value this rewrite
//! already put there). When every lane of `s` then comes from at most two values of
//! `s`'s type, `s` becomes one shuffle of them and `pb` is deleted. The values are moved,
//! not computed: the result is bit-identical.
//!
//! After the post-AD pipeline (called from `adjoint_chain::preaccumulate`), in every
//! function: derivatives are often inlined into the user's function that calls them, and
//! the functions the pass did not touch are vectorized only later (`ferrozyme cc`'s
//! deferred pipeline), so what this finds is the pipeline's output for derivative code.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

/// Folds every chained splice in every function of `module` (the plugin, after clang's
/// vectorizer: `ferrozyme cc` and `ferrozyme opt` reach [`fold_function`] through
/// `adjoint_chain::preaccumulate`); returns how many.
pub fn fold_module(module: ferrozyme_llvm::Module) -> usize {
    module
        .functions()
        .into_iter()
        .map(|f| fold_function(&f.blocks()))
        .sum()
}

/// Folds every chained splice in `blocks` (one function); returns how many.
pub fn fold_function(blocks: &[Block]) -> usize {
    let mut done = 0;
    let mut erased: Vec<Value> = Vec::new();
    // (phi, lane) -> the initial value this rewrite put there.
    let mut set: HashMap<(Value, u32), Value> = HashMap::default();
    for &b in blocks {
        let shuffles: Vec<Value> = b
            .instructions()
            .into_iter()
            .filter(|i| i.opcode() == Some(Opcode::LLVMShuffleVector))
            .collect();
        for s in shuffles {
            if erased.contains(&s) {
                continue;
            }
            if let Some(gone) = fold(s, &mut set) {
                done += 1;
                erased.extend(gone);
            }
        }
    }
    done
}

/// The source of lane `j` of `v` through shuffles: (value, lane), `None` for a poison
/// lane.
fn trace(v: Value, j: u32) -> Option<(Value, u32)> {
    let (mut v, mut j) = (v, j);
    for _ in 0..16 {
        if v.opcode() != Some(Opcode::LLVMShuffleVector) {
            break;
        }
        let n = v.operand(0).ty().vector_len();
        let m = (*v.shuffle_mask().get(j as usize)?)?;
        (v, j) = if m < n {
            (v.operand(0), m)
        } else {
            (v.operand(1), m - n)
        };
    }
    if v.is_undef() {
        return None;
    }
    Some((v, j))
}

/// A phi of a single-block loop: two incoming edges, one from its own block —
/// (index of the initial value, index of the latch value).
fn carried(p: Value) -> Option<(usize, usize)> {
    if p.opcode() != Some(Opcode::LLVMPHI) {
        return None;
    }
    let inc = p.incoming();
    let h = p.parent_block();
    if inc.len() != 2 {
        return None;
    }
    match (inc[0].1 == h, inc[1].1 == h) {
        (false, true) => Some((0, 1)),
        (true, false) => Some((1, 0)),
        _ => None,
    }
}

/// Lane `lane` of a loop's initial vector: an element of a constant, or the element an
/// `insertelement` at that constant index put there.
fn lane_of(v: Value, lane: u32) -> Option<Value> {
    if v.is_constant() {
        return v.const_element(lane);
    }
    if v.opcode() == Some(Opcode::LLVMInsertElement) {
        let at = v.operand(2).const_int_value()?;
        return if at == i64::from(lane) {
            Some(v.operand(1))
        } else {
            lane_of(v.operand(0), lane)
        };
    }
    None
}

/// The lanes of `p` that `u` reads (all of them unless `u` is a shuffle).
fn lanes_read(u: Value, p: Value) -> Vec<u32> {
    let n = p.ty().vector_len();
    if u.opcode() != Some(Opcode::LLVMShuffleVector) {
        return (0..n).collect();
    }
    let mut out = Vec::new();
    for m in u.shuffle_mask().into_iter().flatten() {
        if m < n && u.operand(0) == p {
            out.push(m);
        }
        if m >= n && u.operand(1) == p {
            out.push(m - n);
        }
    }
    out
}

/// One lane's new source: the phi whose initial lane must change, and to what.
struct Moved {
    p1: Value,
    m: u32,
    init: Value,
}

/// Rewrites `s` if one of its lanes reads a phi as the module doc says; returns the
/// instructions erased.
fn fold(s: Value, set: &mut HashMap<(Value, u32), Value>) -> Option<Vec<Value>> {
    let ty = s.ty();
    if ty.has_scalable() {
        return None;
    }
    let h = s.parent_block();
    let n = ty.vector_len();
    let mut lanes: Vec<Option<(Value, u32)>> = Vec::with_capacity(n as usize);
    let mut moved: Vec<Moved> = Vec::new();
    let mut pb_seen: Option<Value> = None;
    for j in 0..n {
        let Some((src, l)) = trace(s, j) else {
            lanes.push(None);
            continue;
        };
        let phi_here = src.opcode() == Some(Opcode::LLVMPHI) && src.parent_block() == h;
        let Some((ib_at, latch_at)) = phi_here.then(|| carried(src)).flatten() else {
            lanes.push(Some((src, l)));
            continue;
        };
        let inc = src.incoming();
        // Only a phi that `s` alone reads, and only one per shuffle.
        if src.users() != vec![s] || pb_seen.is_some_and(|p| p != src) {
            lanes.push(Some((src, l)));
            continue;
        }
        let (x, m) = trace(inc[latch_at].0, l)?;
        let p1 = h.phis().into_iter().find(|&p| {
            p != src
                && p.ty() == ty
                && carried(p).is_some_and(|(i0, i1)| {
                    let pi = p.incoming();
                    pi[i1].0 == x && pi[i0].1 == inc[ib_at].1
                })
        })?;
        let first = lane_of(inc[ib_at].0, l)?;
        pb_seen = Some(src);
        moved.push(Moved { p1, m, init: first });
        lanes.push(Some((p1, m)));
    }
    let pb = pb_seen?;
    let pb_latch = pb.incoming()[carried(pb)?.1].0;
    // At most two sources, each of `s`'s type.
    let mut srcs: Vec<Value> = Vec::new();
    for &(v, _) in lanes.iter().flatten() {
        if !srcs.contains(&v) {
            srcs.push(v);
        }
    }
    if srcs.len() > 2 || srcs.iter().any(|v| v.ty() != ty) || srcs.contains(&pb) {
        return None;
    }
    // The changed initial lanes: unread by other users of `p1`, or already this value.
    for mv in &moved {
        if let Some(&v) = set.get(&(mv.p1, mv.m)) {
            if v != mv.init {
                return None;
            }
            continue;
        }
        let read = mv
            .p1
            .users()
            .into_iter()
            .filter(|&u| u != s)
            .any(|u| lanes_read(u, mv.p1).contains(&mv.m));
        if read {
            return None;
        }
    }
    let ctx = ty.context();
    let idx = |i: u32| ctx.i32().const_int(u64::from(i));
    for mv in &moved {
        if set.contains_key(&(mv.p1, mv.m)) {
            continue;
        }
        let (i0, _) = carried(mv.p1)?;
        let (i1, pre) = mv.p1.incoming()[i0];
        let fresh = if i1.is_constant() && mv.init.is_constant() {
            let elems: Vec<Value> = (0..n)
                .map(|i| {
                    if i == mv.m {
                        Some(mv.init)
                    } else {
                        i1.const_element(i)
                    }
                })
                .collect::<Option<_>>()?;
            Value::const_vector(&elems)
        } else {
            let b = Builder::new(ctx);
            b.position_before(pre.terminator()?);
            b.insert_element(i1, mv.init, idx(mv.m))
        };
        mv.p1.set_operand(i0 as u32, fresh);
        set.insert((mv.p1, mv.m), mv.init);
    }
    let a = srcs[0];
    let b2 = srcs.get(1).copied().unwrap_or_else(|| ty.poison());
    let mask: Vec<Value> = lanes
        .iter()
        .map(|l| match l {
            None => ctx.i32().poison(),
            Some((v, k)) if *v == a => idx(*k),
            Some((_, k)) => idx(n + k),
        })
        .collect();
    let identity = srcs.len() == 1
        && lanes
            .iter()
            .enumerate()
            .all(|(j, l)| *l == Some((a, j as u32)));
    let folded = if identity {
        a
    } else {
        let b = Builder::new(ctx);
        b.position_before(s);
        b.shuffle_vector(a, b2, Value::const_vector(&mask))
    };
    // Operands of `s` that may die with it.
    let operands = [s.operand(0), s.operand(1)];
    s.replace_all_uses_with(folded);
    let mut gone = vec![s];
    s.erase();
    pb.erase();
    gone.push(pb);
    for v in operands.into_iter().chain([pb_latch]) {
        // `pb` (operand 0, typically) is freed already: look at it no more.
        if !gone.contains(&v)
            && v.is_instruction()
            && v.opcode() == Some(Opcode::LLVMShuffleVector)
            && v.users().is_empty()
        {
            v.erase();
            gone.push(v);
        }
    }
    Some(gone)
}

#[cfg(test)]
mod tests {
    use super::*;

    use ferrozyme_llvm::Module;

    use crate::test_ir::parse;

    /// A loop of LoopVectorize's shape carrying `x` one, two and three iterations back
    /// (`%s1`, `%s2`, `%s3`), `%s3`'s phi starting from a value computed before the loop.
    const CHAIN: &str = r#"
define void @f(ptr %p, double %init3) {
entry:
  %i3 = insertelement <4 x double> poison, double %init3, i64 3
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %v1 = phi <4 x double> [ <double poison, double poison, double poison, double -0.0>, %entry ], [ %x, %body ]
  %v2 = phi <4 x double> [ <double poison, double poison, double poison, double 1.0>, %entry ], [ %s1, %body ]
  %v3 = phi <4 x double> [ %i3, %entry ], [ %s2, %body ]
  %a = getelementptr double, ptr %p, i64 %i
  %x = load <4 x double>, ptr %a
  %s1 = shufflevector <4 x double> %v1, <4 x double> %x, <4 x i32> <i32 3, i32 4, i32 5, i32 6>
  %s2 = shufflevector <4 x double> %v2, <4 x double> %s1, <4 x i32> <i32 3, i32 4, i32 5, i32 6>
  %s3 = shufflevector <4 x double> %v3, <4 x double> %s2, <4 x i32> <i32 3, i32 4, i32 5, i32 6>
  %t = fadd <4 x double> %s1, %s2
  %u = fadd <4 x double> %t, %s3
  store <4 x double> %u, ptr %a
  %i.next = add i64 %i, 4
  %c = icmp eq i64 %i.next, 64
  br i1 %c, label %exit, label %body
exit:
  ret void
}
"#;

    /// Two and three back become shifts of `(%v1, %x)` by 2 and 3; `%v1`'s initial lanes
    /// take the deleted phis' last lanes (a constant, then an `insertelement` before the
    /// loop for the value computed there).
    #[test]
    fn chain_folds_into_shifts_of_the_first_pair() {
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, CHAIN);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        assert_eq!(fold_function(&f.blocks()), 2);
        assert!(module.verify().is_ok(), "{}", f);
        let text = f.to_string();
        assert!(!text.contains("%v2 ="), "{text}");
        assert!(!text.contains("%v3 ="), "{text}");
        assert!(
            text.contains(
                "<4 x double> %v1, <4 x double> %x, <4 x i32> <i32 2, i32 3, i32 4, i32 5>"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "<4 x double> %v1, <4 x double> %x, <4 x i32> <i32 1, i32 2, i32 3, i32 4>"
            ),
            "{text}"
        );
        // Lane 2 from %v2's initial lane 3, lane 1 from %v3's (the argument).
        assert!(
            text.contains(
                "<double poison, double poison, double 1.000000e+00, double -0.000000e+00>"
            ),
            "{text}"
        );
        assert!(text.contains("double %init3, i32 1"), "{text}");
    }

    /// A lane of `%v1` that something else reads whole (an `extractelement`) cannot take
    /// another initial value: nothing changes.
    #[test]
    fn refused_where_the_lane_is_read_elsewhere() {
        let ir = CHAIN.replace(
            "  %t = fadd",
            "  %e = extractelement <4 x double> %v1, i64 2\n  store double %e, ptr %p\n  %t = fadd",
        );
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, &ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        assert_eq!(fold_function(&f.blocks()), 0);
        assert!(f.to_string().contains("%v2 = phi"));
    }

    /// A phi whose value another instruction uses too stays (it is not only the splice's).
    #[test]
    fn refused_where_the_carried_splice_is_used() {
        let ir = CHAIN.replace(
            "%t = fadd <4 x double> %s1, %s2",
            "%t = fadd <4 x double> %v2, %s2",
        );
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, &ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f exists");
        // %s2 keeps %v2 (used by %t); %s3's lanes would then come from three values
        // (%v1, %v2, %x): no single shuffle, nothing changes.
        assert_eq!(fold_function(&f.blocks()), 0);
        assert!(module.verify().is_ok(), "{}", f);
        assert!(f.to_string().contains("%v2 = phi"));
    }
}
