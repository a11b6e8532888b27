//! Facts about globals and whole functions that activity analysis starts from: which
//! mutable globals need a shadow (they hold floats by their type or by what is stored
//! into them), which functions touch such globals (directly or through callees), and
//! which functions are read-only or return memory they allocated.

use crate::hash::HashSet;

use ferrozyme_llvm::{Module, Opcode, Value};

use crate::caller_graph::CallerGraph;
use crate::calls::{classify, CallKind};

/// Is `g` a mutable global that needs a shadow (it holds floats, by its type or by what
/// is stored into it)?
pub fn global_needs_shadow(g: Value) -> bool {
    g.is_global_variable()
        && !g.is_global_constant()
        && (g.global_value_type().contains_fp()
            || g.global_value_type().contains_pointer()
            // Bytes or integers that are used to hold floats (a `char` pool).
            || crate::global_uses::stores_floats_or_pointers(g))
        // Declared inactive by the user (`__enzyme_inactive_global`, `enzyme_inactive`).
        && !crate::global_uses::declared_inactive(g)
        // A C++ library object that holds no floats (a global `std::string`).
        && !g
            .global_value_type()
            .struct_name()
            .is_some_and(|n| crate::library_types::is_float_free_struct(&n))
        && !constant_pointer_only_loaded(g)
}

/// A mutable global holding one pointer, initialized with the address of constant data
/// (or null) and only ever loaded: it always holds that address, which carries no
/// derivative (boost::math's `static const char *function = "boost::math::pdf<%1%>..."`,
/// handed to its error handler next to other string literals). Only where no other
/// module can store into it: local linkage, or a C++ function-local static (`_ZZ`) of an
/// inline function, whose every definition is this one (ODR). A plain `double *g_ptr`
/// may be set by another file (tests/filetests/global_pointer_shadow_guard.ll).
fn constant_pointer_only_loaded(g: Value) -> bool {
    if !g.global_value_type().is_pointer() {
        return false;
    }
    let module_only = g.is_local_linkage() || (g.is_odr_linkage() && g.name().starts_with("_ZZ"));
    if !module_only {
        return false;
    }
    let Some(init) = g.initializer() else {
        return false;
    };
    let mut base = init;
    while base.const_opcode() == Some(Opcode::LLVMGetElementPtr) {
        base = base.operand(0);
    }
    let constant = base.is_null() || (base.is_global_variable() && base.is_global_constant());
    constant
        && g.users()
            .into_iter()
            .all(|u| u.opcode() == Some(Opcode::LLVMLoad) && u.operand(0) == g)
}

/// Does defined function `f` return memory it allocated: the result of `malloc`,
/// `calloc`, `realloc`, `operator new`, or of another such function (`depth` levels of
/// calls deep), possibly offset by GEPs or chosen by phis and selects? An aggregate
/// result counts when one of its pointers is such memory: `std::get_temporary_buffer`
/// returns its `operator new(nothrow)` buffer in a `std::pair<T *, ptrdiff_t>` (at `-O0`
/// built in a stack slot by the pair's constructor from the slots holding its parts).
///
/// A pointer loaded out of such memory counts too (`return hdr->first` of a list header
/// the function allocated, at `-O0` through the slot holding the header): whatever the
/// function stored there may be fresh, and over-approximating only costs a shadow.
pub fn returns_fresh_memory(f: Value, depth: u32) -> bool {
    return_sources(f)
        .into_iter()
        .any(|v| is_fresh_value(v, f, depth, 3))
}

/// Is `v` (a value `f` returns, or the base of memory it loads a returned pointer from)
/// memory allocated in `f` or its callees? `hops` bounds the loads followed.
fn is_fresh_value(v: Value, f: Value, depth: u32, hops: u32) -> bool {
    match called(v) {
        Some(CallKind::Malloc | CallKind::Calloc | CallKind::Realloc) => return true,
        Some(CallKind::Defined(g)) => {
            return depth > 0 && g != f && returns_fresh_memory(g, depth - 1);
        }
        _ => {}
    }
    if v.opcode() != Some(Opcode::LLVMLoad) || hops == 0 {
        return false;
    }
    let base = strip_offsets(v.operand(0));
    if base.opcode() == Some(Opcode::LLVMAlloca) {
        // A stack slot: what was stored into it.
        return slot_parts(base)
            .into_iter()
            .any(|p| is_fresh_value(p, f, depth, hops - 1));
    }
    is_fresh_value(base, f, depth, hops - 1)
}

