//! Pointers that went through integers, made pointers again before differentiation.
//!
//! The AD pass follows shadows through pointer operations (`getelementptr`, `load ptr`,
//! `store ptr`), never through integers: an `inttoptr` that may reach differentiable
//! memory is rejected by the audit (`audit/body.rs`). Two common shapes are only
//! pointer operations written as integers, and are rewritten on the clone (`clone.rs`)
//! into the pointer operations they stand for, with the same address bits:
//!
//! * **A pointer copied as an integer.** InstCombine turns the copy of a struct holding a
//!   pointer (Eigen's `Transpose` holding a reference to its matrix, at `-O1`) into
//!   `%x = load i64, ptr %a` then `inttoptr %x` and `store i64 %x`. When some user of
//!   the load is an `inttoptr`, or the load is only stored and the stack object it is
//!   read from or written to declares a pointer there (`declared_pointer`; Eigen's
//!   `Transpose` passed to `gemv_dense_selector`), the load becomes `load ptr` (the same bits): the
//!   `inttoptr`s become that pointer, stores of the integer store the pointer (so the
//!   shadow memory gets the shadow pointer, as for any pointer store), and any other use
//!   reads `ptrtoint` of it (an integer: inactive, as before).
//! * **A pointer stored as an integer.** Clang's -O1 code stores a `std::unique_ptr`
//!   into a `std::vector`'s buffer as `store i64 (ptrtoint p)`. When the store's `!tbaa`
//!   names a pointer type, or the stack object declares a pointer there, it becomes
//!   `store ptr p` (the same bytes), so the shadow memory gets `p`'s shadow; without the
//!   rewrite the shadow buffer kept null and the reverse sweep crashed (tests/cxx/139).
//!   Loads of `i64` only stored are rewritten on the same evidence (`!tbaa` on either
//!   side).
//! * **Byte offsets through `uintptr_t`.** `inttoptr(ptrtoint(p) + k - ...)`, a sum of
//!   integers of which exactly one `ptrtoint` is not cancelled by the `ptrtoint` of a
//!   pointer into the same object (`(uintptr_t)p + ((uintptr_t)q - (uintptr_t)r)` with `q`
//!   and `r` in one object: a pointer difference added back), becomes `gep i8, p, off`
//!   with `off` the integer minus `ptrtoint(p)`. That is `(char *)p + off`, whose shadow
//!   the transform already gives as `shadow(p) + off`: correct exactly when the result
//!   stays in `p`'s object, the assumption every `getelementptr` already makes. The
//!   other terms must not be pointers: constants, arguments, or values computed by other
//!   instructions (`n * 8`); a term read directly from memory or returned by a call (it
//!   could be pointer bits) keeps the `inttoptr`, and so the audit's error. With a
//!   pointer difference among the terms, integer arguments are refused too: `nb + (q -
//!   r)` rebases onto whatever object the argument `nb` holds the address of.
//! * **Addresses rounded up to an alignment** `A <= 16`: `(ptrtoint(p) + A-1) & -A` as
//!   a term, when `p` points into memory from `malloc`/`calloc`/`realloc`/
//!   `aligned_alloc`/`new` (`same_misalignment`): primal and shadow allocation are both
//!   16-byte aligned, so rounding moves the shadow by the same bytes, and the rounded
//!   shadow is aligned as the primal is (aligned vector loads through it stay valid).
//!
//! * **An optional pointer kept in an integer**: `inttoptr (select c, ptrtoint p, 0)`
//!   (or a phi of such arms; `uintptr_t slot = some ? (uintptr_t)p : 0` at -O0 once the
//!   slot is promoted) becomes the select or phi of `p` and null (`merged_pointers`).
//!
//!   A stack object declared aligned to `A` or more is rounded by 0 bytes, so the same
//!   rewrite holds for it (`aligned_stack_object`).
//!
//! * **A pointer stored and read back as a lane of a vector load** of the same stack
//!   object (`stored_pointer_lane`): the `inttoptr` of the lane becomes the stored pointer.
//!
//! Anything else (a mask on a stack object or an argument, whose shadow need not share
//! the primal's misalignment; a mask wider than 16; a term read from memory) is left
//! alone and keeps the audit's error.

use ferrozyme_analysis::types::tbaa_says_pointer;
use ferrozyme_llvm::{Builder, Opcode, TypeKind, Value};

