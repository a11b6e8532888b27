//! Fusion of 2 to 4 consecutive `__enzyme_autodiff` calls of one function with the same
//! primal arguments (differing only in shadows and seeds) into one vector-mode call
//! (`enzyme_width, k`), so the forward sweep runs once for all seed rows.
//!
//! Why: Jacobian harnesses (ADBench's and Enzyme's BA) call the reverse derivative once
//! per output row with the same inputs; the forward chain (sqrt, sincos, divisions) is
//! latency-bound and ran once per row (bench/README "ba9", "ba13").
//!
//! When it is right: the fused call runs every non-call instruction that sat between
//! the calls first, then all lanes. That equals the original order when every call
//! commutes with the instructions after it (its writes touch nothing they read or
//! write, its reads nothing they write), when no call's writes reach another call's
//! accesses (lane shadows pairwise disjoint and disjoint from the primal memory, primal
//! writes disjoint from primal reads), and when every call's primal arguments are the
//! first call's values. What each call touches is the callee's constant byte ranges
//! per argument (`call_extents.rs`); loads between the calls count as equal to an
//! earlier load of the same address when nothing in between may write it. Pairs of
//! ranges not decided statically (same base, distinct non-escaping allocas) become a
//! run-time test over the address ranges, with the original calls as the fallback.
//! Anything else keeps the calls unchanged.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_abi::EntryPoint;
use ferrozyme_llvm::{Block, Builder, IntPredicate, Module, Opcode, Value};

use crate::call_extents::{join, param_extents, ParamExtent, Span};
use crate::seed_calls::{
    access, intrinsic_call, is_autodiff, local_alloca, pure_op, rename_seed_generations, same,
    same_shape, simple_form, Acc, Form,
};
use crate::unmerge::split_before;

/// The most calls fused into one (the vector width).
pub const MAX_LANES: usize = 4;

/// Fuses what qualifies among `calls` (the module's hook calls); returns how many
/// fused calls were made.
pub fn fuse_seed_calls(m: Module, calls: &[Value]) -> usize {
    // Measurement switch (bench/README "ba13": before/after with one binary).
    if std::env::var_os("FERROZYME_NO_SEED_FUSION").is_some() {
        return 0;
    }
    let autodiff: Vec<Value> = calls.iter().copied().filter(|c| is_autodiff(*c)).collect();
    // Harness flags: the seed loop is still a loop; unroll only those whose call would
    // qualify on its own.
    let mut unrolled = HashSet::default();
    for c in &autodiff {
        let Some(form) = simple_form(*c) else {
            continue;
        };
        if param_extents(m, form.func).is_none() {
            continue;
        }
        let f = c.parent_function();
        if crate::seed_unroll::unroll_around(*c) {
            unrolled.insert(f);
        }
    }
    for f in &unrolled {
        // Fold the copies' constant phis (`0 * 120`, `1 ^ 1`) so offsets are constant.
        let _ = ferrozyme_llvm::run_function_passes(*f, "instsimplify");
    }
    let mut fused = 0;
    let mut blocks: Vec<Block> = Vec::new();
    for f in m.functions() {
        if !f.is_declaration() {
            continue;
        }
        if ferrozyme_abi::entry_point(&f.name()) != Some(EntryPoint::Autodiff) {
            continue;
        }
        for u in f.users() {
            if u.is_instruction() && u.opcode() == Some(Opcode::LLVMCall) {
                let b = u.parent_block();
                if !blocks.contains(&b) {
                    blocks.push(b);
                }
            }
        }
    }
    let mut seen = HashSet::default();
    for b in blocks {
        // After a fusion behind a run-time test, the rest of the block is `b` still.
        while let Some(group) = next_group(b, &mut seen) {
            if fuse_group(m, &group) {
                fused += 1;
            }
        }
    }
    fused
}

