//! Reverse of vector data movement and memory operations: shuffles, reductions,
//! `memcpy`/`memmove`, and masked loads, stores, gathers and scatters.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::types::{BaseType, FpType, TypeAnalysis};
use ferrozyme_llvm::{Opcode, Type, TypeKind, Value};

use super::Gen;
use crate::common::runtime_activity::{and_lanes, masked_write_to_primal};
use crate::common::Problem;
use crate::runtime::RtFn;

impl Gen<'_> {
    pub(super) fn rev_shuffle(&mut self, i: Value) {
        if !self.fx.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let (a, b) = (i.operand(0), i.operand(1));
        let n_a = a.ty().vector_len();
        let mask = i.shuffle_mask();
        let i32t = self.fx.ctx.i32();
        let mut sums: Vec<Vec<Option<Value>>> = vec![
            vec![None; n_a as usize],
            vec![None; b.ty().vector_len() as usize],
        ];
        for (j, m) in mask.iter().enumerate() {
            let Some(m) = *m else { continue };
            let (which, lane) = if m < n_a { (0, m) } else { (1, m - n_a) };
            let e = self.b.extract_element(d, i32t.const_int(j as u64));
            let slot = &mut sums[which][lane as usize];
            *slot = Some(match *slot {
                None => e,
                Some(prev) => self.b.fadd(prev, e),
            });
        }
        for (which, v) in [(0usize, a), (1usize, b)] {
            if !self.fx.act.is_active(v) {
                continue;
            }
            let mut acc = self.adj_ty(v).zero();
            let mut any = false;
            for (lane, s) in sums[which].iter().enumerate() {
                if let Some(s) = s {
                    acc = self.b.insert_element(acc, *s, i32t.const_int(lane as u64));
                    any = true;
                }
            }
            if any {
                self.add_adj(v, acc);
            }
        }
    }

    /// Reverse of `memcpy(dst, src, n)` / `memmove`: the adjoints of the copied floats
    /// flow from `dst`'s shadow back to `src`'s, and `dst`'s are cleared. Whether the bytes
    /// are `float`s or `double`s comes from type analysis (`copy_layout`); when it cannot
    /// tell, this is an error naming the pointer, never a guess.
    pub(super) fn rev_memcpy(&mut self, i: Value, args: &[Value]) {
        let i64t = self.fx.ctx.i64();
        let (dst, src, len) = (args[0], args[1], args[2]);
        if !self.fx.act.is_shadowed(dst) {
            return;
        }
        if super::tape_move::is_tape_move(i) {
            self.rev_tape_move(i, args);
            return;
        }
        let mut layout = copy_layout(&self.fx.types, i, dst, src, len);
        let mut fields = match layout {
            CopyLayout::NoFloats => return,
            // From memory without a shadow (a string literal copied by `strcpy` into a
            // struct that also holds doubles) the copied bytes have no derivative whatever
            // they are: the destination's adjoints are only cleared, below.
            CopyLayout::Untyped { .. } if !self.fx.act.is_shadowed(src) => Vec::new(),
            // Nor from a local only `memset` writes (constant bytes: the tail padding of
            // a struct filled by `= {..}`, which SROA splits off into an `[7 x i8]` slot
            // and copies into every copy of the struct).
            CopyLayout::Untyped { .. } if memset_only_local(src) => Vec::new(),
            CopyLayout::Untyped { what } => {
                self.report(
                    Some(i),
                    Problem::UntypedCopy {
                        what,
                        pointer: dst
                            .to_string()
                            .split('=')
                            .next()
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                    },
                );
                return;
            }
            CopyLayout::Uniform(_) | CopyLayout::Strided { .. } => Vec::new(),
            CopyLayout::Fields(ref f) => f.clone(),
        };
        let sd = self.fetch_shadow(dst);
        let n = self.fetch(len);
        let n = self.b.int_cast(n, i64t);
        // Run-time activity: nothing when the destination's shadow is the primal; when
        // the source's is, the destination's adjoint is only cleared.
        let vd = self.rt_valid_rev(dst);
        if !self.fx.act.is_shadowed(src) || memset_only_local(src) {
            let n = self.rt_len(n, &[vd]);
            self.b.memset(sd, self.fx.ctx.i8().const_int(0), n, 1);
            return;
        }
        let vs = self.rt_valid_rev(src);
        if vs.is_some() || vd.is_some() {
            // Clearing the destination's whole shadow (below) destroys no shadow pointers
            // in records without pointers (`{int, double}` pairs copied out of a constant
            // `std::map`'s nodes, tests/cxx/422); their fields go through the sink slot
            // where a shadow is the primal.
            let pointer_free = self
                .fx
                .types
                .copy_moves_none(dst, src, BaseType::may_be_pointer);
            let guardable = match &layout {
                CopyLayout::Uniform(_) => true,
                CopyLayout::Strided { .. } => pointer_free,
                CopyLayout::Fields(f) => {
                    pointer_free
                        && f.iter().all(|(o, t)| {
                            *o >= 0 && *o as u64 + t.size() <= crate::services::SCRATCH_SLOT_BYTES
                        })
                }
                _ => false,
            };
            if !guardable {
                // Records holding pointers beside floats: only the float fields move
                // (through the sink slot where a shadow is the primal), the pointer bytes
                // stay as the forward sweep copied them (`guarded_copy`).
                match super::runtime_copy_fields(&self.fx.types, i, dst, src, len) {
                    Some(f) => {
                        fields = f.clone();
                        layout = CopyLayout::Fields(f);
                    }
                    None => {
                        self.unguarded_runtime_access(i);
                        return;
                    }
                }
            } else if let Some(vs) = vs {
                let t = self.fx.ctx.i1().const_int(1);
                let invalid = self.b.xor(vs, t);
                let clear = self.rt_len(n, &[vd, Some(invalid)]);
                self.b.memset(sd, self.fx.ctx.i8().const_int(0), clear, 1);
            }
        }
        let n = self.rt_len(n, &[vd, vs]);
        let mut ss = self.fetch_shadow(src);
        let mut sd = sd;
        if matches!(layout, CopyLayout::Fields(_)) {
            // Run-time activity: fields are taken from and added to the sink slot where
            // the destination's or the source's shadow is the primal.
            if let Some(v) = vd {
                let sink = self.sup.sink_slot();
                sd = self.b.select(v, sd, sink);
                ss = self.b.select(v, ss, sink);
            }
            if let Some(v) = vs {
                let sink = self.sup.sink_slot();
                ss = self.b.select(v, ss, sink);
            }
        }
        if let CopyLayout::Strided { fp, period, mask } = layout {
            let f = self.sup.rt(RtFn::CopyAdjStrided(fp));
            let p = i64t.const_int(period);
            let m = i64t.const_int(mask);
            self.b.call_fn(f, &[sd, ss, n, p, m]);
            return;
        }
        if let CopyLayout::Uniform(fp) = layout {
            let memmove = matches!(classify(i), CallKind::Memmove);
            let f = self.sup.rt(if memmove {
                RtFn::MemmoveAdj(fp)
            } else {
                RtFn::MemcpyAdj(fp)
            });
            self.b.call_fn(f, &[sd, ss, n]);
            return;
        }
        // Mixed float and double fields at known offsets of a constant-size copy.
        for (off, t) in fields {
            let ty = match t {
                FpType::F64 => self.fx.ctx.f64(),
                FpType::F32 => self.fx.ctx.f32(),
                FpType::F16 => self.fx.ctx.f16(),
                FpType::F80 => self.fx.ctx.f80(),
            };
            let pd = self.b.byte_gep(sd, i64t.const_int(off as u64));
            let ps = self.b.byte_gep(ss, i64t.const_int(off as u64));
            let v = self.mem_take(pd, ty, 1);
            self.mem_add(ps, ty, v, 1);
        }
    }

    /// `r = start * v0 * ... * v(n-1)`: each operand's adjoint is `d` times its partial
    /// (`common::reductions`).
    pub(super) fn rev_reduce_fmul(&mut self, i: Value, args: &[Value]) {
        if !self.fx.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let (start, vec) = (args[0], args[1]);
        let i32t = self.fx.ctx.i32();
        let n = vec.ty().vector_len();
        let v = self.fetch(vec);
        let s = self.fetch(start);
        let lanes: Vec<Value> = (0..n)
            .map(|k| self.b.extract_element(v, i32t.const_int(k as u64)))
            .collect();
        let (d_start, d_lanes) = crate::common::reductions::fmul_partials(&self.b, s, &lanes);
        if self.fx.act.is_active(start) {
            let x = self.b.fmul(d, d_start);
            self.add_adj(start, x);
        }
        if self.fx.act.is_active(vec) {
            let mut acc = vec.ty().zero();
            for (k, p) in d_lanes.into_iter().enumerate() {
                let x = self.b.fmul(d, p);
                acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
            }
            self.add_adj(vec, acc);
        }
    }

    /// `r = max/min(v)`: the adjoint goes to the first lane equal to the result.
    pub(super) fn rev_reduce_minmax(&mut self, i: Value, args: &[Value]) {
        use ferrozyme_llvm::RealPredicate;
        if !self.fx.act.is_active(i) {
            return;
        }
        let d = self.take_adj(i);
        let vec = args[0];
        if !self.fx.act.is_active(vec) {
            return;
        }
        let i32t = self.fx.ctx.i32();
        let n = vec.ty().vector_len();
        let v = self.fetch(vec);
        let r = self.fetch(i);
        let zero = i.ty().zero();
        let mut found = self.fx.ctx.i1().const_int(0);
        let mut acc = vec.ty().zero();
        for k in 0..n {
            let lane = self.b.extract_element(v, i32t.const_int(k as u64));
            let eq = self.b.fcmp(RealPredicate::LLVMRealOEQ, lane, r);
            let not_found = self.b.select(
                found,
                self.fx.ctx.i1().const_int(0),
                self.fx.ctx.i1().const_int(1),
            );
            let take = self.b.and(eq, not_found);
            found = self.b.or(found, eq);
            let x = self.b.select(take, d, zero);
            acc = self.b.insert_element(acc, x, i32t.const_int(k as u64));
        }
        self.add_adj(vec, acc);
    }

    /// Masked vector memory operations (what AVX2/AVX-512 vectorization emits for loops
    /// with conditions or indirect indexing). Gathers and scatters are replayed one lane
    /// at a time, so lanes that hit the same address accumulate (gather) or only the last
    /// writer receives the adjoint (scatter, lanes in reverse order), as in scalar code.
    pub(super) fn rev_masked(&mut self, i: Value, args: &[Value]) {
        let kind = classify(i);
        let (val, ptr, mask) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => (i, args[0], args[1]),
            _ => (args[0], args[1], args[2]),
        };
        let vty = val.ty();
        if !self.fx.act.is_shadowed(ptr) || !vty.is_fp() {
            if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedGather)
                && self.fx.act.is_active(i)
            {
                let d = self.take_adj(i);
                let m = self.fetch(mask);
                let x = self.b.select(m, vty.zero(), d);
                self.add_adj(args[2], x);
            }
            return;
        }
        let sp = self.fetch_shadow(ptr);
        let m = self.fetch(mask);
        // Run-time activity: lanes whose shadow is the primal move no adjoint (`sm`); a
        // store of active values through one, where checked, aborts with a message.
        let sm = match self.rt_valid_rev(ptr) {
            Some(valid) => {
                if self.fx.rt.checked_stores.contains(&i) {
                    let q = self.fetch(ptr);
                    let bad = masked_write_to_primal(&self.b, m, sp, q);
                    self.shadow_check(i, bad);
                }
                and_lanes(&self.b, m, valid)
            }
            None => m,
        };
        let zero = vty.zero();
        let (load_name, store_name) = match kind {
            CallKind::MaskedLoad | CallKind::MaskedStore => {
                ("llvm.masked.load", "llvm.masked.store")
            }
            _ => ("llvm.masked.gather", "llvm.masked.scatter"),
        };
        let pty = sp.ty();
        let (Some(ld), Some(st)) = (
            self.fx.m.intrinsic(load_name, &[vty, pty]),
            self.fx.m.intrinsic(store_name, &[vty, pty]),
        ) else {
            self.report(
                Some(i),
                Problem::Internal {
                    msg: format!("{load_name}/{store_name} unavailable"),
                },
            );
            return;
        };
        let n = vty.vector_len();
        let lane_masks: Vec<Value> = if matches!(kind, CallKind::MaskedLoad | CallKind::MaskedStore)
        {
            vec![sm]
        } else {
            let i1 = self.fx.ctx.i1();
            (0..n)
                .map(|k| {
                    let onehot: Vec<Value> =
                        (0..n).map(|j| i1.const_int((j == k) as u64)).collect();
                    let oh = Value::const_vector(&onehot);
                    self.b.and(sm, oh)
                })
                .collect()
        };
        match kind {
            CallKind::MaskedLoad | CallKind::MaskedGather => {
                if !self.fx.act.is_active(i) {
                    return;
                }
                let d = self.take_adj(i);
                for mk in &lane_masks {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    let new = self.b.fadd(old, d);
                    self.b.call_fn(st, &[new, sp, *mk]);
                }
                let x = self.b.select(m, zero, d);
                self.add_adj(args[2], x);
            }
            _ => {
                let mut acc = zero;
                for mk in lane_masks.iter().rev() {
                    let old = self.b.call_fn(ld, &[sp, *mk, zero]);
                    self.b.call_fn(st, &[zero, sp, *mk]);
                    acc = self.b.fadd(acc, old);
                }
                if self.fx.act.is_active(val) {
                    self.add_adj(val, acc);
                }
            }
        }
    }

    pub(super) fn splat(&mut self, s: Value, vty: Type) -> Value {
        let i32t = self.fx.ctx.i32();
        let mut v = vty.zero();
        if vty.kind() == TypeKind::Vector {
            for k in 0..vty.vector_len() {
                v = self.b.insert_element(v, s, i32t.const_int(k as u64));
            }
        }
        v
    }
}