/// Rewrites `f`'s pointers carried through integers; returns how many loads and
/// `inttoptr`s it rewrote.
pub fn rebuild_pointers(f: Value) -> usize {
    let ctx = f.ty().context();
    let b = Builder::new(ctx);
    let insts = || -> Vec<Value> { f.instructions().collect() };
    let mut done = 0;
    // Candidates are collected before rewriting: a rewrite erases instructions (the
    // load's stores and `inttoptr`s) that a walk over the old list would still visit.
    type Rewrite = fn(&Builder, Value);
    let passes: [(fn(Value) -> bool, Rewrite); 2] = [
        (is_pointer_copied_as_integer, repun_load),
        (is_pointer_stored_as_integer, restore_pointer),
    ];
    for (wanted, rewrite) in passes {
        let found: Vec<Value> = insts().into_iter().filter(|i| wanted(*i)).collect();
        done += found.len();
        for i in found {
            rewrite(&b, i);
        }
    }
    for i in insts() {
        if i.opcode() != Some(Opcode::LLVMIntToPtr) || i.ty() != ctx.ptr() {
            continue;
        }
        let x = i.operand(0);
        if let Some(p) = stored_pointer_lane(x) {
            i.replace_all_uses_with(p);
            i.erase();
            done += 1;
            continue;
        }
        if let Some(p) = merged_pointers(&b, x) {
            i.replace_all_uses_with(p);
            i.erase();
            done += 1;
            continue;
        }
        if let Some(base) = offset_base(x) {
            b.position_before(i);
            let p = if x.opcode() == Some(Opcode::LLVMPtrToInt) {
                base
            } else {
                let at = b.ptrtoint(base, ctx.i64());
                let off = b.sub(x, at);
                b.byte_gep(base, off)
            };
            i.replace_all_uses_with(p);
            i.erase();
            done += 1;
        }
    }
    done
}

/// A pointer stored into a stack object and read back as one 8-byte lane of a vector
/// load of that object: `store ptr q, (a + 8k)` ... `load <N x double>, a`, `bitcast`
/// to `<N x i64>`, `extractelement` k. InstCombine writes Eigen's `{double scale, const
/// double *coeffs}` expression of `Quaterniond::slerp` (SSE2 packets, -O2) this way;
/// the lane is `q` itself, so the `inttoptr` of it becomes `q`. Only when the load and
/// the store are in one block, the object is an `alloca`, and nothing between them may
/// write those bytes (stores into other stack objects or other bytes of this one,
/// lifetime markers); anything else keeps the `inttoptr` and the audit's error.
fn stored_pointer_lane(x: Value) -> Option<Value> {
    use Opcode::*;
    if x.opcode() != Some(LLVMExtractElement) || x.ty().int_width() != Some(64) {
        return None;
    }
    let k = x.operand(1).const_int_value()?;
    let mut v = x.operand(0);
    if v.opcode() == Some(LLVMBitCast) {
        v = v.operand(0);
    }
    if v.opcode() != Some(LLVMLoad) || v.ty().kind() != TypeKind::Vector {
        return None;
    }
    let m = v.parent_function().parent_module();
    if m.store_size(v.ty().element_type()) != 8 {
        return None;
    }
    let (base, off) = m.strip_const_geps(v.operand(0));
    if base.opcode() != Some(LLVMAlloca) || off == i64::MAX {
        return None;
    }
    let lane = off.checked_add(k.checked_mul(8)?)?;
    let mut at = v.prev_instruction();
    while let Some(i) = at {
        at = i.prev_instruction();
        match i.opcode() {
            Some(LLVMStore) => {
                let (b2, o2) = m.strip_const_geps(i.operand(1));
                let size = m.store_size(i.operand(0).ty()) as i64;
                if b2 != base {
                    if b2.opcode() == Some(LLVMAlloca) {
                        continue;
                    }
                    return None;
                }
                if o2 == lane && size == 8 && i.operand(0).ty().is_pointer() {
                    return Some(i.operand(0));
                }
                if o2 == i64::MAX || (o2 < lane + 8 && lane < o2 + size) {
                    return None;
                }
            }
            Some(LLVMCall) if i.is_lifetime_marker() => {}
            Some(LLVMCall | LLVMInvoke | LLVMAtomicRMW | LLVMAtomicCmpXchg | LLVMFence) => {
                return None
            }
            Some(LLVMVAArg) => return None,
            _ => {}
        }
    }
    None
}

