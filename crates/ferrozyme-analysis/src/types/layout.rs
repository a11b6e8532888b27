//! From LLVM's static knowledge to type trees: sizes and layouts of IR types, byte offsets
//! of `getelementptr`s, and the names in `!tbaa` / `!tbaa.struct` metadata.
//!
//! Everything here is careful about types that have no fixed size (scalable vectors,
//! opaque structs, target types): asking LLVM's data layout for their size is invalid, so
//! [`size_of`] answers `None` for them and callers skip the fact.

use ferrozyme_llvm::{Module, Opcode, Type, TypeKind, Value};

use super::{BaseType, TypeTree, MAX_OFFSET};

/// Does this type have a fixed, queryable size?
pub(super) fn is_sized(ty: Type) -> bool {
    match ty.kind() {
        TypeKind::Void
        | TypeKind::Function
        | TypeKind::Label
        | TypeKind::Metadata
        | TypeKind::Other => false,
        // Scalable vectors print as `<vscale x N x T>`; the C API has no direct query.
        TypeKind::Vector => !ty.to_string().contains("vscale") && is_sized(ty.element_type()),
        TypeKind::Array => is_sized(ty.element_type()),
        // An opaque struct has no body. An empty struct (`{}`, Rust's zero-sized fields
        // such as the allocator of a `Vec`, `{ { i64, ptr, {} }, {} }`) is sized: 0 bytes.
        // Taken for unsized, it made every GEP over a `Vec<Vec<f64>>`'s elements
        // unfollowable (the rows of a clone were never known to hold doubles, rust15).
        TypeKind::Struct => !ty.is_opaque_struct() && ty.struct_fields().into_iter().all(is_sized),
        _ => true,
    }
}

/// Store size in bytes, `None` for unsized types.
pub(super) fn size_of(m: Module, ty: Type) -> Option<u64> {
    is_sized(ty).then(|| m.store_size(ty))
}

/// Allocation size in bytes (array stride), `None` for unsized types.
pub(super) fn alloc_size_of(m: Module, ty: Type) -> Option<u64> {
    is_sized(ty).then(|| m.alloc_size(ty))
}

/// What the IR type alone says about a scalar.
/// `ints_are_integer`: whether integer leaves count as `Integer` (true for declared storage
/// such as allocas and globals, false for loads/stores, whose integer type may carry float
/// bits).
fn scalar_base(ty: Type, ints_are_integer: bool) -> BaseType {
    match ty.kind() {
        TypeKind::Float => BaseType::Float,
        TypeKind::Double => BaseType::Double,
        TypeKind::Half => BaseType::Half,
        TypeKind::X86Fp80 => BaseType::LongDouble,
        TypeKind::Pointer => BaseType::Pointer,
        // i8 is C's byte type: allocas of `[N x i8]` are untyped storage.
        TypeKind::Int(w) if ints_are_integer && w > 8 => BaseType::Integer,
        _ => BaseType::Unknown,
    }
}

/// The scalar leaves of `ty` as (byte offset, leaf type), stopping at [`MAX_OFFSET`].
pub(super) fn leaves(m: Module, ty: Type) -> Vec<(i64, Type)> {
    let mut out = Vec::new();
    collect_leaves(m, ty, 0, &mut out);
    out
}

fn collect_leaves(m: Module, ty: Type, base: i64, out: &mut Vec<(i64, Type)>) {
    if base >= MAX_OFFSET || !is_sized(ty) {
        return;
    }
    match ty.kind() {
        TypeKind::Struct => {
            for (i, f) in ty.struct_fields().into_iter().enumerate() {
                let off = m.field_offset(ty, i as u32) as i64;
                collect_leaves(m, f, base + off, out);
            }
        }
        TypeKind::Array | TypeKind::Vector => {
            let e = ty.element_type();
            let stride = m.alloc_size(e).max(1) as i64;
            let n = if ty.kind() == TypeKind::Array {
                ty.array_len()
            } else {
                ty.vector_len() as u64
            };
            for i in 0..n.min(MAX_OFFSET as u64) as i64 {
                if base + i * stride >= MAX_OFFSET {
                    break;
                }
                collect_leaves(m, e, base + i * stride, out);
            }
        }
        _ => out.push((base, ty)),
    }
}

