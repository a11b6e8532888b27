//! Rules for memory accesses and addresses: what a load or store says about the value
//! moved and the memory under its pointer (within the hints of the access: a sentinel
//! window, a typed access), and how a GEP's offset relates a pointer to its base.

use std::rc::Rc;

use ferrozyme_llvm::{Opcode, TypeKind, Value};

use crate::int_range::gep_range;

use super::super::layout::{self, GepOffset};
use super::super::{BaseType, Change, TypeTree};
use super::unchanged::PairRule;
use super::{is_member_pointer_adjustment, lanes, strip_constant_geps, Engine, Hints};

impl Engine {
    /// A load (`val` = the load) or store (`val` = the stored value) through `ptr`.
    pub(super) fn access(&mut self, inst: Value, ptr: Value, val: Value) {
        let mut v = self.value_tree(val);
        if inst == val {
            if let Some(lanes) = lanes::demanded_lanes(val) {
                // A loaded vector's dead lanes say nothing about the memory under them.
                let size = layout::alloc_size_of(self.m, val.ty().element_type()).unwrap_or(1);
                let mut kept = TypeTree::new();
                for (k, b) in v.iter() {
                    if k >= 0 && lanes.get((k as u64 / size.max(1)) as usize) == Some(&true) {
                        kept.insert(k, b);
                    }
                }
                v = kept;
            }
        }
        if let Some(bytes) = small_int_literal(val) {
            // A positive `i32` literal below the smallest normal float (`store i32 6`: as
            // a float it would be a subnormal 8.4e-45) is an integer,
            // as every compiler writes `int n = 6`; a float bit pattern is 0 or far larger.
            v.insert_integer(0, bytes);
        }
        let hints = Hints {
            window: self.sentinel_window(inst, val),
            typed: self.typed_by_tbaa(inst, val),
        };
        self.access_value(ptr, val, &v, hints);
        if val.ty().is_integer() && self.is_tape_int(inst) {
            let size = layout::size_of(self.m, val.ty()).unwrap_or(0) as i64;
            let mut t = TypeTree::new();
            for k in 0..size {
                t.insert(k, BaseType::Integer);
            }
            self.learn_val(val, &t);
        }
        let kind = self.m.context().md_kind("tbaa");
        if let Some(tag) = inst.metadata(kind) {
            let (whole, at) = layout::tbaa_access_tree(tag);
            // The enclosing struct starts `at` bytes before the address: find that pointer
            // through constant GEPs, so members before the accessed one are kept too.
            let (root, back) = strip_constant_geps(self.m, ptr, at);
            if back == at {
                self.learn_ptr(root, &whole);
            }
            let t = whole.shifted(at);
            self.learn_ptr(ptr, &t);
            let size = layout::size_of(self.m, val.ty()).unwrap_or(0) as i64;
            let w = t.window(0, size);
            let mut concrete = TypeTree::new();
            for (k, b) in w.iter().filter(|(k, _)| *k >= 0) {
                concrete.insert(k, b);
            }
            self.learn_val(val, &concrete);
        }
    }