/// What a `memcpy`/`memmove` of `len` bytes from `src` to `dst` copies, as far as
/// adjoints are concerned (from both pointers' type trees).
pub(super) enum CopyLayout {
    /// Only integers and pointers: no float adjoints to move.
    NoFloats,
    /// Nothing known, or the two sides disagree (a `double` copied into two `float`s).
    Untyped { what: &'static str },
    /// One floating type throughout.
    Uniform(FpType),
    /// Floats of several types at known offsets of a constant-size copy.
    Fields(Vec<(i64, FpType)>),
    /// Records of `period` bytes holding floats of one type next to pointers or integers:
    /// the float slots are the bits of `mask` (slot k is bytes `k * size .. (k + 1) *
    /// size` of each record). A slot nothing is known about counts as a float, as in
    /// `Uniform`; only slots known to hold a pointer or an integer are left alone.
    Strided { fp: FpType, period: u64, mask: u64 },
}

/// The shortest record length (a multiple of `fp`'s size, at most 64 slots) under which
/// every known offset agrees on whether its slot holds a float of type `fp` or something
/// else (a pointer, an integer), and the mask of the float slots: `kinds` are the facts of
/// both sides of a copy, `copy_len` its length when constant (a length it copies several
/// records of must be a multiple of the record's). `None` when the facts have negative
/// offsets, a float off its slot, or no such length.
fn record_slots(
    kinds: &[(i64, BaseType)],
    fp: FpType,
    copy_len: Option<i64>,
) -> Option<(u64, u64)> {
    let size = fp.size() as i64;
    if kinds.iter().any(|(o, _)| *o < 0) {
        return None;
    }
    // Per slot: Some(true) a float, Some(false) something else.
    let mut slots: Vec<(i64, bool)> = Vec::new();
    for &(o, b) in kinds {
        let float = match b {
            b if b == fp.base_type() => {
                if o % size != 0 {
                    return None;
                }
                true
            }
            // A pointer covers 8 bytes: every slot it overlaps holds no float (a
            // `{ ptr, float }` record is slots {no, no, float}, not {no, ?, float}).
            BaseType::Pointer => {
                slots.extend((o / size..(o + 8 + size - 1) / size).map(|k| (k, false)));
                continue;
            }
            b if b.is_not_float() => false,
            _ => continue,
        };
        slots.push((o / size, float));
    }
    let last = slots.iter().map(|(k, _)| *k).max()?;
    (1..=64i64).find_map(|per| {
        let mut class: [Option<bool>; 64] = [None; 64];
        for &(k, float) in &slots {
            let c = &mut class[(k % per) as usize];
            if c.is_some_and(|f| f != float) {
                return None;
            }
            *c = Some(float);
        }
        // A shorter record than the facts' extent only when the facts show it twice
        // over (one record {double, int, double} must not read as 16-byte records).
        if per <= last && last < 2 * per - 1 {
            return None;
        }
        // A copy of whole records: several of them only when the record length divides it.
        if copy_len.is_some_and(|n| n > per * size && n % (per * size) != 0) {
            return None;
        }
        let mask = (0..per)
            .filter(|k| class[*k as usize] != Some(false))
            .fold(0u64, |m, k| m | (1 << k));
        Some(((per * size) as u64, mask))
    })
}

/// The layout a copy's own member tags give (`TypeAnalysis::copy_tags`): its floats'
/// offsets, one float type over every byte when the tags tile the `len` bytes with it.
fn tagged_layout(tags: &[(i64, BaseType)], len: i64) -> CopyLayout {
    let offs: Vec<(i64, FpType)> = tags
        .iter()
        .filter_map(|(o, b)| b.fp_type().map(|t| (*o, t)))
        .collect();
    let size = offs.first().map_or(0, |(_, t)| t.size() as i64);
    let tiled = len == tags.len() as i64 * size
        && tags
            .iter()
            .enumerate()
            .all(|(k, (o, _))| *o == k as i64 * size);
    match offs.first() {
        None => CopyLayout::NoFloats,
        Some((_, t)) if offs.iter().all(|(_, u)| u == t) && offs.len() == tags.len() && tiled => {
            CopyLayout::Uniform(*t)
        }
        Some(_) => CopyLayout::Fields(offs),
    }
}

/// The float slots of a constant-length copy whose floats all sit at one offset `r`
/// modulo their size but off the copy's own grid (SROA copying a record from its second
/// member on: `{int id; double v, w}` from byte 4, padding first): the slots `r + k *
/// size` inside the copy, each a float unless a pointer or integer is known inside it
/// (nothing known counts as a float, as in `Strided`). `None` with no float inside, a float
/// off that phase, a slot known as both, or more than 64 slots.
fn phased_slots(kinds: &[(i64, BaseType)], fp: FpType, len: i64) -> Option<Vec<(i64, FpType)>> {
    let size = fp.size() as i64;
    let inside = |o: i64| (0..len).contains(&o);
    let floats: Vec<i64> = kinds
        .iter()
        .filter(|(o, b)| inside(*o) && *b == fp.base_type())
        .map(|(o, _)| *o)
        .collect();
    let r = floats.first()?.rem_euclid(size);
    if floats.iter().any(|o| o.rem_euclid(size) != r) || len / size > 64 {
        return None;
    }
    let others: Vec<i64> = kinds
        .iter()
        .filter(|(o, b)| inside(*o) && b.is_not_float())
        .map(|(o, _)| *o)
        .collect();
    let mut slots = Vec::new();
    let mut o = r;
    while o + size <= len {
        let slot = o..o + size;
        let other = others.iter().any(|x| slot.contains(x));
        match (floats.contains(&o), other) {
            (true, true) => return None,
            (_, false) => slots.push((o, fp)),
            (false, true) => {}
        }
        o += size;
    }
    Some(slots)
}

/// Do both sides of a constant-length copy hold a float of type `fp` at every slot
/// (`k * size`, the copy's `len` bytes a whole number of slots), every other fact
/// sitting strictly inside a slot, never at its start or before the copy? Such integer
/// facts overlap a float both sides agree on: they are type analysis's folding of a
/// larger object's trailing fields through a variable index (Eigen's
/// `LLT<Matrix4d>::compute` walks the matrix's columns with `this + 32 k`, and the
/// object's `bool` and `int` after the matrix land at bytes 1, 4, 9, 12 of the copy of the
/// matrix into it, cxx/334), not a record the copy moves.
fn tiled_by_both(
    kinds: &[(i64, BaseType)],
    fd: &[(i64, FpType)],
    fs: &[(i64, FpType)],
    fp: FpType,
    len: i64,
) -> bool {
    let size = fp.size() as i64;
    if len <= 0 || len % size != 0 || len / size > 64 {
        return false;
    }
    let covers = |side: &[(i64, FpType)]| {
        (0..len / size).all(|k| side.iter().any(|(o, t)| *o == k * size && *t == fp))
    };
    covers(fd)
        && covers(fs)
        && kinds
            .iter()
            .filter(|(_, b)| b.fp_type().is_none())
            .all(|(o, _)| *o > 0 && o % size != 0)
        && kinds
            .iter()
            .all(|(o, b)| b.fp_type().is_none_or(|t| t == fp && o % size == 0))
}

/// Is `len` the length of the C string at `src` (`strlen(src)`, plus a constant for the
/// terminator)? Such a copy moves characters, whatever type analysis merged into the
/// destination: libstdc++'s `std::string` constructor from a `const char *` copies
/// `strlen(s)` bytes into a map node whose other bytes hold the mapped double
/// (tests/cxx/354 at -O2, the key read through a writable global table of names).
pub(super) fn copies_c_string(src: Value, len: Value) -> bool {
    let mut n = len;
    if n.opcode() == Some(ferrozyme_llvm::Opcode::LLVMAdd)
        && n.operand(1).const_int_value().is_some()
    {
        n = n.operand(0);
    }
    n.called_function().is_some_and(|f| f.name() == "strlen") && n.call_args().first() == Some(&src)
}

/// Is the pointer `p` used only as a C string: compared, measured by `strlen`, read one
/// character at a time, and the
/// source of copies of `strlen(p)` characters (`copies_c_string`)? No derivative and no
/// pointer's shadow passes through such a pointer, so its own shadow is never needed
/// (the key of tests/cxx/354, read from a writable global table of names).
pub(super) fn only_read_as_c_string(p: Value) -> bool {
    let users = p.users();
    !users.is_empty()
        && users.iter().all(|&u| match u.opcode() {
            Some(ferrozyme_llvm::Opcode::LLVMICmp) => true,
            // One character read (`_S_copy` of a one-character string assigns it).
            Some(ferrozyme_llvm::Opcode::LLVMLoad) => u.ty().int_width() == Some(8),
            _ => match u.called_function().map(|f| f.name()) {
                Some(n) if n == "strlen" => true,
                Some(n) if n.starts_with("llvm.memcpy") => {
                    let a = u.call_args();
                    a.len() > 2 && a[0] != p && a[1] == p && copies_c_string(p, a[2])
                }
                _ => false,
            },
        })
}

/// Does `p` point into a local (`alloca`) that only `memset`s with a constant byte write?
/// Its bytes have no derivative, whatever type they are read as. Its other uses may only
/// read it (loads, the source of copies) or mark its lifetime.
fn memset_only_local(p: Value) -> bool {
    let base = crate::common::base_object(p);
    if base.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let mut work = vec![base];
    let mut steps = 0;
    while let Some(v) = work.pop() {
        for u in v.users() {
            steps += 1;
            if steps > 256 {
                return false;
            }
            let ok = match u.opcode() {
                Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast) => {
                    work.push(u);
                    true
                }
                Some(Opcode::LLVMLoad) => true,
                Some(Opcode::LLVMCall) => {
                    let a = u.call_args();
                    match classify(u) {
                        CallKind::Memset => a[0] == v && a[1].const_int_value().is_some(),
                        CallKind::Memcpy | CallKind::Memmove => a[0] != v && a[1] == v,
                        _ => u.is_lifetime_marker(),
                    }
                }
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

pub(super) fn copy_layout(
    types: &TypeAnalysis,
    call: Value,
    dst: Value,
    src: Value,
    len: Value,
) -> CopyLayout {
    if copies_c_string(src, len) {
        return CopyLayout::NoFloats;
    }
    let n_const = len.const_int_value();
    let tagged = n_const.and_then(|n| types.copy_tags(call, n));
    let hi = n_const.unwrap_or(i64::MAX);
    let mut kinds: Vec<(i64, BaseType)> = Vec::new();
    for p in [dst, src] {
        for (off, b) in types.pointee_tree(p).iter() {
            if off < hi {
                kinds.push((off, b));
            }
        }
    }
    let has = |t: BaseType| kinds.iter().any(|(_, b)| *b == t);
    let fp_at = |p: Value| -> Vec<(i64, FpType)> {
        types
            .pointee_tree(p)
            .iter()
            .filter(|(o, _)| *o >= 0 && *o < hi)
            .filter_map(|(o, b)| b.fp_type().map(|t| (o, t)))
            .collect()
    };
    let (fd, fs) = (fp_at(dst), fp_at(src));
    let retyped = fd.iter().any(|(o, t)| {
        fs.iter()
            .any(|(o2, t2)| t != t2 && *o < o2 + t2.size() as i64 && *o2 < o + t.size() as i64)
    });
    let conflict = has(BaseType::Anything) || retyped;
    let fps: Vec<FpType> = FpType::ALL
        .into_iter()
        .filter(|t| has(t.base_type()))
        .collect();
    if kinds.is_empty() {
        return CopyLayout::Untyped {
            what: "nothing is known about",
        };
    }
    if !conflict && fps.is_empty() {
        return CopyLayout::NoFloats;
    }
    if let (true, Some(tags)) = (conflict, &tagged) {
        // The memory holds other types at other times; the copy's `!tbaa.struct` says
        // what this copy moves (`TypeAnalysis::copy_tags`).
        return tagged_layout(tags, hi);
    }
    if conflict || (fps.len() > 1 && (n_const.is_none() || kinds.iter().any(|(o, _)| *o < 0))) {
        return CopyLayout::Untyped {
            what: "conflicting uses are seen for",
        };
    }
    if fps.len() == 1 {
        if !kinds.iter().any(|(_, b)| b.is_not_float()) {
            return CopyLayout::Uniform(fps[0]);
        }
        return match record_slots(&kinds, fps[0], n_const) {
            Some((period, mask)) => CopyLayout::Strided {
                fp: fps[0],
                period,
                mask,
            },
            // A part of a record (SROA copies a struct from its second member on,
            // padding first) whose `!tbaa.struct` names its members.
            None => match (
                tagged,
                n_const.and_then(|n| phased_slots(&kinds, fps[0], n)),
            ) {
                (Some(tags), _) => tagged_layout(&tags, hi),
                (None, Some(offs)) => CopyLayout::Fields(offs),
                (None, None)
                    if n_const.is_some_and(|n| tiled_by_both(&kinds, &fd, &fs, fps[0], n)) =>
                {
                    CopyLayout::Uniform(fps[0])
                }
                (None, None) => CopyLayout::Untyped {
                    what: "no record layout repeats in",
                },
            },
        };
    }
    let mut offs: Vec<(i64, FpType)> = kinds
        .iter()
        .filter_map(|(o, b)| b.fp_type().map(|t| (*o, t)))
        .collect();
    offs.sort_by_key(|(o, _)| *o);
    offs.dedup_by_key(|(o, _)| *o);
    CopyLayout::Fields(offs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use BaseType::{Double, Integer, Pointer};

    /// cxx/334's copy of a `Matrix4d` into `LLT<Matrix4d>`: doubles at every slot on
    /// both sides, integers folded inside slots 0 and 1 (bytes 1, 4, 9, 12); a record
    /// with an integer at a slot's start, or one side lacking a slot, is not tiled.
    #[test]
    fn floats_tiling_both_sides() {
        let f: Vec<(i64, FpType)> = (0..16).map(|k| (8 * k, FpType::F64)).collect();
        let mut kinds: Vec<(i64, BaseType)> = (0..16).map(|k| (8 * k, Double)).collect();
        kinds.extend([(1, Integer), (4, Integer), (9, Integer), (12, Integer)]);
        assert!(tiled_by_both(&kinds, &f, &f, FpType::F64, 128));
        assert!(!tiled_by_both(&kinds, &f, &f[1..], FpType::F64, 128));
        assert!(!tiled_by_both(&kinds, &f, &f, FpType::F64, 132));
        kinds.push((16, Integer));
        assert!(!tiled_by_both(&kinds, &f, &f, FpType::F64, 128));
    }

    /// `{double *p; double w}` seen eight times: 16-byte records, `w` the float slot.
    #[test]
    fn pointer_double_records() {
        let kinds: Vec<(i64, BaseType)> = (0..8)
            .flat_map(|r| [(16 * r, Pointer), (16 * r + 8, Double)])
            .collect();
        assert_eq!(record_slots(&kinds, FpType::F64, None), Some((16, 0b10)));
    }

    /// `{int id; double v, w}` copied from byte 4 (20 bytes, padding first): doubles at 4
    /// and 12; the int before the copy and the next record's after it are outside.
    #[test]
    fn record_tail_off_the_grid() {
        let kinds = [
            (-4, Integer),
            (4, Double),
            (12, Double),
            (20, Integer),
            (28, Double),
        ];
        assert_eq!(record_slots(&kinds, FpType::F64, None), None);
        assert_eq!(
            phased_slots(&kinds, FpType::F64, 20),
            Some(vec![(4, FpType::F64), (12, FpType::F64)])
        );
        assert_eq!(
            phased_slots(&[(4, Double), (8, Double)], FpType::F64, 20),
            None
        );
        assert_eq!(
            phased_slots(&[(4, Double), (12, Integer)], FpType::F64, 20),
            Some(vec![(4, FpType::F64)])
        );
    }

    /// One `{double a; int k; double b}` seen once is one 24-byte record, not two
    /// 16-byte ones (which would take the next record's `a` for an `int`); seen twice it
    /// is 24 bytes too.
    #[test]
    fn one_record_is_not_read_as_shorter_ones() {
        let one = [(0, Double), (8, Integer), (16, Double)];
        assert_eq!(record_slots(&one, FpType::F64, None), Some((24, 0b101)));
        let two: Vec<(i64, BaseType)> = one
            .iter()
            .chain(one.iter())
            .enumerate()
            .map(|(k, (o, b))| (o + if k < 3 { 0 } else { 24 }, *b))
            .collect();
        assert_eq!(record_slots(&two, FpType::F64, None), Some((24, 0b101)));
    }

    /// Slots nothing is known about count as floats; a float off its slot or a negative
    /// offset gives no layout.
    #[test]
    fn unknown_slots_and_refusals() {
        assert_eq!(
            record_slots(&[(0, Pointer), (16, Double)], FpType::F64, None),
            Some((24, 0b110))
        );
        assert_eq!(
            record_slots(&[(0, Pointer), (4, Double)], FpType::F64, None),
            None
        );
        assert_eq!(
            record_slots(&[(-8, Pointer), (0, Double)], FpType::F64, None),
            None
        );
    }

    #[test]
    fn a_pointer_covers_every_float_slot_it_overlaps() {
        use BaseType::*;
        // `std::valarray<float> * float`'s closure `{ ptr, float }` (tests/cxx/446): the
        // pointer's upper half is not a float slot.
        let kinds = [(0, Pointer), (8, Float)];
        assert_eq!(record_slots(&kinds, FpType::F32, None), Some((12, 0b100)));
        // Copied whole (16 bytes with the padding) or two of them: 16-byte records.
        assert_eq!(
            record_slots(&kinds, FpType::F32, Some(16)),
            Some((16, 0b1100))
        );
        assert_eq!(
            record_slots(&kinds, FpType::F32, Some(32)),
            Some((16, 0b1100))
        );
    }
}
