//! Shadows of constants: a mutable global with floats (or pointers) has a shadow global
//! (one per lane); a constant GEP or cast of such a global has the same GEP or cast of its
//! shadow. A read-only table that holds no reals, directly or through the globals it
//! points at (flang's type descriptors and binding tables, which a `class(...)` dummy's
//! descriptor points at for dynamic dispatch), is its own shadow: nothing is ever added
//! into it, and pointers read through the shadow are the primal's (the binding that an
//! indirect call compares with its candidates). It used to have none: the shadow of
//! `call self%method(...)` loaded through a null pointer, which LLVM took as unreachable
//! (hpc18: tests/fortran/27, an endless loop or a segmentation fault). A table that
//! points at reals (the type descriptor of a type with default real component values,
//! whose component table points at the defaults) has a copy as its shadow, pointing at
//! zeroed shadows of those reals instead ([`table_shadow`]; hpc37: tests/fortran/82, a
//! `class is` dispatch at -O0 loaded the binding through a null shadow; flang's type
//! descriptors only). Every other
//! constant has no shadow (a null pointer in reverse mode, a zero tangent in forward
//! mode: the callers choose).

use ferrozyme_analysis::activity::global_needs_shadow;
use ferrozyme_llvm::{Builder, Opcode, TypeKind, Value};

use crate::lanes::Lane;
use crate::services::Support;

/// The shadow of constant pointer `v` in lane `l`, built at `b`'s position, or `None`
/// when it has none.
pub(crate) fn const_shadow(b: &Builder, sup: &mut Support, v: Value, l: Lane) -> Option<Value> {
    if v.ty().is_aggregate() && v.ty().contains_pointer() {
        return const_aggregate_shadow(b, sup, v, l);
    }
    if !v.ty().is_pointer() {
        return None;
    }
    if v.is_global_variable() {
        if global_needs_shadow(v) {
            return Some(sup.shadow_global(v, l));
        }
        if read_only_without_reals(v, 4) {
            return Some(v);
        }
        // Only flang's type descriptors: C's constant tables of pointers to constant
        // reals keep no shadow (a change there is for another round).
        let flang_type_info = v
            .global_value_type()
            .struct_name()
            .is_some_and(|n| n.starts_with(FLANG_TYPE_INFO));
        return flang_type_info
            .then(|| table_shadow(b, sup, v, l, TABLE_DEPTH))
            .flatten();
    }
    if !v.is_constant_expr() {
        return None;
    }
    match v.const_opcode() {
        Some(Opcode::LLVMGetElementPtr) => {
            let base = const_shadow(b, sup, v.operand(0), l)?;
            let idx: Vec<Value> = v.operands()[1..].to_vec();
            Some(b.gep(v.gep_source_type(), base, &idx))
        }
        Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
            const_shadow(b, sup, v.operand(0), l)
        }
        _ => None,
    }
}

/// The initial value of the shadow of a mutable global whose initializer `init` holds
/// pointers, or `None` when no pointer in it has a shadow (the shadow stays zero). A
/// global view of another global (`static struct { double *p; int n; } view = {storage,
/// 4}`, a pointer `double *q = &storage[2]`) starts pointing at that global's shadow,
/// the same constant offset in (Enzyme gives mutable globals with active data shadow
/// globals; a view of one must reach it); before, the shadow pointer was null and
/// clang -O0's code, which reads the pointer back from the view, stopped
/// (`global_args.rs`'s message). A function is its own shadow (calls through a table of
/// them find the derivative from the primal pointer: `common/dispatch.rs`); a pointer
/// to a constant without reals is its own (`static const char *name = "..."`); floats
/// and integers start at zero. If the program later points the view elsewhere in code
/// the pass does not see, `contexts::zero_all` clears the stale shadow
/// (`global_views.rs`).
pub(crate) fn initializer_shadow(
    b: &Builder,
    sup: &mut Support,
    init: Value,
    l: Lane,
) -> Option<Value> {
    let ty = init.ty();
    if init.is_function() {
        return Some(init);
    }
    if ty.is_pointer() {
        if init.is_global_variable()
            && init.is_global_constant()
            && !init.global_value_type().contains_fp()
            && !init.global_value_type().contains_pointer()
        {
            return Some(init);
        }
        return const_shadow(b, sup, init, l).filter(|s| s.is_constant());
    }
    if !ty.is_aggregate() || !ty.contains_pointer() {
        return None;
    }
    let n = match ty.kind() {
        TypeKind::Struct => ty.struct_fields().len() as u32,
        TypeKind::Array => ty.array_len() as u32,
        _ => return None,
    };
    let mut any = false;
    let mut elems = Vec::with_capacity(n as usize);
    for k in 0..n {
        let e = init.const_element(k)?;
        match initializer_shadow(b, sup, e, l) {
            Some(s) => {
                any = true;
                elems.push(s);
            }
            None => elems.push(e.ty().zero()),
        }
    }
    any.then(|| Value::const_aggregate(ty, &elems))
}

/// The shadow of a constant aggregate holding pointers (flang -O0 stores a `class(...)`
/// descriptor `{ ptr %obj, ..., ptr @type_descriptor, ... }` whole): zeros, with each
/// pointer field that has a shadow set to it (the reals' and integers' fields stay zero,
/// as the whole shadow was before); `None` when no field has one. Aggregates of more than
/// 64 fields are left without (a table, not a descriptor).
fn const_aggregate_shadow(b: &Builder, sup: &mut Support, v: Value, l: Lane) -> Option<Value> {
    let ty = v.ty();
    let n = match ty.kind() {
        TypeKind::Struct => ty.struct_fields().len() as u64,
        TypeKind::Array => ty.array_len(),
        _ => return None,
    };
    if n > 64 {
        return None;
    }
    let mut agg = ty.zero();
    let mut any = false;
    for k in 0..n as u32 {
        if let Some(s) = const_shadow(b, sup, v.const_element(k)?, l) {
            agg = b.insert_value(agg, s, k);
            any = true;
        }
    }
    any.then_some(agg)
}

