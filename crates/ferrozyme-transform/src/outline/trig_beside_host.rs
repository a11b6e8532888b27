//! A piece's cosine or sine placed beside the host's sine or cosine of the same argument
//! (issue 18, `bench/compile_scaling`'s `big`).
//!
//! The reverse sweep of `a += c * sin(b * c + k)` needs `cos(b * c + k)`; in `big`'s merged
//! gradient the forward sweep's `sin` stays in the host's entry block and the reverse
//! block's `cos` would move into an outlined piece, so code generation, which turns a `sin`
//! and a `cos` of one operand in one block into one `sincos` call (where the target's
//! library has it and the calls do not set `errno`), sees them in different functions.
//! [`place_beside_host`] takes such a call out of the piece it would move into and puts it
//! right after the host's call of its partner; the piece gets its result as a parameter
//! instead of the argument.
//!
//! Only the `llvm.sin`/`llvm.cos` intrinsics of a scalar move (no memory, speculatable: run
//! earlier, on a path where the reverse block might not follow, they compute the same value
//! and nothing else); the host's partner may be the intrinsic or the libm call. The host's
//! call must dominate the piece: it is in a block that dominates the piece's (not, say,
//! in the branch LLVM's libcall shrink-wrapping puts an unused `sin` under), or in the
//! piece's own block before the piece and in no piece itself.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{Block, Builder, Opcode, Value};

/// Which of the pair a call computes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Trig {
    Sin,
    Cos,
}

impl Trig {
    /// The other of the pair.
    pub fn partner(self) -> Trig {
        match self {
            Trig::Sin => Trig::Cos,
            Trig::Cos => Trig::Sin,
        }
    }
}

/// How a trigonometric callee computes: the intrinsic (no memory, speculatable) or the
/// C library's function (may set `errno`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TrigCallee {
    Intrinsic,
    Libm,
}

/// The function a callee of this name computes on one scalar (`double` or `float`).
pub fn trig_of_name(name: &str) -> Option<(Trig, TrigCallee)> {
    match name {
        "sin" | "sinf" => Some((Trig::Sin, TrigCallee::Libm)),
        "cos" | "cosf" => Some((Trig::Cos, TrigCallee::Libm)),
        "llvm.sin.f64" | "llvm.sin.f32" => Some((Trig::Sin, TrigCallee::Intrinsic)),
        "llvm.cos.f64" | "llvm.cos.f32" => Some((Trig::Cos, TrigCallee::Intrinsic)),
        _ => None,
    }
}

/// `i`'s function and argument when it is a direct call of a scalar sin or cos.
fn trig_call(i: Value) -> Option<(Trig, TrigCallee, Value)> {
    if i.opcode() != Some(Opcode::LLVMCall) || i.is_inline_asm_call() {
        return None;
    }
    let callee = i.called_function()?;
    let (trig, how) = trig_of_name(&callee.name())?;
    let arg = *i.operands().first()?;
    Some((trig, how, arg))
}