/// The parameter that defined function `f` always returns (possibly offset by GEPs,
/// through `-O0` stack slots, or through calls that return one of their own arguments,
/// `depth` levels deep): Eigen's `Map::cast_to_pointer_type(ptr)`, a getter returning the
/// address it was given. The returned pointer has a shadow exactly when that argument
/// has one.
pub fn returned_param(f: Value, depth: u32) -> Option<usize> {
    if !f.function_type().return_type().is_pointer() {
        return None;
    }
    let params = f.params();
    let mut found = None;
    for v in return_sources(f) {
        let k = match params.iter().position(|&p| p == v) {
            Some(k) => k,
            None => {
                let Some(CallKind::Defined(g)) = called(v) else {
                    return None;
                };
                if depth == 0 || g == f {
                    return None;
                }
                let j = returned_param(g, depth - 1)?;
                let arg = reloaded_from_slots(*v.call_args().get(j)?);
                params.iter().position(|&p| p == arg)?
            }
        };
        if found.is_some_and(|f| f != k) {
            return None;
        }
        found = Some(k);
    }
    found
}

/// `v` without its offsets, and read back out of the -O0 stack slots it was kept in (each
/// stored into once): the argument `std::to_address(p)` passes on to `std::__to_address`
/// at -O0 is its own parameter reloaded from its home (tests/cxx/412: `std::span`'s
/// constructor keeping an `enzyme_const` pointer).
fn reloaded_from_slots(v: Value) -> Value {
    let mut a = strip_offsets(v);
    for _ in 0..8 {
        let stored = (a.opcode() == Some(Opcode::LLVMLoad))
            .then(|| super::local_stores::single_store_local(a.operand(0)))
            .flatten();
        match stored {
            Some(s) => a = strip_offsets(s),
            None => break,
        }
    }
    a
}

/// For an `extractvalue` of one pointer from the aggregate result of a call to a defined
/// function: the call argument the callee always puts in that element (offset by GEPs,
/// the aggregate built by `insertvalue`s, chosen by phis and selects). ndarray's
/// `OffsetTuple::stride_offset` returns `(a.offset(i), b.offset(i))` for the views it
/// zips: with `a` constant and `b` duplicated, the pair as a whole has a shadow, but its
/// first pointer has none. The element has exactly that argument's shadow. At -O0 the
/// aggregate is built in a stack slot and returned by a load, and the arguments are read
/// back from their own slots: both are followed through the stores into slots that are
/// only loaded and stored (`slots::slot_stores`; tests/c/850 at -O0).
pub fn extracted_returned_arg(ev: Value) -> Option<Value> {
    let call = ev.operand(0);
    let Some(CallKind::Defined(f)) = called(call) else {
        return None;
    };
    let [k] = ev.aggregate_indices()[..] else {
        return None;
    };
    if f.is_declaration() || !ev.ty().is_pointer() {
        return None;
    }
    let m = f.parent_module();
    let params = f.params();
    // Aggregates (the returned value and what it is built from), then the element.
    let mut work = returned_values(f);
    let mut elems = Vec::new();
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            return None;
        }
        if v.is_undef() || v.is_null() {
            continue;
        }
        match v.opcode() {
            Some(Opcode::LLVMInsertValue) => match v.aggregate_indices()[..] {
                [j] if j == k => {
                    elems.push(v.operand(1));
                    work.push(v.operand(0));
                }
                [j, ..] if j == k => return None,
                _ => work.push(v.operand(0)),
            },
            Some(Opcode::LLVMPHI) => work.extend(v.incoming().into_iter().map(|(x, _)| x)),
            Some(Opcode::LLVMSelect) => {
                work.push(v.operand(1));
                work.push(v.operand(2));
            }
            Some(Opcode::LLVMLoad) if v.ty().kind() == ferrozyme_llvm::TypeKind::Struct => {
                let at = m.field_offset(v.ty(), k) as i64;
                for (s, off) in crate::slots::slot_stores(m, v.operand(0))? {
                    let t = s.ty();
                    if off == 0 && t == v.ty() {
                        work.push(s);
                    } else if off == at && t.is_pointer() {
                        elems.push(s);
                    } else if off < at + 8 && off + m.alloc_size(t) as i64 > at {
                        return None;
                    }
                }
            }
            _ => return None,
        }
    }
    let mut found = None;
    while let Some(e) = elems.pop() {
        if !seen.insert(e) || seen.len() > 128 {
            return None;
        }
        let base = strip_offsets(e);
        if let Some(p) = params.iter().position(|&p| p == base) {
            if found.is_some_and(|q| q != p) {
                return None;
            }
            found = Some(p);
        } else if base.opcode() == Some(Opcode::LLVMLoad) {
            for (s, off) in crate::slots::slot_stores(m, base.operand(0))? {
                if off != 0 || !s.ty().is_pointer() {
                    return None;
                }
                elems.push(s);
            }
        } else {
            return None;
        }
    }
    call.call_args().get(found?).copied()
}