/// The shadow of a constant global `g` holding no reals itself but pointing (`depth`
/// levels deep at most) at globals that do: a constant copy whose pointers to such
/// globals point at their zeroed shadows (mutable, zeroed with the other shadow globals,
/// so adjoints added there go nowhere and reads give zeros), and to real-free globals
/// and functions at themselves. `None` for a `g` holding reals or reached through
/// constant expressions this copy does not rebuild.
fn table_shadow(b: &Builder, sup: &mut Support, g: Value, l: Lane, depth: u32) -> Option<Value> {
    if depth == 0
        || !g.is_global_constant()
        || g.global_value_type().contains_fp()
        || !g.global_value_type().contains_pointer()
    {
        return None;
    }
    let name = if l == Lane::FIRST {
        format!("__fz_shadow_table_{}", g.name())
    } else {
        format!("__fz_shadow_table_{}.{l}", g.name())
    };
    // A copy in progress (a cycle of tables) or made: itself; one that failed: none.
    if let Some(t) = sup.module.global(&name) {
        return Some(t);
    }
    if sup.module.global(&format!("{name}.failed")).is_some() {
        return None;
    }
    let init = g.initializer()?;
    let copy = sup.module.add_global(&name, g.global_value_type());
    copy.set_linkage_internal();
    copy.set_alignment(g.alignment());
    match table_value_shadow(b, sup, g, copy, init, l, depth) {
        Some(i) => {
            copy.set_initializer(i);
            copy.set_global_constant();
            Some(copy)
        }
        None => {
            copy.set_initializer(g.global_value_type().zero());
            copy.set_name(&format!("{name}.failed"));
            None
        }
    }
}

/// The prefix of the types of flang's type descriptors and their tables (the runtime's
/// `__fortran_type_info` module).
const FLANG_TYPE_INFO: &str = "_QM__fortran_type_info";

/// How many levels of tables [`table_shadow`] follows: flang's type descriptors point at
/// component tables, which point at their components' type descriptors, and so on.
const TABLE_DEPTH: u32 = 8;

/// The shadow of constant `c` inside table `g`'s initializer (see [`table_shadow`]);
/// `copy` stands for `g` itself.
fn table_value_shadow(
    b: &Builder,
    sup: &mut Support,
    g: Value,
    copy: Value,
    c: Value,
    l: Lane,
    depth: u32,
) -> Option<Value> {
    if c == g {
        return Some(copy);
    }
    if c.is_function() {
        return Some(c);
    }
    if c.is_global_variable() {
        if read_only_without_reals(c, depth - 1) {
            return Some(c);
        }
        if global_needs_shadow(c) {
            return Some(sup.shadow_global(c, l));
        }
        let ty = c.global_value_type();
        if c.is_global_constant() && ty.contains_fp() && !ty.contains_pointer() {
            return Some(sup.shadow_global(c, l));
        }
        return table_shadow(b, sup, c, l, depth - 1);
    }
    let ty = c.ty();
    // flang's component table holds a default value's address as an integer
    // (`ptrtoint (ptr @default to i64)`): the shadow's address, as an integer.
    if c.is_constant_expr()
        && c.const_opcode() == Some(Opcode::LLVMPtrToInt)
        && reaches_reals(c, depth)
    {
        let s = table_value_shadow(b, sup, g, copy, c.operand(0), l, depth)?;
        let folded = b.ptrtoint(s, ty);
        return folded.is_constant().then_some(folded);
    }
    if c.is_constant_expr() || !ty.is_aggregate() || !reaches_reals(c, depth) {
        // Scalars, and constant expressions over real-free globals, are their own shadow.
        return (!reaches_reals(c, depth)).then_some(c);
    }
    let n = match ty.kind() {
        TypeKind::Struct => ty.struct_fields().len() as u32,
        TypeKind::Array => ty.array_len() as u32,
        _ => return None,
    };
    let mut elems = Vec::with_capacity(n as usize);
    for k in 0..n {
        elems.push(table_value_shadow(
            b,
            sup,
            g,
            copy,
            c.const_element(k)?,
            l,
            depth,
        )?);
    }
    Some(Value::const_aggregate(ty, &elems))
}

/// Whether the constant `c` is or points at (through at most `depth` levels of globals)
/// a global holding reals.
fn reaches_reals(c: Value, depth: u32) -> bool {
    let mut work = vec![c];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        if x.is_global_variable() {
            if depth == 0 || !read_only_without_reals(x, depth - 1) {
                return true;
            }
            continue;
        }
        if !x.is_function() {
            work.extend(x.operands());
        }
    }
    false
}

/// Whether `g` is a constant global holding no reals, and neither do the globals its
/// initializer points at (`depth` levels of pointers deep; deeper counts as holding
/// some).
fn read_only_without_reals(g: Value, depth: u32) -> bool {
    if !g.is_global_variable() || !g.is_global_constant() || g.global_value_type().contains_fp() {
        return false;
    }
    let Some(init) = g.initializer() else {
        return false;
    };
    let mut work = vec![init];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(c) = work.pop() {
        if !seen.insert(c) {
            continue;
        }
        if c.is_global_variable() {
            if c != g && (depth == 0 || !read_only_without_reals(c, depth - 1)) {
                return false;
            }
            continue;
        }
        if !c.is_function() {
            work.extend(c.operands());
        }
    }
    true
}

pub(crate) use ferrozyme_analysis::calls::untracked_source;

pub(crate) use ferrozyme_analysis::activity::pointer_as_integer;
