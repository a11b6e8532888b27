//! Callee tapes nested in the caller's tape.
//!
//! Without nesting, every augmented call allocates a tape block of its own from the
//! per-thread arena (`__fz_tape_alloc`) and its reverse call frees it (`__fz_tape_free`):
//! in a chain of 320 differentiated functions, 321 allocations and frees per gradient,
//! and the inlined arena code at every call site (issue 18: the generated code was 4.4x
//! the primal's). A call that runs at most once per run of its caller does not need a
//! block of its own: the callee's tape has a size fixed at compile time (split-mode tapes
//! hold slots and stack headers only; stacks live on the heap), so the caller reserves
//! room for it in its own tape, and the callee's *nested* pair (`fz_aug_f.nest`, which
//! takes the tape pointer as its second-to-last parameter (the last: the outermost call's
//! tape region, `tape_region.rs`), and `fz_rev_f.nest`, which does not free
//! it) works there. Only the outermost function allocates: a split pair's augmented
//! function (`fz_aug_f`, whose block now holds its nested callees' tapes after its own),
//! or a combined function (the hook's entry: a second `alloca`, `fz.nest`, so its own tape
//! stays promotable to registers).
//!
//! # When a call's tape is nested
//!
//! * the call is direct, of a function with IR and no registered derivative (a
//!   registered rule's tape is whatever its augmented function returns; a call through a
//!   pointer picks one of several derivatives at run time: both keep separate tapes);
//! * its block lies on no CFG cycle of the caller (it runs at most once per call of the
//!   caller, so one region suffices);
//! * the callee is on no cycle of direct calls with the caller (`Support::same_cycle`):
//!   a recursive callee's tape would contain itself. This also makes nesting a DAG, so
//!   the sizes below are finite and computable bottom-up;
//! * the caller is not a parallel derivative (its tape is filed per thread by the
//!   OpenMP runtime).
//!
//! # Layout and sizes
//!
//! The sizes are known only after the callees are synthesized, which happens after their
//! callers (the driver's queue). So the caller emits the region pointers as `getelementptr
//! i8, base, PLACEHOLDER` (a distinct placeholder per region, so no clean-up merges two of
//! them) and registers a [`NestLayout`]; when the drain is over, the driver computes every
//! nested pair's total size (own tape, rounded to 16 bytes, then its regions in order) and
//! patches the offsets and the allocation sizes ([`resolve`]). The forward and reverse
//! functions compute the same region pointer from their tape block (no slot holds it).
//! The tape's contents are position independent (no pointer into a block is stored in
//! it), so `enzyme_allocated` copies of a whole block stay valid.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Diagnostic, Value};

use super::Gen;
use crate::signature::Request;

/// The first placeholder offset: far beyond any real tape, so an unpatched region would
/// fault instead of overlapping live data.
const PLACEHOLDER_BASE: u64 = 1 << 44;

/// The nested regions of one synthesized function, patched when the drain is over.
pub(crate) struct NestLayout {
    /// The nested request whose body this is (its total size is what callers reserve);
    /// `None` for a combined function or a split pair that allocates its own block.
    pub owner: Option<Request>,
    /// Bytes before the first region (the function's own tape, in 16-byte granules; 0
    /// for a combined function's separate `fz.nest` area).
    pub base: u64,
    /// Regions in order: the callee's nested request, and the `getelementptr i8, base,
    /// off` instructions (forward and reverse) whose offset is the region's.
    pub regions: Vec<(Request, Vec<Value>)>,
    /// (instruction, operand) that receive the total size (`base` + every region): the
    /// arena allocation of an outermost split pair, the `fz.nest` alloca of a combined
    /// function.
    pub total_uses: Vec<(Value, u32)>,
    /// Does the function itself claim room of the outermost call's tape region?
    pub claims: bool,
    /// The region the function owns, removed when nothing claims from it
    /// (`tape_region.rs`).
    pub own_region: Option<super::tape_region::OwnRegion>,
    /// A nested pair's claims, each with its stack's own reservation beside it until the
    /// drain decides (`tape_region.rs`, "A single claim").
    pub sites: Vec<super::tape_region::ClaimSite>,
}