/// The first run of 2..=MAX_LANES hook calls in `b` of one function in the simple form
/// with the same markers, separated only by instructions `access` accepts, that has not
/// been looked at (calls already fused are gone; a refused group ends the scan).
fn next_group(b: Block, seen: &mut HashSet<Value>) -> Option<Vec<Value>> {
    let m = b.parent().parent_module();
    let insts = b.instructions();
    let mut i = 0;
    while i < insts.len() {
        let c0 = insts[i];
        i += 1;
        if !is_autodiff(c0) || seen.contains(&c0) {
            continue;
        }
        let Some(f0) = simple_form(c0) else { continue };
        let mut group = vec![c0];
        let mut j = i;
        while j < insts.len() && group.len() < MAX_LANES {
            let x = insts[j];
            j += 1;
            if is_autodiff(x) {
                match simple_form(x) {
                    Some(fx) if same_shape(&f0, &fx) => group.push(x),
                    _ => break,
                }
            } else if !x.is_lifetime_marker() && access(m, x).is_err() {
                break;
            }
        }
        if group.len() >= 2 {
            // A refused group is not tried again.
            seen.extend(group.iter().copied());
            return Some(group);
        }
    }
    None
}

/// The analysis of one group.
struct Fusion<'a> {
    m: Module,
    group: &'a [Value],
    forms: Vec<Form>,
    ext: Vec<ParamExtent>,
    /// Window instructions (from the first reorderable instruction before the first
    /// call to the last call) and their positions.
    win: Vec<Value>,
    pos: HashMap<Value, usize>,
    c0: usize,
    /// Lifetime markers between the calls that the fused path drops (an end followed by
    /// a start of the same object) or moves after the fused call (other ends).
    dropped: HashSet<Value>,
    moved: Vec<Value>,
    /// Pairs of ranges that must not overlap.
    pairs: Vec<(Acc, Acc)>,
    reps: HashMap<Value, Value>,
    builder: Builder,
}

/// Fuses one group; `false` when it is refused (then the calls are as they were, up to
/// the seed allocas' renaming, which changes nothing the program computes).
fn fuse_group(m: Module, group: &[Value]) -> bool {
    let forms: Vec<Form> = group
        .iter()
        .map(|c| simple_form(*c).expect("checked"))
        .collect();
    let Some(ext) = param_extents(m, forms[0].func) else {
        return false;
    };
    rename_seed_generations(m, group, &forms);
    let forms: Vec<Form> = group
        .iter()
        .map(|c| simple_form(*c).expect("checked"))
        .collect();
    let b = group[0].parent_block();
    let insts = b.instructions();
    let first = insts.iter().position(|i| *i == group[0]).expect("in block");
    let last = insts
        .iter()
        .position(|i| *i == group[group.len() - 1])
        .expect("in block");
    let mut start = first;
    while start > 0 {
        let x = insts[start - 1];
        if is_autodiff(x) || (!x.is_lifetime_marker() && access(m, x).is_err()) {
            break;
        }
        start -= 1;
    }
    let win: Vec<Value> = insts[start..=last].to_vec();
    let pos = win.iter().enumerate().map(|(k, v)| (*v, k)).collect();
    let ctx = m.context();
    let mut fu = Fusion {
        m,
        group,
        forms,
        ext,
        win,
        pos,
        c0: first - start,
        dropped: HashSet::default(),
        moved: Vec::new(),
        pairs: Vec::new(),
        reps: HashMap::default(),
        builder: Builder::new(ctx),
    };
    fu.builder.position_before(group[0]);
    if fu.analyse().is_none() {
        return false;
    }
    let Some(checks) = fu.resolve() else {
        return false;
    };
    fu.rewrite(checks);
    true
}

