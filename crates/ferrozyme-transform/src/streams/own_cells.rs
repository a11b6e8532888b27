//! A proof that each iteration of a single-block loop touches only its own cells of an
//! object (issue 14, brus26: the periodic-`if` Brusselator at users' `-O2 -ffast-math`).
//!
//! `streams/upward.rs` runs a falling loop upwards when its iterations commute. A plain
//! store (the read-and-zero of a seed's cell) commutes with the other iterations'
//! accesses only if no other iteration reaches the bytes it writes. Its first rule took
//! one address per object. The periodic Brusselator's seeds are two blocks of one
//! object (`du = out`, `dv = out + N N`), read and zeroed at `out + 8 j` and `out + 8 N N
//! + 8 j` in one iteration. Here every access of the object is read as a byte offset
//! from the object, `rest + a c + k` (`rest` the same loop-invariant terms for all, `a`
//! the same non-zero bytes per step of the counter `c`, `k` a constant per access, of
//! `size` bytes), and iterations `c` and `c + d` (`0 < |d| <= R`, `R` the counter's
//! span, unbounded when unknown) are shown to touch disjoint bytes: for every pair of
//! accesses, no such `d` puts `a d` in the open interval `(k_j - k_i - size_i, k_j - k_i
//! + size_j)`.
//!
//! [`separate_blocks`] narrows this to cells in blocks apart over the whole span (what
//! `streams/upward.rs` takes; interleaved lanes are slower run upwards). Only analysis:
//! nothing is rewritten here.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Module, Opcode, Value};

use crate::affine_index::{form, Counter, Form};

/// One access of an object in the loop: bytes `[rest + coef c + konst, ... + size)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    /// The object the address is derived from by GEPs.
    pub object: Value,
    /// Loop-invariant terms of the byte offset (leaves and their coefficients).
    pub rest: HashMap<Value, i128>,
    /// Bytes per step of the counter.
    pub coef: i128,
    /// The constant bytes of the offset.
    pub konst: i128,
    /// Bytes read or written.
    pub size: i128,
}

/// The byte offset of `p` from the object it is derived from by single-index GEPs,
/// exact over the integers (`None` where an element size is unknown or a GEP has
/// several indices).
fn byte_form(m: Module, p: Value, ctr: &Counter) -> Option<(Value, Form)> {
    let mut off = Form {
        konst: 0,
        terms: HashMap::default(),
    };
    let mut p = p;
    while p.opcode() == Some(Opcode::LLVMGetElementPtr) {
        if p.num_operands() != 2 {
            return None;
        }
        let size = m.alloc_size(p.gep_source_type()) as i128;
        if size == 0 {
            return None;
        }
        off = off.add(&form(p.operand(1), ctr, 12).scale(size), 1);
        p = p.operand(0);
    }
    Some((p, off))
}

/// The cell of an access of `size` bytes at `p` in loop `b` (of module `m`) with
/// counter `ctr.iv`: `None` unless its byte offset is affine in the counter and every
/// other term is defined outside the loop.
pub(crate) fn cell(m: Module, p: Value, size: u64, b: Block, ctr: &Counter) -> Option<Cell> {
    let (object, mut f) = byte_form(m, p, ctr)?;
    let in_loop = |v: &Value| v.is_instruction() && v.parent_block() == b;
    let coef = f.terms.remove(&ctr.iv).unwrap_or(0);
    if f.terms.keys().any(in_loop) || size == 0 {
        return None;
    }
    Some(Cell {
        object,
        rest: f.terms,
        coef,
        konst: f.konst,
        size: size as i128,
    })
}

/// Whether the accesses `cells` (all of one object) of the iterations of a counter
/// with span `span` (largest distance between two of its values; `None`: unknown) are
/// such that no two iterations touch a common byte.
pub(crate) fn own_cells(cells: &[Cell], span: Option<i128>) -> bool {
    let Some(first) = cells.first() else {
        return true;
    };
    let (a, rest) = (first.coef, &first.rest);
    if a == 0 || cells.iter().any(|c| c.coef != a || c.rest != *rest) {
        return false;
    }
    cells.iter().all(|ci| {
        cells.iter().all(|cj| {
            // Iteration `c + d`'s access i meets iteration `c`'s access j iff `a d`
            // lies in the open interval (lo, hi).
            let lo = cj.konst - ci.konst - ci.size;
            let hi = cj.konst - ci.konst + cj.size;
            !meets(a, lo, hi, span)
        })
    })
}

