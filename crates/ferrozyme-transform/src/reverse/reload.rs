//! Loads that repeat a dominating load of the same address.
//!
//! After the clone's full unrolling, code often loads an address again that a block
//! before it already loaded: BA's `sqsum3(rot)` in the entry block reads `rot[0..2]`,
//! and the unrolled `w[i] = rot[i] * theta_inverse` under `if (theta != 0)` reads them
//! again (clang's GVN ran before the unrolling, on the loop). When the second load
//! cannot be re-read in the reverse sweep (a write after it may change the memory: BA's
//! `err` may alias `cam`), it used to get a tape slot of its own. But it holds the same
//! value as the first load when no write that may change that memory can run between
//! the two; when the first one is used directly by the reverse sweep (its block runs
//! once and dominates every return, combined mode), the reverse sweep uses it and needs
//! no slot (a value kept alive across the branch after SROA, that is a register less).
//!
//! Same address means the same base pointer plus the same constant byte offset through
//! GEPs with constant indices (`Module::strip_const_geps`: `gep i8, %p, 8`, `gep double,
//! %p, 1` and `gep %struct, %p, 0, 1` alike).
//! No write between: no write to an object that may alias the address (`memory.rs`'s
//! objects) can execute after the first load and before the second (`Reach`).

use ferrozyme_llvm::{Opcode, Value};

use super::Gen;

impl Gen<'_> {
    /// A load that the reverse sweep uses directly and that read the same memory as
    /// load `l`, with nothing able to change it in between.
    pub(super) fn dominating_equal_load(&mut self, l: Value) -> Option<Value> {
        if self.fx.split || l.is_volatile() {
            return None;
        }
        let m = self.fx.m;
        let addr = m.strip_const_geps(l.operand(0));
        let lb = l.parent_block();
        let candidate = {
            let cfg = &self.fx.cfg;
            let returns = &self.fx.returns;
            let direct = |v: Value| {
                let b = v.parent_block();
                b != lb
                    && !cfg.is_cyclic(b)
                    && cfg.dominates(b, lb)
                    && returns.iter().all(|r| cfg.dominates(b, *r))
            };
            // Loads of the base or of GEPs of it: the users of the base, one level down.
            let mut ptrs = vec![addr.0];
            ptrs.extend(
                addr.0
                    .users()
                    .into_iter()
                    .filter(|u| u.opcode() == Some(Opcode::LLVMGetElementPtr)),
            );
            ptrs.into_iter()
                .filter(|p| m.strip_const_geps(*p) == addr)
                .flat_map(|p| p.users())
                .find(|u| {
                    *u != l
                        && u.opcode() == Some(Opcode::LLVMLoad)
                        && u.ty() == l.ty()
                        && !u.is_volatile()
                        && direct(*u)
                })
        }?;
        let o = super::memory::underlying(l.operand(0));
        let fx = &self.fx;
        let w = super::values::all_writes(fx);
        let reach = &mut self.caches.reach;
        let cfg = &fx.cfg;
        let clobbered = w.iter().any(|(obj, inst)| {
            super::memory::may_alias(o, *obj)
                && reach.after(cfg, candidate, *inst)
                && reach.after(cfg, *inst, l)
        });
        (!clobbered).then_some(candidate)
    }
}
