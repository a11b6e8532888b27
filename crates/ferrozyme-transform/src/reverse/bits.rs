//! Reverse of integer operations on floats carried in integers: lane moves of a float
//! pair packed into an `i64`, and sign-bit tricks on a float's bits.
//!
//! Magic-constant seeds (Quake's fast inverse square root `i = 0x5f3759df - (i >> 1)`,
//! the cube-root seed `i / 3 + K`) are understood too, as Enzyme understands them: the
//! integer part is an initial guess whose derivative is zero (its result is inactive
//! in activity analysis: shifts and divisions do not carry a float's derivative), and
//! the Newton steps that follow in floating point carry the whole derivative.

use ferrozyme_llvm::{Opcode, Value};

use super::Gen;

/// What a constant sign-bit mask does to one lane of a float carried in an integer
/// (scalar or vector): Eigen's SSE code negates and takes absolute values lane by lane
/// with `xor`/`and` on `<2 x i64>` (`_mm_xor_pd` with `<0, signbit>` in its 4x4 inverse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneSign {
    /// `xor 0`, `and -1`, `or 0`: the lane unchanged.
    Keep,
    /// `xor signbit`: -x.
    Negate,
    /// `and ~signbit`: fabs(x).
    Abs,
    /// `or signbit`: -fabs(x).
    NegAbs,
}

/// The per-lane effect of `xor/and/or` with a constant mask on integers of 32 or 64 bits
/// (scalars or vectors), when every lane is a sign-bit trick or unchanged.
pub(crate) fn sign_lanes(i: Value) -> Option<Vec<LaneSign>> {
    let op = i.opcode()?;
    if !matches!(op, Opcode::LLVMXor | Opcode::LLVMAnd | Opcode::LLVMOr) {
        return None;
    }
    let ty = i.ty();
    let (w, n) = if ty.kind() == ferrozyme_llvm::TypeKind::Vector {
        (ty.element_type().int_width()?, Some(ty.vector_len()))
    } else {
        (ty.int_width()?, None)
    };
    let (sign, mag) = match w {
        64 => (i64::MIN, i64::MAX),
        32 => (i32::MIN as i64, i32::MAX as i64),
        _ => return None,
    };
    let k = i.operand(1);
    let elems: Vec<i64> = match n {
        None => vec![k.const_int_value()?],
        Some(n) => (0..n)
            .map(|j| k.const_element(j).and_then(|e| e.const_int_value()))
            .collect::<Option<Vec<i64>>>()?,
    };
    let lanes: Vec<LaneSign> = elems
        .into_iter()
        .map(|e| match op {
            Opcode::LLVMXor if e == 0 => Some(LaneSign::Keep),
            Opcode::LLVMXor if e == sign => Some(LaneSign::Negate),
            Opcode::LLVMAnd if e == -1 => Some(LaneSign::Keep),
            Opcode::LLVMAnd if e == mag => Some(LaneSign::Abs),
            Opcode::LLVMOr if e == 0 => Some(LaneSign::Keep),
            Opcode::LLVMOr if e == sign => Some(LaneSign::NegAbs),
            _ => None,
        })
        .collect::<Option<Vec<LaneSign>>>()?;
    lanes.iter().any(|l| *l != LaneSign::Keep).then_some(lanes)
}

/// Integer operations that can move the bits of a float carried in an integer (what
/// [`Gen::rev_lane_op`] reverses).
pub(super) fn moves_bits(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        LLVMTrunc | LLVMZExt | LLVMLShr | LLVMShl | LLVMOr | LLVMAnd | LLVMXor
    )
}

/// Recognises `xor/and/or` of a scalar integer with the sign-bit mask of its width: the
/// one lane of [`sign_lanes`] (never [`LaneSign::Keep`]).
pub(super) fn sign_trick(i: Value) -> Option<LaneSign> {
    if i.ty().kind() == ferrozyme_llvm::TypeKind::Vector {
        return None;
    }
    match sign_lanes(i)?[..] {
        [l] => Some(l),
        _ => None,
    }
}

