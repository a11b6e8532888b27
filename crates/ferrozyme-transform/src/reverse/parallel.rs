//! Reverse mode of parallel code: OpenMP regions, atomics and MPI calls.
//!
//! The core sweeps hand over the calls `ferrozyme_analysis::calls` classifies as
//! [`CallKind::OpenMp`] or [`CallKind::Mpi`] (one hook each in `forward.rs` and
//! `adjoint.rs`), `atomicrmw` instructions, and the adjoint accumulation of loads in
//! functions that run on several threads at once. What each call becomes:
//!
//! * `__kmpc_fork_call(loc, n, microtask, args...)`: the forward sweep allocates a tape
//!   per thread and forks the augmented microtask's wrapper; the reverse sweep forks
//!   the reverse microtask's wrapper on as many threads and frees the tapes
//!   (`parallel/openmp.rs`). Each argument the microtask gets through a pointer with a
//!   shadow is passed with its shadow. The microtask is differentiated twice: for a team
//!   of one thread (plain adjoint updates) and for a larger team ([`Request::parallel`]:
//!   atomic updates); the wrappers pick by the forward team's size.
//! * `__kmpc_barrier`: mirrored in the reverse sweep (the shared memory it orders in
//!   the forward sweep is the shadow memory the reverse sweep updates);
//!   `__kmpc_critical`/`__kmpc_end_critical` swap roles.
//! * MPI: the primal call, or a recording helper, in the forward sweep; the adjoint
//!   communication at the mirror position (`parallel/mpi.rs`, `runtime/mpi.c`).
//! * `atomicrmw fadd|fsub p, x` (OpenMP atomics, reductions): `dx ±= *shadow(p)`, read
//!   by every thread; its result (the old value) must be unused.
//! * In a derivative that runs on several threads ([`Request::parallel`], inherited by
//!   the derivatives of the functions it calls), a load from memory the function did not
//!   allocate adds its adjoint with `atomicrmw fadd` (several threads may read the same
//!   element); the adjoints of stores need no atomics, since a race-free program has one
//!   writer per element.
//!
//! [`CallKind::OpenMp`]: ferrozyme_analysis::calls::CallKind::OpenMp
//! [`CallKind::Mpi`]: ferrozyme_analysis::calls::CallKind::Mpi

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{classify, parallel_callee, CallKind};
use ferrozyme_llvm::{AtomicRmwOp, DiagKind, Opcode, Type, TypeKind, Value};
use ferrozyme_rules::mpi::MpiRule;
use ferrozyme_rules::openmp::OmpRule;

use super::{Gen, Key, Request};
use crate::parallel::{helper, mpi, openmp, Family};

const INTERNAL_HELP: &str = "this is a bug in Ferrozyme; please report it with the input file";