/// Per-synthesis state: the regions made so far.
#[derive(Default)]
pub(crate) struct Nest {
    regions: Vec<(Request, Vec<Value>)>,
    /// Combined mode: the `fz.nest` area.
    area: Option<Value>,
    /// Primal call → the region pointer of its nested tape in the reverse function.
    rev_ptr: HashMap<Value, Value>,
}

/// Every placeholder ever handed out is distinct (the counter is per process; values
/// only need to differ within one function).
pub(super) fn next_placeholder() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    PLACEHOLDER_BASE + NEXT.fetch_add(16, Ordering::Relaxed)
}

impl Gen<'_> {
    /// May active call `i` of `f` get its callee's tape nested in this function's tape?
    pub(super) fn can_nest(&self, i: Value, f: Value) -> bool {
        matches!(classify(i), CallKind::Defined(g) if g == f)
            && !self.fx.req.parallel
            && !self.fx.cfg.is_cyclic(i.parent_block())
            && !self.sup.same_cycle(self.fx.req.func, f)
            && !f.is_declaration()
    }

    /// Reserves a region for the nested tape of call `i` (a call of `req`): returns its
    /// pointer in the forward function, and keeps the reverse function's for
    /// [`Gen::nested_rev_tape`].
    pub(super) fn nest_region(&mut self, i: Value, req: &Request) -> Value {
        let i64t = self.fx.ctx.i64();
        let off = i64t.const_int(next_placeholder());
        let mut geps = Vec::new();
        let fwd = if self.fx.split {
            let fwd = self.out.fb_entry.byte_gep(self.tape.heap_fwd, off);
            let rev = self.out.eb.byte_gep(self.tape.heap_rev, off);
            geps.push(fwd);
            geps.push(rev);
            self.tape.nest.rev_ptr.insert(i, rev);
            fwd
        } else {
            let area = match self.tape.nest.area {
                Some(a) => a,
                None => {
                    let a = self.out.fb_entry.array_alloca(
                        self.fx.ctx.i8(),
                        i64t.const_int(0),
                        "fz.nest",
                    );
                    a.set_alignment(16);
                    self.tape.nest.area = Some(a);
                    a
                }
            };
            let p = self.out.fb_entry.byte_gep(area, off);
            geps.push(p);
            self.tape.nest.rev_ptr.insert(i, p);
            p
        };
        self.tape.nest.regions.push((req.clone(), geps));
        fwd
    }

    /// The region pointer of call `i`'s nested tape in the reverse function, if it has one.
    pub(super) fn nested_rev_tape(&self, i: Value) -> Option<Value> {
        self.tape.nest.rev_ptr.get(&i).copied()
    }

    /// At `finalize`, once the own tape's size is known: hands the layout to the driver
    /// when there is anything to patch later. `alloc` is the outermost split pair's arena
    /// allocation.
    pub(super) fn register_nest_layout(&mut self, own: u64, alloc: Option<Value>) {
        let nest = std::mem::take(&mut self.tape.nest);
        let owner = self.fx.nested.then(|| self.fx.req.clone());
        let claims = self.claims_any();
        let mut own_region = self.own_region();
        let order = self.tape.record_order.clone();
        let sites: Vec<_> = order
            .iter()
            .filter_map(|b| self.tape.records.get_mut(b).and_then(|r| r.site.take()))
            .collect();
        if !claims && nest.regions.is_empty() {
            // Nothing below or here claims: known now.
            if let Some(r) = own_region.take() {
                r.remove();
            }
        }
        if nest.regions.is_empty() && owner.is_none() && own_region.is_none() {
            return;
        }
        let mut total_uses = Vec::new();
        let base = if self.fx.split {
            if let Some(a) = alloc {
                total_uses.push((a, 0));
            }
            own.div_ceil(16) * 16
        } else {
            if let Some(a) = nest.area {
                total_uses.push((a, 0));
            }
            0
        };
        self.callees.nest_layout(NestLayout {
            owner,
            base,
            regions: nest.regions,
            total_uses,
            claims,
            own_region,
            sites,
        });
    }
}

/// The index in `pending` of each nested request's layout.
pub(crate) fn layouts_by_owner(pending: &[NestLayout]) -> HashMap<Request, usize> {
    pending
        .iter()
        .enumerate()
        .filter_map(|(k, l)| l.owner.clone().map(|o| (o, k)))
        .collect()
}