/// A shift or division of a float's bits by a constant whose every user adds the result
/// to, or subtracts it from, an integer constant: the seed of a magic-constant
/// approximation (`0x5f3759df - (i >> 1)`, `0x5fe6eb50c7b537a9 - (i >> 1)`,
/// `i / 3 + 709921077`). Its derivative is zero by design.
pub(crate) fn magic_seed(i: Value) -> bool {
    use Opcode::*;
    let Some(op) = i.opcode() else { return false };
    if !matches!(op, LLVMLShr | LLVMAShr | LLVMSDiv | LLVMUDiv)
        || !matches!(i.ty().int_width(), Some(32) | Some(64))
        || i.operand(1).const_int_value().is_none()
    {
        return false;
    }
    let users = i.users();
    !users.is_empty()
        && users.iter().all(|u| match u.opcode() {
            Some(LLVMSub) => u.operand(1) == i && u.operand(0).const_int_value().is_some(),
            Some(LLVMAdd) => {
                let other = if u.operand(0) == i {
                    u.operand(1)
                } else {
                    u.operand(0)
                };
                other.const_int_value().is_some()
            }
            _ => false,
        })
}

/// A right shift of a float's bits by at least the mantissa width (`lshr i64 %bits, 52`
/// of a `double`, `lshr i32 %bits, 23` of a `float`): what is left is the sign and the
/// exponent, a step function of the value that changes only at powers of two, so its
/// derivative is zero (hand-written `log`/`frexp` range reductions read the exponent this
/// way through a `union`, tests/c/937). Activity analysis already gives the result no
/// derivative (it is not a lane move); this names it as understood. Not for a packed
/// float pair (the caller's check), whose high float keeps mantissa bits below bit 55.
pub(crate) fn exponent_field(i: Value) -> bool {
    use Opcode::*;
    if !matches!(i.opcode(), Some(LLVMLShr | LLVMAShr)) {
        return false;
    }
    let mantissa = match i.ty().int_width() {
        Some(64) => 52,
        Some(32) => 23,
        Some(16) => 10,
        _ => return false,
    };
    i.operand(1)
        .const_int_value()
        .is_some_and(|k| k >= mantissa)
}