    /// Memory at `ptr` and the value `val` (with tree `vt`) moved through it agree, within
    /// the [`Hints`] of the access.
    pub(super) fn access_value(&mut self, ptr: Value, val: Value, vt: &TypeTree, hints: Hints) {
        let window = hints.window;
        let Some(size) = layout::size_of(self.m, val.ty()) else {
            return;
        };
        let size = size as i64;
        // Value → memory: concrete offsets inside the accessed bytes.
        let mut to_mem = TypeTree::new();
        for (k, b) in vt.iter().filter(|(k, _)| (0..size).contains(k)) {
            to_mem.insert(k, b);
        }
        self.learn_ptr(ptr, &to_mem);
        // Memory → value: concrete entries inside, and the "every offset" entry at each leaf.
        // Context-insensitive facts meet in memory that holds different types in
        // different executions: objects of several classes through one pointer (a
        // `Polygon`'s `int n` where a `Circle` has `double r`), a `std::variant`'s
        // storage. Two such facts say nothing about an integer moved there:
        // * a float too wide for it (an `i32` over a `double`) is not what it holds;
        // * `Anything` (the memory's conflict) is the memory's, not the value's: the
        //   value keeps what its own uses and sources say (`i % 3` stored as a
        //   `Spring`'s int is an integer), and the transform's checks of the access
        //   still look at the memory (`reverse/check.rs`).
        let int_val = val.ty().is_integer();
        let fits = |k: i64, b: BaseType| {
            !int_val
                || (b != BaseType::Anything
                    && b.fp_type().is_none_or(|t| k + t.data_size() as i64 <= size))
        };
        let mem = self.pointee(ptr);
        let mut to_val = TypeTree::new();
        for (k, b) in mem.iter().filter(|(k, _)| (0..size).contains(k)) {
            if fits(k, b) {
                to_val.insert(k, b);
            }
        }
        for (off, _) in layout::leaves(self.m, val.ty()) {
            if to_val.get(off) == BaseType::Unknown && fits(off, mem.get(off)) {
                to_val.insert(off, mem.get(off));
            }
        }
        if !hints.typed {
            self.learn_val(val, &to_val);
        }
        // A pointer moved through memory: what it points to is what the memory's pointer
        // at offset 0 points to (the struct that held it knows, the value's uses know).
        if val.ty().kind() == TypeKind::Pointer
            && self
                .unchanged
                .must_run(ptr, val, PairRule::MovedPointer(window))
        {
            let cut = |t: TypeTree| match window {
                Some(n) => t.window(0, n),
                None => t,
            };
            self.learn_ptr(val, &cut(mem.inner(0)));
            let mut back = TypeTree::new();
            back.insert_inner(0, &cut(TypeTree::clone(&self.pointee(val))));
            self.learn_ptr(ptr, &back);
        }
    }