impl Gen<'_> {
    /// Does this function's derivative run on several threads at once?
    fn in_parallel(&self) -> bool {
        self.req.parallel
    }

    /// Must the adjoint of a load through `addr` be added atomically? In parallel code,
    /// unless the memory was allocated by this function (a thread's own).
    pub(super) fn atomic_adjoint(&self, addr: Value) -> bool {
        self.in_parallel()
            && !matches!(
                super::memory::underlying(addr),
                super::memory::Obj::Local(_)
            )
    }

    /// `*p += d`, atomically, for the floating leaves of `ty` (one `atomicrmw fadd` per
    /// scalar, per lane of a vector).
    pub(super) fn mem_add_atomic(&mut self, p: Value, ty: Type, d: Value) {
        match ty.kind() {
            TypeKind::Float | TypeKind::Double => {
                self.b.atomic_fadd(p, d);
            }
            TypeKind::Vector if ty.is_fp() => {
                let ety = ty.element_type();
                let i32t = self.ctx.i32();
                let i64t = self.ctx.i64();
                let size = self.m.alloc_size(ety);
                for k in 0..ty.vector_len() as u64 {
                    let x = self.b.extract_element(d, i32t.const_int(k));
                    let q = self.b.byte_gep(p, i64t.const_int(k * size));
                    self.b.atomic_fadd(q, x);
                }
            }
            TypeKind::Struct | TypeKind::Array => {
                let n = if ty.kind() == TypeKind::Struct {
                    ty.struct_fields().len() as u32
                } else {
                    ty.array_len() as u32
                };
                let i32t = self.ctx.i32();
                for k in 0..n {
                    let fty = if ty.kind() == TypeKind::Struct {
                        ty.struct_fields()[k as usize]
                    } else {
                        ty.element_type()
                    };
                    if !fty.contains_fp() {
                        continue;
                    }
                    let q = if ty.kind() == TypeKind::Struct {
                        self.b.struct_gep(ty, p, k)
                    } else {
                        self.b
                            .gep(ty, p, &[i32t.const_int(0), i32t.const_int(k as u64)])
                    };
                    let x = self.b.extract_value(d, k);
                    self.mem_add_atomic(q, fty, x);
                }
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------------ checks

    /// Rejects, before any code is emitted, parallel constructs that cannot be
    /// differentiated: atomics other than `fadd`/`fsub` on differentiated memory (or
    /// whose old value is used), reductions the rewrite left alone, captured values
    /// passed by value, vector mode through parallel calls, and nonblocking MPI calls
    /// whose request has no shadow.
    pub(super) fn check_parallel(&mut self, i: Value) {
        match i.opcode() {
            Some(Opcode::LLVMAtomicRMW) => self.check_atomic_rmw(i),
            Some(Opcode::LLVMCall) if openmp::unsupported_outlining(i).is_some() => {
                let why = openmp::unsupported_outlining(i).unwrap_or_default();
                let name = i.called_function().map(|f| f.name()).unwrap_or_default();
                self.diag(
                    DiagKind::MissingDerivative,
                    Some(i),
                    format!("cannot differentiate `{name}`: {why}"),
                    ferrozyme_rules::openmp::UNSUPPORTED_HELP,
                );
            }
            Some(Opcode::LLVMCall) => match classify(i) {
                CallKind::OpenMp(OmpRule::Reduce) => self.diag(
                    DiagKind::UnsupportedInstruction,
                    Some(i),
                    "this OpenMP reduction is not a sum of reals; only reduction(+:x) (and -) on float/double is differentiated".to_string(),
                    "accumulate the other reductions with an explicit critical section or atomic update, or differentiate a serial version",
                ),
                CallKind::OpenMp(OmpRule::Fork) if self.act.call_is_active(i, &self.d.touchers) => {
                    self.check_width(i);
                    if let Some(m) = parallel_callee(i) {
                        self.fork_request(i, m, true, false);
                    }
                }
                CallKind::Mpi(rule) if self.mpi_active(i, rule) => {
                    self.check_width(i);
                    let args = i.call_args();
                    let req = match rule {
                        MpiRule::Isend | MpiRule::Irecv => Some(args[6]),
                        MpiRule::Wait => Some(args[0]),
                        MpiRule::Waitall => Some(args[1]),
                        _ => None,
                    };
                    if let Some(r) = req.filter(|r| !self.act.is_shadowed(*r)) {
                        let _ = r;
                        self.diag(
                            DiagKind::UnsupportedInstruction,
                            Some(i),
                            "the MPI_Request of a differentiated nonblocking call must live in memory the differentiated code owns (a local variable or array, or memory passed with enzyme_dup)".to_string(),
                            "declare the MPI_Request (array) inside the differentiated function",
                        );
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn check_width(&mut self, i: Value) {
        if self.width > 1 {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "vector reverse mode (enzyme_width) through OpenMP regions and MPI calls is not supported".to_string(),
                "differentiate one direction at a time",
            );
        }
    }

    fn check_atomic_rmw(&mut self, i: Value) {
        let (p, x) = (i.operand(0), i.operand(1));
        let touches = self.act.is_shadowed(p) || self.act.is_active(x) || self.act.is_active(i);
        if !touches || !x.ty().is_fp() {
            return;
        }
        let op = i.atomic_rmw_op();
        if !matches!(op, AtomicRmwOp::FAdd | AtomicRmwOp::FSub) {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "only atomic additions and subtractions of floats (`#pragma omp atomic` x += v, reduction(+:x)) are differentiated".to_string(),
                "use an atomic += (or a reduction(+:...)), or a critical section",
            );
        } else if self.act.is_active(i) {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "the old value returned by an atomic float update is used; it is not differentiated".to_string(),
                "use `#pragma omp atomic update` without capturing the old value",
            );
        }
    }

    // ------------------------------------------------------------------ forward sweep

    /// The forward sweep of a call of a library family: true when handled here.
    pub(super) fn fwd_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork) if self.act.call_is_active(i, &self.d.touchers) => {
                self.fwd_fork(i);
                true
            }
            CallKind::Mpi(rule) if self.mpi_active(i, rule) => self.fwd_mpi(i, rule),
            _ => false,
        }
    }

    /// The request for differentiating the microtask of a fork: the thread ids are
    /// constant, captured pointers with shadows are duplicated. `report` says whether
    /// to diagnose what cannot be (active values captured by value).
    fn fork_request(
        &mut self,
        i: Value,
        micro: Value,
        report: bool,
        parallel: bool,
    ) -> Option<Request> {
        let args = i.call_args();
        let params = micro.params();
        let mut acts = vec![ArgActivity::Const; params.len()];
        let mut ok = params.len() == args.len() - 1;
        for (k, a) in args.iter().enumerate().skip(3) {
            let Some(p) = params.get(k - 1) else {
                ok = false;
                break;
            };
            if p.ty().is_pointer() && self.act.is_shadowed(*a) {
                acts[k - 1] = ArgActivity::Dup;
            } else if self.act.is_active(*a) {
                if report {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        "a differentiated value is passed into this OpenMP region by value (firstprivate, or a captured scalar); only shared variables (passed by reference) are differentiated".to_string(),
                        "make the variable shared (drop firstprivate), or compute it inside the region",
                    );
                }
                return None;
            }
        }
        if !ok {
            if report {
                self.diag(
                    DiagKind::Internal,
                    Some(i),
                    "the arguments of this __kmpc_fork_call do not match its microtask".to_string(),
                    INTERNAL_HELP,
                );
            }
            return None;
        }
        Some(Request {
            func: micro,
            args: acts,
            ret_active: false,
            width: 1,
            parallel,
        })
    }

    fn omp_helper(&mut self, i: Value, name: &str) -> Option<Value> {
        match helper(self.m, Family::OpenMp, name) {
            Ok(f) => Some(f),
            Err(e) => {
                self.diag(DiagKind::Internal, Some(i), e, INTERNAL_HELP);
                None
            }
        }
    }

    /// The thread count a `num_threads` clause asks for (the `__kmpc_push_num_threads`
    /// right before the fork), or 0.
    fn pushed_threads(&self, i: Value) -> Value {
        let mut p = i.prev_instruction();
        while let Some(x) = p {
            if x.is_call() {
                match x.called_function().map(|f| f.name()).as_deref() {
                    Some("__kmpc_push_num_threads") => return self.fwd_operand(x.call_args()[2]),
                    Some("__kmpc_fork_call") => break,
                    _ => {}
                }
            }
            p = x.prev_instruction();
        }
        self.ctx.i32().zero()
    }

    fn fwd_fork(&mut self, i: Value) {
        let (Some(micro), Some(fork)) = (parallel_callee(i), i.called_function()) else {
            return;
        };
        let (Some(req), Some(req_par)) = (
            self.fork_request(i, micro, false, false),
            self.fork_request(i, micro, false, true),
        ) else {
            return;
        };
        let (aug_par, _) = self.d.split_fns(&req_par);
        // Nested in a parallel derivative, even a team of one shares memory with the
        // enclosing team's other threads: atomic updates either way.
        let (aug, _) = if self.req.parallel {
            (aug_par, aug_par)
        } else {
            self.d.split_fns(&req)
        };
        let (Some(new), Some(put)) = (
            self.omp_helper(i, openmp::TAPES_NEW),
            self.omp_helper(i, openmp::TAPES_PUT),
        ) else {
            return;
        };
        let num_threads = self.d.libc("omp_get_num_threads", self.ctx.i32(), &[]);
        let wrapper = openmp::aug_wrapper(self.m, &req, [aug, aug_par], put, num_threads);
        let pushed = self.pushed_threads(i);
        let tapes = self.b.call_fn(new, &[pushed]);
        let args = i.call_args();
        let mut captured = Vec::new();
        for (a, act) in args[3..].iter().zip(&req.args[2..]) {
            captured.push(self.fwd_operand(*a));
            if *act == ArgActivity::Dup {
                let s = self.fwd_shadow(*a);
                captured.push(s);
            }
        }
        captured.push(tapes);
        let mut fa = vec![
            self.fwd_operand(args[0]),
            self.ctx.i32().const_int(captured.len() as u64),
            wrapper,
        ];
        fa.extend(captured);
        let c = self.b.call(fork.function_type(), fork, &fa);
        self.fwd.insert(i, c);
        self.call_tape.insert(i, tapes);
    }

    /// Is this MPI call part of the derivative (it moves differentiated data, or is a
    /// barrier, which is mirrored whatever it synchronises)?
    fn mpi_active(&self, i: Value, rule: MpiRule) -> bool {
        rule == MpiRule::Barrier || self.act.call_is_active(i, &self.d.touchers)
    }

    fn mpi_helper(&mut self, i: Value, name: &str) -> Option<Value> {
        match mpi::helper_fn(self.m, name) {
            Ok(f) => Some(f),
            Err(e) => {
                self.diag(DiagKind::Internal, Some(i), e, INTERNAL_HELP);
                None
            }
        }
    }

    /// An `alloca` of `ty` in the forward function's entry block.
    fn fwd_slot(&mut self, ty: Type, name: &str) -> Value {
        self.fb_entry.alloca(ty, name)
    }

    /// The forward sweep of an MPI call: a recording helper in place of the primal call
    /// (what it returns goes on the tape), or the primal call copied (false).
    fn fwd_mpi(&mut self, i: Value, rule: MpiRule) -> bool {
        let Some(name) = mpi::helpers(rule).fwd else {
            return false;
        };
        let Some(h) = self.mpi_helper(i, name) else {
            return true;
        };
        let args: Vec<Value> = i.call_args().iter().map(|a| self.fwd_operand(*a)).collect();
        let orig = i.call_args();
        let (ptr, i32t, i64t) = (self.ctx.ptr(), self.ctx.i32(), self.ctx.i64());
        let (result, recorded) = match rule {
            MpiRule::Recv => {
                let who = self.fwd_slot(i64t, "fz.mpi.who");
                let mut a = args.clone();
                a.push(who);
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(i64t, who, "fz.mpi.who"))
            }
            MpiRule::Isend | MpiRule::Irecv => {
                let sbuf = self.fwd_shadow(orig[0]);
                let sreq = self.fwd_shadow(orig[6]);
                let a = [
                    args[0], sbuf, args[1], args[2], args[3], args[4], args[5], args[6], sreq,
                ];
                let r = self.b.call_fn(h, &a);
                (r, self.b.load(ptr, sreq, "fz.mpi.rec"))
            }
            MpiRule::Wait => {
                let sreq = self.fwd_shadow(orig[0]);
                let rec = self.b.load(ptr, sreq, "fz.mpi.rec");
                let r = self.b.call_fn(h, &[args[0], args[1], rec]);
                (r, rec)
            }
            MpiRule::Waitall => {
                let sreqs = self.fwd_shadow(orig[1]);
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let recs = self.b.call_fn(h, &[args[0], args[1], sreqs, args[2], err]);
                (self.b.load(i32t, err, "fz.mpi.err"), recs)
            }
            MpiRule::Reduce | MpiRule::Allreduce => {
                let err = self.fwd_slot(i32t, "fz.mpi.err");
                let mut a = args.clone();
                a.push(err);
                let win = self.b.call_fn(h, &a);
                (self.b.load(i32t, err, "fz.mpi.err"), win)
            }
            _ => return false,
        };
        self.fwd.insert(i, result);
        self.call_tape.insert(i, recorded);
        true
    }

    // ------------------------------------------------------------------ reverse sweep

    /// The reverse of a call of a library family: true when handled here.
    pub(super) fn rev_parallel_call(&mut self, i: Value) -> bool {
        match classify(i) {
            CallKind::OpenMp(OmpRule::Fork) => {
                if self.act.call_is_active(i, &self.d.touchers) {
                    self.rev_fork(i);
                }
                true
            }
            CallKind::OpenMp(
                rule @ (OmpRule::Barrier | OmpRule::CriticalBegin | OmpRule::CriticalEnd),
            ) => {
                if self.lane == 0 {
                    self.rev_sync(i, rule);
                }
                true
            }
            CallKind::Mpi(rule) => {
                if self.mpi_active(i, rule) && self.lane == 0 {
                    self.rev_mpi(i, rule);
                }
                true
            }
            _ => false,
        }
    }

    fn rev_fork(&mut self, i: Value) {
        let (Some(micro), Some(fork)) = (parallel_callee(i), i.called_function()) else {
            return;
        };
        let (Some(req), Some(req_par)) = (
            self.fork_request(i, micro, false, false),
            self.fork_request(i, micro, false, true),
        ) else {
            return;
        };
        let (_, rev_par) = self.d.split_fns(&req_par);
        let (_, rev) = if self.req.parallel {
            (rev_par, rev_par)
        } else {
            self.d.split_fns(&req)
        };
        let names = [
            openmp::TAPES_COUNT,
            openmp::TAPES_GET,
            openmp::CHECK_TEAM,
            openmp::TAPES_FREE,
            openmp::TAPES_PARALLEL,
        ];
        let mut hs = Vec::new();
        for n in names {
            match self.omp_helper(i, n) {
                Some(h) => hs.push(h),
                None => return,
            }
        }
        let i32t = self.ctx.i32();
        let ptr = self.ctx.ptr();
        let thread_num = self.d.libc("omp_get_thread_num", i32t, &[]);
        let num_threads = self.d.libc("omp_get_num_threads", i32t, &[]);
        let gtid_fn = self.d.libc("__kmpc_global_thread_num", i32t, &[ptr]);
        let push = self.d.libc(
            "__kmpc_push_num_threads",
            self.ctx.void(),
            &[ptr, i32t, i32t],
        );
        let wrapper = openmp::rev_wrapper(
            self.m,
            &req,
            [rev, rev_par],
            [hs[0], hs[1], hs[2], hs[4]],
            openmp::has_barriers(micro),
            [thread_num, num_threads],
        );
        let args = i.call_args();
        let tapes = self.fetch_key(Key::Tape(i));
        let loc = self.fetch(args[0]);
        let mut captured = Vec::new();
        for (a, act) in args[3..].iter().zip(&req.args[2..]) {
            captured.push(self.fetch(*a));
            if *act == ArgActivity::Dup {
                let s = self.fetch_shadow(*a);
                captured.push(s);
            }
        }
        captured.push(tapes);
        let n = self.b.call_fn(hs[0], &[tapes]);
        let gtid = self.b.call_fn(gtid_fn, &[loc]);
        self.b.call_fn(push, &[loc, gtid, n]);
        let mut fa = vec![loc, i32t.const_int(captured.len() as u64), wrapper];
        fa.extend(captured);
        self.b.call(fork.function_type(), fork, &fa);
        self.b.call_fn(hs[3], &[tapes]);
    }

    /// Barriers stay barriers; a critical section's reverse opens where the forward one
    /// closed. The thread id is asked again (the reverse runs in another team).
    fn rev_sync(&mut self, i: Value, rule: OmpRule) {
        let i32t = self.ctx.i32();
        let ptr = self.ctx.ptr();
        let args = i.call_args();
        let loc = self.fetch(args[0]);
        let gtid_fn = self.d.libc("__kmpc_global_thread_num", i32t, &[ptr]);
        let gtid = self.b.call_fn(gtid_fn, &[loc]);
        let void = self.ctx.void();
        match rule {
            OmpRule::Barrier => {
                let f = self.d.libc("__kmpc_barrier", void, &[ptr, i32t]);
                self.b.call_fn(f, &[loc, gtid]);
            }
            OmpRule::CriticalBegin | OmpRule::CriticalEnd => {
                let lock = self.fetch(args[2]);
                let name = if rule == OmpRule::CriticalBegin {
                    "__kmpc_end_critical"
                } else {
                    "__kmpc_critical"
                };
                let f = self.d.libc(name, void, &[ptr, i32t, ptr]);
                self.b.call_fn(f, &[loc, gtid, lock]);
            }
            _ => {}
        }
    }

    fn rev_mpi(&mut self, i: Value, rule: MpiRule) {
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
        let Some(h) = self.mpi_helper(i, name) else {
            return;
        };
        let a: Vec<Value> = match rule {
            MpiRule::Send => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..6].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
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
            MpiRule::Isend | MpiRule::Irecv | MpiRule::Wait => vec![self.fetch_key(Key::Tape(i))],
            MpiRule::Waitall => {
                let n = self.fetch(args[0]);
                vec![n, self.fetch_key(Key::Tape(i))]
            }
            MpiRule::Bcast => {
                let s = self.fetch_shadow(args[0]);
                let rest: Vec<Value> = args[1..5].iter().map(|x| self.fetch(*x)).collect();
                std::iter::once(s).chain(rest).collect()
            }
            MpiRule::Allreduce => {
                // (send, dsend, drecv, n, type, comm, winners)
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let dr = self.fetch_shadow(args[1]);
                let (n, t, comm) = (
                    self.fetch(args[2]),
                    self.fetch(args[3]),
                    self.fetch(args[5]),
                );
                let win = self.fetch_key(Key::Tape(i));
                vec![send, ds, dr, n, t, comm, win]
            }
            MpiRule::Reduce => {
                // (send, dsend, drecv, n, type, root, comm, winners)
                let send = self.fetch(args[0]);
                let ds = self.fetch_shadow(args[0]);
                let dr = self.fetch_shadow(args[1]);
                let (n, t) = (self.fetch(args[2]), self.fetch(args[3]));
                let (root, comm) = (self.fetch(args[5]), self.fetch(args[6]));
                let win = self.fetch_key(Key::Tape(i));
                vec![send, ds, dr, n, t, root, comm, win]
            }
            _ => return,
        };
        self.b.call_fn(h, &a);
    }

    /// `atomicrmw fadd|fsub p, x` (result unused, see `check_atomic_rmw`): `x` received
    /// `*p`'s adjoint, which stays in place (the location keeps accumulating).
    pub(super) fn rev_atomic_rmw(&mut self, i: Value) {
        let (p, x) = (i.operand(0), i.operand(1));
        if !x.ty().is_fp() || !self.act.is_active(x) || !self.act.is_shadowed(p) {
            return;
        }
        let sp = self.fetch_shadow(p);
        let t = self.adj_ty(x);
        let d = self.b.load(t, sp, "sh");
        let d = if i.atomic_rmw_op() == AtomicRmwOp::FSub {
            self.b.fneg(d)
        } else {
            d
        };
        self.add_adj(x, d);
    }
}
