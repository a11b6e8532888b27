//! Reverse of integer operations on floats carried in integers: lane moves of a float
//! pair packed into an `i64`, and sign-bit tricks on a float's bits.

use ferrozyme_llvm::{Opcode, Value};

use super::Gen;

impl Gen<'_> {
    /// Integer operations on floats carried in integers: lane moves of a packed float
    /// pair (`trunc`, `zext`, `lshr/shl 32`, `or`, `and` with a lane mask) and sign-bit
    /// tricks (`xor` = negate, `and ~sign` = fabs, `or sign` = -fabs).
    pub(super) fn rev_lane_op(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        let d = self.take_adj(i);
        let x = i.operand(0);
        let i32t = self.ctx.i32();
        let lane = |g: &mut Self, v: Value, k: u64| g.b.extract_element(v, i32t.const_int(k));
        let pair = |g: &mut Self, l0: Option<Value>, l1: Option<Value>| {
            let f = g.ctx.f32();
            let mut v = g.ctx.vector_type(f, 2).zero();
            if let Some(a) = l0 {
                v = g.b.insert_element(v, a, i32t.const_int(0));
            }
            if let Some(b) = l1 {
                v = g.b.insert_element(v, b, i32t.const_int(1));
            }
            v
        };
        let packed_in = self.act.packed.contains(&x);
        let packed_out = self.act.packed.contains(&i);
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
            LLVMXor | LLVMAnd | LLVMOr => {
                let w = x.ty().int_width().unwrap_or(64);
                let sign: i64 = if w == 64 { i64::MIN } else { i32::MIN as i64 };
                let mag: i64 = if w == 64 { i64::MAX } else { i32::MAX as i64 };
                let c = i.operand(1).const_int_value();
                let fty = self.adj_ty(x);
                match (op, c) {
                    (LLVMXor, Some(k)) if k == sign => {
                        let n = self.b.fneg(d);
                        self.add_adj(x, n);
                    }
                    (LLVMAnd, Some(k)) | (LLVMOr, Some(k))
                        if (op == LLVMAnd && k == mag) || (op == LLVMOr && k == sign) =>
                    {
                        let xv = self.fetch(x);
                        let xf = self.b.bitcast(xv, fty);
                        let cs = self
                            .m
                            .intrinsic("llvm.copysign", &[fty])
                            .expect("llvm.copysign exists");
                        let s = self.b.call_fn(cs, &[fty.const_float(1.0), xf]);
                        let s = if op == LLVMOr { self.b.fneg(s) } else { s };
                        let v = self.b.fmul(d, s);
                        self.add_adj(x, v);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}
