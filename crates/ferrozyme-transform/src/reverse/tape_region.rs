//! One tape region per outermost call: the room of counted loops' record stacks.
//!
//! A split-mode function's record stack starts empty (a heap tape outlives the call, so
//! it has no inline buffer), and a counted loop reserves its whole room before the loop
//! nest (`fixed_tape.rs`). Each such reservation used to take a buffer of its own (a
//! `__fz_grow` call, the header's data pointer, length and capacity handed over in the
//! tape) and each reverse function released it (a test and a `__fz_pool_put` call): in a
//! chain of functions with one loop each (`bench/compile_scaling`'s `chain` and `tree`,
//! issue 18) about a third of the generated code's tape handling, paid again at run time
//! per loop and call (issue 14).
//!
//! Here every such stack takes its room from one bump region (`runtime/ir/region.ll`)
//! owned by the outermost derivative call: one `__fz_region_claim` call per loop nest,
//! whose result becomes the stack's data pointer (the length then counts up from zero as
//! before, and the reverse sweep reads and pops as before), and one
//! `__fz_region_release` when the outermost reverse sweep is done, instead of one release
//! per stack.
//!
//! # Who owns the region
//!
//! * a nested augmented function (`tape_nest.rs`) gets it as its last parameter and
//!   passes it on to its own nested callees; its reverse function never releases it;
//! * a combined function or an outermost split pair that calls nested pairs owns it: a
//!   32-byte `alloca` of its forward function, zeroed at entry (its address escapes to
//!   the runtime and the callees, so it stays out of the tape, which SROA keeps in
//!   registers); a split pair hands it over in a tape slot of its heap block, written
//!   after the tape's own copy-out at each return, and the reverse function releases it
//!   from there before freeing the block; a combined function releases it at its reverse
//!   sweep's return.
//!
//! # When a stack's room comes from the region
//!
//! An owner's own stacks claim from its region only when it has one for its nested
//! callees anyway: a split pair with loops and no nested callees (a recursive function,
//! one pair per call) keeps per-stack buffers, as a region of its own would add a slot,
//! a hand-over copy and a release per call for a single claim (the recursive FFT: 4.8%
//! more gradient instructions and 21% more tape bytes with it, `bench/icount.py`).
//!
//! # A single claim
//!
//! A region that would hold one stack only costs what a buffer of the stack's own does,
//! plus the region's `alloca`, its zeroing and its out-of-line claim and release (in the
//! iterative FFT, `bench/src/fft_iter.c`, whose combined `foobar` nests `fft`'s pair with
//! one counted loop: 0.8% more gradient instructions, spills in loops far from the
//! claim). A nested pair therefore emits its claim together with the stack's own
//! reservation (the empty header's stores at entry, `__fz_reserve` after the claim, and
//! `__fz_stack_free` at its reverse's return), and the drain keeps one of them
//! ([`ClaimSite`]): the own reservation when the pair's claim is the only claim under
//! every owner that reaches it in the drain (nested calls are on no CFG cycle, so that
//! claim runs at most once per owner call), the claim otherwise. The owner's region then
//! has no claimant and goes as any unused region does.
//!
//! A claimed stack is never grown, so every push must be inside the claimed room and the
//! claim must run at most once per call: the stack's pushes are all reserved
//! (`fixed_tape.rs` found a sure bound), the reservation covers the whole loop nest (no
//! looser whole-nest reservation after it), and the block it goes in lies on no CFG
//! cycle. Combined functions keep their stacks' inline buffers (a short loop allocates
//! nothing there), and parallel derivatives keep per-thread stacks.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, Opcode, Value};

use super::tape_nest::{self, NestLayout};
use super::Gen;
use crate::runtime::RtFn;
use crate::signature::Request;

/// Bytes of a region header: `{ ptr cur, ptr end, ptr chunk, i64 cap }` (`region.ll`).
const REGION_BYTES: u64 = 32;

/// Offset of the capacity in a stack header `{ ptr data, i64 len, i64 cap }`
/// (`runtime/ir/stack.ll`).
const CAPACITY_FIELD: u64 = 16;