    pub(super) fn gep(&mut self, g: Value) {
        let Some(mut off) = layout::gep_offset(self.m, g) else {
            return;
        };
        if g.is_instruction() {
            for idx in g.operands().into_iter().skip(1) {
                if idx.const_int_value().is_none() {
                    self.integer(idx);
                }
            }
        }
        let base = g.operand(0);
        // A constant step inside a cycle (`p = phi [a], [p + 8]`, recursion on `p + 8`)
        // walks an array whose element is one period long.
        // Whether the stride is such a walk's, not an index's.
        let mut walked = false;
        if off.stride.is_none() && off.constant != 0 {
            if let Some(p) = self
                .periods
                .period(g)
                .filter(|p| *p < super::super::MAX_OFFSET as u64)
            {
                off = GepOffset {
                    constant: off.constant,
                    stride: Some(p),
                    bounded: None,
                };
                walked = true;
            }
        }
        let (pb, pg) = match off.stride {
            None => self.gep_delta(g, base, off.constant),
            Some(_) => (self.pointee(base), self.pointee(g)),
        };
        let field = off
            .stride
            .is_none()
            .then(|| layout::field_array(self.m, g))
            .flatten();
        if let Some(f) = field {
            // g points into a member array (`base[i].pos`): it reaches that array's bytes
            // only, and its "every offset" covers them, not the members after it (an `int
            // id` after `double pos[3]`, met by a `fill(double *x, n)` callee's doubles,
            // would become Anything, and cross every call edge of `fill`).
            let len = f.hi - off.constant;
            let fwd = pb.shifted(off.constant).window(0, len);
            let back = pg.bounded(len).shifted(-off.constant);
            drop((pb, pg));
            self.learn_ptr(g, &fwd);
            self.learn_ptr(base, &back);
            return;
        }
        match off.stride {
            None => {
                let fwd = pb.shifted(off.constant);
                drop(pb);
                // A negative constant step back from a pointer that itself walks an array
                // (`&a[n] - 8`, as -O2 writes `a[n-1]`) lands in the previous element:
                // the offset wraps modulo that array's stride.
                let base_stride = if base.opcode() == Some(Opcode::LLVMGetElementPtr) {
                    layout::gep_offset(self.m, base)
                        .and_then(|o| o.stride)
                        .filter(|s| *s > 1 && *s < super::super::MAX_OFFSET as u64)
                } else {
                    None
                };
                let mut back = TypeTree::new();
                for (k, b) in pg.iter() {
                    let n = k + off.constant;
                    if k == -1 {
                        // "Every offset from g on" is not "every offset from base on": a
                        // field array at +16 says nothing about the base's first bytes.
                        match off.constant {
                            0 => back.insert(-1, b),
                            c if c > 0 => back.insert(c, b),
                            _ if base_stride.is_some() => back.insert(-1, b),
                            _ => false,
                        };
                    } else if n >= 0 {
                        back.insert(n, b);
                    } else if let Some(s) = base_stride {
                        back.insert(n.rem_euclid(s as i64), b);
                    }
                }
                back.merge(&pg.inner_remapped(|k| {
                    let n = k + off.constant;
                    match (k, base_stride) {
                        (-1, _) if off.constant == 0 => Some(-1),
                        (-1, _) if off.constant > 0 => Some(off.constant),
                        (-1, Some(_)) => Some(-1),
                        (-1, None) => None,
                        _ if n >= 0 => Some(n),
                        (_, Some(s)) => Some(n.rem_euclid(s as i64)),
                        _ => None,
                    }
                }));
                // Both trees were read before either is learnt into (and no longer held, so
                // an unshared tree grows in place).
                drop(pg);
                self.learn_ptr(g, &fwd);
                self.learn_ptr(base, &back);
            }
            Some(s) if s > 1 && s < super::super::MAX_OFFSET as u64 => {
                let s = s as i64;
                // An index into an array inside the base reaches only that array's bytes.
                // Pointer arithmetic into a member array of an object whose struct type
                // the IR gives (`gep i32, %t, k` for `t.node[k]`: -O1 and up index so,
                // the array type gone) reaches that member only. Elsewhere it reaches the
                // elements that agree with the one at the base, not a later member that
                // disagrees (the struct's `int kind` after `double x[3]`, seen through a
                // callee's `double *`): folded into the element's residues, it would
                // meet the doubles there. An index bounded by a counted loop (`v[i]`, `i`
                // from 0 while `i + 1 != 4`, in an `int *` helper given a struct's own
                // address) reaches those elements only, whatever its base turns out to be.
                let region = off
                    .bounded
                    .or_else(|| {
                        layout::member_array_at(self.m, base, off.constant).map(|f| (f.lo, f.hi))
                    })
                    .or_else(|| {
                        let (lo, hi) = gep_range(self.m, g).filter(|_| !walked)?;
                        Some((lo, hi.saturating_add(s)))
                    })
                    .or_else(|| agreeing_elements(&pb, off.constant, s))
                    .filter(|&(lo, hi)| lo >= 0 && hi <= super::super::MAX_OFFSET && lo < hi);
                let inside = |j: i64| region.is_none_or(|(lo, hi)| (lo..hi).contains(&j));
                let mut fwd = TypeTree::new();
                for (j, b) in pb.iter() {
                    if j == -1 {
                        fwd.insert(-1, b);
                    } else if inside(j) {
                        fwd.insert((j - off.constant).rem_euclid(s), b);
                    }
                }
                fwd.merge(&pb.inner_remapped(|j| match j {
                    -1 => Some(-1),
                    _ if inside(j) => Some((j - off.constant).rem_euclid(s)),
                    _ => None,
                }));
                self.learn_ptr(g, &fwd);
                if let Some((lo, hi)) = region {
                    // Back: each element's facts at every element of the array, nothing
                    // before or after it.
                    let mut back = TypeTree::new();
                    for (k, b) in pg.iter() {
                        for x in lo..hi {
                            let hit = if k == -1 {
                                (x - lo) % s == 0
                            } else {
                                x.rem_euclid(s) == (k + off.constant).rem_euclid(s)
                            };
                            if hit {
                                back.insert(x, b);
                            }
                        }
                    }
                    for x in lo..hi {
                        back.merge(&pg.inner_remapped(|k| {
                            let hit = if k == -1 {
                                (x - lo) % s == 0
                            } else {
                                x.rem_euclid(s) == (k + off.constant).rem_euclid(s)
                            };
                            hit.then_some(x)
                        }));
                    }
                    self.learn_ptr(base, &back);
                    return;
                }
                let mut every = BaseType::Unknown;
                let mut per_element = TypeTree::new();
                for (k, b) in pg.iter() {
                    if k == -1 {
                        every = every.join(b);
                    } else {
                        per_element.insert((k + off.constant).rem_euclid(s), b);
                    }
                }
                // An element holding one scalar of exactly the stride's size: every offset.
                let uniform = per_element.len() == 1 && {
                    let (k, b) = per_element.iter().next().expect("len is 1");
                    k == 0 && self.scalar_fills(b, s as u64)
                };
                // A non-negative index reaches `k + c` and the elements after it, never the
                // bytes before: -O2 writes `s->pos[i][2]` (pos at +8, 24-byte rows) as
                // `gep [3 x double], s, i` then `+24`, and the double at `24 + 24 i` wrapped
                // to offset 0 would meet the struct's leading int there. Such facts stay at
                // their first offset instead of their residue.
                let nonneg = g.is_gep_nuw() || first_index_is_zext(g);
                let key = |k: i64| {
                    let n = k + off.constant;
                    if nonneg && n >= s && n < super::super::MAX_OFFSET {
                        n
                    } else {
                        n.rem_euclid(s)
                    }
                };
                let mut back = if uniform {
                    TypeTree::single(-1, per_element.get(0))
                } else {
                    // A conflict at one of g's offsets (Anything) says the elements differ
                    // there (g at element 0 is the struct's head, at element 1 a row's last
                    // double): it is reported at any access through g at that offset, and
                    // sent back it would only blur the base's own fields. Concrete facts
                    // still go back and still meet the base's. But where the base's own
                    // elements are known to hold no float there (their fold, `fwd`, is an
                    // integer or a pointer), g's conflict hides a float that the bytes of
                    // some element hold in some runs: a union, `std::variant<int, double>`
                    // built as an `int` by one `emplace_back` and as a `double` by
                    // another. Kept back, the base would say `Integer` where doubles live
                    // too, and the relocation that moves such elements would move no
                    // adjoint (tests/cxx/498 through `--ad-before-opt`, silently wrong):
                    // that conflict goes back. Over a float fold (or none yet) it stays
                    // filtered: moved as floats, an `int` alternative's shadow bytes are
                    // zeros (cxx/499's `std::variant<int, float>` at -O2).
                    let mut t = TypeTree::new();
                    for (k, b) in pg.iter().filter(|(k, _)| *k != -1) {
                        let folded =
                            nonneg && b == BaseType::Anything && !fwd.get(k).is_not_float();
                        if !folded {
                            t.insert(key(k), b);
                        }
                    }
                    t
                };
                back.insert(-1, every);
                back.merge(&pg.inner_remapped(|k| match k {
                    -1 => Some(-1),
                    _ => match (k + off.constant).rem_euclid(s) {
                        0 if uniform => Some(-1),
                        _ if uniform => Some((k + off.constant).rem_euclid(s)),
                        _ => Some(key(k)),
                    },
                }));
                self.learn_ptr(base, &back);
            }
            Some(_) => {
                // Unknown stride: only whole-memory facts cross.
                if let Some((-1, b)) = pb.iter().find(|(k, _)| *k == -1) {
                    self.learn_ptr(g, &TypeTree::single(-1, b));
                }
                self.learn_ptr(g, &pb.inner_remapped(|k| (k == -1).then_some(-1)));
                // Back: the base is taken for an array of such elements (a matrix row
                // `p + i * rowlen`, a tape buffer at `data + used`), except when the offset
                // is the `this` adjustment of a C++ member-function pointer: a byte offset
                // to a base-class subobject, not an index (its dead virtual branch loads
                // a vtable pointer there, which would make the whole object pointers).
                // Nor when the offset is the byte distance between two pointers (`end -
                // begin`, as `std::vector`'s reallocation places the new element): that is
                // a whole number of elements whose layout may mix types (a `pair<double,
                // int>`), and g's facts, seen one store at a time, would look uniform.
                let adjusts = g
                    .operands()
                    .into_iter()
                    .skip(1)
                    .any(|o| is_member_pointer_adjustment(o) || is_pointer_distance(o));
                let mut kinds = pg.iter().map(|(_, b)| b);
                if let Some(first) = kinds.next() {
                    if !adjusts && kinds.all(|b| b == first) {
                        self.learn_ptr(base, &TypeTree::single(-1, first));
                    }
                }
                // A pointer distance the code also divides exactly by the element size
                // (`ashr exact (end - begin), 5`: `std::vector` counts its elements so
                // when it reallocates) is a whole number of such elements: when g's
                // facts fill one element with a single float type, every element holds
                // it (four doubles for `{std::array<double, 3>, double}`). A record that
                // mixes types, or one known only in part, never fills it so.
                if let Some(size) = g
                    .operands()
                    .into_iter()
                    .skip(1)
                    .filter(|o| is_pointer_distance(*o))
                    .find_map(exact_element_size)
                {
                    let mut element = TypeTree::new();
                    for (k, b) in pg.iter().filter(|(k, _)| (0..size).contains(k)) {
                        element.insert(k, b);
                    }
                    if tiled_by_one_float(&element, size) {
                        let (_, b) = element.iter().next().expect("a tiled element has facts");
                        self.learn_ptr(base, &TypeTree::single(-1, b));
                    }
                }
            }
        }
    }
}