/// `select c, a, b` or a phi of integers each `ptrtoint p` or 0 (an optional pointer
/// kept in a `uintptr_t`, at -O0 once the slot is promoted), rebuilt as the same select
/// or phi of the pointers (`p` or null): the same bits, with shadows the transform follows.
fn merged_pointers(b: &Builder, x: Value) -> Option<Value> {
    let ctx = x.ty().context();
    let arm = |v: Value| -> Option<Value> {
        if v.opcode() == Some(Opcode::LLVMPtrToInt) && v.operand(0).ty() == ctx.ptr() {
            Some(v.operand(0))
        } else if v.const_int_value() == Some(0) {
            Some(ctx.ptr().zero())
        } else {
            None
        }
    };
    if x.ty() != ctx.i64() {
        return None;
    }
    match x.opcode() {
        Some(Opcode::LLVMSelect) => {
            let (t, e) = (arm(x.operand(1))?, arm(x.operand(2))?);
            b.position_before(x);
            Some(b.select(x.operand(0), t, e))
        }
        Some(Opcode::LLVMPHI) => {
            let arms = x
                .incoming()
                .into_iter()
                .map(|(v, bl)| Some((arm(v)?, bl)))
                .collect::<Option<Vec<_>>>()?;
            b.position_before(x);
            let p = b.phi(ctx.ptr(), "");
            for (v, bl) in arms {
                p.add_incoming(v, bl);
            }
            Some(p)
        }
        _ => None,
    }
}

/// Is `l` a plain `load i64` (pointer-sized, address space 0) with an `inttoptr` user?
fn is_pointer_copied_as_integer(l: Value) -> bool {
    if l.opcode() != Some(Opcode::LLVMLoad) || l.is_volatile() || l.is_atomic_access() {
        return false;
    }
    let ctx = l.ty().context();
    if l.ty() != ctx.i64() {
        return false;
    }
    let users = l.users();
    if users
        .iter()
        .any(|u| u.opcode() == Some(Opcode::LLVMIntToPtr) && u.ty() == ctx.ptr())
    {
        return true;
    }
    // Copied from memory to memory only: a pointer when the stack object on either side
    // declares a pointer there.
    let stores = users
        .iter()
        .all(|u| u.opcode() == Some(Opcode::LLVMStore) && u.operand(0) == l);
    stores
        && !users.is_empty()
        && (declared_pointer(l.operand(0))
            || tbaa_says_pointer(l)
            || users
                .iter()
                .any(|u| declared_pointer(u.operand(1)) || tbaa_says_pointer(*u)))
}

/// Is `s` a plain `store i64 (ptrtoint p)` (pointer-sized, address space 0) into a
/// location that holds a pointer: its `!tbaa` names a pointer type, or a stack object
/// declares a pointer there?
fn is_pointer_stored_as_integer(s: Value) -> bool {
    if s.opcode() != Some(Opcode::LLVMStore) || s.is_volatile() || s.is_atomic_access() {
        return false;
    }
    let ctx = s.ty().context();
    let x = s.operand(0);
    x.opcode() == Some(Opcode::LLVMPtrToInt)
        && x.ty() == ctx.i64()
        && x.operand(0).ty() == ctx.ptr()
        && (tbaa_says_pointer(s) || declared_pointer(s.operand(1)))
}

/// Replaces `store i64 (ptrtoint p), a` by `store ptr p, a`: the same bytes, and the
/// shadow memory gets `p`'s shadow as for any pointer store.
fn restore_pointer(b: &Builder, s: Value) {
    b.position_before(s);
    let n = b.store(s.operand(0).operand(0), s.operand(1));
    n.set_alignment(s.alignment());
    let kind = s.ty().context().md_kind("tbaa");
    if let Some(tag) = s.metadata(kind) {
        n.set_metadata(kind, Some(tag));
    }
    // The `ptrtoint`, dead if it had no other use, is left to the post-AD optimizer.
    s.erase();
}

