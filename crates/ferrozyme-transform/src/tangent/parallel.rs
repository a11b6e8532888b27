//! Forward mode of parallel code (see `reverse/parallel/` for reverse mode).
//!
//! * `__kmpc_fork_call(loc, n, microtask, args...)` forks the microtask's forward
//!   derivative instead, with the tangents of the captured pointers after each one: the
//!   derivative's parameters (thread ids constant, then each argument and its tangent)
//!   are exactly the fork's argument order, so no wrapper is needed. Tangent stores
//!   mirror the primal's, so they race no more than the primal does.
//! * Barriers, critical sections and worksharing calls are copied with the primal code.
//! * MPI calls become `*_tan` helpers (`runtime/mpi.c`) that move the primal data and the
//!   tangents, with the same communicator and distinct tags.
//! * `atomicrmw fadd|fsub p, x`: the same atomic update of the shadow by the tangent.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{parallel_callee, CallKind};
use ferrozyme_llvm::{AtomicRmwOp, Value};
use ferrozyme_rules::mpi::MpiRule;
use ferrozyme_rules::openmp::OmpRule;

use super::TangentGen;
use crate::common::Problem;
use crate::parallel::mpi;
use crate::signature::TangentRequest;

impl TangentGen<'_> {
    /// The tangent of a call of a library family (`kind` is its classification).
    pub(super) fn tangent_parallel_call(&mut self, i: Value, kind: CallKind) {
        match kind {
            CallKind::OpenMp(OmpRule::Fork) => self.tangent_fork(i),
            CallKind::OpenMp(OmpRule::Reduce) => {
                self.copy(i);
                self.diags.report(Some(i), Problem::OpenMpReduction);
            }
            CallKind::OpenMp(_) => {
                self.copy(i);
            }
            CallKind::Mpi(rule) => self.tangent_mpi(i, rule),
            _ => {
                self.copy(i);
            }
        }
    }

    fn tangent_fork(&mut self, i: Value) {
        let (Some(micro), Some(fork)) = (parallel_callee(i), i.called_function()) else {
            self.copy(i);
            return;
        };
        let args = i.call_args();
        let params = micro.params();
        if params.len() + 1 != args.len() {
            self.copy(i);
            let msg = "the arguments of this __kmpc_fork_call do not match its microtask";
            self.diags.report(
                Some(i),
                Problem::Internal {
                    msg: msg.to_string(),
                },
            );
            return;
        }
        let mut acts = vec![ArgActivity::Const; params.len()];
        for (k, a) in args.iter().enumerate().skip(3) {
            if params[k - 1].ty().is_pointer() && self.fx.act.is_shadowed(*a) {
                acts[k - 1] = ArgActivity::Dup;
            } else if self.fx.act.is_active(*a) {
                self.copy(i);
                self.diags.report(Some(i), Problem::CapturedByValue);
                return;
            }
        }
        let req = TangentRequest {
            placeholder: Vec::new(),
            func: micro,
            args: acts.clone(),
            width: self.fx.req.width,
            error: self.fx.req.error,
            runtime: self.fx.rt.call_runtime(i),
        };
        let g = self.callees.tangent(&req);
        let mut captured = Vec::new();
        for (a, act) in args[3..].iter().zip(&acts[2..]) {
            captured.push(self.prim(*a));
            if *act == ArgActivity::Dup {
                captured.extend(self.tangent(*a));
            }
        }
        let mut fa = vec![
            self.prim(args[0]),
            self.fx.ctx.i32().const_int(captured.len() as u64),
            g,
        ];
        fa.extend(captured);
        let c = self.b.call(fork.function_type(), fork, &fa);
        self.map.insert(i, c);
    }

    /// The shadow of a pointer argument in lane 0 (null when it has none).
    fn shadow_or_null(&mut self, v: Value) -> Value {
        if self.fx.act.is_shadowed(v) {
            self.tangent(v)[0]
        } else {
            self.fx.ctx.ptr().zero()
        }
    }

    fn tangent_mpi(&mut self, i: Value, rule: MpiRule) {
        let name = mpi::helpers(rule).tan;
        let active = rule == MpiRule::Ibarrier || self.fx.act.call_is_active(i, &self.sup.touchers);
        let (Some(name), true) = (name, active) else {
            self.copy(i);
            return;
        };
        if self.width() > 1 {
            self.copy(i);
            self.diags.report(Some(i), Problem::ParallelVectorMode);
            return;
        }
        if let Some((routine, op)) = mpi::refused_reduction_op(i) {
            self.copy(i);
            self.diags
                .report(Some(i), Problem::ReductionOperation { routine, op });
            return;
        }
        let h = match mpi::helper_fn(self.fx.m, name) {
            Ok(h) => h,
            Err(msg) => {
                self.copy(i);
                self.diags.report(Some(i), Problem::Internal { msg });
                return;
            }
        };
        let o = i.call_args();
        let p: Vec<Value> = o.iter().map(|a| self.prim(*a)).collect();
        let a: Vec<Value> = match rule {
            // (buf, dbuf, rest...)
            // RmaWindow: (base, dbase, size, disp_unit, comm, &rwin); the one-sided
            // operations: (origin, dorigin, ..., rwin, base)
            MpiRule::Send
            | MpiRule::Bsend
            | MpiRule::Recv
            | MpiRule::Bcast
            | MpiRule::RmaWindow
            | MpiRule::RmaPut
            | MpiRule::RmaGet
            | MpiRule::RmaAccumulate => {
                let d = self.shadow_or_null(o[0]);
                [p[0], d]
                    .into_iter()
                    .chain(p[1..].iter().copied())
                    .collect()
            }
            MpiRule::Isend
            | MpiRule::Issend
            | MpiRule::Ibsend
            | MpiRule::Irecv
            | MpiRule::SendInit
            | MpiRule::RecvInit => {
                let d = self.shadow_or_null(o[0]);
                let sreq = self.shadow_or_null(o[6]);
                [p[0], d]
                    .into_iter()
                    .chain(p[1..].iter().copied())
                    .chain([sreq])
                    .collect()
            }
            MpiRule::Ibarrier => {
                let sreq = self.shadow_or_null(o[1]);
                vec![p[0], p[1], sreq]
            }
            MpiRule::Wait => {
                let sreq = self.shadow_or_null(o[0]);
                vec![p[0], p[1], sreq]
            }
            MpiRule::Waitall => {
                let sreqs = self.shadow_or_null(o[1]);
                vec![p[0], p[1], sreqs, p[2]]
            }
            MpiRule::Start | MpiRule::RequestFree => {
                let sreq = self.shadow_or_null(o[0]);
                vec![p[0], sreq]
            }
            MpiRule::Startall => {
                let sreqs = self.shadow_or_null(o[1]);
                vec![p[0], p[1], sreqs]
            }
            // (send, dsend, recv, drecv, rest...)
            MpiRule::Reduce | MpiRule::Allreduce => {
                let ds = self.shadow_or_null(o[0]);
                let dr = self.shadow_or_null(o[1]);
                [p[0], ds, p[1], dr]
                    .into_iter()
                    .chain(p[2..].iter().copied())
                    .collect()
            }
            // (sbuf, dsend, scount, stype, dest, stag, rbuf, drecv, rest...)
            MpiRule::Sendrecv => {
                let ds = self.shadow_or_null(o[0]);
                let dr = self.shadow_or_null(o[5]);
                [p[0], ds]
                    .into_iter()
                    .chain(p[1..6].iter().copied())
                    .chain([dr])
                    .chain(p[6..].iter().copied())
                    .collect()
            }
            // (send, dsend, scount, stype, recv, drecv, rest...)
            MpiRule::Gather | MpiRule::Scatter | MpiRule::Allgather => {
                let ds = self.shadow_or_null(o[0]);
                let dr = self.shadow_or_null(o[3]);
                [p[0], ds, p[1], p[2], p[3], dr]
                    .into_iter()
                    .chain(p[4..].iter().copied())
                    .collect()
            }
            _ => {
                self.copy(i);
                return;
            }
        };
        let r = self.b.call_fn(h, &a);
        self.map.insert(i, r);
    }

    /// `atomicrmw fadd|fsub p, x`: the same update of `p`'s shadow by `x`'s tangent.
    pub(super) fn tangent_atomic_rmw(&mut self, i: Value) {
        let (p, x) = (i.operand(0), i.operand(1));
        let touches = self.fx.act.is_shadowed(p) || self.fx.act.is_active(x);
        if !touches || !x.ty().is_fp() {
            return;
        }
        if !matches!(i.atomic_rmw_op(), AtomicRmwOp::FAdd | AtomicRmwOp::FSub) {
            self.diags.report(Some(i), Problem::UnsupportedAtomic);
            return;
        }
        if self.fx.act.is_active(i) {
            self.diags.report(Some(i), Problem::AtomicOldValue);
            return;
        }
        if !self.fx.act.is_shadowed(p) {
            return;
        }
        let sp = self.tangent(p);
        let tx = self.tangent(x);
        self.check_store_target(i, p, sp[0]);
        let slot = self.sup.sink_slot();
        for l in 0..self.width() {
            // Run-time activity: where the shadow is the primal the tangent goes to scratch.
            let sp = self.runtime_guarded(p, sp[l], slot);
            let t = if i.atomic_rmw_op() == AtomicRmwOp::FSub {
                self.b.fneg(tx[l])
            } else {
                tx[l]
            };
            self.b.atomic_fadd(sp, t);
        }
    }
}
