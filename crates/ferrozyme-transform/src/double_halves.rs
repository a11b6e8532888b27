//! Shuffles that move doubles as pairs of 32-bit (or narrower) integer lanes, rewritten
//! as shuffles of the doubles in the clone being differentiated (`clone::preprocess`, after its inlining and SSA
//! construction, which leave the `_mm_cast*` wrappers' bitcasts next to the shuffle).
//!
//! SSE2 has no shuffle of 64-bit lanes that takes one register, so code swapping or
//! broadcasting the doubles of an `__m128d` goes through `_mm_shuffle_epi32` on the
//! register's bits: Eigen's complex-double packets (`pmul<Packet1cd>`, `vec2d_swizzle1`)
//! do, for every product of `std::complex<double>` in a vectorized expression. Without
//! optimization clang leaves `bitcast <2 x double> to <4 x i32>`, a `shufflevector` of
//! `<4 x i32>` whose mask moves aligned pairs (`<2, 3, 0, 1>`) and a bitcast back. The
//! derivative of such a shuffle is the same move of the doubles' derivatives, but the
//! integer lanes hold halves of doubles, not values of their own: read lane by lane they
//! have no derivative (which silently dropped every derivative through an Eigen complex
//! product at -O0, tests/cxx/312). The optimizer folds them into double shuffles at -O1
//! and above; this step does the same for the clone, so every level sees the double
//! shuffle.
//!
//! A shuffle is rewritten when
//! * its lanes are integers of 8, 16 or 32 bits, k = 64 / width of them per double;
//! * each operand is (through bitcasts) a vector of doubles, both of one type (an
//!   undefined second operand counts as absent);
//! * the mask moves whole doubles: every group of k result lanes is k consecutive source
//!   lanes starting at a multiple of k, or k undefined lanes.
//!
//! The rewrite shuffles the source doubles themselves; users that reinterpret the result
//! again (bitcasts, and calls of the header's cast wrappers) take the double shuffle
//! reinterpreted to their type, transitively, so no integer-lane copy of the doubles is
//! left between them; any other user gets the double shuffle bitcast back to the integer
//! type. The primal values are the same bits, so the user's program is unchanged.
//!
//! A load of integer lanes that is only read back as doubles is made a load of the doubles
//! first (`load_doubles_as_doubles`).
//!
//! "Through bitcasts" includes calls of functions that only reinterpret their argument
//! (`_mm_castpd_si128`, `_mm_castsi128_pd`: `alwaysinline` wrappers of a bitcast that
//! `--ad-before-opt` differentiates without inlining them).

use ferrozyme_llvm::{Builder, Module, Opcode, TypeKind, Value};

/// Rewrites the shuffles of doubles' halves in `f` (see the module essay).
pub fn rewrite(m: Module, f: Value) {
    load_doubles_as_doubles(m, f);
    let shuffles: Vec<(Value, Vec<Option<u32>>)> = f
        .instructions()
        .filter(|i| i.opcode() == Some(Opcode::LLVMShuffleVector))
        .filter_map(|i| double_mask(i).map(|mask| (i, mask)))
        .collect();
    if shuffles.is_empty() {
        return;
    }
    let ctx = m.context();
    let b = Builder::new(ctx);
    let i32t = ctx.i32();
    for (s, mask) in shuffles {
        let Some(a) = double_source(s.operand(0)) else {
            continue;
        };
        let second = match double_source(s.operand(1)) {
            Some(src) if src.ty() == a.ty() => src,
            Some(_) => continue,
            None => a.ty().undef(),
        };
        b.position_before(s);
        let lanes: Vec<Value> = mask
            .iter()
            .map(|m| match m {
                Some(m) => i32t.const_int(*m as u64),
                None => i32t.undef(),
            })
            .collect();
        let d = b.shuffle_vector(a, second, Value::const_vector(&lanes));
        // Users reinterpreting the result, transitively, take `d` reinterpreted.
        let mut work = s.users();
        while let Some(u) = work.pop() {
            if reinterpreted(u).is_none() || u.ty().kind() != TypeKind::Vector {
                continue;
            }
            b.position_before(u);
            let c = if u.ty() == d.ty() {
                d
            } else {
                b.bitcast(d, u.ty())
            };
            work.extend(u.users());
            u.replace_all_uses_with(c);
            u.erase();
        }
        if !s.users().is_empty() {
            b.position_before(s);
            let c = b.bitcast(d, s.ty());
            s.replace_all_uses_with(c);
        }
        s.erase();
    }
}
/// A load of integer lanes whose every user reinterprets it as a vector of doubles or
/// moves it in whole doubles (what InstCombine makes of a `Packet1cd` copy before the
/// double shuffle: `load <4 x i32>` then `bitcast` to `<2 x double>`) becomes a load of
/// the doubles: the same bits, read as what they are, so type analysis sees a float
/// access.
fn load_doubles_as_doubles(m: Module, f: Value) {
    let loads: Vec<(Value, ferrozyme_llvm::Type)> = f
        .instructions()
        .filter(|i| i.opcode() == Some(Opcode::LLVMLoad) && !i.is_volatile())
        .filter(|i| {
            let t = i.ty();
            t.kind() == TypeKind::Vector && t.element_type().int_width().is_some()
        })
        .filter_map(|i| {
            let bits = i.ty().vector_len() * i.ty().element_type().int_width()?;
            let t = m.context().vector_type(m.context().f64(), bits / 64);
            let users = i.users();
            // Read back as doubles, or moved in whole doubles (then read back as
            // doubles: `rewrite` checks the shuffles' users).
            let as_doubles = |u: &Value| {
                (u.opcode() == Some(Opcode::LLVMBitCast) && u.ty() == t) || pairs_mask(*u).is_some()
            };
            (bits % 64 == 0 && !users.is_empty() && users.iter().all(as_doubles)).then_some((i, t))
        })
        .collect();
    if loads.is_empty() {
        return;
    }
    let b = Builder::new(m.context());
    for (l, t) in loads {
        b.position_before(l);
        let d = b.load(t, l.operand(0), "");
        d.set_alignment(l.alignment());
        let mut bits = None;
        for u in l.users() {
            if u.opcode() == Some(Opcode::LLVMBitCast) {
                u.replace_all_uses_with(d);
                u.erase();
            } else {
                // A shuffle in whole doubles: it reads the doubles' bits (`rewrite`
                // then shuffles the doubles).
                let c = *bits.get_or_insert_with(|| b.bitcast(d, l.ty()));
                for k in 0..u.num_operands() {
                    if u.operand(k) == l {
                        u.set_operand(k, c);
                    }
                }
            }
        }
        l.erase();
    }
}