/// Whether own cells `cells` (see [`own_cells`]) lie in separate blocks: two accesses at
/// different constants never meet over the whole span, in one iteration or two
/// (`du[j]` and `dv[j]` of one `out`), where interleaved lanes (`out[2 j]`, `out[2 j +
/// 1]`) meet the other lane's range. Interleaved seeds are own cells too, but the
/// interleaved Brusselator's reverse loop run upwards measured slower (instructions per
/// gradient 100.1k -> 106.0k at `-O2 -ffast-math`, 121.4k -> 126.1k at the harness
/// flags; bench/README "brus26"), so `stream_upward` takes blocks only. With an unknown
/// span, only one constant.
pub(crate) fn separate_blocks(cells: &[Cell], span: Option<i128>) -> bool {
    cells.iter().all(|ci| {
        cells.iter().all(|cj| {
            if ci.konst == cj.konst {
                return true;
            }
            let Some(r) = span else { return false };
            // The bytes each access reaches over the span: [lo, hi).
            let reach = |c: &Cell| {
                let (x, y) = (c.konst, c.konst + c.coef * r);
                (x.min(y), x.max(y) + c.size)
            };
            let ((lo_i, hi_i), (lo_j, hi_j)) = (reach(ci), reach(cj));
            hi_i <= lo_j || hi_j <= lo_i
        })
    })
}