/// The kind of call `v` is, if it is a call.
pub(super) fn called(v: Value) -> Option<CallKind> {
    (v.opcode() == Some(Opcode::LLVMCall)).then(|| classify(v))
}

/// `v` without the GEPs and bitcasts that offset it.
pub(super) fn strip_offsets(mut v: Value) -> Value {
    while matches!(
        v.opcode(),
        Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast)
    ) {
        v = v.operand(0);
    }
    v
}

/// The operands of `f`'s `ret` instructions.
pub(crate) fn returned_values(f: Value) -> Vec<Value> {
    f.blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() == 1)
        .map(|t| t.operand(0))
        .collect()
}

/// The values a pointer-returning defined function `f` returns, traced back through
/// GEPs, bitcasts, phis, selects and `-O0` stack slots (whatever was stored into a slot
/// it loads; a slot that is used otherwise too, e.g. passed to a call, is also a source
/// itself). An aggregate holding pointers is traced through `insertvalue` and through
/// the stack slot it is loaded from (what is stored into the slot, and what a
/// constructor called on the slot is given). Empty for a declaration or a function
/// returning no pointer.
pub(super) fn return_sources(f: Value) -> Vec<Value> {
    let ret = f.function_type().return_type();
    if f.is_declaration() || !(ret.is_pointer() || (ret.is_aggregate() && ret.contains_pointer())) {
        return Vec::new();
    }
    let mut work = returned_values(f);
    let mut seen = HashSet::default();
    let mut sources = Vec::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        match v.opcode() {
            Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => work.push(v.operand(0)),
            Some(Opcode::LLVMPHI) => work.extend(v.incoming().into_iter().map(|(x, _)| x)),
            Some(Opcode::LLVMSelect) => {
                work.push(v.operand(1));
                work.push(v.operand(2));
            }
            Some(Opcode::LLVMInsertValue) => {
                work.push(v.operand(0));
                work.push(v.operand(1));
            }
            // `-O0` code keeps the result in a stack slot (an aggregate one may be built
            // there by a constructor), or in an element of a local array (`return
            // stack[0]` of a parser's node stack, tests/c/1179): whatever was stored there.
            // A slot that is used otherwise too (through GEPs, by calls) is also a source
            // itself.
            Some(Opcode::LLVMLoad)
                if strip_offsets(v.operand(0)).opcode() == Some(Opcode::LLVMAlloca) =>
            {
                let slot = strip_offsets(v.operand(0));
                work.extend(slot_parts(slot));
                let only_loads_and_stores = slot.users().into_iter().all(|u| match u.opcode() {
                    Some(Opcode::LLVMStore) => u.operand(1) == slot && u.operand(0) != slot,
                    Some(Opcode::LLVMLoad) => true,
                    _ => false,
                });
                if !only_loads_and_stores {
                    sources.push(v);
                }
            }
            _ => sources.push(v),
        }
    }
    sources
}