/// The tree the IR type alone implies. Arrays and vectors of one scalar become a `-1`
/// entry (every element is that scalar), which also covers arrays longer than the cap.
pub(super) fn type_tree(m: Module, ty: Type, ints_are_integer: bool) -> TypeTree {
    let mut tree = TypeTree::new();
    if !is_sized(ty) {
        return tree;
    }
    if matches!(ty.kind(), TypeKind::Array | TypeKind::Vector) {
        let e = ty.element_type();
        if !matches!(
            e.kind(),
            TypeKind::Array | TypeKind::Vector | TypeKind::Struct
        ) {
            tree.insert(-1, scalar_base(e, ints_are_integer));
            return tree;
        }
    }
    let leaves = leaves(m, ty);
    for &(off, leaf) in &leaves {
        match (scalar_base(leaf, ints_are_integer), leaf.int_width()) {
            (BaseType::Integer, Some(w)) => tree.insert_integer(off, (w as i64 + 7) / 8),
            (b, _) => tree.insert(off, b),
        };
    }
    if ints_are_integer {
        for off in byte_fields(m, ty) {
            tree.insert(off, BaseType::Integer);
        }
        mark_padding(m, ty, &leaves, &mut tree);
    }
    let unions = union_ranges(m, ty);
    if unions.is_empty() {
        return tree;
    }
    let mut out = TypeTree::new();
    for (off, b) in tree.iter() {
        if off == -1 || !unions.iter().any(|&(lo, hi)| (lo..hi).contains(&off)) {
            out.insert(off, b);
        }
    }
    out
}

/// Is `ty` an unnamed (literal) struct whose fields are all 32- or 64-bit integers
/// (`{ i64, i64 }`)? Its integer fields are no evidence of what the bytes hold (see the
/// `alloca` rule in `engine.rs`).
pub(crate) fn unnamed_wide_int_struct(ty: Type) -> bool {
    ty.kind() == TypeKind::Struct
        && ty.struct_name().is_none()
        && !ty.struct_fields().is_empty()
        && ty
            .struct_fields()
            .iter()
            .all(|f| matches!(f.int_width(), Some(32) | Some(64)))
}