impl Gen<'_> {
    /// The tape region in the forward function: the nested augmented function's
    /// parameter, or this function's own (created, and in split mode given its tape slot,
    /// on first need).
    pub(super) fn region_fwd(&mut self) -> Value {
        if let Some(r) = self.tape.region {
            return r;
        }
        let (i8t, i64t) = (self.fx.ctx.i8(), self.fx.ctx.i64());
        let fb = &self.out.fb_entry;
        let a = fb.array_alloca(i8t, i64t.const_int(REGION_BYTES), "fz.region");
        a.set_alignment(16);
        fb.memset(a, i8t.const_int(0), i64t.const_int(REGION_BYTES), 16);
        if self.fx.split {
            // The slot's offset is known once the nested callees' sizes are (after the
            // drain): a placeholder until then, and no slot at all if the region goes.
            self.tape.region_slot = Some(super::tape_nest::next_placeholder());
        }
        self.tape.region = Some(a);
        a
    }

    /// May this function's stacks take their room from a region at all?
    fn may_claim(&self) -> bool {
        self.fx.split && !self.fx.req.parallel
    }

    /// Does the reservation of a stack's whole room before primal block `pre`, covering
    /// `depth` loops where the looser whole-nest reservation covers `loose`, go to the
    /// region (see the module docs)?
    pub(super) fn claims_region(&self, pre: Block, depth: usize, loose: usize) -> bool {
        self.may_claim()
            && depth >= loose
            && !self.fx.cfg.is_cyclic(pre)
            && (self.fx.nested || self.tape.region.is_some())
    }

    /// At the builder's position: `bytes` of the region become the data pointer of the
    /// stack at tape offset `stack`.
    /// Returns the claim call.
    pub(super) fn claim_room(&mut self, stack: u64, bytes: Value) -> Value {
        let region = self.region_fwd();
        let claim = self.sup.rt(RtFn::RegionClaim);
        let p = self.b.call_fn(claim, &[region, bytes]);
        let s = self
            .b
            .byte_gep(self.tape.fwd, self.fx.ctx.i64().const_int(stack));
        self.b.store(p, s);
        p
    }

    /// A split owner: the region into its tape slot of the heap block at each return.
    pub(super) fn hand_over_region(&mut self) {
        let (Some(slot), Some(a)) = (self.tape.region_slot, self.tape.region) else {
            return;
        };
        let i64t = self.fx.ctx.i64();
        for r in self.tape.aug_rets.clone() {
            self.b.position_before(r);
            let dst = self.b.byte_gep(self.tape.heap_fwd, i64t.const_int(slot));
            self.tape.region_slot_geps.push(dst);
            self.b.memcpy(dst, a, i64t.const_int(REGION_BYTES), 8);
        }
    }

    /// At the builder's position before the reverse sweep's return: an owner gives its
    /// region's chunks back (a split owner before its tape block is freed).
    pub(super) fn release_region(&mut self) {
        if self.fx.nested {
            return;
        }
        let Some(a) = self.tape.region else {
            return;
        };
        let r = match self.tape.region_slot {
            Some(slot) => {
                let i64t = self.fx.ctx.i64();
                let g = self.b.byte_gep(self.tape.heap_rev, i64t.const_int(slot));
                self.tape.region_slot_geps.push(g);
                g
            }
            None => a,
        };
        // Declared only: the runtime piece comes with the first claim, and a region
        // nothing claims from loses its release (`prune_unused`), so a derivative
        // without counted loops links no stack runtime.
        let ctx = self.fx.ctx;
        let release = self.fx.m.get_or_declare(
            RtFn::RegionRelease.name(),
            ctx.function_type(ctx.void(), &[ctx.ptr()], false),
        );
        self.tape.region_release = Some(self.b.call_fn(release, &[r]));
    }

    /// Split mode, once the records are final: the copy-outs of the local tape into the
    /// heap block at each return skip the capacity field of every stack that claimed its
    /// room from the region. Nothing reads it: such a stack is never grown
    /// (`__fz_push_reserved`) nor released (`release_at_exit`), and the reverse sweep
    /// reads only its data pointer and length. Copied, it was one dead store (and its
    /// address) per counted loop in every augmented function (issue 18).
    ///
    /// In a nested pair with a single claim the skip waits for the drain: that claim is a
    /// site which `settle_single_claims` may turn into the stack's own room (when the pair
    /// is the region's only claimant), and then the reverse reads the capacity to free the
    /// stack: skipping it there freed a garbage pointer (`free(): invalid pointer` in
    /// tests/rust-linalg's ndarray views, when chain22's skip met gmm22's settling). The
    /// site carries the copy-outs and skips the field only when the claim stays
    /// ([`ClaimSite`]); a pair with two or more sites is never settled to own room.
    pub(super) fn copy_out_read_fields(&mut self) {
        let claims = self.tape.records.values().filter(|r| r.in_region).count();
        if self.fx.nested && may_become_own_room(claims) {
            let copies = std::mem::take(&mut self.tape.copy_outs);
            if let Some(r) = self.tape.records.values_mut().find(|r| r.in_region) {
                let field = r.stack + CAPACITY_FIELD;
                if let Some(site) = &mut r.site {
                    site.skip_if_kept = Some((copies, field));
                }
            }
            return;
        }
        let copies = std::mem::take(&mut self.tape.copy_outs);
        let unread: Vec<u64> = self
            .tape
            .records
            .values()
            .filter(|r| r.in_region)
            .map(|r| r.stack + CAPACITY_FIELD)
            .collect();
        skip_fields(&self.b, copies, unread);
    }

    /// Does any of this function's stacks take its room from the region?
    pub(super) fn claims_any(&self) -> bool {
        self.tape.records.values().any(|r| r.in_region)
    }

    /// The region this function owns, if it made one.
    pub(super) fn own_region(&self) -> Option<OwnRegion> {
        if self.fx.nested {
            return None;
        }
        self.tape.region.map(|alloca| OwnRegion {
            alloca,
            release: self.tape.region_release,
            slot_geps: self.tape.region_slot_geps.clone(),
        })
    }
}

