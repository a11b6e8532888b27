//! OpenMP forks and the synchronisation calls in the two sweeps.
//!
//! A fork's forward sweep allocates a tape per thread and forks the augmented
//! microtask's wrapper; its reverse forks the reverse microtask's wrapper on as many
//! threads and frees the tapes (`crate::parallel::openmp`; a host `teams` region is the
//! same with the league's teams as the members). Barriers are mirrored; critical
//! sections and doacross iterations take tickets in the forward sweep and their turns in
//! the reverse one (`runtime/openmp.c`).

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::calls::{classify, parallel_callee, CallKind};
use ferrozyme_llvm::Value;
use ferrozyme_rules::openmp::OmpRule;

use super::super::state::Facts;
use super::super::{Gen, Key};
use crate::common::{Diags, Problem};
use crate::parallel::teams::Members;
use crate::parallel::{openmp, Family};
use crate::signature::Request;

/// The checks of an active fork: no vector mode, a microtask whose request can be made.
pub(super) fn check_fork(fx: &Facts, diags: &mut Diags, i: Value) {
    if fx.width() > 1 {
        diags.report(Some(i), Problem::ParallelVectorMode);
    }
    match parallel_callee(i).map(|m| fork_request(fx, i, m, false)) {
        Some(Ok(_)) => {}
        Some(Err(p)) => diags.report(Some(i), p),
        None => diags.report(
            Some(i),
            Problem::Internal {
                msg: "a __kmpc_fork_call without its microtask".to_string(),
            },
        ),
    }
}

/// The request for differentiating the microtask of a fork: the thread ids are
/// constant, captured pointers with shadows are duplicated; `parallel` chooses the
/// variant with atomic adjoint updates.
fn fork_request<'a>(
    fx: &Facts,
    i: Value,
    micro: Value,
    parallel: bool,
) -> Result<Request, Problem<'a>> {
    let args = i.call_args();
    let params = micro.params();
    if params.len() + 1 != args.len() {
        return Err(Problem::Internal {
            msg: "the arguments of this __kmpc_fork_call do not match its microtask".to_string(),
        });
    }
    let mut acts = vec![ArgActivity::Const; params.len()];
    for (k, a) in args.iter().enumerate().skip(3) {
        if params[k - 1].ty().is_pointer() && fx.act.is_shadowed(*a) {
            acts[k - 1] = ArgActivity::Dup;
        } else if fx.act.is_active(*a) {
            return Err(Problem::CapturedByValue);
        }
    }
    Ok(Request {
        func: micro,
        args: acts,
        noneed: Vec::new(),
        placeholder: Vec::new(),
        ret_active: false,
        width: 1,
        parallel,
        runtime: fx.rt.call_runtime(i),
    })
}

