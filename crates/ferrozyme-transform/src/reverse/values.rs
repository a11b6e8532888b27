//! Getting primal values and shadows into the reverse sweep (adjoints: `adjoint_slots.rs`).
//!
//! See the module essay in `mod.rs` for the policy (direct use, recompute, slot, stack).

use ferrozyme_llvm::{Block, Opcode, RemarkKind, Value};

use super::cheap::{is_cheap_call, is_division_by_constant, is_exact_halving};
use super::{Cache, Gen, Key};
use crate::runtime::RtFn;

/// Alignment of a tape slot of `size` bytes (the tape itself is 16-byte aligned).
fn slot_align(size: u64) -> u64 {
    size.next_power_of_two().clamp(1, 16)
}

/// Alignment of a record field: records are packed at 8-byte granularity in a buffer
/// that `realloc` aligns to 16, so no field may assume more than 8.
fn field_align(size: u64) -> u64 {
    size.next_power_of_two().clamp(1, 8)
}

/// Why the reverse sweep caches `v` rather than recomputing it (for remarks).
fn why_cached(v: Value, split: bool) -> &'static str {
    use Opcode::*;
    match v.opcode() {
        Some(LLVMLoad) if split => {
            "in split mode the caller may write the memory between the two sweeps"
        }
        Some(LLVMLoad) => "the memory it reads may be overwritten before the reverse sweep",
        Some(LLVMCall | LLVMInvoke) => "the result of a call is not recomputed",
        Some(LLVMPHI) => "a value chosen by control flow",
        Some(LLVMFDiv | LLVMFRem) => "a division costs more to recompute than to store",
        Some(LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFNeg) => {
            "recomputing it would repeat a long chain of float operations (recompute.rs)"
        }
        _ => "it is not recomputable from available values",
    }
}

