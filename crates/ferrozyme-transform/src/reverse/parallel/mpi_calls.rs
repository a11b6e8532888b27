//! MPI calls in the two sweeps: the primal call, or a recording helper, in the forward
//! sweep (what it records goes on the tape); the adjoint communication at the mirror
//! position in the reverse sweep (`crate::parallel::mpi`, `runtime/mpi.c`).
//!
//! Where a call waits is mirrored with it, so the reverse sweep waits only where the
//! primal's dependencies, reversed, say it must:
//!
//! * Nonblocking operations: the wait (or test) that completes one records it, the
//!   reverse of the wait posts the adjoint operation and the reverse of the start
//!   completes it. `MPI_Ibarrier` is one of them (a barrier record): the reverse of its
//!   wait posts an `MPI_Ibarrier`, the reverse of the `MPI_Ibarrier` waits, so a rank
//!   that entered the barrier keeps sending and receiving adjoints until every rank is in
//!   it, as it kept receiving messages in the forward sweep (nonblocking consensus:
//!   `MPI_Issend`, `MPI_Iprobe`, `MPI_Ibarrier`). A blocking barrier at either end would
//!   stop a rank answering another that still needs it.
//! * Buffered sends (`MPI_Bsend`, `MPI_Ibsend`) complete on their own rank. In the
//!   primal the matching receive waits for the send, never the send for the receive; in
//!   the reverse sweep the send's mirror (a receive of the adjoint) may wait for the
//!   receive's mirror (a send of the adjoint), but not the other way: two ranks that
//!   each buffer-send before they receive reach their receives' mirrors first. So the
//!   adjoint send of every receive is buffered (`runtime/mpi_buffered.c`: the receiver
//!   cannot know the mode of the send it matched, and a standard send may always
//!   buffer); forward mode sends the tangent of a buffered send buffered too.

use ferrozyme_llvm::{Type, Value};
use ferrozyme_rules::mpi::{is_window_operation_impl, MpiRule};

use super::super::state::Facts;
use super::super::{Gen, Key};
use crate::common::{Diags, Problem};
use crate::parallel::{mpi, Family};
use crate::services::Support;

/// Reports an active one-sided operation or reduction whose operation is refused: true
/// when it did.
pub(super) fn check_refused_op(fx: &Facts, sup: &Support, diags: &mut Diags, i: Value) -> bool {
    if let Some((routine, op)) = mpi::refused_onesided_op(i) {
        if fx.act.call_is_active(i, &sup.touchers) {
            diags.report(Some(i), Problem::OnesidedOperation { routine, op });
            return true;
        }
    }
    if let Some((routine, op)) = mpi::refused_reduction_op(i) {
        if fx.act.call_is_active(i, &sup.touchers) {
            diags.report(Some(i), Problem::ReductionOperation { routine, op });
            return true;
        }
    }
    false
}

/// The checks of an active MPI call: no vector mode, a request (or window) with a shadow.
pub(super) fn check_mpi(fx: &Facts, diags: &mut Diags, i: Value, rule: MpiRule) {
    if fx.width() > 1 {
        diags.report(Some(i), Problem::ParallelVectorMode);
    }
    let args = i.call_args();
    let req = match rule {
        MpiRule::Isend
        | MpiRule::Issend
        | MpiRule::Ibsend
        | MpiRule::Irecv
        | MpiRule::SendInit
        | MpiRule::RecvInit => args.get(6).copied(),
        MpiRule::Wait | MpiRule::Start | MpiRule::RequestFree => args.first().copied(),
        MpiRule::Ibarrier => args.get(1).copied(),
        MpiRule::Waitall | MpiRule::Startall => args.get(1).copied(),
        _ => None,
    };
    if req.is_some_and(|r| !fx.act.is_shadowed(r)) {
        let in_window = is_window_operation_impl(diags.function_name());
        diags.report(
            Some(i),
            if in_window {
                Problem::WindowWithoutShadow
            } else {
                Problem::RequestWithoutShadow
            },
        );
    }
}

/// Is this MPI call part of the derivative (it moves differentiated data, or is a
/// barrier, blocking or not, which is mirrored whatever it synchronises)?
pub(super) fn mpi_active(fx: &Facts, sup: &Support, i: Value, rule: MpiRule) -> bool {
    matches!(rule, MpiRule::Barrier | MpiRule::Ibarrier) || fx.act.call_is_active(i, &sup.touchers)
}