/// The values that may make up the contents of the stack slot `slot`: whatever is stored
/// into it (whole or through a GEP), and for a defined function called on it (a
/// constructor, `pair(T1 &&, T2 &&)`), whatever is stored into the stack slots it is
/// given as its other arguments (or those arguments, passed by value).
fn slot_parts(slot: Value) -> Vec<Value> {
    let stored_into = |p: Value| -> Vec<Value> {
        p.users()
            .into_iter()
            .filter(|u| {
                u.opcode() == Some(Opcode::LLVMStore) && u.operand(1) == p && u.operand(0) != p
            })
            .map(|u| u.operand(0))
            .collect()
    };
    let mut parts = Vec::new();
    let mut places = vec![slot];
    while let Some(p) = places.pop() {
        if places.len() > 16 {
            break;
        }
        parts.extend(stored_into(p));
        for u in p.users() {
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == p => places.push(u),
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                    if !matches!(classify(u), CallKind::Defined(_)) {
                        continue;
                    }
                    for a in u.call_args() {
                        let base = strip_offsets(a);
                        if base == slot {
                            continue;
                        }
                        if base.opcode() == Some(Opcode::LLVMAlloca) {
                            parts.extend(stored_into(base));
                        } else {
                            // Promoted to a value (`-O3` argument promotion).
                            parts.push(a);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    parts
}

/// Does `f`'s `memory(...)` attribute rule out writes?
pub fn is_readonly_function(f: Value) -> bool {
    f.memory_effects().is_some_and(|m| m.only_reads())
}

/// Does `f`'s `memory(...)` attribute say it touches no memory at all?
pub fn is_readnone_function(f: Value) -> bool {
    f.memory_effects().is_some_and(|m| m.is_none())
}

/// Functions that (transitively, through their calls) reference a mutable float global.
pub fn functions_touching_shadowed_globals(module: Module) -> HashSet<Value> {
    CallerGraph::new(module).callers_closure(functions_referencing_shadowed_globals(module))
}

/// Functions whose own instructions reference a mutable float global (the seeds of
/// [`functions_touching_shadowed_globals`]). Which globals need a shadow is decided once
/// per global, not once per use: the test walks the global's uses, so asking it at each
/// use was quadratic in a global used by every function (issue 18).
pub fn functions_referencing_shadowed_globals(module: Module) -> HashSet<Value> {
    let shadowed: HashSet<Value> = module
        .globals()
        .into_iter()
        .filter(|g| global_needs_shadow(*g))
        .collect();
    if shadowed.is_empty() {
        return HashSet::default();
    }
    module
        .definitions()
        .filter(|f| {
            f.instructions().any(|i| {
                i.operands()
                    .into_iter()
                    .any(|op| references_shadowed_global(op, &shadowed, 0))
            })
        })
        .collect()
}

fn references_shadowed_global(v: Value, shadowed: &HashSet<Value>, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    if shadowed.contains(&v) {
        return true;
    }
    if v.is_constant_expr() {
        return v
            .operands()
            .into_iter()
            .any(|o| references_shadowed_global(o, shadowed, depth + 1));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::kept_pointers::*;
    use super::*;
    use ferrozyme_llvm::Module;
    use inkwell::context::Context;

    /// Eigen's `Map` at `-O0`, reduced: `cast_to_pointer_type` returns its argument through
    /// a stack slot, the constructor keeps it in `m_data` through `MapBase`'s.
    const IR: &str = r#"
define ptr @cast(ptr %this, ptr %p) {
  %slot = alloca ptr
  store ptr %p, ptr %slot
  %v = load ptr, ptr %slot
  ret ptr %v
}
define ptr @offset(ptr %this, ptr %p) {
  %q = call ptr @cast(ptr %this, ptr %p)
  %r = getelementptr i8, ptr %q, i64 8
  ret ptr %r
}
define ptr @either(ptr %a, ptr %b, i1 %c) {
  %r = select i1 %c, ptr %a, ptr %b
  ret ptr %r
}
define ptr @escaped_slot(ptr %p) {
  %slot = alloca ptr
  store ptr %p, ptr %slot
  call void @sink(ptr %slot)
  %v = load ptr, ptr %slot
  ret ptr %v
}
declare void @sink(ptr)
define void @mapbase(ptr %this, ptr %data) {
  %slot = alloca ptr
  store ptr %data, ptr %slot
  %d = load ptr, ptr %slot
  store ptr %d, ptr %this
  ret void
}
define void @init_c(ptr %c, ptr %r) {
  %wp = getelementptr i8, ptr %r, i64 8
  %w = load ptr, ptr %wp
  store ptr %w, ptr %c
  ret void
}
define void @calls_init_c(ptr %c, ptr %r) {
  call void @init_c(ptr %c, ptr %r)
  ret void
}
define void @init_c2(ptr %c, ptr %r) {
  %mp = getelementptr i8, ptr %r, i64 8
  %m = load ptr, ptr %mp
  %wp = getelementptr i8, ptr %m, i64 8
  %w = load ptr, ptr %wp
  store ptr %w, ptr %c
  ret void
}
define void @init_c2_o0(ptr %0, ptr %1) {
  %cs = alloca ptr
  %rs = alloca ptr
  %ms = alloca ptr
  store ptr %0, ptr %cs
  store ptr %1, ptr %rs
  %r = load ptr, ptr %rs
  %mp = getelementptr i8, ptr %r, i64 8
  %m = load ptr, ptr %mp
  store ptr %m, ptr %ms
  %m2 = load ptr, ptr %ms
  %wp = getelementptr i8, ptr %m2, i64 8
  %w = load ptr, ptr %wp
  %c = load ptr, ptr %cs
  %f = getelementptr i8, ptr %c, i64 8
  store ptr %w, ptr %f
  ret void
}
define void @init_c4(ptr %c, ptr %r) {
  %a = load ptr, ptr %r
  %b = load ptr, ptr %a
  %d = load ptr, ptr %b
  %w = load ptr, ptr %d
  store ptr %w, ptr %c
  ret void
}
define void @keep(ptr %this, ptr %other) {
  %p = load ptr, ptr %other
  store ptr %p, ptr %this
  ret void
}
define ptr @node_of(ptr %key) {
  %n = call ptr @malloc(i64 32)
  %p = load ptr, ptr %key
  store ptr %p, ptr %n
  ret ptr %n
}
define ptr @node_of_by_ctor(ptr %key) {
  %n = call ptr @malloc(i64 32)
  %s = getelementptr i8, ptr %n, i64 8
  call void @keep(ptr %s, ptr %key)
  ret ptr %n
}
define void @fill_by_ctor(ptr %out, ptr %key) {
  %s = getelementptr i8, ptr %out, i64 8
  call void @keep(ptr %s, ptr %key)
  ret void
}
declare ptr @malloc(i64)
define void @lessop(ptr %this) {
  %slot = alloca ptr
  store ptr %this, ptr %slot
  ret void
}
define void @use_comp(ptr %cmp) {
  %slot = alloca ptr
  store ptr %cmp, ptr %slot
  %c = load ptr, ptr %slot
  %f = getelementptr { ptr, ptr }, ptr %c, i32 0, i32 1
  %l = load ptr, ptr %f
  call void @lessop(ptr %l)
  ret void
}
define void @sort_with(ptr %first, ptr %less) {
  %comp = alloca { ptr, ptr }
  %tmp = alloca { ptr, ptr }
  %f = getelementptr { ptr, ptr }, ptr %comp, i32 0, i32 1
  store ptr %less, ptr %f
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %comp, i64 16, i1 false)
  call void @use_comp(ptr %tmp)
  ret void
}
define void @clos_ctor(ptr %this, ptr %t) {
  %f = getelementptr { double, ptr }, ptr %this, i32 0, i32 1
  store ptr %t, ptr %f
  ret void
}
define { double, ptr } @make_clos(ptr %t) {
  %r = alloca { double, ptr }
  call void @clos_ctor(ptr %r, ptr %t)
  %v = load { double, ptr }, ptr %r
  ret { double, ptr } %v
}
define void @copies_out(ptr %out, ptr %t) {
  %a = alloca { ptr, ptr }
  store ptr %t, ptr %a
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %a, i64 16, i1 false)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @map(ptr %this, ptr %data) {
  %c = call ptr @cast(ptr %this, ptr %data)
  call void @mapbase(ptr %this, ptr %c)
  ret void
}
define void @view_or_null(ptr %this, ptr %data, i1 %ok) {
entry:
  br i1 %ok, label %yes, label %done
yes:
  %q = getelementptr double, ptr %data, i64 2
  br label %done
done:
  %p = phi ptr [ %q, %yes ], [ null, %entry ]
  store ptr %p, ptr %this
  ret void
}
define void @select_or_null(ptr %this, ptr %data, i1 %ok) {
  %p = select i1 %ok, ptr %data, ptr null
  store ptr %p, ptr %this
  ret void
}
define double @reads(ptr %this, ptr %data) {
  %slot = alloca ptr
  store ptr %data, ptr %slot
  %d = load ptr, ptr %slot
  %x = load double, ptr %d
  ret double %x
}
"#;

    /// Memory handed in per parameter; the result not.
    fn handed(params: &[bool]) -> HandedIn<'_> {
        HandedIn {
            params,
            result: false,
        }
    }

    #[test]
    fn returned_and_stored_parameters() {
        let ctx = Context::create();
        let m = crate::test_ir::parse(&ctx, IR);
        let m = Module::from_inkwell(&m);
        let f = |n: &str| m.function(n).expect("defined");
        assert_eq!(returned_param(f("cast"), 2), Some(1));
        assert_eq!(returned_param(f("offset"), 2), Some(1));
        assert_eq!(returned_param(f("offset"), 0), None);
        assert_eq!(returned_param(f("either"), 2), None);
        assert_eq!(returned_param(f("escaped_slot"), 2), None);
        assert!(stores_param(f("mapbase"), 1, 0));
        assert!(!stores_param(f("mapbase"), 0, 0));
        assert!(stores_param(f("map"), 1, 2));
        assert!(!stores_param(f("map"), 1, 0));
        assert!(!stores_param(f("reads"), 1, 2));
        // through a phi or select with null (ndarray's `from_shape_impl`, front19)
        assert!(stores_param(f("view_or_null"), 1, 0));
        assert!(stores_param(f("select_or_null"), 1, 0));
        assert!(!stores_param(f("select_or_null"), 0, 0));
        // a pointer read out of the parameter's memory and kept (tests/c/1301)
        assert!(!stores_param(f("init_c"), 1, 0));
        let c_in = [true, false];
        assert!(stores_param_or_pointer_in_it(
            f("init_c"),
            1,
            0,
            handed(&c_in)
        ));
        assert!(stores_param_or_pointer_in_it(
            f("calls_init_c"),
            1,
            1,
            handed(&c_in)
        ));
        assert!(!stores_param_or_pointer_in_it(
            f("calls_init_c"),
            1,
            0,
            handed(&c_in)
        ));
        assert!(!stores_param_or_pointer_in_it(
            f("reads"),
            1,
            2,
            handed(&c_in)
        ));
        // only into memory the caller handed in with a shadow
        assert!(!stores_param_or_pointer_in_it(
            f("init_c"),
            1,
            0,
            handed(&[false, false])
        ));
        // two loads deep (tests/c/1302), also through -O0 slots; four (tests/c/1335)
        assert!(!stores_param(f("init_c2"), 1, 0));
        assert!(stores_param_or_pointer_in_it(
            f("init_c2"),
            1,
            0,
            handed(&c_in)
        ));
        assert!(stores_param_or_pointer_in_it(
            f("init_c2_o0"),
            1,
            0,
            handed(&c_in)
        ));
        assert!(stores_param_or_pointer_in_it(
            f("init_c4"),
            1,
            0,
            handed(&c_in)
        ));
        // a node the function allocates is not memory handed in (tests/cxx/80), also
        // when a callee gets it as its own parameter
        assert!(!stores_param_or_pointer_in_it(
            f("node_of"),
            0,
            2,
            handed(&[false])
        ));
        assert!(!stores_param_or_pointer_in_it(
            f("node_of_by_ctor"),
            0,
            2,
            handed(&[false])
        ));
        assert!(stores_param_or_pointer_in_it(
            f("fill_by_ctor"),
            1,
            2,
            handed(&c_in)
        ));
        assert!(!stores_param_or_pointer_in_it(
            f("fill_by_ctor"),
            1,
            0,
            handed(&c_in)
        ));
        // kept in a stack object of the walk and only used through it (a comparator's
        // reference, tests/cxx/317 at -O0): not kept; copied out or returned inside a
        // struct by value (tests/cxx/380): kept
        assert!(!stores_param(f("sort_with"), 1, 3));
        assert!(stores_param(f("make_clos"), 0, 1));
        assert!(!stores_param(f("make_clos"), 0, 0));
        assert!(stores_param(f("copies_out"), 1, 0));
        assert!(stores_param_or_pointer_in_it(
            f("copies_out"),
            1,
            0,
            handed(&c_in)
        ));
    }
}