impl Gen<'_> {
    /// The end of a critical section in the forward sweep: a ticket (the section's place
    /// in the order the threads went through critical sections; on the tape), then the
    /// call. The reverse of the section waits for its turn (`rev_sync`). A doacross post
    /// takes its ticket the same way, and a doacross wait its mark (`helper`).
    pub(super) fn fwd_ticketed(&mut self, i: Value, helper: &str) -> bool {
        let (Some(h), Some(end)) = (
            self.helper_or_report(i, Family::OpenMp, helper),
            i.called_function(),
        ) else {
            return false;
        };
        let ticket = self.b.call_fn(h, &[]);
        let args: Vec<Value> = i.call_args().iter().map(|a| self.fwd_operand(*a)).collect();
        let c = self.b.call_fn(end, &args);
        self.vals.fwd.insert(i, c);
        self.vals.call_tape.insert(i, ticket);
        true
    }

    /// The requests of a fork's microtask: `(team of one, larger team)`. Nested in a
    /// parallel derivative, even a team of one shares memory with the enclosing team's
    /// other threads: then both are the atomic variant.
    fn fork_requests(&self, i: Value) -> Option<(Value, Request, Request)> {
        let micro = parallel_callee(i)?;
        let par = fork_request(&self.fx, i, micro, true).ok()?;
        let one = if self.fx.req.parallel {
            par.clone()
        } else {
            fork_request(&self.fx, i, micro, false).ok()?
        };
        Some((micro, one, par))
    }

    /// What a `num_threads` clause asks for (the `__kmpc_push_num_threads` before the
    /// fork), or 0; for a teams region, `num_teams` and `thread_limit`
    /// (`__kmpc_push_num_teams`), or 0s. With an `if` clause too, the push is in the block
    /// that branches to the fork and to the serialized region: the search goes on through
    /// a few blocks that are the only predecessor of the one before.
    fn pushed_sizes(&self, i: Value, members: Members) -> Vec<Value> {
        let pushes = members.push_calls();
        let mut p = i.prev_instruction();
        let mut block = i.parent_block();
        'search: for _ in 0..4 {
            while let Some(x) = p {
                if x.is_call() {
                    let name = x.called_function().map(|f| f.name());
                    if let Some((_, at)) = pushes.iter().find(|(n, _)| Some(*n) == name.as_deref())
                    {
                        let args = x.call_args();
                        return at.iter().map(|k| self.fwd_operand(args[*k])).collect();
                    }
                    if matches!(classify(x), CallKind::OpenMp(OmpRule::Fork)) {
                        break 'search;
                    }
                }
                p = x.prev_instruction();
            }
            let preds: Vec<_> = block
                .parent()
                .blocks()
                .into_iter()
                .filter(|b| b.successors().contains(&block))
                .collect();
            let [pred] = preds[..] else {
                break;
            };
            block = pred;
            p = pred.terminator();
        }
        vec![self.fx.ctx.i32().zero(); members.new_arity()]
    }

    /// The captured arguments of a fork with their shadows, as `get` and `shadow` give
    /// them (forward copies, or values fetched in the reverse sweep), then `tapes`.
    fn fork_args(
        &mut self,
        i: Value,
        req: &Request,
        tapes: Value,
        get: fn(&mut Self, Value) -> Value,
        shadow: fn(&mut Self, Value) -> Value,
    ) -> Vec<Value> {
        let mut out = Vec::new();
        for (a, act) in i.call_args()[3..].iter().zip(&req.args[2..]) {
            out.push(get(self, *a));
            if *act == ArgActivity::Dup {
                out.push(shadow(self, *a));
            }
        }
        out.push(tapes);
        out
    }

    pub(super) fn fwd_fork(&mut self, i: Value) {
        let (Some((_, one, par)), Some(fork)) = (self.fork_requests(i), i.called_function()) else {
            return;
        };
        let members = Members::of(i);
        let (aug_one, _) = self.callees.split(&one);
        let (aug_par, _) = self.callees.split(&par);
        let (Some(new), Some(put)) = (
            self.helper_or_report(i, Family::OpenMp, members.tapes_new()),
            self.helper_or_report(i, Family::OpenMp, members.tapes_put()),
        ) else {
            return;
        };
        let count = self.sup.libc(members.queries()[1], self.fx.ctx.i32(), &[]);
        let wrapper = openmp::aug_wrapper(self.fx.m, &par, [aug_one, aug_par], put, count);
        let pushed = self.pushed_sizes(i, members);
        let tapes = self.b.call_fn(new, &pushed);
        let captured = self.fork_args(
            i,
            &par,
            tapes,
            |g, a| g.fwd_operand(a),
            |g, a| g.fwd_shadow(a),
        );
        let loc = self.fwd_operand(i.call_args()[0]);
        let mut fa = vec![
            loc,
            self.fx.ctx.i32().const_int(captured.len() as u64),
            wrapper,
        ];
        fa.extend(captured);
        let c = self.b.call(fork.function_type(), fork, &fa);
        self.vals.fwd.insert(i, c);
        self.vals.call_tape.insert(i, tapes);
    }

    pub(super) fn rev_fork(&mut self, i: Value) {
        let (Some((micro, one, par)), Some(fork)) = (self.fork_requests(i), i.called_function())
        else {
            return;
        };
        let members = Members::of(i);
        let (_, rev_one) = self.callees.split(&one);
        let (_, rev_par) = self.callees.split(&par);
        let mut hs = Vec::new();
        for n in [
            openmp::TAPES_COUNT,
            openmp::TAPES_GET,
            members.check(),
            openmp::TAPES_PARALLEL,
            openmp::TAPES_FREE,
        ] {
            match self.helper_or_report(i, Family::OpenMp, n) {
                Some(h) => hs.push(h),
                None => return,
            }
        }
        let (i32t, ptr, void) = (self.fx.ctx.i32(), self.fx.ctx.ptr(), self.fx.ctx.void());
        let [num, count] = members.queries();
        let thread_num = self.sup.libc(num, i32t, &[]);
        let num_threads = self.sup.libc(count, i32t, &[]);
        let wrapper = openmp::rev_wrapper(
            self.fx.m,
            &par,
            [rev_one, rev_par],
            [hs[0], hs[1], hs[2], hs[3]],
            openmp::needs_forward_team(micro),
            [thread_num, num_threads],
        );
        let tapes = self.fetch_key(Key::Tape(i));
        let loc = self.fetch(i.call_args()[0]);
        let captured = self.fork_args(i, &par, tapes, |g, a| g.fetch(a), |g, a| g.fetch_shadow(a));
        if members == Members::Teams {
            let Some(push) = self.helper_or_report(i, Family::OpenMp, Members::TEAMS_PUSH) else {
                return;
            };
            self.b.call_fn(push, &[loc, tapes]);
        } else {
            let gtid_fn = self.sup.libc("__kmpc_global_thread_num", i32t, &[ptr]);
            let push = self
                .sup
                .libc("__kmpc_push_num_threads", void, &[ptr, i32t, i32t]);
            let n = self.b.call_fn(hs[0], &[tapes]);
            let gtid = self.b.call_fn(gtid_fn, &[loc]);
            self.b.call_fn(push, &[loc, gtid, n]);
        }
        let mut fa = vec![loc, i32t.const_int(captured.len() as u64), wrapper];
        fa.extend(captured);
        self.b.call(fork.function_type(), fork, &fa);
        self.b.call_fn(hs[4], &[tapes]);
    }

    /// Barriers stay barriers; a serialized region's end and start swap; a critical
    /// section's reverse opens where the forward one
    /// closed, when every section entered after it has been reversed (its ticket's turn:
    /// the order matters when the update does not commute, `p = p * f`), and closes by
    /// giving the turn to the one before; the turns exclude each other like the lock.
    /// The thread id is asked again (the reverse runs in another team).
    pub(super) fn rev_sync(&mut self, i: Value, rule: OmpRule) {
        let (i32t, ptr, void) = (self.fx.ctx.i32(), self.fx.ctx.ptr(), self.fx.ctx.void());
        match rule {
            // A serialized region's reverse runs between the mirrored pair (its own team
            // of one); the thread id is asked again.
            OmpRule::Barrier | OmpRule::SerializedBegin | OmpRule::SerializedEnd => {
                let name = match rule {
                    OmpRule::Barrier => "__kmpc_barrier",
                    OmpRule::SerializedEnd => "__kmpc_serialized_parallel",
                    _ => "__kmpc_end_serialized_parallel",
                };
                let loc = self.fetch(i.call_args()[0]);
                let gtid_fn = self.sup.libc("__kmpc_global_thread_num", i32t, &[ptr]);
                let gtid = self.b.call_fn(gtid_fn, &[loc]);
                let f = self.sup.libc(name, void, &[ptr, i32t]);
                self.b.call_fn(f, &[loc, gtid]);
            }
            // A doacross iteration's reverse takes its turn where it posted and gives it
            // back at its first wait (or at once when it waited for nothing).
            OmpRule::CriticalEnd | OmpRule::DoacrossPost | OmpRule::DoacrossWait => {
                let name = match rule {
                    OmpRule::CriticalEnd => openmp::CRITICAL_TURN,
                    OmpRule::DoacrossPost => openmp::DOACROSS_TURN,
                    _ => openmp::DOACROSS_UNWAIT,
                };
                let ticket = self.fetch_key(Key::Tape(i));
                if let Some(f) = self.helper_or_report(i, Family::OpenMp, name) {
                    self.b.call_fn(f, &[ticket]);
                }
            }
            OmpRule::CriticalBegin => {
                if let Some(f) = self.helper_or_report(i, Family::OpenMp, openmp::CRITICAL_DONE) {
                    self.b.call_fn(f, &[]);
                }
            }
            _ => {}
        }
    }
}
