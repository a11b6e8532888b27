//! MPI handle frees of handles a function differentiated in split mode was handed.
//!
//! `MPI_Type_free(&this->pair)` in a C++ destructor that -O0 leaves as a call: the
//! destructor is differentiated in split mode, and its reverse function runs before the
//! caller's adjoint communication, which still uses the handle (Open MPI stopped in
//! `MPI_Type_get_envelope`, or the adjoint crashed; tests/mpi/103). Its augmented
//! function does not free the handle: it hands the routine and the handle's value to the
//! runtime (`runtime/mpi_handle_frees.c`), and the program's variable keeps the handle. A
//! combined derivative whose callees reach such a free
//! (`callee_handle_free::reaches_handed_free`) brackets its sweeps: one call at its
//! entry, one at its reverse exit; the outermost exit frees what was kept, after every
//! adjoint communication. A handle the function made itself (a local slot) is freed at
//! its own reverse exit as before (`branched_free.rs`), and a free in the combined
//! function itself after its reverse sweep (`memory::deferrable_frees`).

use ferrozyme_llvm::Value;

use super::branched_free::handle_type;
use super::Gen;
use crate::parallel::Family;

const DEFER_FREE: &str = "__fz_mpi_defer_free";
const DEFER_ENTER: &str = "__fz_mpi_defer_enter";
const DEFER_LEAVE: &str = "__fz_mpi_defer_leave";

impl Gen<'_> {
    /// Split mode, the forward sweep: the free `i` of a handle the function was handed is
    /// kept for the outermost reverse exit. A Fortran binding's error code says success;
    /// a C call's result is `MPI_SUCCESS` (0).
    pub(super) fn fwd_defer_handed_free(&mut self, i: Value) {
        let Some(routine) = i.called_function() else {
            return;
        };
        let Some(defer) = self.runtime_helper(Some(i), Family::Mpi, DEFER_FREE) else {
            return;
        };
        let args = i.call_args();
        let slot = self.fwd_operand(args[0]);
        let i32t = self.fx.ctx.i32();
        let size = self.fx.m.alloc_size(handle_type(i));
        let fortran = args.len() > 1;
        self.b.call_fn(
            defer,
            &[
                routine,
                slot,
                i32t.const_int(size),
                i32t.const_int(u64::from(fortran)),
            ],
        );
        if fortran {
            let ierr = self.fwd_operand(args[1]);
            self.b.store(i32t.zero(), ierr);
        }
        if !i.ty().is_void() {
            self.vals.fwd.insert(i, i.ty().zero());
        }
    }

    /// The combined function's entry, when its callees may keep handles.
    pub(super) fn enter_handle_deferral(&mut self) {
        if self.fx.callees_keep_handles {
            if let Some(enter) = self.runtime_helper(None, Family::Mpi, DEFER_ENTER) {
                self.out.fb_entry.call_fn(enter, &[]);
            }
        }
    }

    /// The combined function's reverse exit: the outermost frees the kept handles.
    pub(super) fn leave_handle_deferral(&mut self) {
        if self.fx.callees_keep_handles {
            if let Some(leave) = self.runtime_helper(None, Family::Mpi, DEFER_LEAVE) {
                self.b.call_fn(leave, &[]);
            }
        }
    }
}