/// What the constant-offset GEP rule of one GEP read at its last firing: its offset and
/// the change-log positions (`engine/changes.rs`) of its base's and its own tree.
pub(super) struct GepReads {
    constant: i64,
    base_at: u32,
    g_at: u32,
}

impl Engine {
    /// The pointee trees of `base` and of `g = base + constant` for the GEP rule: whole at
    /// its first firing, afterwards only the keys that changed since its last one (with
    /// the "every offset" entry), or whole again when that entry changed. Exact, because
    /// the rule maps each key on its own and only joins: at its last firing it taught
    /// `g` the shift of everything `base` held then (and `base` the shift back of `g`'s),
    /// and trees only grow, so the unchanged keys would teach nothing; each output tree
    /// is the one the whole input gives. Without this the rule, re-fired each time one of
    /// its trees grows by an entry, re-shifted trees of up to `MAX_OFFSET` entries whole.
    fn gep_delta(&mut self, g: Value, base: Value, constant: i64) -> (Rc<TypeTree>, Rc<TypeTree>) {
        let now = GepReads {
            constant,
            base_at: self.changes.watch(base),
            g_at: self.changes.watch(g),
        };
        let last = self.gep_reads.insert(g, now);
        let (pb, pg) = (self.pointee(base), self.pointee(g));
        let Some(last) = last.filter(|l| l.constant == constant) else {
            return (pb, pg);
        };
        let part = |tree: Rc<TypeTree>, keys: &[Change]| {
            if keys.contains(&Change::Entry(-1)) {
                tree
            } else {
                Rc::new(tree.at_keys(keys))
            }
        };
        (
            part(pb, self.changes.since(base, last.base_at)),
            part(pg, self.changes.since(g, last.g_at)),
        )
    }
}