/// The byte ranges of C/C++ unions inside `ty` (clang names their IR types `union.*`):
/// a union's IR type is the layout of *one* member (the most aligned, then largest), so
/// it says nothing about what the bytes hold — `std::function`'s `_Any_data` is
/// `{ {i64, i64} }` (a member-function pointer member) and holds the captures of a
/// lambda, doubles included.
pub(crate) fn union_ranges(m: Module, ty: Type) -> Vec<(i64, i64)> {
    fn walk(m: Module, ty: Type, base: i64, out: &mut Vec<(i64, i64)>) {
        if base >= MAX_OFFSET || !is_sized(ty) {
            return;
        }
        match ty.kind() {
            TypeKind::Struct => {
                if ty.struct_name().is_some_and(|n| n.starts_with("union.")) {
                    out.push((base, base + m.alloc_size(ty) as i64));
                    return;
                }
                for (i, f) in ty.struct_fields().into_iter().enumerate() {
                    let off = m.field_offset(ty, i as u32) as i64;
                    walk(m, f, base + off, out);
                }
            }
            TypeKind::Array => {
                let e = ty.element_type();
                if e.kind() != TypeKind::Struct {
                    return;
                }
                let stride = m.alloc_size(e).max(1) as i64;
                for i in 0..ty.array_len().min(MAX_OFFSET as u64) as i64 {
                    walk(m, e, base + i * stride, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(m, ty, 0, &mut out);
    out
}

/// Offsets of the one-byte integer *fields* of declared storage: `i8`/`i1` members of a
/// struct (a C++ `bool`, a `char`, the byte clang gives an empty member or empty base such
/// as odeint's `array_algebra`), as opposed to the elements of `[N x i8]` arrays, which are
/// untyped byte buffers (`std::aligned_storage`, a union's padding) and stay `Unknown`.
/// A byte field never holds (part of) a float: no float type is one byte wide, and clang
/// lays out a union as its most aligned (then largest) member, so a lone `i8` member
/// stands for a union only when every member is a byte. Without this fact, an `i64` that
/// SROA or the ABI's struct coercion (`{i64, double}` for `{bool, bool, double}` passed
/// by value) loads over such fields would be ambiguous.
fn byte_fields(m: Module, ty: Type) -> Vec<i64> {
    fn walk(m: Module, ty: Type, base: i64, in_struct: bool, out: &mut Vec<i64>) {
        if base >= MAX_OFFSET || !is_sized(ty) {
            return;
        }
        match ty.kind() {
            TypeKind::Struct => {
                for (i, f) in ty.struct_fields().into_iter().enumerate() {
                    let off = m.field_offset(ty, i as u32) as i64;
                    walk(m, f, base + off, true, out);
                }
            }
            TypeKind::Array => {
                let e = ty.element_type();
                if e.kind() != TypeKind::Struct {
                    return;
                }
                let stride = m.alloc_size(e).max(1) as i64;
                for i in 0..ty.array_len().min(MAX_OFFSET as u64) as i64 {
                    if base + i * stride >= MAX_OFFSET {
                        break;
                    }
                    walk(m, e, base + i * stride, false, out);
                }
            }
            TypeKind::Int(w) if in_struct && w <= 8 => out.push(base),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(m, ty, 0, false, &mut out);
    out
}

/// Declared storage (a stack slot or global of a struct type): the padding between and
/// after its fields never holds a float, so it counts as `Integer` (at its first byte and
/// every 4-byte boundary inside it). SROA copies a struct's padding with integer loads and
/// stores (`int k; double v;` has 4 bytes of padding at offset 4), which type analysis
/// would otherwise have to call ambiguous.
fn mark_padding(m: Module, ty: Type, leaves: &[(i64, Type)], tree: &mut TypeTree) {
    let total = (m.alloc_size(ty) as i64).min(MAX_OFFSET);
    let mut covered: Vec<(i64, i64)> = leaves
        .iter()
        .map(|&(off, leaf)| (off, off + m.store_size(leaf).max(1) as i64))
        .collect();
    covered.sort_unstable();
    let mut at = 0;
    let mut gaps = Vec::new();
    for (a, b) in covered {
        if a > at {
            gaps.push((at, a));
        }
        at = at.max(b);
    }
    if total > at {
        gaps.push((at, total));
    }
    for (a, b) in gaps {
        let mut o = a;
        while o < b && o < MAX_OFFSET {
            tree.insert(o, BaseType::Integer);
            o = (o / 4 + 1) * 4;
        }
    }
}

/// How a GEP moves its base pointer: a constant byte offset plus, when some index is not
/// constant, the stride (gcd of the variable terms' byte multipliers; 1 = unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GepOffset {
    pub constant: i64,
    pub stride: Option<u64>,
    /// When every variable index selects an element of an array *inside* the source
    /// type (`gep [4 x double], p, 0, i`, `gep %S, p, 0, 2, i`, not pointer arithmetic
    /// `gep double, p, i`): the byte range `[lo, hi)` of that array, relative to the base.
    /// C and C++ index arrays within their bounds, so the GEP reaches only those bytes
    /// (odeint's `boost::array<double, 1>` member inside a stepper object is `[1 x double]`
    /// at one offset, not "doubles from here on").
    pub bounded: Option<(i64, i64)>,
}

/// Decomposes a scalar-pointer GEP (instruction or constant expression). `None` for vector
/// GEPs, unsized types and anything else we cannot follow.
pub(super) fn gep_offset(m: Module, gep: Value) -> Option<GepOffset> {
    if !gep.ty().is_pointer() {
        return None;
    }
    let mut ty = gep.gep_source_type();
    let mut constant: i64 = 0;
    let mut stride: Option<u64> = None;
    // `Some(None)`: the pointer-level index is variable (unbounded); `Some(Some(r))`: the
    // first variable index is into the array at byte range `r`.
    let mut region: Option<Option<(i64, i64)>> = None;
    let mut add_var = |mult: u64| {
        stride = Some(match stride {
            None => mult,
            Some(s) => gcd(s, mult),
        });
    };
    let n = gep.num_operands();
    for i in 1..n {
        let idx = gep.operand(i);
        if !idx.ty().is_integer() {
            return None;
        }
        if i == 1 {
            let size = alloc_size_of(m, ty)? as i64;
            match idx.const_int_value() {
                Some(c) => constant = constant.checked_add(c.checked_mul(size)?)?,
                // Stepping over zero-sized elements does not move the pointer.
                None if size == 0 => {}
                None => {
                    region = Some(None);
                    add_var((size as u64).saturating_mul(index_multiplier(idx)))
                }
            }
            continue;
        }
        match ty.kind() {
            TypeKind::Struct => {
                let c = idx.const_int_value()?;
                let fields = ty.struct_fields();
                if c < 0 || c as usize >= fields.len() {
                    return None;
                }
                constant = constant.checked_add(m.field_offset(ty, c as u32) as i64)?;
                ty = fields[c as usize];
            }
            TypeKind::Array | TypeKind::Vector => {
                let parent = ty;
                ty = ty.element_type();
                let size = alloc_size_of(m, ty)? as i64;
                match idx.const_int_value() {
                    Some(c) => constant = constant.checked_add(c.checked_mul(size)?)?,
                    None if size == 0 => {}
                    None => {
                        if region.is_none() && parent.kind() == TypeKind::Array {
                            let len = (parent.array_len() as i64).checked_mul(size)?;
                            region = Some(Some((constant, constant.checked_add(len)?)));
                        } else if region.is_none() {
                            region = Some(None);
                        }
                        add_var((size as u64).saturating_mul(index_multiplier(idx)))
                    }
                }
            }
            _ => return None,
        }
    }
    Some(GepOffset {
        constant,
        stride,
        bounded: region.flatten(),
    })
}

/// The array-typed struct field a constant-offset GEP points into: its bytes `[lo, hi)`
/// relative to the GEP's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FieldArray {
    pub lo: i64,
    pub hi: i64,
}

/// When every index of `gep` is constant and its last struct step selects a field of
/// array type (`gep %particle, p, 0, 0` with `pos` a `[3 x double]`, and any constant
/// indices on into it): that field's bytes. A pointer into a member array reaches that
/// array only (`fz_fill(base[i].pos, 3, ..)` fills three doubles, not the `int id` after
/// them). `None` for GEPs without a struct step (`&m[0][0]` of a `double m[3][3]` walks
/// all nine elements, bounded by the allocation) and for a struct's last field of at
/// most one element (a flexible array member or the `data[1]` struct hack, which
/// programs index past its declared length).
pub(super) fn field_array(m: Module, gep: Value) -> Option<FieldArray> {
    field_array_by_indices(m, gep).or_else(|| field_array_by_offset(m, gep))
}

/// [`field_array`] from the GEP's own struct steps (what -O0 writes: `gep %cell, p, 0, 2`).
fn field_array_by_indices(m: Module, gep: Value) -> Option<FieldArray> {
    let mut ty = gep.gep_source_type();
    let mut constant: i64 = 0;
    let mut field: Option<FieldArray> = None;
    for i in 1..gep.num_operands() {
        let c = gep.operand(i).const_int_value()?;
        if i == 1 {
            constant = constant.checked_add(c.checked_mul(alloc_size_of(m, ty)? as i64)?)?;
            continue;
        }
        match ty.kind() {
            TypeKind::Struct => {
                let fields = ty.struct_fields();
                if c < 0 || c as usize >= fields.len() {
                    return None;
                }
                constant = constant.checked_add(m.field_offset(ty, c as u32) as i64)?;
                ty = fields[c as usize];
                let hack = c as usize + 1 == fields.len()
                    && (ty.kind() != TypeKind::Array || ty.array_len() <= 1);
                field = match (ty.kind(), hack) {
                    (TypeKind::Array, false) => Some(FieldArray {
                        lo: constant,
                        hi: constant.checked_add(alloc_size_of(m, ty)? as i64)?,
                    }),
                    _ => None,
                };
            }
            TypeKind::Array => {
                ty = ty.element_type();
                constant = constant.checked_add(c.checked_mul(alloc_size_of(m, ty)? as i64)?)?;
            }
            _ => return None,
        }
    }
    field.filter(|f| (f.lo..f.hi).contains(&constant) && f.hi <= MAX_OFFSET)
}

/// [`field_array`] of a constant GEP without struct steps (`gep i8, %t, 48`: -O1 and up
/// write every member access so, the struct's layout gone from the GEP) whose base is an
/// object of known struct type: an `alloca %cell`, or one element of a `gep %cell, p, i`.
/// The member at the byte offset is found in that type, as [`field_array_by_indices`]
/// would find it from the indices.
fn field_array_by_offset(m: Module, gep: Value) -> Option<FieldArray> {
    let mut constant: i64 = 0;
    let mut ty = gep.gep_source_type();
    for i in 1..gep.num_operands() {
        let c = gep.operand(i).const_int_value()?;
        if i > 1 {
            // A struct step is field_array_by_indices' case; an array step moves on.
            if ty.kind() != TypeKind::Array {
                return None;
            }
            ty = ty.element_type();
        }
        constant = constant.checked_add(c.checked_mul(alloc_size_of(m, ty)? as i64)?)?;
    }
    let object = typed_object(gep.operand(0))?;
    field_at(m, object, constant).filter(|f| f.hi <= MAX_OFFSET)
}

/// The array member of the struct object `base` points to that holds byte `at` of it,
/// when the IR says the object's type (see `typed_object`): the bound of pointer
/// arithmetic from there (`gep i32, %t, k` indexing `t.node[k]` at offset 0 of an
/// `alloca %cell`, which -O1 and up write without the array type).
pub(super) fn member_array_at(m: Module, base: Value, at: i64) -> Option<FieldArray> {
    field_at(m, typed_object(base)?, at).filter(|f| f.hi <= MAX_OFFSET)
}

/// The struct type of the object `p` points to, where the IR says it: an `alloca` of a
/// struct, or a one-index `gep %S, q, i` (an element of an array of `%S`).
fn typed_object(p: Value) -> Option<Type> {
    let ty = match p.opcode()? {
        Opcode::LLVMAlloca => p.allocated_type(),
        Opcode::LLVMGetElementPtr if p.num_operands() == 2 => p.gep_source_type(),
        _ => return None,
    };
    (ty.kind() == TypeKind::Struct).then_some(ty)
}

/// The innermost array-typed struct member of `ty` holding byte `at` (the rules of
/// [`field_array_by_indices`]: a last member of at most one element is no bound).
fn field_at(m: Module, ty: Type, at: i64) -> Option<FieldArray> {
    let (mut ty, mut base) = (ty, 0i64);
    let mut field = None;
    loop {
        match ty.kind() {
            TypeKind::Struct => {
                let fields = ty.struct_fields();
                let (k, off, fty) = (0..fields.len()).find_map(|k| {
                    let off = base + m.field_offset(ty, k as u32) as i64;
                    let size = alloc_size_of(m, fields[k])? as i64;
                    (off <= at && at < off + size).then_some((k, off, fields[k]))
                })?;
                let hack = k + 1 == fields.len()
                    && (fty.kind() != TypeKind::Array || fty.array_len() <= 1);
                field = match (fty.kind(), hack) {
                    (TypeKind::Array, false) => Some(FieldArray {
                        lo: off,
                        hi: off.checked_add(alloc_size_of(m, fty)? as i64)?,
                    }),
                    _ => None,
                };
                (ty, base) = (fty, off);
            }
            TypeKind::Array => {
                let e = ty.element_type();
                let size = alloc_size_of(m, e)? as i64;
                if size == 0 {
                    return field;
                }
                base += (at - base) / size * size;
                ty = e;
            }
            _ => return field,
        }
    }
}

/// A known constant factor of an index (`shl x, 3` → 8, `mul x, 24` → 24, else 1), so
/// that byte-offset GEPs (`gep i8, p, (i << 3)`) still reveal their element stride.
fn index_multiplier(idx: Value) -> u64 {
    let mut v = idx;
    let mut mult: u64 = 1;
    for _ in 0..4 {
        let op = match v.opcode() {
            Some(op) => op,
            None => break,
        };
        let factor = match op {
            Opcode::LLVMShl => v
                .operand(1)
                .const_int_value()
                .filter(|c| (0..32).contains(c))
                .map(|c| 1u64 << c),
            Opcode::LLVMMul => v
                .operand(1)
                .const_int_value()
                .or_else(|| v.operand(0).const_int_value())
                .filter(|c| *c > 0)
                .map(|c| c as u64),
            Opcode::LLVMSExt | Opcode::LLVMZExt => Some(1),
            _ => None,
        };
        match factor {
            Some(f) => {
                mult = mult.saturating_mul(f);
                v = if op == Opcode::LLVMMul && v.operand(1).const_int_value().is_none() {
                    v.operand(1)
                } else {
                    v.operand(0)
                };
            }
            None => break,
        }
    }
    mult.max(1)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

// ---------------------------------------------------------------------------------------
// TBAA

/// The base type a TBAA type-node name stands for (clang's C/C++ names).
pub(super) fn tbaa_name_base(name: &str) -> BaseType {
    match name {
        "double" => BaseType::Double,
        "float" => BaseType::Float,
        "_Float16" => BaseType::Half,
        "long double" => BaseType::LongDouble,
        "int" | "long" | "long long" | "short" | "bool" | "_Bool" | "__int128" | "wchar_t"
        | "char16_t" | "char32_t" => BaseType::Integer,
        "any pointer" | "vtable pointer" => BaseType::Pointer,
        n if n.starts_with('p')
            && n[1..]
                .split(' ')
                .next()
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) =>
        {
            BaseType::Pointer
        }
        _ => BaseType::Unknown,
    }
}

/// A TBAA scalar at `off`: 8-byte C integers (`long`, `long long`, x86-64) and `__int128`
/// cover all their 4-byte pieces.
fn insert_tbaa_scalar(tree: &mut TypeTree, off: i64, name: &str) {
    match (tbaa_name_base(name), name) {
        (BaseType::Integer, "long" | "long long") => tree.insert_integer(off, 8),
        (BaseType::Integer, "__int128") => tree.insert_integer(off, 16),
        (b, _) => tree.insert(off, b),
    };
}

/// The MDString name of a TBAA type node, if it has one.
fn type_node_name(node: Value) -> Option<String> {
    node.md_node_operands()
        .first()
        .copied()
        .flatten()
        .and_then(|s| s.md_string())
}

/// The name of the access type of a struct-path `!tbaa` tag (`"p1 omnipotent char"`,
/// `"long"`), if it has one.
pub(super) fn tbaa_access_type_name(tag: Value) -> Option<String> {
    let ops = tag.md_node_operands();
    if ops.len() < 3 || ops.first().copied().flatten()?.md_string().is_some() {
        return None;
    }
    type_node_name(ops[1]?)
}

/// The scalar member a struct-path `!tbaa` tag accesses, when the tag's base type is a
/// struct rather than the scalar itself: `this->_M_size` in libstdc++'s `_List_base` is
/// tagged `{_List_base, long, 16}`, while a `long *` access (punning included) is tagged
/// `{long, long, 0}`. Returns the member's base type and size in bytes for the scalar
/// types whose size is fixed on x86-64 (C integers, pointers, `float`, `double`).
pub(super) fn tbaa_struct_member(tag: Value) -> Option<(BaseType, u64)> {
    let ops = tag.md_node_operands();
    if ops.len() < 3 {
        return None;
    }
    let (base, access) = (ops[0]?, ops[1]?);
    if base.md_string().is_some() || base == access {
        return None;
    }
    // A struct type node: its name, then (member type, offset) pairs.
    type_node_name(base)?;
    let name = type_node_name(access)?;
    let bytes = match (tbaa_name_base(&name), name.as_str()) {
        (BaseType::Integer, "long" | "long long") => 8,
        (BaseType::Integer, "int" | "wchar_t" | "char32_t") => 4,
        (BaseType::Integer, "short" | "char16_t") => 2,
        (BaseType::Integer, "bool" | "_Bool") => 1,
        (BaseType::Pointer | BaseType::Double, _) => 8,
        (BaseType::Float, _) => 4,
        _ => return None,
    };
    Some((tbaa_name_base(&name), bytes))
}

/// The integer member a `getelementptr` of clang's named struct types selects
/// (`getelementptr %"struct.std::__detail::_List_node_header", ptr %h, i32 0, i32 1`:
/// `_M_size`, an `i64`): its width in bits. Clang lowers a C/C++ struct member of
/// integer type (or a bit-field's storage unit) to an IR integer and a floating member
/// to an IR float, so the member's IR type is its C type's kind; a union (`%union.*`,
/// lowered to one of its members' types) could hold a float in an integer-typed field
/// and is never followed. Unoptimized IR keeps these GEPs (the optimizer turns them into
/// byte offsets), and has no `!tbaa` to say the same.
pub(super) fn struct_gep_int_member(gep: Value) -> Option<u32> {
    if gep.opcode() != Some(Opcode::LLVMGetElementPtr) {
        return None;
    }
    let ops = gep.operands();
    if ops.len() < 3 || ops[1].const_int_value() != Some(0) {
        return None;
    }
    let mut ty = gep.gep_source_type();
    for idx in &ops[2..] {
        let name = ty.struct_name()?;
        if !(name.starts_with("struct.") || name.starts_with("class.")) {
            return None;
        }
        let k = usize::try_from(idx.const_int_value()?).ok()?;
        ty = *ty.struct_fields().get(k)?;
    }
    ty.int_width()
}

/// The scalar members of clang's named struct type `ty` as (offset, base type), when
/// every byte that holds data is typed by them: only `struct.*`/`class.*` types, arrays
/// and vectors of them or of scalars, and scalars (a lone `i8` is a `char` or `bool`
/// member). `None` for a union (lowered to one member's type, it may hold another),
/// a byte array (`unsigned char __data[N]` of `std::aligned_storage`, a placement-new
/// buffer) and types past [`MAX_OFFSET`]. What a copy of a whole such object moves,
/// as its `!tbaa.struct` would say at -O1 and above (clang emits none at -O0).
pub(super) fn struct_type_tags(m: Module, ty: Type) -> Option<Vec<(i64, BaseType)>> {
    fn plain(ty: Type, depth: u32) -> bool {
        match ty.kind() {
            _ if depth > 8 => false,
            TypeKind::Struct => {
                ty.struct_name()
                    .is_some_and(|n| n.starts_with("struct.") || n.starts_with("class."))
                    && ty.struct_fields().into_iter().all(|f| plain(f, depth + 1))
            }
            TypeKind::Array | TypeKind::Vector => {
                ty.element_type().int_width() != Some(8) && plain(ty.element_type(), depth + 1)
            }
            TypeKind::Int(_) | TypeKind::Pointer | TypeKind::Float | TypeKind::Double => true,
            TypeKind::Half | TypeKind::X86Fp80 => true,
            _ => false,
        }
    }
    if ty.kind() != TypeKind::Struct || !plain(ty, 0) || size_of(m, ty)? > MAX_OFFSET as u64 {
        return None;
    }
    let tags = leaves(m, ty)
        .into_iter()
        .map(|(off, leaf)| match leaf.kind() {
            TypeKind::Int(_) => (off, BaseType::Integer),
            _ => (off, scalar_base(leaf, true)),
        })
        .collect();
    Some(tags)
}

/// Facts a `!tbaa` access tag gives, as (tree, offset of the accessed address inside it).
/// The tree holds the accessed scalar at `offset`; a struct-path tag also names the
/// enclosing struct, whose other scalar members are placed at their own offsets. Old
/// scalar tags give offset 0.
pub(super) fn tbaa_access_tree(tag: Value) -> (TypeTree, i64) {
    let mut tree = TypeTree::new();
    let ops = tag.md_node_operands();
    let Some(Some(first)) = ops.first().copied() else {
        return (tree, 0);
    };
    if let Some(name) = first.md_string() {
        // Old scalar format: the tag is the type node itself.
        insert_tbaa_scalar(&mut tree, 0, &name);
        return (tree, 0);
    }
    if ops.len() < 3 {
        return (tree, 0);
    }
    let tag_off = ops[2]
        .and_then(|o| o.const_int_value())
        .filter(|o| (0..MAX_OFFSET).contains(o))
        .unwrap_or(0);
    if let Some(access) = ops[1] {
        if let Some(name) = type_node_name(access) {
            insert_tbaa_scalar(&mut tree, tag_off, &name);
        }
    }
    struct_members(first, 0, 0, &mut tree);
    (tree, tag_off)
}

/// Places the scalar members of a struct type node `node` at `base + member offset`.
fn struct_members(node: Value, base: i64, depth: u32, tree: &mut TypeTree) {
    if depth > 4 {
        return;
    }
    let ops = node.md_node_operands();
    // {name, type1, off1, type2, off2, ...}
    let mut i = 1;
    while i + 1 < ops.len() {
        if let (Some(ty), Some(off)) = (ops[i], ops[i + 1].and_then(|o| o.const_int_value())) {
            let at = base + off;
            let member_ops = ty.md_node_operands().len();
            if member_ops > 3 {
                struct_members(ty, at, depth + 1, tree);
            } else if at >= 0 {
                if let Some(name) = type_node_name(ty) {
                    insert_tbaa_scalar(tree, at, &name);
                }
            }
        }
        i += 2;
    }
}

/// The `!tbaa.struct` entries of a memcpy: (offset, size, base type) triples.
pub(super) fn tbaa_struct_entries(md: Value) -> Vec<(i64, i64, BaseType)> {
    let ops = md.md_node_operands();
    let mut out = Vec::new();
    for chunk in ops.chunks(3) {
        if let [Some(off), Some(size), Some(tag)] = chunk {
            if let (Some(o), Some(s)) = (off.const_int_value(), size.const_int_value()) {
                let (tree, at) = tbaa_access_tree(*tag);
                let t = tree.get(at);
                out.push((o, s, t));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