impl Gen<'_> {
    /// Integer operations on floats carried in integers: lane moves of a packed float
    /// pair (`trunc`, `zext`, `lshr/shl 32`, `or`, `and` with a lane mask) and sign-bit
    /// tricks (`xor` = negate, `and ~sign` = fabs, `or sign` = -fabs).
    pub(super) fn rev_lane_op(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        let d = self.take_adj(i);
        let x = i.operand(0);
        let i32t = self.fx.ctx.i32();
        let lane = |g: &mut Self, v: Value, k: u64| g.b.extract_element(v, i32t.const_int(k));
        let pair = |g: &mut Self, l0: Option<Value>, l1: Option<Value>| {
            let f = g.fx.ctx.f32();
            let mut v = g.fx.ctx.vector_type(f, 2).zero();
            if let Some(a) = l0 {
                v = g.b.insert_element(v, a, i32t.const_int(0));
            }
            if let Some(b) = l1 {
                v = g.b.insert_element(v, b, i32t.const_int(1));
            }
            v
        };
        let packed_in = self.fx.act.packed.contains(&x);
        let packed_out = self.fx.act.packed.contains(&i);
        match op {
            LLVMTrunc if packed_in => {
                let v = pair(self, Some(d), None);
                self.add_adj(x, v);
            }
            LLVMZExt if packed_out => {
                let l0 = lane(self, d, 0);
                self.add_adj(x, l0);
            }
            LLVMLShr if packed_out => {
                // r.lane0 = x.lane1
                let l0 = lane(self, d, 0);
                let v = pair(self, None, Some(l0));
                self.add_adj(x, v);
            }
            LLVMShl if packed_out => {
                // r.lane1 = x.lane0
                let l1 = lane(self, d, 1);
                let v = pair(self, Some(l1), None);
                self.add_adj(x, v);
            }
            LLVMOr | LLVMAnd | LLVMXor if packed_out => {
                let y = i.operand(1);
                if op == LLVMAnd {
                    // A lane mask keeps the lanes whose 32 bits are all ones.
                    let m = y.const_int_value().unwrap_or(-1) as u64;
                    let keep0 = m & 0xFFFF_FFFF == 0xFFFF_FFFF;
                    let keep1 = m >> 32 == 0xFFFF_FFFF;
                    let a = if keep0 { Some(lane(self, d, 0)) } else { None };
                    let b = if keep1 { Some(lane(self, d, 1)) } else { None };
                    let v = pair(self, a, b);
                    self.add_adj(x, v);
                } else {
                    // Disjoint lanes (`zext a | (zext b << 32)`): each side gets the whole
                    // adjoint; the lane moves above keep only their own lane.
                    self.add_adj(x, d);
                    self.add_adj(y, d);
                }
            }
            LLVMXor | LLVMAnd | LLVMOr => match sign_trick(i) {
                Some(LaneSign::Negate) => {
                    let n = self.b.fneg(d);
                    self.add_adj(x, n);
                }
                Some(trick) => {
                    let fty = self.adj_ty(x);
                    let xv = self.fetch(x);
                    let xf = self.b.bitcast(xv, fty);
                    let cs = self
                        .fx
                        .m
                        .intrinsic("llvm.copysign", &[fty])
                        .expect("llvm.copysign exists");
                    let s = self.b.call_fn(cs, &[fty.const_float(1.0), xf]);
                    let s = if trick == LaneSign::NegAbs {
                        self.b.fneg(s)
                    } else {
                        s
                    };
                    let v = self.b.fmul(d, s);
                    self.add_adj(x, v);
                }
                None => {
                    if let Some(lanes) = sign_lanes(i) {
                        self.rev_sign_lanes(x, d, &lanes);
                    }
                }
            },
            _ => {}
        }
    }

    /// The adjoint of a vector of lane-wise sign tricks ([`sign_lanes`]): `d` times +-1
    /// on kept and negated lanes, times +-copysign(1, x) on absolute-value lanes.
    fn rev_sign_lanes(&mut self, x: Value, d: Value, lanes: &[LaneSign]) {
        let fty = self.adj_ty(x);
        let ety = if fty.kind() == ferrozyme_llvm::TypeKind::Vector {
            fty.element_type()
        } else {
            fty
        };
        let splat = |f: &dyn Fn(LaneSign) -> f64| -> Value {
            let v: Vec<Value> = lanes.iter().map(|&l| ety.const_float(f(l))).collect();
            if v.len() == 1 && fty.kind() != ferrozyme_llvm::TypeKind::Vector {
                v[0]
            } else {
                Value::const_vector(&v)
            }
        };
        let fixed = splat(&|l| match l {
            LaneSign::Keep => 1.0,
            LaneSign::Negate => -1.0,
            _ => 0.0,
        });
        let s = if lanes
            .iter()
            .any(|l| matches!(l, LaneSign::Abs | LaneSign::NegAbs))
        {
            let by_sign = splat(&|l| match l {
                LaneSign::Abs => 1.0,
                LaneSign::NegAbs => -1.0,
                _ => 0.0,
            });
            let xv = self.fetch(x);
            let xf = self.b.bitcast(xv, fty);
            let cs = self
                .fx
                .m
                .intrinsic("llvm.copysign", &[fty])
                .expect("llvm.copysign exists");
            let one = splat(&|_| 1.0);
            let c = self.b.call_fn(cs, &[one, xf]);
            let c = self.b.fmul(c, by_sign);
            self.b.fadd(c, fixed)
        } else {
            fixed
        };
        let v = self.b.fmul(d, s);
        self.add_adj(x, v);
    }
}