/// The bytes `[lo, hi)` (relative to the base) of the elements of stride `s` from `c` on
/// whose facts agree with the element at `c`, when some element disagrees with it: cut
/// before the nearest disagreeing element on either side (or at the tree's ends). Two
/// elements disagree where both know a byte and name different scalars there (an
/// `Integer` where the other has a `Double` starting, or a byte inside that double).
/// `None` when every element agrees (the fold over every residue is exact) or the
/// element at `c` holds no fact yet (nothing to compare with).
fn agreeing_elements(t: &TypeTree, c: i64, s: i64) -> Option<(i64, i64)> {
    // Per byte of an element: the scalar covering it and where that scalar starts.
    let mut elements: std::collections::BTreeMap<i64, Vec<Option<(BaseType, i64)>>> =
        std::collections::BTreeMap::new();
    for (k, b) in t.iter().filter(|(k, b)| *k >= 0 && *b != BaseType::Unknown) {
        let (e, r) = ((k - c).div_euclid(s), (k - c).rem_euclid(s));
        let bytes = elements.entry(e).or_insert_with(|| vec![None; s as usize]);
        let width = b.fp_type().map_or(1, |f| f.data_size() as i64);
        for x in r..(r + width).min(s) {
            bytes[x as usize] = Some((b, r));
        }
    }
    let first = elements.get(&0)?;
    let disagrees = |other: &Vec<Option<(BaseType, i64)>>| {
        first
            .iter()
            .zip(other)
            .any(|(a, b)| matches!((a, b), (Some(a), Some(b)) if a != b))
    };
    let below = elements
        .range(..0)
        .rev()
        .find(|(_, b)| disagrees(b))
        .map(|(e, _)| *e);
    let above = elements
        .range(1..)
        .find(|(_, b)| disagrees(b))
        .map(|(e, _)| *e);
    if below.is_none() && above.is_none() {
        return None;
    }
    let lo = below.map_or(c.rem_euclid(s), |e| c + (e + 1) * s);
    let hi = above.map_or(super::super::MAX_OFFSET, |e| c + e * s);
    Some((lo, hi))
}

