//! Enzyme's global-shadow contexts: `ctx = __enzyme_context(1)`,
//! `__enzyme_shadow(ctx, &g, 0)` (the derivative memory of the global `g`),
//! `__enzyme_zero_shadows(ctx)`, and `enzyme_context, ctx` in a hook call.
//!
//! Ferrozyme keeps one shadow per mutable global (`__fz_shadow_<g>`, made by
//! `Support::shadow_global`), so a context is that set of shadows:
//! * `__enzyme_context(1)` zeroes them and returns a handle naming this context (a fresh
//!   id: only the newest context is live);
//! * `__enzyme_shadow(ctx, &g, 0)` is the address of `g`'s shadow;
//! * `__enzyme_zero_shadows(ctx)` zeroes every shadow of float data (a shadow holding
//!   pointers is the derivative memory's address, not a derivative);
//! * a hook call given `enzyme_context, ctx` does not zero the shadows first as other
//!   top-level calls do: adjoints accumulate into them, tangents are read from them, as
//!   the program set them.
//!
//! Two live contexts (forward over reverse, each level with its own context) would need
//! a shadow set per context; each use of a handle checks that it is still the live one
//! and stops the program with a message otherwise, so a stale context is never a wrong
//! number. Other widths and lanes than 1 and 0 are compile-time errors.

use ferrozyme_llvm::{
    Builder, DiagKind, Diagnostic, IntPredicate, Module, Opcode, Through, Type, TypeKind, Value,
};

use crate::lanes::Lane;
use crate::services::Support;

const CONTEXT: &str = "__enzyme_context";
const SHADOW: &str = "__enzyme_shadow";
const ZERO: &str = "__enzyme_zero_shadows";
/// The id of the live context (0: none made yet).
const LIVE: &str = "__fz_context_live";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Context,
    Shadow,
    Zero,
}

fn kind_of(name: &str) -> Option<Kind> {
    // Longest names first: `__enzyme_shadow` is not a prefix of the others.
    if name.contains(ZERO) {
        Some(Kind::Zero)
    } else if name.contains(CONTEXT) {
        Some(Kind::Context)
    } else if name.contains(SHADOW) {
        Some(Kind::Shadow)
    } else {
        None
    }
}

/// Is `name` one of the context entry points (the pass lowers them itself)?
pub fn is_context_entry(name: &str) -> bool {
    kind_of(name).is_some()
}

fn declarations(module: Module) -> Vec<(Value, Kind)> {
    module
        .functions()
        .into_iter()
        .filter(|f| f.is_declaration())
        .filter_map(|f| kind_of(&f.name()).map(|k| (f, k)))
        .collect()
}

/// What is wrong with a call of a context entry point, if anything.
fn misuse(u: Value, kind: Kind) -> Option<&'static str> {
    if u.opcode() != Some(Opcode::LLVMCall) {
        return Some("its address is taken; call it directly");
    }
    let args = u.call_args();
    match kind {
        Kind::Context => {
            if args.len() != 1 || !u.ty().is_pointer() {
                return Some("declare it as `void *__enzyme_context(int width)`");
            }
            if args[0].const_int_value() != Some(1) {
                return Some("only width 1 is supported (one shadow per global)");
            }
        }
        Kind::Shadow => {
            if args.len() != 3 || !u.ty().is_pointer() {
                return Some(
                    "declare it as `void *__enzyme_shadow(void *ctx, void *global, int lane)`",
                );
            }
            if global_place(u.parent_function().parent_module(), args[1]).is_none() {
                return Some(
                    "its second argument must be the address of a mutable global variable (or of a member or element of one, at a constant offset)",
                );
            }
            if args[2].const_int_value() != Some(0) {
                return Some("only lane 0 is supported");
            }
        }
        Kind::Zero => {
            if args.len() != 1 {
                return Some("declare it as `void __enzyme_zero_shadows(void *ctx)`");
            }
        }
    }
    None
}

/// The mutable global `p` points into and the byte offset: `&g`, or the address of a
/// member or element of `g` at a constant offset (`&blk.b`, Enzyme's query of a COMMON
/// block's member).
fn global_place(m: Module, p: Value) -> Option<(Value, u64)> {
    let (base, off) = m.strip_const_geps_through(p, Through::GepsCastsAndConstants);
    let g = crate::request::strip_casts(base);
    let off = u64::try_from(off?).ok()?;
    (g.is_global_variable() && !g.is_global_constant() && off < m.alloc_size(g.global_value_type()))
        .then_some((g, off))
}