/// Does `addr` point at a field an `alloca`'s type declares `ptr` (through constant byte
/// offsets)? Clang gives a local object its class type (`%"class.Eigen::Transpose" =
/// type { ptr }`), so the declaration says what the integer copy carries.
fn declared_pointer(addr: Value) -> bool {
    let mut off = 0u64;
    let mut p = addr;
    for _ in 0..8 {
        match p.opcode() {
            Some(Opcode::LLVMGetElementPtr)
                if p.operands().len() == 2 && p.gep_source_type() == p.ty().context().i8() =>
            {
                match p.operand(1).const_int_value() {
                    Some(k) if k >= 0 => off += k as u64,
                    _ => return false,
                }
                p = p.operand(0);
            }
            Some(Opcode::LLVMAlloca) => break,
            _ => return false,
        }
    }
    if p.opcode() != Some(Opcode::LLVMAlloca) {
        return false;
    }
    let m = p.parent_function().parent_module();
    let mut ty = p.allocated_type();
    loop {
        match ty.kind() {
            TypeKind::Pointer => return off == 0,
            TypeKind::Struct => {
                let fields = ty.struct_fields();
                let Some(k) = (0..fields.len() as u32)
                    .rev()
                    .find(|k| m.field_offset(ty, *k) <= off)
                else {
                    return false;
                };
                off -= m.field_offset(ty, k);
                ty = fields[k as usize];
            }
            TypeKind::Array => {
                let e = ty.element_type();
                let sz = m.alloc_size(e);
                if sz == 0 || off / sz >= ty.array_len() {
                    return false;
                }
                off %= sz;
                ty = e;
            }
            _ => return false,
        }
    }
}

/// Replaces integer load `l` by a pointer load of the same bytes (see the module doc).
fn repun_load(b: &Builder, l: Value) {
    let ctx = l.ty().context();
    b.position_before(l);
    let p = b.load(ctx.ptr(), l.operand(0), "");
    p.set_alignment(l.alignment());
    let mut as_int = None;
    for u in l.users() {
        match u.opcode() {
            Some(Opcode::LLVMIntToPtr) if u.ty() == ctx.ptr() => {
                u.replace_all_uses_with(p);
                u.erase();
            }
            Some(Opcode::LLVMStore)
                if u.operand(0) == l
                    && u.operand(1) != l
                    && !u.is_volatile()
                    && !u.is_atomic_access() =>
            {
                b.position_before(u);
                let s = b.store(p, u.operand(1));
                s.set_alignment(u.alignment());
                u.erase();
            }
            _ => {
                let x = *as_int.get_or_insert_with(|| {
                    b.position_after(p);
                    b.ptrtoint(p, ctx.i64())
                });
                for k in 0..u.operands().len() as u32 {
                    if u.operand(k) == l {
                        u.set_operand(k, x);
                    }
                }
            }
        }
    }
    l.erase();
}

/// The pointer `x` is a byte offset from, when `x` is a sum of terms (see the module doc)
/// with exactly one `ptrtoint` left once those of pointers into the same object cancel.
fn offset_base(x: Value) -> Option<Value> {
    let mut plus = Vec::new();
    let mut minus = Vec::new();
    let mut opaque = 0;
    if !terms(x, true, 0, &mut plus, &mut minus, &mut opaque) {
        return None;
    }
    // `base + (p - q)` with `base` an integer argument rebases a pointer into another
    // object (the argument's): only a pointer among the terms may be the base then.
    if !minus.is_empty() && opaque > 0 {
        return None;
    }
    for m in minus {
        let obj = object_of(m);
        let k = plus.iter().position(|p| object_of(*p) == obj)?;
        plus.remove(k);
    }
    match plus[..] {
        [p] => Some(p),
        _ => None,
    }
}

/// Collects the pointers of `x`'s `ptrtoint` terms by sign, counting integer arguments
/// in `opaque`; false when a term may be a pointer in disguise (read from memory,
/// returned by a call, merged by a phi) or the sum is not plain `add`/`sub`.
fn terms(
    x: Value,
    pos: bool,
    depth: u32,
    plus: &mut Vec<Value>,
    minus: &mut Vec<Value>,
    opaque: &mut usize,
) -> bool {
    if depth > 12 {
        return false;
    }
    let ctx = x.ty().context();
    match x.opcode() {
        Some(Opcode::LLVMPtrToInt) if x.ty() == ctx.i64() && x.operand(0).ty() == ctx.ptr() => {
            if pos { plus } else { minus }.push(x.operand(0));
            true
        }
        Some(Opcode::LLVMAdd) => {
            terms(x.operand(0), pos, depth + 1, plus, minus, opaque)
                && terms(x.operand(1), pos, depth + 1, plus, minus, opaque)
        }
        Some(Opcode::LLVMSub) => {
            terms(x.operand(0), pos, depth + 1, plus, minus, opaque)
                && terms(x.operand(1), !pos, depth + 1, plus, minus, opaque)
        }
        // `(addr + A-1) & -A`, the address rounded up to `A`: an offset from the same
        // pointer when its shadow has the primal's misalignment (`same_misalignment`).
        Some(Opcode::LLVMAnd) if pos => {
            match (x.operand(1).const_int_value(), offset_base(x.operand(0))) {
                (Some(m), Some(p))
                    if m < 0
                        && (-m) as u64 <= 16
                        && ((-m) as u64).is_power_of_two()
                        && (same_misalignment(p) || aligned_stack_object(p, (-m) as u64)) =>
                {
                    plus.push(p);
                    true
                }
                _ => false,
            }
        }
        _ if x.is_constant() => x.const_opcode().is_none(),
        _ if x.is_argument() => {
            *opaque += 1;
            true
        }
        _ => plain_number(x, 0),
    }
}