impl Gen<'_> {
    /// A primal value, available at the reverse builder's position.
    pub(super) fn fetch(&mut self, v: Value) -> Value {
        self.fetch_key(Key::Primal(v))
    }

    /// The shadow of a pointer, available at the reverse builder's position (null when
    /// the pointer has none).
    pub(super) fn fetch_shadow(&mut self, v: Value) -> Value {
        self.fetch_key(Key::Shadow(v, self.lane))
    }

    pub(super) fn fetch_key(&mut self, key: Key) -> Value {
        if let Key::Shadow(v, _) = key {
            if self.fx.rt.is_own_shadow(v) {
                // Run-time activity: a constant pointer is its own shadow.
                return self.fetch_key(Key::Primal(v));
            }
        }
        if let Key::Primal(v) = key {
            if self.flow.counters.contains_key(&v)
                || self.flow.recurrences.contains_key(&v)
                || self.flow.quadratics.contains_key(&v)
                || self.flow.stepped.contains_key(&v)
                || self.is_widened_ext(v)
            {
                let blk = self.b.insert_block();
                if let Some(&x) = self.caches.memo.get(&(blk, key)) {
                    return x;
                }
                let x = self
                    .counter_value(v)
                    .or_else(|| self.recurrence_value(v))
                    .or_else(|| self.quadratic_value(v))
                    .or_else(|| self.stepped_value(v))
                    .or_else(|| self.widened_ext_value(v));
                if let Some(x) = x {
                    self.caches.memo.insert((blk, key), x);
                    return x;
                }
            }
        }
        let v = match key {
            Key::Primal(v) | Key::Shadow(v, _) | Key::Tape(v) => v,
        };
        let null = self.null_shadow(v);
        if v.is_argument() {
            return match key {
                Key::Primal(_) => self.vals.rev_params[&v],
                _ => self.lanes[self.lane]
                    .rev_shadow_params
                    .get(&v)
                    .copied()
                    .unwrap_or(null),
            };
        }
        if !v.is_instruction() {
            return match key {
                // A constant's `undef`/`poison` elements become zeros (a valid
                // refinement): the primal drops those lanes (`fmul %x, <0.0, poison>`
                // then a shuffle of lane 0), but a partial built from the constant would
                // multiply the dropped lane's zero adjoint by poison, and the poison
                // would reach the operand's adjoint (cxx/143 at -O3).
                Key::Primal(_) => v.defined_constant().unwrap_or(v),
                _ => self.const_shadow(v),
            };
        }
        if let Key::Shadow(..) = key {
            if !self.lanes[self.lane].shadow.contains_key(&v) {
                return null;
            }
        }
        let blk = self.b.insert_block();
        if let Some(&x) = self.caches.memo.get(&(blk, key)) {
            return x;
        }
        let def = v.parent_block();
        let x = if !self.fx.split
            && !self.fx.cfg.is_cyclic(def)
            && self
                .fx
                .returns
                .iter()
                .all(|r| self.fx.cfg.dominates(def, *r))
        {
            self.fwd_value(key)
        } else if let Some(b) = self.exit_context(def) {
            self.load_exit_cached(key, b)
        } else if self.slot_beats_recompute(key) {
            self.load_cached(key)
        } else if let Some(x) = self.try_recompute(key) {
            x
        } else {
            self.load_cached(key)
        };
        self.caches.memo.insert((blk, key), x);
        x
    }

    /// When the reverse sweep is in a block outside the innermost loop of `def` (a value
    /// computed in a loop, used after it), the block whose forward copy should keep the
    /// value: the block closest to the use that `def` dominates, on the use's dominator
    /// chain, and that runs once per iteration of the innermost loop around both (once
    /// per call when none). One entry there replaces an entry per iteration of `def`'s
    /// loop, and the recomputation of such a value from operands cached per iteration.
    fn exit_context(&mut self, def: Block) -> Option<Block> {
        let here = self.flow.rev_ctx?;
        if !self.fx.cfg.is_cyclic(def) || !self.fx.cfg.dominates(def, here) {
            return None;
        }
        let loops = &self.fx.loops;
        let inner = loops.innermost(def)?;
        if inner.blocks.contains(&here) {
            return None;
        }
        // Loops are sorted smallest first: the first one with both is the innermost.
        let common = loops
            .loops
            .iter()
            .position(|l| l.blocks.contains(&def) && l.blocks.contains(&here));
        let mut b = here;
        loop {
            if b == def {
                return None;
            }
            if loops.innermost_index(b) == common {
                return Some(b);
            }
            b = self.fx.cfg.idom(b)?;
        }
    }

    /// Reads `key`'s value as block `b`'s forward copy sees it, keeping it there (in a
    /// slot, or a field of `b`'s record) on first use.
    fn load_exit_cached(&mut self, key: Key, b: Block) -> Value {
        let cache = match self.caches.exit_cache.get(&(key, b)) {
            Some(c) => *c,
            None => {
                let fv = self.fwd_value(key);
                let c = self.new_cache_in(fv, b);
                self.caches.exit_cache.insert((key, b), c);
                let v = match key {
                    Key::Primal(v) | Key::Shadow(v, _) | Key::Tape(v) => v,
                };
                self.sup
                    .remarks
                    .note(RemarkKind::CachedValue, self.fx.req.func, v, || {
                        "its value after the loop that computes it, once per run of that loop \
                     (a use after the loop)"
                            .to_string()
                    });
                c
            }
        };
        self.read_cache(cache, "fz.exit")
    }

    fn fwd_value(&self, key: Key) -> Value {
        match key {
            Key::Primal(v) => self.vals.fwd[&v],
            Key::Shadow(v, l) => {
                debug_assert_eq!(l, self.lane, "shadows are read in their own lane");
                self.lanes[self.lane].shadow[&v]
            }
            Key::Tape(v) => self.vals.call_tape[&v],
        }
    }

    /// Recomputes cheap pure instructions from their (fetched) operands (not divisions,
    /// which cost more than reading a cached value, except integer ones by a constant:
    /// [`is_division_by_constant`]).
    fn try_recompute(&mut self, key: Key) -> Option<Value> {
        if self.caches.recompute_depth > 12 {
            return None;
        }
        let (v, shadow) = match key {
            Key::Primal(v) => (v, false),
            Key::Shadow(v, _) => (v, true),
            Key::Tape(_) => return None,
        };
        use Opcode::*;
        let op = v.opcode()?;
        let pure = if shadow {
            matches!(
                op,
                LLVMGetElementPtr
                    | LLVMBitCast
                    | LLVMAddrSpaceCast
                    | LLVMExtractElement
                    | LLVMInsertElement
                    | LLVMShuffleVector
                    | LLVMSelect
            )
        } else {
            matches!(
                op,
                LLVMGetElementPtr
                    | LLVMBitCast
                    | LLVMZExt
                    | LLVMSExt
                    | LLVMTrunc
                    | LLVMSIToFP
                    | LLVMUIToFP
                    | LLVMPtrToInt
                    | LLVMIntToPtr
                    | LLVMAdd
                    | LLVMSub
                    | LLVMMul
                    | LLVMShl
                    | LLVMLShr
                    | LLVMAShr
                    | LLVMAnd
                    | LLVMOr
                    | LLVMXor
                    | LLVMICmp
                    | LLVMFCmp
                    | LLVMSelect
                    | LLVMFAdd
                    | LLVMFSub
                    | LLVMFMul
                    | LLVMFNeg
                    | LLVMFPExt
                    | LLVMFPTrunc
                    | LLVMExtractElement
                    | LLVMInsertElement
                    | LLVMShuffleVector
                    | LLVMExtractValue
                    | LLVMInsertValue
            ) || (op == LLVMCall && is_cheap_call(v))
                || is_division_by_constant(v)
                || (op == LLVMLoad && self.load_is_stable(v))
        };
        if !pure && op == LLVMLoad && !shadow {
            if let Some(first) = self.dominating_equal_load(v) {
                return Some(self.fetch(first));
            }
            return self.forwarded_load(v);
        }
        if !pure {
            return None;
        }
        self.caches.recompute_depth += 1;
        let ops = v.operands();
        let mut new_ops = Vec::with_capacity(ops.len());
        for o in ops.iter() {
            // Shadows are the same computation over the shadows of the pointer operands
            // (and of aggregates holding pointers).
            let x = if shadow && o.ty().contains_pointer() {
                self.fetch_shadow(*o)
            } else {
                self.fetch(*o)
            };
            new_ops.push(x);
        }
        self.caches.recompute_depth -= 1;
        if op == LLVMLoad && !shadow {
            self.sup
                .remarks
                .note(RemarkKind::RereadLoad, self.fx.req.func, v, || {
                    "nothing the function runs writes the memory it reads".to_string()
                });
        } else if matches!(op, LLVMFAdd | LLVMFSub | LLVMFMul | LLVMCall)
            || is_division_by_constant(v)
        {
            self.sup
                .remarks
                .note(RemarkKind::RecomputedValue, self.fx.req.func, v, || {
                    "cheaper than a tape entry, and its operands are available".to_string()
                });
        }
        let c = self.clone_defined(v);
        for (k, x) in new_ops.into_iter().enumerate() {
            let x = x.defined_constant().unwrap_or(x);
            c.set_operand(k as u32, x);
        }
        if is_exact_halving(v) {
            c.set_exact();
        }
        Some(c)
    }

    /// Loads of memory that nothing the forward sweep does after them can change are
    /// re-read in the reverse sweep instead of cached (`memory::stable_after`): only in
    /// combined mode, where nothing runs between the two sweeps.
    pub(super) fn load_is_stable(&mut self, v: Value) -> bool {
        if self.fx.split || v.is_volatile() {
            return false;
        }
        let fx = &self.fx;
        let w = all_writes(fx);
        let reach = &mut self.caches.reach;
        let cfg = &fx.cfg;
        super::memory::stable_after(w, v.operand(0), v, |a, b| reach.after(cfg, a, b))
    }

    /// The shadow of a pointer (or vector of pointers) that has none: null of its type.
    pub(super) fn null_shadow(&self, v: Value) -> Value {
        if v.ty().contains_pointer() {
            v.ty().zero()
        } else {
            self.fx.ctx.ptr().zero()
        }
    }

    /// Loads a cached value, creating its cache (and the forward write) on first use.
    fn load_cached(&mut self, key: Key) -> Value {
        let cache = self.ensure_cache(key);
        self.read_cache(cache, "fz.cached")
    }

    /// Reads a slot or record field at the reverse builder's position.
    pub(super) fn read_cache(&mut self, cache: Cache, name: &str) -> Value {
        let i64t = self.fx.ctx.i64();
        let (base, off, ty, align) = match cache {
            Cache::Slot { off, ty } => {
                (self.tape.rev, off, ty, slot_align(self.fx.m.alloc_size(ty)))
            }
            Cache::Field { block, off, ty } => (
                self.record_top(block),
                off,
                ty,
                field_align(self.fx.m.alloc_size(ty)),
            ),
        };
        let p = self.b.byte_gep(base, i64t.const_int(off));
        let l = self.b.load(ty, p, name);
        l.set_alignment(align as u32);
        super::alias::mark_tape(self.fx.ctx, l);
        if self.caches.int_data.contains(&cache_id(cache)) {
            super::alias::mark_tape_int(self.fx.ctx, l);
        }
        l
    }

    /// Pointer to the current (top) record of cyclic block `blk`, at the reverse
    /// builder's position (one `top` call per reverse block).
    pub(super) fn record_top(&mut self, blk: Block) -> Value {
        let here = self.b.insert_block();
        if let Some(&p) = self.caches.record_tops.get(&(here, blk)) {
            return p;
        }
        let i64t = self.fx.ctx.i64();
        let top = self.sup.rt(RtFn::Top);
        let stack = self.tape.records[&blk].stack;
        let s = self.b.byte_gep(self.tape.rev, i64t.const_int(stack));
        let p = self.b.call_fn(top, &[s, i64t.const_int(0)]);
        self.tape
            .records
            .get_mut(&blk)
            .expect("record exists")
            .size_uses
            .push(p);
        self.caches.record_tops.insert((here, blk), p);
        p
    }

    fn ensure_cache(&mut self, key: Key) -> Cache {
        if let Some(c) = self.caches.cache.get(&key) {
            return *c;
        }
        let v = match key {
            Key::Primal(v) | Key::Shadow(v, _) | Key::Tape(v) => v,
        };
        let fv = self.fwd_value(key);
        // A primal integer is plain data unless type analysis sees float bits in it.
        let int_data = matches!(key, Key::Primal(_))
            && v.ty().is_integer()
            && self.fx.types.int_carries_fp(v).is_none()
            && !self
                .fx
                .types
                .value_tree(v)
                .iter()
                .any(|(_, b)| b.is_float());
        let c = self.cache_store(fv, v.parent_block(), false, int_data);
        self.caches.cache.insert(key, c);
        let split = self.fx.split;
        self.sup
            .remarks
            .note(RemarkKind::CachedValue, self.fx.req.func, v, || {
                let what = match key {
                    Key::Shadow(..) => "its shadow pointer",
                    _ => "its value",
                };
                let how = match c {
                    Cache::Slot { .. } => "one tape slot per call",
                    Cache::Field { .. } => "one tape entry per iteration of its loop",
                };
                format!("{what}, in {how} ({})", why_cached(v, split))
            });
        c
    }

    /// Creates a slot or stack for forward value `fv` of primal block `def`, and writes
    /// `fv` into it right after its definition.
    /// (Used for values the transform makes itself: an integer is plain data.)
    pub(super) fn new_cache(&mut self, fv: Value, def: Block) -> Cache {
        self.cache_store(fv, def, false, true)
    }

    /// Like `new_cache`, for a value defined before block `b` (which it dominates): the
    /// slot is written at the end of `b`'s forward copy.
    fn new_cache_in(&mut self, fv: Value, b: Block) -> Cache {
        self.cache_store(fv, b, true, false)
    }

    /// Writes `fv` into a new slot or record field; `int_data`: an integer `fv` is plain
    /// integer data (its tape accesses are marked so).
    fn cache_store(&mut self, fv: Value, def: Block, at_block_end: bool, int_data: bool) -> Cache {
        let (c, st) = self.cache_store_untyped(fv, def, at_block_end);
        if int_data && fv.ty().is_integer() {
            self.caches.int_data.insert(cache_id(c));
            super::alias::mark_tape_int(self.fx.ctx, st);
        }
        c
    }

    /// The cache and the store that writes it.
    fn cache_store_untyped(&mut self, fv: Value, def: Block, at_block_end: bool) -> (Cache, Value) {
        let ty = fv.ty();
        let size = self.fx.m.alloc_size(ty);
        let i64t = self.fx.ctx.i64();
        let fb = ferrozyme_llvm::Builder::new(self.fx.ctx);
        if at_block_end {
            let fblk = self.fwd_block(def);
            match fblk.terminator() {
                Some(t) => fb.position_before(t),
                None => fb.position_at_end(fblk),
            }
        } else if fv.opcode() == Some(Opcode::LLVMPHI) {
            let blk = fv.parent_block();
            match blk.first_non_phi() {
                Some(i) => fb.position_before(i),
                None => fb.position_at_end(blk),
            }
        } else {
            fb.position_after(fv);
        }
        if !self.fx.cfg.is_cyclic(def) {
            let off = self.tape.alloc(size, slot_align(size));
            let p = fb.byte_gep(self.tape.fwd, i64t.const_int(off));
            let st = fb.store(fv, p);
            st.set_alignment(slot_align(size) as u32);
            super::alias::mark_tape(self.fx.ctx, st);
            (Cache::Slot { off, ty }, st)
        } else {
            let owner = self.record_block(def);
            let slot = self.ensure_record(owner);
            let rec = self.tape.records.get_mut(&owner).expect("record exists");
            let align = field_align(size);
            let off = rec.size.div_ceil(align) * align;
            rec.size = off + size;
            if owner == def {
                // Field stores go right after the push, at the end of the forward block.
                fb.position_after(slot);
            } else {
                // The header's push ran earlier in this iteration: at the end of `def`.
                let fblk = self.fwd_block(def);
                match fblk.terminator() {
                    Some(t) => fb.position_before(t),
                    None => fb.position_at_end(fblk),
                }
            }
            let p = fb.byte_gep(slot, i64t.const_int(off));
            let st = fb.store(fv, p);
            st.set_alignment(align as u32);
            super::alias::mark_tape(self.fx.ctx, st);
            (
                Cache::Field {
                    block: owner,
                    off,
                    ty,
                },
                st,
            )
        }
    }

    /// The record of cyclic block `def`: a stack in the tape and a push at the end of the
    /// block's forward copy (created on first need).
    fn ensure_record(&mut self, def: Block) -> Value {
        if let Some(r) = self.tape.records.get(&def) {
            return r.slot;
        }
        let i64t = self.fx.ctx.i64();
        let stack = self.tape.alloc(crate::runtime::STACK_HEADER, 8);
        let init = self.init_inline_stack(stack);
        let push = self.sup.rt(RtFn::Push);
        let fblk = self.fwd_block(def);
        let fb = ferrozyme_llvm::Builder::new(self.fx.ctx);
        match fblk.terminator() {
            Some(t) => fb.position_before(t),
            None => fb.position_at_end(fblk),
        }
        let s = fb.byte_gep(self.tape.fwd, i64t.const_int(stack));
        let slot = fb.call_fn(push, &[s, i64t.const_int(0)]);
        self.tape.records.insert(
            def,
            super::state::Record {
                stack,
                size: 0,
                slot,
                size_uses: Vec::new(),
                in_region: false,
                init,
                site: None,
            },
        );
        self.tape.record_order.push(def);
        slot
    }

    /// Points a new stack at an inline buffer (an `alloca` of the combined function), so
    /// short loops never allocate; returns the stores of split mode's empty header (a
    /// stack whose room comes from the region drops them, `tape_region.rs`).
    fn init_inline_stack(&mut self, stack: u64) -> Vec<Value> {
        let i8t = self.fx.ctx.i8();
        let i64t = self.fx.ctx.i64();
        let s = self
            .out
            .fb_entry
            .byte_gep(self.tape.fwd, i64t.const_int(stack));
        if self.fx.split {
            // A heap tape outlives the call: an inline buffer in it would make every
            // tape (of a recursive function: one per call) large and cold. The stack
            // starts empty instead (capacity 1 marks "not heap memory", of 0 bytes).
            let data = self.out.fb_entry.store(self.fx.ctx.ptr().zero(), s);
            let capp = self.out.fb_entry.byte_gep(s, i64t.const_int(16));
            let cap = self.out.fb_entry.store(i64t.const_int(1), capp);
            return vec![data, cap];
        }
        let n = crate::runtime::STACK_INLINE;
        let a = self
            .out
            .fb_entry
            .array_alloca(i8t, i64t.const_int(n), "fz.stack.inline");
        a.set_alignment(16);
        self.out.fb_entry.store(a, s);
        let capp = self.out.fb_entry.byte_gep(s, i64t.const_int(16));
        self.out.fb_entry.store(i64t.const_int(n + 1), capp);
        Vec::new()
    }

    /// The shadow of a constant pointer (global, constant GEP of a global) in the current
    /// lane, built at the main builder's position; null when it has none.
    pub(super) fn const_shadow(&mut self, v: Value) -> Value {
        crate::common::shadows::const_shadow(&self.b, self.sup, v, self.lane)
            .unwrap_or_else(|| self.null_shadow(v))
    }
}

/// Every write of the primal (`memory::written_objects`, computed on first need), less the
/// stores and frees the combined function moves after the reverse sweep or leaves out.
pub(super) fn all_writes(fx: &super::state::Facts) -> &super::memory::Writes {
    fx.writes.get_or_init(|| {
        let skipped = fx
            .deferred
            .iter()
            .chain(&fx.dropped)
            .chain(&fx.deferred_frees)
            .chain(&fx.split_kept)
            .copied()
            .collect();
        super::memory::written_objects(fx.p, &skipped)
    })
}

/// A cache's identity: its record's block (none for a slot) and offset.
fn cache_id(c: Cache) -> (Option<Block>, u64) {
    match c {
        Cache::Slot { off, .. } => (None, off),
        Cache::Field { block, off, .. } => (Some(block), off),
    }
}