/// A region a function owns: its `alloca` (zeroed, handed over, passed to nested
/// callees) and its release.
pub(crate) struct OwnRegion {
    alloca: Value,
    release: Option<Value>,
    /// A split owner: the heap block slot's `getelementptr`s (hand-over and release).
    slot_geps: Vec<Value>,
}

impl OwnRegion {
    /// Nothing claims from it: the release, the `alloca`'s zeroing and hand-over copies
    /// go, and the nested callees get a null region (they never read it).
    pub(crate) fn remove(self) {
        if let Some(r) = self.release {
            let f = r.called_function();
            r.erase();
            // The declaration alone, when no other region kept it.
            if let Some(f) = f.filter(|f| f.is_declaration() && f.users().is_empty()) {
                f.delete_function();
            }
        }
        for u in self.alloca.users() {
            if u.opcode() == Some(Opcode::LLVMCall)
                && u.called_function()
                    .is_some_and(|f| f.name().starts_with("llvm.mem"))
            {
                u.erase();
            }
        }
        self.alloca.replace_all_uses_with(self.alloca.ty().zero());
        self.alloca.erase();
        for g in self.slot_geps {
            if g.users().is_empty() {
                g.erase();
            }
        }
    }

    /// A split owner's slot goes at offset `off` of its heap block (after the nested
    /// callees' tapes); returns the offset after it.
    pub(crate) fn place_slot(&self, off: u64) -> u64 {
        if self.slot_geps.is_empty() {
            return off;
        }
        let i64t = self.alloca.ty().context().i64();
        for g in &self.slot_geps {
            g.set_operand(1, i64t.const_int(off));
        }
        off + REGION_BYTES
    }
}

/// A nested pair's claim of a stack's room, emitted together with the stack's own
/// reservation (the empty header's stores at entry, `__fz_reserve` beside the claim, and
/// `__fz_stack_free` at the reverse's return) until the drain decides which one stays
/// (see "A single claim" in the module docs).
pub(crate) struct ClaimSite {
    /// The `__fz_region_claim` call; its one use stores the stack's data pointer.
    claim: Value,
    /// The `__fz_reserve` call on the stack's header, right after that store.
    own: Value,
    /// The entry's stores of the empty header (`{ null, 0, cap 1 }`).
    init: Vec<Value>,
    /// The reverse function's `__fz_stack_free` of the stack.
    free: Option<Value>,
    /// The augmented function's tape copy-outs and the stack's capacity field in them:
    /// skipped when the claim stays (`copy_out_read_fields`), copied for own room.
    skip_if_kept: Option<(Vec<Value>, u64)>,
}