/// Whether some `d != 0` with `|d| <= span` has `lo < a d < hi` (`a != 0`).
fn meets(a: i128, lo: i128, hi: i128, span: Option<i128>) -> bool {
    let (lo, hi) = if a > 0 { (lo, hi) } else { (-hi, -lo) };
    let a = a.abs();
    // Integers d with lo < a d < hi: floor(lo / a) + 1 ..= ceil(hi / a) - 1.
    let mut dmin = lo.div_euclid(a) + 1;
    let mut dmax = -((-hi).div_euclid(a)) - 1;
    if let Some(r) = span {
        dmin = dmin.max(-r);
        dmax = dmax.min(r);
    }
    dmin <= dmax && !(dmin == 0 && dmax == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_ir::parse;

    fn c(object: Value, konst: i128, coef: i128, size: i128) -> Cell {
        Cell {
            object,
            rest: HashMap::default(),
            coef,
            konst,
            size,
        }
    }

    /// Runs `t` with a value to stand for the object (a function's parameter): the
    /// arithmetic of `own_cells` does not look at it.
    fn with_object(t: impl FnOnce(Value)) {
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, "define void @f(ptr %p) {\n  ret void\n}\n");
        let module = Module::from_inkwell(&m);
        t(module.function("f").expect("f").params()[0]);
    }

    /// The periodic Brusselator's seeds: `out + 8 j` and `out + 8 N N + 8 j` (N = 32,
    /// j over 0..=31) are apart; with an unknown span they are not (iteration j + 1024
    /// of the first meets iteration j of the second).
    #[test]
    fn two_blocks_apart_within_the_span() {
        with_object(|o| {
            let cells = [c(o, 0, 8, 8), c(o, 8192, 8, 8)];
            assert!(own_cells(&cells, Some(31)));
            assert!(own_cells(&cells, Some(1023)));
            assert!(!own_cells(&cells, Some(1024)));
            assert!(!own_cells(&cells, None));
        });
    }

    /// Interleaved cells (`out[2 j]`, `out[2 j + 1]`: 16 bytes a step) never meet;
    /// two cells a step with 8 bytes a step do (iteration j + 1's first is j's second);
    /// an access wider than the step meets the next iteration's; a counter that steps
    /// downwards (`a < 0`) the same.
    #[test]
    fn own_cells_by_step_and_size() {
        with_object(|o| {
            assert!(own_cells(&[c(o, 0, 16, 8), c(o, 8, 16, 8)], None));
            assert!(!own_cells(&[c(o, 0, 8, 8), c(o, 8, 8, 8)], None));
            assert!(!own_cells(&[c(o, 0, 8, 16)], None));
            assert!(own_cells(&[c(o, 0, 8, 8)], None));
            assert!(own_cells(&[c(o, 0, -16, 8), c(o, 8, -16, 8)], None));
            assert!(!own_cells(&[c(o, 0, -8, 8), c(o, 8, -8, 8)], Some(3)));
            assert!(own_cells(&[c(o, 0, -8, 8), c(o, -8192, -8, 8)], Some(31)));
            // A fixed cell (no counter term) is every iteration's.
            assert!(!own_cells(&[c(o, 0, 0, 8)], Some(31)));
            // Different steps are not compared.
            assert!(!own_cells(&[c(o, 0, 8, 8), c(o, 8192, 16, 8)], Some(31)));
        });
    }

    /// Blocks apart over the span (the periodic Brusselator's du and dv) against
    /// interleaved lanes (own cells, but not blocks) and an unknown span.
    #[test]
    fn blocks_not_lanes() {
        with_object(|o| {
            let blocks = [c(o, 0, 8, 8), c(o, 8192, 8, 8), c(o, 0, 8, 8)];
            assert!(separate_blocks(&blocks, Some(31)));
            assert!(separate_blocks(&blocks, Some(1023)));
            assert!(!separate_blocks(&blocks, Some(1024)));
            assert!(!separate_blocks(&blocks, None));
            let lanes = [c(o, 0, 16, 8), c(o, 8, 16, 8)];
            assert!(own_cells(&lanes, Some(31)));
            assert!(!separate_blocks(&lanes, Some(31)));
            assert!(separate_blocks(&[c(o, 0, 8, 8)], None));
            assert!(separate_blocks(
                &[c(o, 0, -8, 8), c(o, -8192, -8, 8)],
                Some(31)
            ));
        });
    }

    /// Cells read from IR: the byte offsets through a chain of GEPs (an `i8` GEP of the
    /// second block, a `double` GEP by the counter, a row term invariant in the loop);
    /// a term defined in the loop (a load) makes no cell.
    #[test]
    fn cells_from_geps() {
        let ir = r#"
target datalayout = "e-m:e-i64:64-n8:16:32:64-S128"
define void @f(ptr %out, i64 %row, ptr %idx) {
entry:
  %v = getelementptr inbounds i8, ptr %out, i64 8192
  %r = shl nsw i64 %row, 5
  br label %loop
loop:
  %c = phi i64 [ 31, %entry ], [ %n, %loop ]
  %i = add nsw i64 %c, %r
  %pu = getelementptr inbounds double, ptr %out, i64 %i
  %pv = getelementptr inbounds double, ptr %v, i64 %i
  %k = load i64, ptr %idx
  %ik = add nsw i64 %c, %k
  %pk = getelementptr inbounds double, ptr %out, i64 %ik
  store double 0.0, ptr %pu
  store double 0.0, ptr %pv
  store double 0.0, ptr %pk
  %n = add nsw i64 %c, -1
  %done = icmp eq i64 %n, -1
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"#;
        let ctx = inkwell::context::Context::create();
        let m = parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("f");
        let b = f
            .blocks()
            .into_iter()
            .find(|b| b.name() == "loop")
            .expect("loop");
        let by_name = |n: &str| {
            b.instructions()
                .into_iter()
                .find(|i| i.name() == n)
                .expect("named")
        };
        let ctr = Counter {
            iv: by_name("c"),
            lo: 0,
            hi: 31,
        };
        let u = cell(module, by_name("pu"), 8, b, &ctr).expect("u cell");
        let v = cell(module, by_name("pv"), 8, b, &ctr).expect("v cell");
        assert_eq!(u.object, f.params()[0]);
        assert_eq!(v.object, f.params()[0]);
        assert_eq!((u.coef, u.konst, v.coef, v.konst), (8, 0, 8, 8192));
        assert_eq!(u.rest, v.rest);
        assert_eq!(u.rest.values().copied().collect::<Vec<_>>(), vec![256]);
        assert!(own_cells(&[u.clone(), v], Some(31)));
        assert!(cell(module, by_name("pk"), 8, b, &ctr).is_none());
    }
}
