//! flang's `Destroy` of a local derived-type variable with allocatable components in a
//! function differentiated in split mode (a callee of the differentiated routine).
//!
//! In the combined function the `Destroy` moves after the reverse sweep
//! (`memory::deferrable_frees`), where the variable and its shadow still exist. In split
//! mode the variable and its shadow live in the augmented function's frame (the shadow
//! on the heap, freed when the reverse sweep replays the `alloca`), which is gone by the
//! end of the reverse function. So the augmented function, where the primal destroys,
//! keeps a heap copy of the variable's descriptor and of the objects (the primal's and
//! each lane's shadow: the descriptors of their allocatable components, whose storage
//! stays allocated), the tape carries its address, and the reverse function's exit runs
//! the `Destroy` on the copy and flang's finalization-free one on each shadow's copy
//! (`fortran::destroy_shadow`), then frees the copy. The components' storage thus lives
//! until the reverse sweep is done with it, as in the combined function.
//!
//! The block: the descriptor (`DESCRIPTOR_BYTES`), one pointer per lane (the shadow
//! object's copy), the primal objects, then each lane's objects.

use ferrozyme_llvm::{Opcode, Value};

use super::state::Cache;
use super::Gen;
use crate::fortran::DESCRIPTOR_BYTES;

impl Gen<'_> {
    /// The augmented function's part: the copy, whose address goes on the tape.
    pub(super) fn fwd_keep_destroyed(&mut self, i: Value) {
        let ctx = self.fx.ctx;
        let (i32t, i64t, ptr) = (ctx.i32(), ctx.i64(), ctx.ptr());
        let desc = self.fwd_operand(i.call_args()[0]);
        let shadowed = self.fx.act.is_shadowed(i.call_args()[0]);
        let lanes = if shadowed {
            u64::from(self.fx.width())
        } else {
            0
        };
        let dlen = crate::fortran::descriptor_len(&self.b, desc);
        // The objects: flang's element count of the descriptor times the element length.
        let size_fn = self.sup.libc("_FortranASize", i64t, &[ptr, ptr, i32t]);
        let b = &self.b;
        let n = b.call_fn(size_fn, &[desc, ptr.zero(), i32t.const_int(0)]);
        let elem = b.load(i64t, b.byte_gep(desc, i64t.const_int(8)), "fz.elem_len");
        let bytes = b.binop(Opcode::LLVMMul, n, elem);
        let head = DESCRIPTOR_BYTES + 8 * lanes;
        let copies = b.binop(Opcode::LLVMMul, bytes, i64t.const_int(1 + lanes));
        let total = b.binop(Opcode::LLVMAdd, copies, i64t.const_int(head));
        let malloc = self.sup.libc("malloc", ptr, &[i64t]);
        let block = self.b.call_fn(malloc, &[total]);
        let b = &self.b;
        b.memcpy(block, desc, dlen, 8);
        let primal = b.byte_gep(block, i64t.const_int(head));
        let base = b.load(ptr, desc, "fz.base");
        b.memcpy(primal, base, bytes, 8);
        b.store(primal, block);
        if shadowed {
            let mut l = 0;
            self.each_lane(|g| {
                let sdesc = g.fwd_shadow(i.call_args()[0]);
                let b = &g.b;
                let at = b.binop(Opcode::LLVMMul, bytes, i64t.const_int(1 + l));
                let copy = b.byte_gep(primal, at);
                let sbase = b.load(ptr, sdesc, "fz.shadow.base");
                b.memcpy(copy, sbase, bytes, 8);
                b.store(
                    copy,
                    b.byte_gep(block, i64t.const_int(DESCRIPTOR_BYTES + 8 * l)),
                );
                l += 1;
            });
        }
        let cache = self.new_cache(block, i.parent_block());
        self.vals.kept_destroys.push((i, cache, lanes));
    }

    /// The reverse function's exit: the `Destroy` of each copy, then the copy freed.
    pub(super) fn rev_destroy_kept(&mut self) {
        let kept: Vec<(Value, Cache, u64)> = self.vals.kept_destroys.clone();
        let ctx = self.fx.ctx;
        let i64t = ctx.i64();
        for (i, cache, lanes) in kept {
            let block = self.read_cache(cache, "fz.kept");
            let c = self.clone_defined(i);
            c.set_operand(0, block);
            for l in 0..lanes {
                let b = &self.b;
                let slot = b.byte_gep(block, i64t.const_int(DESCRIPTOR_BYTES + 8 * l));
                crate::fortran::destroy_shadow(b, b, i, block, slot);
            }
            let free = self.sup.libc("free", ctx.void(), &[ctx.ptr()]);
            self.b.call_fn(free, &[block]);
        }
    }
}