/// Every index of `pending`, each after the layouts (in `pending`) of the nested callees
/// it holds regions of: a depth-first post-order, with an explicit stack (nesting chains
/// can be thousands deep). An edge back into the stack (a cycle, which nesting should not
/// have) is skipped, so a caller on a cycle may come before its callee there.
///
/// The drain's settling passes (`tape_region.rs`) decide a layout once its callees are
/// decided and repeat until nothing changes: in this order an acyclic nest is decided in
/// one round, where `pending`'s own order (callers first, the driver's queue) took one
/// round per nesting level, each over every layout (quadratic in a call chain's depth,
/// issue 18's `chain`).
pub(crate) fn callees_first(
    pending: &[NestLayout],
    by_owner: &HashMap<Request, usize>,
) -> Vec<usize> {
    let mut order = Vec::with_capacity(pending.len());
    let mut state = vec![0u8; pending.len()]; // 0 new, 1 on the stack, 2 done
    for root in 0..pending.len() {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        // (layout, how many of its regions are looked at)
        let mut stack = vec![(root, 0usize)];
        while let Some((k, next)) = stack.last_mut() {
            let k = *k;
            match pending[k].regions.get(*next) {
                Some((r, _)) => {
                    *next += 1;
                    if let Some(&c) = by_owner.get(r) {
                        if state[c] == 0 {
                            state[c] = 1;
                            stack.push((c, 0));
                        }
                    }
                }
                None => {
                    state[k] = 2;
                    order.push(k);
                    stack.pop();
                }
            }
        }
    }
    order
}

/// Computes the total size of every nested pair whose layout is in `pending` (sizes of
/// earlier drains are in `sizes`), then patches every region offset and total size.
/// Nesting follows calls between functions on no common cycle, so it has no cycle; one
/// found anyway is reported, not patched.
pub(crate) fn resolve(
    pending: Vec<NestLayout>,
    sizes: &mut HashMap<Request, u64>,
) -> Result<(), Diagnostic> {
    let by_owner = layouts_by_owner(&pending);
    // Sizes bottom-up, with an explicit stack (nesting chains can be thousands deep).
    let total = |l: &NestLayout, sizes: &HashMap<Request, u64>| -> Option<u64> {
        let mut t = l.base;
        for (r, _) in &l.regions {
            t += sizes.get(r)?.div_ceil(16) * 16;
        }
        Some(t)
    };
    let mut state = vec![0u8; pending.len()]; // 0 new, 1 on the stack, 2 done
    for root in 0..pending.len() {
        let mut stack = vec![root];
        while let Some(&k) = stack.last() {
            if state[k] == 2 {
                stack.pop();
                continue;
            }
            state[k] = 1;
            let missing = pending[k]
                .regions
                .iter()
                .filter(|(r, _)| !sizes.contains_key(r))
                .find_map(|(r, _)| by_owner.get(r).copied());
            match missing {
                Some(c) if state[c] == 1 => {
                    return Err(Diagnostic::new(
                        ferrozyme_llvm::DiagKind::Internal,
                        format!(
                            "nested callee tapes form a cycle through `{}`",
                            pending[c]
                                .owner
                                .as_ref()
                                .map_or(String::new(), |o| o.func.name())
                        ),
                    ));
                }
                Some(c) => stack.push(c),
                None => {
                    state[k] = 2;
                    stack.pop();
                    if let Some(o) = &pending[k].owner {
                        // A callee whose body failed has no layout: its caller's module is
                        // rejected with that diagnostic anyway.
                        let t = total(&pending[k], sizes).unwrap_or(pending[k].base);
                        sizes.insert(o.clone(), t);
                    }
                }
            }
        }
    }
    let i64t = |v: Value| v.ty().context().i64();
    for l in &pending {
        let mut off = l.base;
        for (r, geps) in &l.regions {
            for g in geps {
                g.set_operand(1, i64t(*g).const_int(off));
            }
            off += sizes.get(r).copied().unwrap_or(0).div_ceil(16) * 16;
        }
        if let Some(r) = &l.own_region {
            off = r.place_slot(off);
        }
        for (inst, k) in &l.total_uses {
            inst.set_operand(*k, i64t(*inst).const_int(off));
        }
    }
    Ok(())
}