impl ClaimSite {
    pub(super) fn new(claim: Value, own: Value, init: Vec<Value>) -> ClaimSite {
        ClaimSite {
            claim,
            own,
            init,
            free: None,
            skip_if_kept: None,
        }
    }

    pub(super) fn set_free(&mut self, free: Value) {
        self.free = Some(free);
    }

    /// The room comes from the region: the own reservation's code goes (what a claim
    /// emitted alone leaves).
    fn keep_claim(self) {
        erase_call(self.own);
        for st in self.init {
            st.erase();
        }
        if let Some(f) = self.free {
            erase_call(f);
        }
        if let Some((copies, field)) = self.skip_if_kept {
            if let Some(cp) = copies.first() {
                let b = Builder::new(cp.ty().context());
                skip_fields(&b, copies, vec![field]);
            }
        }
    }

    /// The stack reserves its own buffer: the claim and the store of its result go.
    fn own_room(self) {
        for u in self.claim.users() {
            let at = u.operand(1);
            u.erase();
            if at.opcode() == Some(Opcode::LLVMGetElementPtr) && at.users().is_empty() {
                at.erase();
            }
        }
        self.claim.erase();
    }
}

/// Erases a runtime call and its header address when nothing else uses it.
fn erase_call(call: Value) {
    let header = call.operand(0);
    call.erase();
    if header.opcode() == Some(Opcode::LLVMGetElementPtr) && header.users().is_empty() {
        header.erase();
    }
}

/// Each tape copy-out `memcpy` of `copies` cut into the pieces between the 8-byte fields
/// at `unread` (byte offsets), which it no longer copies.
fn skip_fields(b: &Builder, copies: Vec<Value>, mut unread: Vec<u64>) {
    if unread.is_empty() {
        return;
    }
    unread.sort_unstable();
    for cp in copies {
        let Some(len) = cp
            .operand(2)
            .const_int_value()
            .and_then(|l| u64::try_from(l).ok())
        else {
            continue;
        };
        let ctx = cp.ty().context();
        let i64t = ctx.i64();
        // The bytes read, as [start, end) pieces between the skipped fields.
        let mut pieces = Vec::new();
        let mut at = 0;
        for &f in unread.iter().filter(|&&f| f + 8 <= len) {
            if f > at {
                pieces.push((at, f));
            }
            at = f + 8;
        }
        if at < len {
            pieces.push((at, len));
        }
        let (dst, src) = (cp.operand(0), cp.operand(1));
        b.position_before(cp);
        for (a, e) in pieces {
            let (d, s) = if a == 0 {
                (dst, src)
            } else {
                let at = i64t.const_int(a);
                (b.byte_gep(dst, at), b.byte_gep(src, at))
            };
            // Both blocks are 16-aligned; the pieces start at 8-byte fields.
            let align = if a % 16 == 0 { 16 } else { 8 };
            let c = b.memcpy(d, s, i64t.const_int(e - a), align);
            super::tape_move::mark_tape_move(ctx, c);
        }
        cp.erase();
    }
}

/// Can a nested pair with `sites` claim sites have them settled into its own room
/// (`settle_single_claims`)? Only a sole claim; the copy-out keeps the capacity field of
/// such a pair's stacks (`copy_out_read_fields`).
fn may_become_own_room(sites: usize) -> bool {
    sites == 1
}

/// Claims counted per layout, saturated: more than one is "many".
const MANY: usize = 2;