/// The shuffle's mask over doubles, when `s` moves whole doubles held in integer lanes
/// of 8, 16 or 32 bits and its sources are doubles (through bitcasts).
fn double_mask(s: Value) -> Option<Vec<Option<u32>>> {
    let mask = pairs_mask(s)?;
    double_source(s.operand(0))?;
    let second = s.operand(1);
    if !second.is_undef() {
        double_source(second)?;
    }
    Some(mask)
}

/// The shuffle's mask over 64-bit units, when `s` shuffles integer lanes of 8, 16 or 32
/// bits in aligned groups of 64 bits (whatever its sources).
fn pairs_mask(s: Value) -> Option<Vec<Option<u32>>> {
    if s.opcode() != Some(Opcode::LLVMShuffleVector) {
        return None;
    }
    let ty = s.ty();
    if ty.kind() != TypeKind::Vector {
        return None;
    }
    let w = ty.element_type().int_width()?;
    if !matches!(w, 8 | 16 | 32) {
        return None;
    }
    let k = 64 / w;
    if s.operand(0).ty().vector_len() % k != 0 || ty.vector_len() % k != 0 {
        return None;
    }
    let mask = s.shuffle_mask();
    mask.chunks(k as usize)
        .map(|g| match g[0] {
            None if g.iter().all(|m| m.is_none()) => Some(None),
            Some(first) if first % k == 0 => g
                .iter()
                .enumerate()
                .all(|(j, m)| *m == Some(first + j as u32))
                .then_some(Some(first / k)),
            _ => None,
        })
        .collect()
}

/// The vector of doubles that `v` reinterprets through a chain of bitcasts, if any.
fn double_source(v: Value) -> Option<Value> {
    let mut cur = v;
    for _ in 0..8 {
        let t = cur.ty();
        if t.kind() == TypeKind::Vector
            && t.element_type().is_fp()
            && t.element_type().fp_bits() == 64
        {
            return Some(cur);
        }
        cur = reinterpreted(cur)?;
    }
    None
}

/// The value `v` holds the bits of: the operand of a bitcast, the argument of a call of
/// a function that only reinterprets its argument.
fn reinterpreted(v: Value) -> Option<Value> {
    match v.opcode()? {
        Opcode::LLVMBitCast => Some(v.operand(0)),
        Opcode::LLVMCall => {
            let callee = v.called_function()?;
            let args = v.call_args();
            (args.len() == 1 && reinterprets_argument(callee)).then(|| args[0])
        }
        _ => None,
    }
}

/// Does `f` return its one argument's bits as another type of the same size, and do
/// nothing else? (`_mm_castpd_si128` unoptimized: the argument stored to a slot, loaded
/// back, bitcast, returned.)
fn reinterprets_argument(f: Value) -> bool {
    if f.is_declaration() {
        return false;
    }
    let params = f.params();
    let blocks = f.blocks();
    if params.len() != 1 || blocks.len() != 1 {
        return false;
    }
    let p = params[0];
    let insts = blocks[0].instructions();
    let Some(ret) = insts.last().filter(|r| r.opcode() == Some(Opcode::LLVMRet)) else {
        return false;
    };
    if ret.num_operands() != 1
        || p.ty().kind() != TypeKind::Vector
        || ret.operand(0).ty().kind() != TypeKind::Vector
    {
        return false;
    }
    // Only slots, stores of the argument into them, loads, bitcasts and the return.
    let plain = insts.iter().all(|i| match i.opcode() {
        Some(Opcode::LLVMAlloca) | Some(Opcode::LLVMLoad) | Some(Opcode::LLVMBitCast) => true,
        Some(Opcode::LLVMStore) => {
            i.operand(0) == p && i.operand(1).opcode() == Some(Opcode::LLVMAlloca)
        }
        Some(Opcode::LLVMRet) => true,
        _ => false,
    });
    if !plain {
        return false;
    }
    let mut cur = ret.operand(0);
    for _ in 0..8 {
        if cur == p {
            return true;
        }
        cur = match cur.opcode() {
            Some(Opcode::LLVMBitCast) => cur.operand(0),
            // A load of a slot whose one store is the argument's.
            Some(Opcode::LLVMLoad) if cur.operand(0).opcode() == Some(Opcode::LLVMAlloca) => {
                let slot = cur.operand(0);
                let stores: Vec<Value> = slot
                    .users()
                    .into_iter()
                    .filter(|u| u.opcode() == Some(Opcode::LLVMStore))
                    .collect();
                if stores.len() != 1 || stores[0].operand(0) != p || p.ty() != cur.ty() {
                    return false;
                }
                p
            }
            _ => return false,
        };
    }
    false
}
