//! `MPI_Comm_free`/`MPI_Type_free` under a branch of the combined function
//! (`memory::branched_handle_frees`): the reverse sweep still communicates on the handle,
//! so the free runs after it, and only when the forward sweep reached it.
//!
//! Where the primal frees, the forward sweep copies the handle into a slot of its own and
//! sets a flag; the reverse exit frees the copy when the flag is set. The program's own
//! handle variable is not used there: its lifetime may have ended with the branch's scope
//! (`llvm.lifetime.end`, which the forward sweep keeps), and a later split may reuse it.
//! A Fortran binding's other argument (the error code) gets a scratch slot.
//!
//! In a function differentiated in split mode a free that runs once on every path to the
//! return (`memory::deferrable_frees`) is kept the same way: the augmented function puts
//! the handle on the tape, and the reverse function's exit frees it.

use ferrozyme_llvm::{IntPredicate, Type, Value};

use super::Gen;

/// The type of the handle freed by `free`: Open MPI's C handles are pointers, the Fortran
/// bindings' (`mpi_comm_free_`) integers.
pub(super) fn handle_type(free: Value) -> Type {
    let ctx = free.ty().context();
    let name = free.called_function().map(|f| f.name()).unwrap_or_default();
    if name.starts_with("MPI_") {
        ctx.ptr()
    } else {
        ctx.i32()
    }
}

impl Gen<'_> {
    /// The forward sweep's part: the flag set and the handle copied.
    pub(super) fn fwd_mark_branched_free(&mut self, i: Value) {
        let i8t = self.fx.ctx.i8();
        let hty = handle_type(i);
        let flag = self.out.fb_entry.alloca(i8t, "fz.freed");
        self.out.fb_entry.store(i8t.const_int(0), flag);
        let keep = self.out.fb_entry.alloca(hty, "fz.handle");
        let slot = self.fwd_operand(i.call_args()[0]);
        let h = self.b.load(hty, slot, "fz.handle");
        self.b.store(h, keep);
        self.b.store(i8t.const_int(1), flag);
        self.vals.free_flags.insert(i, (flag, keep));
    }

    /// The reverse exit's part: the copy freed where the flag is set.
    pub(super) fn rev_branched_free(&mut self, f: Value) {
        let (flag, keep) = self.vals.free_flags[&f];
        let i8t = self.fx.ctx.i8();
        let reached = self.b.load(i8t, flag, "fz.freed");
        let reached = self
            .b
            .icmp(IntPredicate::LLVMIntNE, reached, i8t.const_int(0));
        let then = self.b.append_block(self.out.rev_fn, "fz.free");
        let done = self.b.append_block(self.out.rev_fn, "fz.free.done");
        self.b.cond_br(reached, then, done);
        self.b.position_at_end(then);
        self.free_handle_copy(f, keep);
        self.b.br(done);
        self.b.position_at_end(done);
    }

    /// Split mode, the augmented function's part: the handle on the tape.
    pub(super) fn fwd_keep_handle(&mut self, i: Value) {
        let slot = self.fwd_operand(i.call_args()[0]);
        let h = self.b.load(handle_type(i), slot, "fz.handle");
        let cache = self.new_cache(h, i.parent_block());
        self.vals.kept_handles.push((i, cache));
    }

    /// Split mode, the reverse function's exit: each kept handle freed.
    pub(super) fn rev_free_kept_handles(&mut self) {
        for (f, cache) in self.vals.kept_handles.clone() {
            let h = self.read_cache(cache, "fz.handle");
            let keep = self.out.eb.alloca(handle_type(f), "fz.handle");
            self.b.store(h, keep);
            self.free_handle_copy(f, keep);
        }
    }

    /// The call `f` again, on the handle in `keep` (other arguments: scratch slots).
    fn free_handle_copy(&mut self, f: Value, keep: Value) {
        let c = self.clone_defined(f);
        c.set_operand(0, keep);
        for k in 1..f.call_args().len() {
            let scratch = self.out.eb.alloca(self.fx.ctx.i64(), "fz.ierr");
            c.set_operand(k as u32, scratch);
        }
    }
}