/// Moves out of `ranges` (the pieces about to be outlined from `block` of `f`, each a run
/// of consecutive instructions) every intrinsic sin or cos whose argument the host also
/// takes the partner of, placing it right after the host's call. Returns how many moved.
pub fn place_beside_host(f: Value, block: Block, ranges: &mut [Vec<Value>]) -> usize {
    let cfg = Cfg::new(f);
    let in_piece: HashSet<Value> = ranges.iter().flatten().copied().collect();
    let position: HashMap<Value, usize> = block
        .instructions()
        .into_iter()
        .enumerate()
        .map(|(k, i)| (i, k))
        .collect();
    // The host's calls, the first of each (function, argument): in the blocks that
    // dominate the pieces' block, and in that block outside the pieces.
    let mut host: HashMap<(Trig, Value), Value> = HashMap::default();
    let mut candidates = Vec::new();
    for hb in f.blocks() {
        if hb == block {
            candidates.extend(
                block
                    .instructions()
                    .into_iter()
                    .filter(|i| !in_piece.contains(i)),
            );
        } else if cfg.dominates(hb, block) {
            candidates.extend(hb.instructions());
        }
    }
    for h in candidates {
        if let Some((trig, _, arg)) = trig_call(h) {
            host.entry((trig, arg)).or_insert(h);
        }
    }
    if host.is_empty() {
        return 0;
    }
    let b = Builder::new(f.parent_module().context());
    let mut moved = 0;
    for range in ranges.iter_mut() {
        let Some(&start) = range.first().and_then(|s| position.get(s)) else {
            continue;
        };
        range.retain(|&p| {
            let Some((trig, TrigCallee::Intrinsic, arg)) = trig_call(p) else {
                return true;
            };
            let Some(&h) = host.get(&(trig.partner(), arg)) else {
                return true;
            };
            // Another block's call dominates (collected so); in the pieces' block, the
            // call must come before this piece.
            if h.parent_block() == block && !position.get(&h).is_some_and(|&k| k < start) {
                return true;
            }
            let name = p.name();
            p.remove_from_parent();
            b.position_after(h);
            b.insert(p);
            p.set_name(&name);
            moved += 1;
            false
        });
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::{place_beside_host, trig_of_name, Trig, TrigCallee};
    use crate::Module;

    #[test]
    fn names_of_the_pair() {
        assert_eq!(trig_of_name("sin"), Some((Trig::Sin, TrigCallee::Libm)));
        assert_eq!(trig_of_name("cosf"), Some((Trig::Cos, TrigCallee::Libm)));
        assert_eq!(
            trig_of_name("llvm.cos.f64"),
            Some((Trig::Cos, TrigCallee::Intrinsic))
        );
        assert_eq!(
            trig_of_name("llvm.sin.f32"),
            Some((Trig::Sin, TrigCallee::Intrinsic))
        );
        assert_eq!(trig_of_name("llvm.sin.v2f64"), None);
        assert_eq!(trig_of_name("tan"), None);
        assert_eq!(Trig::Sin.partner(), Trig::Cos);
        assert_eq!(Trig::Cos.partner(), Trig::Sin);
    }

    /// The reverse block's `cos(%a)` joins the entry block's `sin(%a)`; `cos(%c)` (no
    /// host partner) and the libm `cos(%b)` (may set errno: not moved) stay in the piece.
    #[test]
    fn piece_cosine_moves_beside_the_host_sine() {
        let ir = r#"
declare double @sin(double)
declare double @cos(double)
declare double @llvm.cos.f64(double)
define internal double @g(double %a, double %b, double %c, i1 %t) #0 {
entry:
  %s = call double @sin(double %a)
  %sb = call double @sin(double %b)
  %u = fmul double %s, %sb
  br i1 %t, label %rev, label %out
rev:
  %x = fmul double %u, 2.0
  %ca = call double @llvm.cos.f64(double %a)
  %y = fmul double %x, %ca
  %cb = call double @cos(double %b)
  %cc = call double @llvm.cos.f64(double %c)
  %z = fadd double %y, %cb
  %w = fadd double %z, %cc
  ret double %w
out:
  ret double %u
}
attributes #0 = { "ferrozyme-generated" }
"#;
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let module = Module::from_inkwell(&m);
        let g = module.function("g").expect("g");
        let rev = g.blocks()[1];
        let insts = rev.instructions();
        let mut ranges = vec![insts[..insts.len() - 1].to_vec()];
        assert_eq!(place_beside_host(g, rev, &mut ranges), 1);
        let names = |r: &[ferrozyme_llvm::Value]| r.iter().map(|i| i.name()).collect::<Vec<_>>();
        assert_eq!(names(&ranges[0]), ["x", "y", "cb", "cc", "z", "w"]);
        let entry = names(&g.blocks()[0].instructions());
        assert_eq!(entry, ["s", "ca", "sb", "u", ""]);
        assert!(m.verify().is_ok());
    }
}