impl Gen<'_> {
    /// An `alloca` of `ty` in the forward function's entry block.
    fn fwd_slot(&mut self, ty: Type, name: &str) -> Value {
        self.out.fb_entry.alloca(ty, name)
    }

    /// The forward sweep of an MPI call: a recording helper in place of the primal call
    /// (what it returns goes on the tape), or the primal call copied (false).
    pub(super) fn fwd_mpi(&mut self, i: Value, rule: MpiRule) -> bool {
        let Some(name) = mpi::helpers(rule).fwd else {
            return false;
        };
        let Some(h) = self.helper_or_report(i, Family::Mpi, name) else {
            return true;
        };
        let orig = i.call_args();
        let args: Vec<Value> = orig.iter().map(|a| self.fwd_operand(*a)).collect();
        let (ptr, i32t, i64t) = (self.fx.ctx.ptr(), self.fx.ctx.i32(), self.fx.ctx.i64());
        let (result, recorded) = match rule {
            MpiRule::Recv | MpiRule::Sendrecv => {
                let who = self.fwd_slot(i64t, "fz.mpi.who");
                let mut a = args.clone();
                a.push(who);
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(i64t, who, "fz.mpi.who"))
            }
            MpiRule::Isend
            | MpiRule::Issend
            | MpiRule::Ibsend
            | MpiRule::Irecv
            | MpiRule::SendInit
            | MpiRule::RecvInit => {
                let sbuf = self.fwd_shadow(orig[0]);
                let sreq = self.fwd_shadow(orig[6]);
                let a = [
                    args[0], sbuf, args[1], args[2], args[3], args[4], args[5], args[6], sreq,
                ];
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(ptr, sreq, "fz.mpi.rec"))
            }
            // (comm, request, shadow of the request) -> the barrier's record
            MpiRule::Ibarrier => {
                let sreq = self.fwd_shadow(orig[1]);
                let r = self.b.call_fn(h, &[args[0], args[1], sreq]);
                (r, self.b.load(ptr, sreq, "fz.mpi.rec"))
            }
            MpiRule::Wait => {
                let sreq = self.fwd_shadow(orig[0]);
                let rec = self.b.load(ptr, sreq, "fz.mpi.rec");
                let Some(started) = self.helper_or_report(i, Family::Mpi, mpi::STARTED) else {
                    return true;
                };
                let rec = self.b.call_fn(started, &[rec]);
                let r = self.b.call_fn(h, &[args[0], args[1], rec]);
                (r, rec)
            }
            // (request, record, err) -> the record of this start
            MpiRule::Start => {
                let sreq = self.fwd_shadow(orig[0]);
                let p = self.b.load(ptr, sreq, "fz.mpi.rec");
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let rec = self.b.call_fn(h, &[args[0], p, err]);
                (self.b.load(i32t, err, "fz.mpi.err"), rec)
            }
            MpiRule::Startall => {
                let sreqs = self.fwd_shadow(orig[1]);
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let recs = self.b.call_fn(h, &[args[0], args[1], sreqs, err]);
                (self.b.load(i32t, err, "fz.mpi.err"), recs)
            }
            // Nothing for the reverse sweep.
            MpiRule::RequestFree => {
                let sreq = self.fwd_shadow(orig[0]);
                let r = self.b.call_fn(h, &[args[0], sreq]);
                self.vals.fwd.insert(i, r);
                return true;
            }
            MpiRule::Waitall => {
                let sreqs = self.fwd_shadow(orig[1]);
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let recs = self.b.call_fn(h, &[args[0], args[1], sreqs, args[2], err]);
                (self.b.load(i32t, err, "fz.mpi.err"), recs)
            }
            // (base, dbase, size, disp_unit, comm, &rwin, err) -> the shadow window
            MpiRule::RmaWindow => {
                let d = if self.fx.act.is_shadowed(orig[0]) {
                    self.fwd_shadow(orig[0])
                } else {
                    ptr.zero()
                };
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let mut a = vec![args[0], d];
                a.extend(args[1..].iter().copied());
                a.push(err);
                let swin = self.b.call_fn(h, &a);
                (self.b.load(i32t, err, "fz.mpi.err"), swin)
            }
            // (the primal arguments, err) -> the record of a one-sided operation
            MpiRule::Reduce
            | MpiRule::Allreduce
            | MpiRule::RmaPut
            | MpiRule::RmaGet
            | MpiRule::RmaAccumulate => {
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let mut a = args.clone();
                a.push(err);
                let win = self.b.call_fn(h, &a);
                (self.b.load(i32t, err, "fz.mpi.err"), win)
            }
            _ => return false,
        };
        self.vals.fwd.insert(i, result);
        self.vals.call_tape.insert(i, recorded);
        true
    }

    pub(super) fn rev_mpi(&mut self, i: Value, rule: MpiRule) {
        let args = i.call_args();
        if rule == MpiRule::Barrier {
            let comm = self.fetch(args[0]);
            if let Some(f) = i.called_function() {
                self.b.call_fn(f, &[comm]);
            }
            return;
        }
        let Some(name) = mpi::helpers(rule).rev else {
            return;
        };
        let Some(h) = self.helper_or_report(i, Family::Mpi, name) else {
            return;
        };
        let a: Vec<Value> = match rule {
            // (dbuf, count, type, peer, tag, comm)
            MpiRule::Send | MpiRule::Bsend => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..6].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
            // (dbuf, count, type, who, comm)
            MpiRule::Recv => {
                let s = self.fetch_shadow(args[0]);
                let (n, t, comm) = (
                    self.fetch(args[1]),
                    self.fetch(args[2]),
                    self.fetch(args[5]),
                );
                let who = self.fetch_key(Key::Tape(i));
                vec![s, n, t, who, comm]
            }
            MpiRule::Isend
            | MpiRule::Issend
            | MpiRule::Ibsend
            | MpiRule::Irecv
            | MpiRule::Ibarrier
            | MpiRule::Wait
            | MpiRule::SendInit
            | MpiRule::RecvInit
            | MpiRule::Start => vec![self.fetch_key(Key::Tape(i))],
            MpiRule::Waitall | MpiRule::Startall => {
                let n = self.fetch(args[0]);
                vec![n, self.fetch_key(Key::Tape(i))]
            }
            // (dbuf, count, type, root, comm)
            MpiRule::Bcast => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..5].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
            // (send, dsend, drecv, count, type, op, [root,] comm, winners): the primal's
            // arguments after the two buffers (`MPI_Reduce` has a root, `MPI_Allreduce`
            // none) and the record of which rank won each element; the operation says
            // how a MAXLOC/MINLOC pair type lies.
            MpiRule::Allreduce | MpiRule::Reduce => {
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let dr = self.fetch_shadow(args[1]);
                let rest: Vec<Value> = args[2..].iter().map(|x| self.fetch(*x)).collect();
                let win = self.fetch_key(Key::Tape(i));
                [vec![send, ds, dr], rest, vec![win]].concat()
            }
            // (dsend, scount, stype, dest, stag, drecv, rcount, rtype, who, comm)
            MpiRule::Sendrecv => {
                let ds = self.fetch_shadow(args[0]);
                let send: Vec<Value> = args[1..5].iter().map(|x| self.fetch(*x)).collect();
                let dr = self.fetch_shadow(args[5]);
                let (rn, rt) = (self.fetch(args[6]), self.fetch(args[7]));
                let who = self.fetch_key(Key::Tape(i));
                let comm = self.fetch(args[10]);
                let mut a = vec![ds];
                a.extend(send);
                a.extend([dr, rn, rt, who, comm]);
                a
            }
            // Gather, Allgather: (send, dsend, scount, stype, drecv, rcount, rtype, [root,] comm)
            MpiRule::Gather | MpiRule::Allgather => {
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let (sn, st) = (self.fetch(args[1]), self.fetch(args[2]));
                let dr = self.fetch_shadow(args[3]);
                let rest: Vec<Value> = args[4..].iter().map(|x| self.fetch(*x)).collect();
                let mut a = vec![send, ds, sn, st, dr];
                a.extend(rest);
                a
            }
            MpiRule::RmaWindow => vec![self.fetch_key(Key::Tape(i))],
            // (dorigin, record): the record holds the counts, target, displacement,
            // datatypes and shadow window, as the forward sweep saw them (a Fortran
            // caller may reuse the variables they were read from).
            MpiRule::RmaPut | MpiRule::RmaGet | MpiRule::RmaAccumulate => {
                let d = if self.fx.act.is_shadowed(args[0]) {
                    self.fetch_shadow(args[0])
                } else {
                    self.fx.ctx.ptr().zero()
                };
                vec![d, self.fetch_key(Key::Tape(i))]
            }
            // (dsend, scount, stype, recv, drecv, rcount, rtype, root, comm)
            MpiRule::Scatter => {
                let ds = self.fetch_shadow(args[0]);
                let (sn, st) = (self.fetch(args[1]), self.fetch(args[2]));
                let recv = self.fetch(args[3]);
                let dr = self.fetch_shadow(args[3]);
                let rest: Vec<Value> = args[4..8].iter().map(|x| self.fetch(*x)).collect();
                let mut a = vec![ds, sn, st, recv, dr];
                a.extend(rest);
                a
            }
            _ => return,
        };
        self.b.call_fn(h, &a);
    }
}