impl Fusion<'_> {
    /// The primal accesses of the callee (shared by all calls, at call 0's arguments)
    /// and lane `j`'s shadow accesses.
    fn call_accs(&self, j: usize) -> Vec<(Acc, bool)> {
        let mut out = Vec::new();
        for (s, e) in self.forms[j].slots.iter().zip(&self.ext) {
            if !s.primal.ty().is_pointer() {
                continue;
            }
            if let Some(r) = e.read {
                out.push((
                    Acc {
                        ptr: s.primal,
                        span: r,
                        write: false,
                    },
                    false,
                ));
            }
            if let Some(w) = e.write {
                out.push((
                    Acc {
                        ptr: s.primal,
                        span: w,
                        write: true,
                    },
                    false,
                ));
            }
            if let (Some(sh), Some(any)) = (s.shadow, e.any()) {
                out.push((
                    Acc {
                        ptr: sh,
                        span: any,
                        write: true,
                    },
                    true,
                ));
            }
        }
        out
    }

    fn analyse(&mut self) -> Option<()> {
        self.lifetimes();
        let k = self.group.len();
        // Every call's primal arguments are call 0's.
        for j in 1..k {
            for p in 0..self.forms[0].slots.len() {
                let (a, b) = (self.forms[0].slots[p].primal, self.forms[j].slots[p].primal);
                let rb = self.rep(b)?;
                if !same(a, rb, 0) {
                    return None;
                }
            }
        }
        // Between calls: the calls commute with what follows them.
        for j in 0..k - 1 {
            let cj = self.pos[&self.group[j]];
            let accs = self.call_accs(j);
            for x in self.win[cj + 1..].to_vec() {
                if is_autodiff(x) || self.dropped.contains(&x) || self.moved.contains(&x) {
                    continue;
                }
                let xa = if x.is_lifetime_marker() {
                    // A start between the calls (a new object generation): a write of
                    // the whole object.
                    let a = self.m.strip_const_geps(x.operand(0)).0;
                    if a.opcode() != Some(Opcode::LLVMAlloca) {
                        return None;
                    }
                    Some(Acc {
                        ptr: a,
                        span: (0, self.m.alloc_size(a.allocated_type()) as i64),
                        write: true,
                    })
                } else {
                    access(self.m, x).ok()?
                };
                let Some(xa) = xa else { continue };
                for (c, _) in &accs {
                    if c.write || xa.write {
                        self.pairs.push((*c, xa));
                    }
                }
            }
        }
        // Between lanes: shadows disjoint from each other and from the primal memory;
        // primal writes disjoint from primal reads.
        let lanes: Vec<Vec<(Acc, bool)>> = (0..k).map(|j| self.call_accs(j)).collect();
        let prim: Vec<Acc> = lanes[0]
            .iter()
            .filter(|(_, s)| !s)
            .map(|(a, _)| *a)
            .collect();
        for (i, pa) in prim.iter().enumerate() {
            for pb in &prim[i + 1..] {
                if pa.write != pb.write {
                    self.pairs.push((*pa, *pb));
                }
            }
        }
        for (j, lane) in lanes.iter().enumerate() {
            for (sa, _) in lane.iter().filter(|(_, s)| *s) {
                for p in &prim {
                    self.pairs.push((*sa, *p));
                }
                for other in &lanes[j + 1..] {
                    for (sb, _) in other.iter().filter(|(_, s)| *s) {
                        self.pairs.push((*sa, *sb));
                    }
                }
            }
        }
        Some(())
    }

    /// Lifetime markers between the first and the last call: an end followed by a
    /// start of the same object is dropped in the fused path, other ends move after it.
    fn lifetimes(&mut self) {
        let (c0, last) = (self.c0, self.win.len() - 1);
        for p in c0 + 1..last {
            let x = self.win[p];
            if !intrinsic_call(x, "llvm.lifetime.end") {
                continue;
            }
            let obj = x.operand(0);
            let start = self.win[p + 1..last].iter().find(|y| {
                intrinsic_call(**y, "llvm.lifetime.start")
                    && y.operand(0) == obj
                    && !self.dropped.contains(*y)
            });
            match start {
                Some(s) => {
                    self.dropped.insert(x);
                    self.dropped.insert(*s);
                }
                None => self.moved.push(x),
            }
        }
    }

    /// A value equal to `v` (under the recorded pairs), available before the first call.
    fn rep(&mut self, v: Value) -> Option<Value> {
        let Some(&p) = self.pos.get(&v) else {
            return Some(v);
        };
        if p < self.c0 {
            return Some(v);
        }
        if let Some(r) = self.reps.get(&v) {
            return Some(*r);
        }
        let op = v.opcode()?;
        let r = if op == Opcode::LLVMLoad {
            if v.is_volatile() || v.is_atomic_access() {
                return None;
            }
            let addr = self.rep(v.operand(0))?;
            let (lp, l) = self.win[..self.c0]
                .iter()
                .enumerate()
                .rev()
                .find(|(_, l)| {
                    l.opcode() == Some(Opcode::LLVMLoad)
                        && !l.is_volatile()
                        && l.ty() == v.ty()
                        && same(l.operand(0), addr, 0)
                })
                .map(|(k, l)| (k, *l))?;
            let me = Acc {
                ptr: v.operand(0),
                span: (0, self.m.store_size(v.ty()) as i64),
                write: false,
            };
            // Nothing between the two loads may write the address.
            for x in self.win[lp + 1..p].to_vec() {
                if self.dropped.contains(&x) || self.moved.contains(&x) {
                    continue;
                }
                if let Some(j) = self.group.iter().position(|c| *c == x) {
                    for (a, _) in self.call_accs(j) {
                        if a.write {
                            self.pairs.push((a, me));
                        }
                    }
                } else if x.is_lifetime_marker() {
                    let a = self.m.strip_const_geps(x.operand(0)).0;
                    if a.opcode() != Some(Opcode::LLVMAlloca) {
                        return None;
                    }
                    self.pairs.push((
                        Acc {
                            ptr: a,
                            span: (0, 1 << 40),
                            write: true,
                        },
                        me,
                    ));
                } else if let Some(a) = access(self.m, x).ok()? {
                    if a.write {
                        self.pairs.push((a, me));
                    }
                }
            }
            l
        } else if pure_op(op) {
            let ops: Vec<Value> = v.operands();
            let mut new = Vec::with_capacity(ops.len());
            for o in &ops {
                new.push(self.rep(*o)?);
            }
            let c = v.clone_instruction();
            self.builder.insert(c);
            for (k, o) in new.iter().enumerate() {
                c.set_operand(k as u32, *o);
            }
            // Reuse an equal instruction from before the first call.
            match self.win[..self.c0].iter().find(|w| same(**w, c, 0)) {
                Some(w) => {
                    c.erase();
                    *w
                }
                None => c,
            }
        } else {
            return None;
        };
        self.reps.insert(v, r);
        Some(r)
    }

    /// Decides the pairs: `None` when one certainly overlaps or cannot be tested,
    /// otherwise the run-time tests left, `(base a, span a, base b, span b)` per pair of
    /// bases with their spans joined.
    fn resolve(&mut self) -> Option<Vec<(Value, Span, Value, Span)>> {
        let mut tests: Vec<(Value, Span, Value, Span)> = Vec::new();
        for (a, b) in std::mem::take(&mut self.pairs) {
            let (ra, rb) = (self.rep(a.ptr)?, self.rep(b.ptr)?);
            let (ba, oa) = self.m.strip_const_geps(ra);
            let (bb, ob) = self.m.strip_const_geps(rb);
            let sa = (a.span.0 + oa, a.span.1 + oa);
            let sb = (b.span.0 + ob, b.span.1 + ob);
            if sa.0 >= sa.1 || sb.0 >= sb.1 {
                continue;
            }
            if ba == bb {
                if sa.1 <= sb.0 || sb.1 <= sa.0 {
                    continue;
                }
                return None;
            }
            let alloca = |v: Value| v.opcode() == Some(Opcode::LLVMAlloca);
            if (alloca(ba) && alloca(bb))
                || (alloca(ba) && local_alloca(ba, self.group))
                || (alloca(bb) && local_alloca(bb, self.group))
            {
                continue;
            }
            if ba.is_global_variable() && bb.is_global_variable() {
                continue; // two globals
            }
            if alloca(ba) || alloca(bb) {
                return None; // an alloca whose address escapes
            }
            let (x, sx, y, sy) = if (ba.raw() as usize) < (bb.raw() as usize) {
                (ba, sa, bb, sb)
            } else {
                (bb, sb, ba, sa)
            };
            match tests.iter_mut().find(|t| t.0 == x && t.2 == y) {
                Some(t) => {
                    t.1 = join(Some(t.1), Some(sx)).expect("some");
                    t.3 = join(Some(t.3), Some(sy)).expect("some");
                }
                None => tests.push((x, sx, y, sy)),
            }
        }
        Some(tests)
    }

    /// The fused call, with its arguments taken from `value` (lane j's shadows from call
    /// j), inserted where `b` stands.
    fn fused_call(&self, b: &Builder, value: &dyn Fn(Value) -> Value) -> Value {
        let c0 = self.group[0];
        let ctx = self.m.context();
        let wg = self
            .m
            .global("enzyme_width")
            .unwrap_or_else(|| self.m.add_global("enzyme_width", ctx.i32()));
        let mut args = vec![
            c0.call_args()[0],
            b.load(ctx.i32(), wg, ""),
            ctx.i32().const_int(self.group.len() as u64),
        ];
        for (p, s) in self.forms[0].slots.iter().enumerate() {
            args.push(s.marker_val);
            args.push(s.primal);
            if s.shadow.is_some() {
                for f in &self.forms {
                    args.push(value(f.slots[p].shadow.expect("same shape")));
                }
            }
        }
        b.call(c0.called_function_type(), c0.called_value(), &args)
    }

    fn rewrite(&mut self, tests: Vec<(Value, Span, Value, Span)>) {
        let k = self.group.len();
        let last = self.group[k - 1];
        if tests.is_empty() {
            // Proven: the calls become one in place.
            let b = Builder::new(self.m.context());
            b.position_before(last);
            self.fused_call(&b, &|v| v);
            for x in &self.moved {
                x.remove_from_parent();
                b.insert(*x);
            }
            for x in &self.dropped {
                x.erase();
            }
            for c in self.group {
                c.erase();
            }
            return;
        }
        // Run-time test before the first call.
        let b = &self.builder;
        let ctx = self.m.context();
        let i64t = ctx.i64();
        let mut ok: Option<Value> = None;
        for (x, sx, y, sy) in &tests {
            let xi = b.ptrtoint(*x, i64t);
            let yi = b.ptrtoint(*y, i64t);
            let at = |v: Value, off: i64| {
                if off == 0 {
                    v
                } else {
                    b.add(v, i64t.const_i64(off))
                }
            };
            let x_end = at(xi, sx.1);
            let y_beg = at(yi, sy.0);
            let y_end = at(yi, sy.1);
            let x_beg = at(xi, sx.0);
            let before = b.icmp(IntPredicate::LLVMIntULE, x_end, y_beg);
            let after = b.icmp(IntPredicate::LLVMIntULE, y_end, x_beg);
            let apart = b.or(before, after);
            ok = Some(match ok {
                Some(o) => b.and(o, apart),
                None => apart,
            });
        }
        // Frozen: a speculated address computation (the copies `rep` made before the
        // first call) must not make the branch undefined.
        let ok = b.freeze(ok.expect("tests not empty"));
        let blk = self.group[0].parent_block();
        let head = split_before(self.m, self.group[0], "fz.seed_split");
        let after = last.next_instruction().expect("calls are not terminators");
        let orig = split_before(self.m, after, "fz.seed_split");
        let join_blk = blk;
        let fused = join_blk.insert_before(ctx, "fz.seed_fusion");
        let fb = Builder::new(ctx);
        fb.position_at_end(orig);
        fb.br(join_blk);
        fb.position_at_end(head);
        fb.cond_br(ok, fused, orig);
        // The fused path: what sat between the calls (lifetime pairs dropped), the
        // call, the moved ends.
        fb.position_at_end(fused);
        let mut map: HashMap<Value, Value> = HashMap::default();
        for x in orig.instructions() {
            if self.group.contains(&x) || self.dropped.contains(&x) || self.moved.contains(&x) {
                continue;
            }
            if x.is_terminator() {
                continue;
            }
            let c = x.clone_instruction();
            for o in 0..c.num_operands() {
                if let Some(n) = map.get(&c.operand(o)) {
                    c.set_operand(o, *n);
                }
            }
            fb.insert(c);
            map.insert(x, c);
        }
        self.fused_call(&fb, &|v| map.get(&v).copied().unwrap_or(v));
        for x in &self.moved {
            let c = x.clone_instruction();
            fb.insert(c);
        }
        fb.br(join_blk);
        // Values of the original path used after it.
        let first = join_blk
            .first_instruction()
            .expect("join keeps the terminator");
        for x in orig.instructions() {
            let Some(c) = map.get(&x) else { continue };
            let outside: Vec<Value> = x
                .users()
                .into_iter()
                .filter(|u| u.is_instruction() && u.parent_block() != orig)
                .collect();
            if outside.is_empty() {
                continue;
            }
            fb.position_before(first);
            let phi = fb.phi(x.ty(), "");
            phi.add_incoming(x, orig);
            phi.add_incoming(*c, fused);
            for u in outside {
                for o in 0..u.num_operands() {
                    if u.operand(o) == x {
                        u.set_operand(o, phi);
                    }
                }
            }
        }
    }
}