/// The element size `v` is divided by exactly somewhere (`ashr exact v, k`, `lshr exact
/// v, k`, `sdiv exact v, c`, `udiv exact v, c`; exact: a remainder would make the quotient
/// poison), when it is below `MAX_OFFSET`.
fn exact_element_size(v: Value) -> Option<i64> {
    v.users().into_iter().find_map(|u| {
        let shift = matches!(u.opcode(), Some(Opcode::LLVMAShr | Opcode::LLVMLShr));
        let divide = matches!(u.opcode(), Some(Opcode::LLVMSDiv | Opcode::LLVMUDiv));
        if !(shift || divide) || !u.is_exact() || u.operand(0) != v {
            return None;
        }
        let c = u.operand(1).const_int_value()?;
        let size = if shift {
            1i64.checked_shl(u32::try_from(c).ok()?)?
        } else {
            c
        };
        (size > 1 && size < super::super::MAX_OFFSET).then_some(size)
    })
}

/// Does `element` (facts at offsets `0..s`) hold one float type at every multiple of
/// its width and nothing else, so that an array of such elements holds that float at
/// every offset?
fn tiled_by_one_float(element: &TypeTree, s: i64) -> bool {
    let Some((0, first)) = element.iter().next() else {
        return false;
    };
    if !matches!(first, BaseType::Double | BaseType::Float) {
        return false;
    }
    let width = first.fp_type().map_or(0, |f| f.data_size() as i64);
    width > 0
        && s % width == 0
        && element.len() as i64 == s / width
        && element.iter().all(|(k, b)| b == first && k % width == 0)
}

/// Is integer `v` the distance in bytes between two pointers (`ptrtoint a - ptrtoint b`)?
fn is_pointer_distance(v: Value) -> bool {
    v.opcode() == Some(Opcode::LLVMSub)
        && v.operands()
            .into_iter()
            .all(|o| o.opcode() == Some(Opcode::LLVMPtrToInt))
}

/// Is the first index of the `getelementptr` `g` (the one that steps over whole elements)
/// a `zext`, i.e. non-negative?
fn first_index_is_zext(g: Value) -> bool {
    g.is_instruction() && g.num_operands() > 1 && g.operand(1).opcode() == Some(Opcode::LLVMZExt)
}

/// The byte width of `v` when it is an `i32` literal in `1..2^23`: bit patterns that are
/// subnormal floats, so in practice integers (see `access`). Not `i64`: Rust stores a
/// dangling pointer's alignment (`8`) into a pointer field as an integer.
fn small_int_literal(v: Value) -> Option<i64> {
    let c = v.const_int_value()?;
    (v.ty().int_width()? == 32 && (1..1 << 23).contains(&c)).then_some(4)
}