/// Is `v` an integer no pointer went into: computed by arithmetic that scales or
/// converts (`mul`, `shl`, `sext` ...) from anything but `ptrtoint`? Values read from
/// memory or returned by calls count as numbers only below such arithmetic (`n * 8`):
/// pointer bits scaled are no address.
fn plain_number(v: Value, depth: u32) -> bool {
    use Opcode::*;
    if depth > 12 {
        return false;
    }
    match v.opcode() {
        Some(LLVMMul | LLVMShl | LLVMSDiv | LLVMUDiv | LLVMAShr | LLVMLShr) => {
            v.operands().iter().all(|o| no_pointer(*o, depth + 1))
        }
        Some(LLVMSExt | LLVMZExt) => no_pointer(v.operand(0), depth + 1),
        _ => false,
    }
}

/// Does no `ptrtoint` (or constant expression) feed `v`? Phis (loop counters) are
/// followed through their incoming values.
fn no_pointer(v: Value, depth: u32) -> bool {
    no_pointer_in(v, depth, &mut ferrozyme_analysis::hash::HashSet::default())
}

fn no_pointer_in(
    v: Value,
    depth: u32,
    seen: &mut ferrozyme_analysis::hash::HashSet<Value>,
) -> bool {
    if depth > 24 {
        return false;
    }
    if v.is_constant() {
        return v.const_opcode().is_none();
    }
    if !seen.insert(v) {
        return true;
    }
    match v.opcode() {
        Some(Opcode::LLVMPtrToInt | Opcode::LLVMSelect | Opcode::LLVMIntToPtr) => false,
        Some(Opcode::LLVMLoad | Opcode::LLVMCall) => true,
        Some(Opcode::LLVMPHI) => v
            .incoming()
            .into_iter()
            .all(|(x, _)| no_pointer_in(x, depth + 1, seen)),
        None => v.is_argument(),
        Some(_) => v
            .operands()
            .iter()
            .all(|o| no_pointer_in(*o, depth + 1, seen)),
    }
}

/// Is `p` into memory from the C library's allocators, whose shadows the transform
/// allocates with `calloc` (`reverse/calls.rs`, `tangent/calls.rs`)? Both are then
/// 16-byte aligned (glibc's `malloc` alignment on x86-64), so `p` and its shadow (the
/// same offset from the shadow allocation) agree modulo every `A <= 16`: rounding either
/// up moves it by the same bytes. Stack objects are not: a shadow `alloca` may be moved
/// to a tape, and arguments' shadows come from the caller.
fn same_misalignment(p: Value) -> bool {
    let o = object_of(p);
    if !matches!(o.opcode(), Some(Opcode::LLVMCall)) {
        return false;
    }
    o.called_function().is_some_and(|f| f.is_declaration())
        && ferrozyme_analysis::calls::is_fresh_c_allocation(o)
        && ferrozyme_analysis::calls::alloc_fn(o).is_some()
}

/// Is `p` a stack object (`alloca`) declared aligned to at least `a` bytes? Rounding its
/// address up to `a` then adds 0, so the offset taken to the shadow is 0 whatever the
/// shadow's own alignment (Eigen's `ei_declare_aligned_stack_constructed_variable` at
/// -O0: `alloca i8, n, align 16`, then `(p + 15) & -16`; tests/cxx/72).
fn aligned_stack_object(p: Value, a: u64) -> bool {
    p.opcode() == Some(Opcode::LLVMAlloca) && u64::from(p.alignment()) >= a
}

/// The object `p` points into, as far as `getelementptr`s and casts show.
fn object_of(mut p: Value) -> Value {
    for _ in 0..32 {
        match p.opcode().or_else(|| p.const_opcode()) {
            Some(Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast) => p = p.operand(0),
            _ => break,
        }
    }
    p
}