/// Before the verdicts of [`prune_unused`]: a nested pair whose stack's claim is the only
/// claim under every owner that reaches it in this drain keeps its own reservation
/// instead (the region would hold that one stack); every other claim site stays a claim.
fn settle_single_claims(pending: &mut [NestLayout], users: &HashMap<Request, bool>) {
    let n = pending.len();
    let by_owner = tape_nest::layouts_by_owner(pending);
    let order = tape_nest::callees_first(pending, &by_owner);
    // Claims under each layout (its own and its nested callees'), by rounds in
    // callees-first order (one round decides an acyclic nest, a second finds nothing
    // left); a layout left undecided (a cycle) counts as many.
    let mut count: Vec<Option<usize>> = vec![None; n];
    loop {
        let mut changed = false;
        for &k in &order {
            if count[k].is_some() {
                continue;
            }
            let l = &pending[k];
            // An owner's own claims have no sites: many, never rewritten.
            let mut c = if l.claims && l.sites.is_empty() {
                MANY
            } else {
                l.sites.len()
            };
            let mut known = true;
            for (r, _) in &l.regions {
                let rc = match by_owner.get(r) {
                    Some(&j) => match count[j] {
                        Some(x) => x,
                        None => {
                            known = false;
                            break;
                        }
                    },
                    // An earlier drain's pair: settled then.
                    None if users.get(r) == Some(&false) => 0,
                    None => MANY,
                };
                c = (c + rc).min(MANY);
            }
            if known {
                count[k] = Some(c.min(MANY));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let child = |l: &NestLayout, want: Option<usize>| {
        l.regions
            .iter()
            .find_map(|(r, _)| by_owner.get(r).copied().filter(|&j| count[j] == want))
    };
    let mut sole = vec![false; n];
    let mut veto = vec![false; n];
    for k in 0..n {
        if pending[k].own_region.is_none() {
            continue; // not an owner
        }
        match count[k] {
            Some(0) => {}
            Some(1) => {
                // Down the one path with a claim to the pair that makes it.
                let mut j = k;
                while pending[j].sites.is_empty() {
                    match child(&pending[j], Some(1)) {
                        Some(c) => j = c,
                        None => break,
                    }
                }
                if may_become_own_room(pending[j].sites.len()) {
                    sole[j] = true;
                }
            }
            _ => {
                let mut stack = vec![k];
                while let Some(j) = stack.pop() {
                    for (r, _) in &pending[j].regions {
                        if let Some(&c) = by_owner.get(r) {
                            if !veto[c] {
                                veto[c] = true;
                                stack.push(c);
                            }
                        }
                    }
                }
            }
        }
    }
    for (k, l) in pending.iter_mut().enumerate() {
        let own = sole[k] && !veto[k] && l.sites.iter().all(|s| s.free.is_some());
        for s in l.sites.drain(..) {
            if own {
                s.own_room();
            } else {
                s.keep_claim();
            }
        }
        if own {
            l.claims = false;
        }
    }
}

/// After a drain: which nested pairs claim region room (themselves or through the
/// callees they nest; recorded in `users` for later drains), and the regions of owners
/// under which nothing claims removed. A pair whose answer cannot be found (its body
/// failed, or a cycle) counts as claiming.
pub(crate) fn prune_unused(pending: &mut [NestLayout], users: &mut HashMap<Request, bool>) {
    settle_single_claims(pending, users);
    // Nesting is a DAG per drain: settle it by rounds (each round decides at least the
    // layouts whose callees are all decided), in callees-first order, so that the first
    // round decides the whole DAG and the second finds nothing left.
    let order = tape_nest::callees_first(pending, &tape_nest::layouts_by_owner(pending));
    loop {
        let mut changed = false;
        for l in order.iter().map(|&k| &pending[k]) {
            let Some(o) = &l.owner else { continue };
            if users.contains_key(o) {
                continue;
            }
            let verdict = if l.claims {
                Some(true)
            } else {
                l.regions
                    .iter()
                    .try_fold(false, |acc, (r, _)| users.get(r).map(|&u| acc || u))
            };
            if let Some(v) = verdict {
                users.insert(o.clone(), v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for l in pending.iter_mut() {
        let used = l.claims
            || l.regions
                .iter()
                .any(|(r, _)| users.get(r).copied().unwrap_or(true));
        if !used {
            if let Some(r) = l.own_region.take() {
                r.remove();
            }
        }
    }
}