/// Checks every use of the entry points and marks them inactive (calls of them inside
/// differentiated code carry no derivative).
pub fn check_and_mark(module: Module) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    for (f, kind) in declarations(module) {
        for u in f.users() {
            if let Some(why) = misuse(u, kind) {
                diags.push(
                    Diagnostic::new(
                        DiagKind::BadAutodiffCall,
                        format!("`{}` (Enzyme's global-shadow contexts): {why}", f.name()),
                    )
                    .at_value(u)
                    .with_help("see the README's ABI table: __enzyme_context(1), __enzyme_shadow(ctx, &global, 0), __enzyme_zero_shadows(ctx), enzyme_context, ctx"),
                );
            }
        }
        f.add_string_fn_attr(ferrozyme_abi::INACTIVE_ATTR, "");
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

fn live(sup: &Support) -> Value {
    let m = sup.module;
    m.global(LIVE).unwrap_or_else(|| {
        let i64t = m.context().i64();
        let g = m.add_global(LIVE, i64t);
        g.set_initializer(i64t.zero());
        g.set_linkage_internal();
        g
    })
}

/// The handle of context `id`: a non-null address no object lives at.
fn handle(b: &Builder, id: Value) -> Value {
    let ctx = id.ty().context();
    let bits = b.binop(Opcode::LLVMShl, id, ctx.i64().const_int(4));
    b.inttoptr(bits, ctx.ptr())
}

/// Stops the program when `c` is not the live context's handle.
pub(crate) fn check(sup: &mut Support, b: &Builder, c: Value) {
    let ctx = sup.module.context();
    let id = b.load(ctx.i64(), live(sup), "fz.ctx.live");
    let want = handle(b, id);
    let bad = b.icmp(
        IntPredicate::LLVMIntNE,
        b.ptrtoint(c, ctx.i64()),
        b.ptrtoint(want, ctx.i64()),
    );
    let msg = sup.module.add_string(
        "fz.ctx.msg",
        "ferrozyme: a global-shadow context (__enzyme_context) is used after a newer one was made: Ferrozyme keeps one shadow per global, so only the newest context is live (nested contexts, e.g. forward over reverse through globals with a context per level, are not supported)\n",
    );
    let f = sup.rt(crate::runtime::RtFn::CheckShadow);
    b.call_fn(f, &[bad, msg]);
}

/// Zeroes every shadow global holding float data.
pub(crate) fn zero_all(sup: &Support, b: &Builder) {
    let ctx = sup.module.context();
    // Views pointed elsewhere by code the pass does not see first (`global_views.rs`).
    crate::global_views::revalidate_views(sup, b);
    for sg in &sup.shadow_globals() {
        let ty = sg.global_value_type();
        if ty.contains_pointer() {
            // Holds shadow pointers (set up by its initializer), which stay; its floats
            // (a `double w` beside function pointers in a table of structs) are
            // derivatives like any other: an adjoint left there by a reverse derivative
            // was read as the tangent of the next forward one.
            zero_float_fields(sup, b, *sg, ty);
            // And the shadows of memory the program allocated outside the derivatives
            // and stored there (`outside_allocations.rs`).
            let f = crate::outside_allocations::outside_fn(sup.module, *sg);
            b.call_fn(f, &[ctx.i1().const_int(1)]);
            continue;
        }
        let size = sup.module.alloc_size(ty);
        b.memset(*sg, ctx.i8().const_int(0), ctx.i64().const_int(size), 1);
    }
    // And the shadows derivatives allocated and left where those globals reach them (the
    // rows of a static `std::vector<std::vector<double>>`): `runtime/ir/kept.ll`.
    if sup
        .shadow_globals()
        .iter()
        .any(|sg| sg.global_value_type().contains_pointer())
    {
        b.call_fn(crate::outside_allocations::kept_fn(sup.module), &[]);
    }
    // Threadprivate shadows: each thread zeroes its copies when it first reaches them in
    // the new epoch (`custom/threadprivate.rs`).
    if let Some(f) = sup
        .module
        .function(crate::custom::threadprivate::NEW_EPOCH)
        .filter(|f| !f.is_declaration())
    {
        b.call_fn(f, &[]);
    }
}

/// At a top-level call given a context (whose shadows are not zeroed): clears the
/// shadow of memory the program allocated outside the derivatives where the global has
/// since been given another pointer by code the pass does not see
/// (`outside_allocations.rs`).
pub(crate) fn revalidate(sup: &Support, b: &Builder) {
    let ctx = sup.module.context();
    crate::global_views::revalidate_views(sup, b);
    for sg in sup.shadow_globals() {
        if sg.global_value_type().contains_pointer() {
            let f = crate::outside_allocations::outside_fn(sup.module, sg);
            b.call_fn(f, &[ctx.i1().const_int(0)]);
        }
    }
}

/// The byte ranges `[lo, hi)` of the floating-point data in a value of `ty` placed at
/// `base`, adjacent ranges merged.
fn float_ranges(m: Module, ty: Type, base: u64, out: &mut Vec<(u64, u64)>) {
    match ty.kind() {
        TypeKind::Struct => {
            for (k, f) in ty.struct_fields().into_iter().enumerate() {
                float_ranges(m, f, base + m.field_offset(ty, k as u32), out);
            }
        }
        TypeKind::Array | TypeKind::Vector => {
            let e = ty.element_type();
            let n = if ty.kind() == TypeKind::Array {
                ty.array_len()
            } else {
                ty.vector_len() as u64
            };
            let size = m.alloc_size(e);
            for i in 0..n {
                float_ranges(m, e, base + i * size, out);
            }
        }
        _ if ty.is_fp_scalar() => {
            let hi = base + m.alloc_size(ty);
            match out.last_mut() {
                Some(last) if last.1 == base => last.1 = hi,
                _ => out.push((base, hi)),
            }
        }
        _ => {}
    }
}

/// Element loops instead of one memset per range above this many ranges.
const INLINE_RANGES: usize = 64;

/// Zeroes the float fields of the shadow global `sg` (of type `ty`), keeping its pointers:
/// one memset per range, or for a large array of records a small internal function
/// looping over the elements.
fn zero_float_fields(sup: &Support, b: &Builder, sg: Value, ty: Type) {
    let m = sup.module;
    let ctx = m.context();
    let zero = ctx.i8().const_int(0);
    let (elem, n) = match ty.kind() {
        TypeKind::Array => (ty.element_type(), ty.array_len()),
        _ => (ty, 1),
    };
    let mut ranges = Vec::new();
    float_ranges(m, elem, 0, &mut ranges);
    if ranges.is_empty() {
        return;
    }
    let size = m.alloc_size(elem);
    if (n as usize).saturating_mul(ranges.len()) <= INLINE_RANGES {
        for i in 0..n {
            for (lo, hi) in &ranges {
                let p = b.byte_gep(sg, ctx.i64().const_int(i * size + lo));
                b.memset(p, zero, ctx.i64().const_int(hi - lo), 1);
            }
        }
        return;
    }
    let f = m.add_function(
        &format!("__fz_zero_floats.{}", sg.name()),
        ctx.function_type(ctx.void(), &[], false),
    );
    f.set_linkage_internal();
    let lb = Builder::new(ctx);
    let (entry, body, exit) = (
        lb.append_block(f, "entry"),
        lb.append_block(f, "element"),
        lb.append_block(f, "done"),
    );
    lb.position_at_end(entry);
    lb.br(body);
    lb.position_at_end(body);
    let i = lb.phi(ctx.i64(), "i");
    let rec = lb.byte_gep(sg, lb.binop(Opcode::LLVMMul, i, ctx.i64().const_int(size)));
    for (lo, hi) in &ranges {
        let p = lb.byte_gep(rec, ctx.i64().const_int(*lo));
        lb.memset(p, zero, ctx.i64().const_int(hi - lo), 1);
    }
    let next = lb.binop(Opcode::LLVMAdd, i, ctx.i64().const_int(1));
    let more = lb.icmp(IntPredicate::LLVMIntULT, next, ctx.i64().const_int(n));
    lb.cond_br(more, body, exit);
    i.add_incoming(ctx.i64().const_int(0), entry);
    i.add_incoming(next, body);
    lb.position_at_end(exit);
    lb.ret_void();
    b.call_fn(f, &[]);
}

/// Replaces every call of the entry points, after the derivatives are made (so every
/// shadow global the program's derivatives use exists).
pub(crate) fn lower(sup: &mut Support) {
    let module = sup.module;
    let decls = declarations(module);
    if decls.is_empty() {
        return;
    }
    let b = Builder::new(module.context());
    // Shadows first: they may make shadow globals the zeroing below must include.
    let mut order = decls.clone();
    order.sort_by_key(|(_, k)| *k != Kind::Shadow);
    for (f, kind) in order {
        for u in f.users() {
            if !u.is_instruction() || misuse(u, kind).is_some() {
                continue;
            }
            b.position_before(u);
            let args = u.call_args();
            let result = match kind {
                Kind::Context => {
                    zero_all(sup, &b);
                    let i64t = module.context().i64();
                    let g = live(sup);
                    let id = b.load(i64t, g, "fz.ctx.live");
                    let next = b.binop(Opcode::LLVMAdd, id, i64t.const_int(1));
                    b.store(next, g);
                    Some(handle(&b, next))
                }
                Kind::Shadow => {
                    check(sup, &b, args[0]);
                    let (g, off) = global_place(module, args[1]).expect("checked by `misuse`");
                    let sg = sup.shadow_global(g, Lane::FIRST);
                    Some(if off == 0 {
                        sg
                    } else {
                        b.byte_gep(sg, module.context().i64().const_int(off))
                    })
                }
                Kind::Zero => {
                    check(sup, &b, args[0]);
                    zero_all(sup, &b);
                    None
                }
            };
            if let Some(r) = result {
                u.replace_all_uses_with(r);
            }
            u.erase();
        }
    }
    for (f, _) in decls {
        if f.users().is_empty() {
            f.delete_function();
        }
    }
}
