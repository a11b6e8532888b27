//! `--check-gradients`: instruments a hook call so that, at run time, its derivative is
//! compared with finite differences of the function (the checking code itself is C,
//! `ferrozyme-cli/src/gradcheck.c`, linked in by `ferrozyme cc`).
//!
//! Around the call: the arguments go into a block that an evaluator function (generated
//! here, one per call site) passes to the function; the active scalars and every
//! duplicated buffer (with its size in bytes, known at the call site from an `alloca`, a
//! global or a `malloc`/`calloc` call) are registered; `__fz_gc_begin` snapshots them
//! before the derivative call, and `__fz_gc_end_reverse`/`__fz_gc_end_forward` check after
//! it. A call whose buffer sizes cannot be known is left unchecked, with a note.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::types::BaseType;
use ferrozyme_llvm::{Builder, Opcode, Type, TypeKind, Value};

use crate::driver::Driver;
use crate::replace::convert;
use crate::request::{AutodiffCall, Shadow};

/// The C runtime's element kinds.
const KIND_F64: u64 = 1;
const KIND_F32: u64 = 2;

fn kind_of(t: Type) -> Option<u64> {
    match t.kind() {
        TypeKind::Double => Some(KIND_F64),
        TypeKind::Float => Some(KIND_F32),
        TypeKind::Array | TypeKind::Vector => kind_of(t.element_type()),
        TypeKind::Struct => {
            let kinds: Vec<Option<u64>> = t.struct_fields().into_iter().map(kind_of).collect();
            let first = *kinds.first()?;
            kinds.iter().all(|k| *k == first).then_some(first).flatten()
        }
        _ => None,
    }
}

/// The object `p` points into and the constant byte offset: `(object, offset)`.
fn base_and_offset(d: &Driver, mut p: Value) -> Option<(Value, u64)> {
    let mut off = 0u64;
    for _ in 0..16 {
        let op = p.opcode().or_else(|| p.const_opcode());
        match op {
            Some(Opcode::LLVMGetElementPtr) => {
                let src = p.gep_source_type();
                let idx: Vec<Value> = p.operands()[1..].to_vec();
                let first = idx.first()?.const_int_value()?;
                let mut o = first.checked_mul(d.module.alloc_size(src) as i64)?;
                let mut t = src;
                for i in &idx[1..] {
                    let k = i.const_int_value()?;
                    match t.kind() {
                        TypeKind::Struct => {
                            o += d.module.field_offset(t, k as u32) as i64;
                            t = t.struct_fields()[k as usize];
                        }
                        TypeKind::Array | TypeKind::Vector => {
                            t = t.element_type();
                            o += k * d.module.alloc_size(t) as i64;
                        }
                        _ => return None,
                    }
                }
                if o < 0 {
                    return None;
                }
                off += o as u64;
                p = p.operand(0);
            }
            Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => p = p.operand(0),
            _ => return Some((p, off)),
        }
    }
    None
}

/// The byte size of the memory `p` points to from `p` on, at the builder, if the call site
/// shows it; also the element kind the object's type declares, if any.
fn extent(d: &mut Driver, b: &Builder, p: Value) -> Option<(Value, Option<u64>)> {
    let (obj, off) = base_and_offset(d, p)?;
    let i64t = d.module.context().i64();
    let minus = |b: &Builder, n: Value| b.sub(n, i64t.const_int(off));
    if obj.is_global_variable() {
        let t = obj.global_value_type();
        let n = d.module.alloc_size(t);
        return (n >= off).then(|| (i64t.const_int(n - off), kind_of(t)));
    }
    match obj.opcode() {
        Some(Opcode::LLVMAlloca) => {
            let t = obj.allocated_type();
            let count = obj.operand(0);
            let count = b.int_cast(count, i64t);
            let n = b.mul(count, i64t.const_int(d.module.alloc_size(t)));
            Some((minus(b, n), kind_of(t)))
        }
        Some(Opcode::LLVMCall) => {
            let name = obj.called_function().map(|f| f.name()).unwrap_or_default();
            let args = obj.call_args();
            let n = match name.as_str() {
                "malloc" | "_Znwm" | "_Znam" => b.int_cast(args[0], i64t),
                "calloc" => {
                    let a = b.int_cast(args[0], i64t);
                    let c = b.int_cast(args[1], i64t);
                    b.mul(a, c)
                }
                _ => return None,
            };
            Some((minus(b, n), None))
        }
        _ => None,
    }
}

/// A checked call: the run-time handle of its check.
pub struct Plan {
    pub handle: Value,
}

/// Emits the registration and `begin` before `call` (the hook call, still in place);
/// returns the handle, or a note saying why this call is not checked.
pub fn begin(
    d: &mut Driver,
    ac: &AutodiffCall,
    forward: bool,
    counter: usize,
) -> Result<Plan, String> {
    let call = ac.call;
    let ctx = d.module.context();
    let i64t = ctx.i64();
    let i32t = ctx.i32();
    let f64t = ctx.f64();
    let ptr = ctx.ptr();
    let fname = ac.func.name();
    let b = Builder::new(ctx);
    b.position_before(call);
    let params = ac.func.params();
    // Buffers: sizes and element kinds first (nothing emitted if the call is unchecked).
    let types = d.types_for_check(ac.func);
    let mut bufs = Vec::new();
    for (k, a) in ac.args.iter().enumerate() {
        if a.activity != ArgActivity::Dup {
            continue;
        }
        let Some((bytes, decl_kind)) = extent(d, &b, a.primal) else {
            return Err(format!(
                "the size of the buffer passed as argument {} is not visible at the call (pass a local array, a global or a malloc'd buffer directly)",
                k + 1
            ));
        };
        // The whole buffer must be doubles (or floats): perturbing pointer or integer
        // fields would corrupt the program.
        let tree = types.pointee_tree(params[k]);
        let seen: Vec<BaseType> = tree.iter().map(|(_, t)| t).collect();
        let kind = if seen.is_empty() {
            decl_kind
        } else if seen.iter().all(|t| *t == BaseType::Double) {
            Some(KIND_F64)
        } else if seen.iter().all(|t| *t == BaseType::Float) {
            Some(KIND_F32)
        } else {
            None
        };
        let kind = kind.filter(|k| decl_kind.is_none_or(|dk| dk == *k));
        let Some(kind) = kind else {
            return Err(format!(
                "the element type of the buffer passed as argument {} is not known to be double or float",
                k + 1
            ));
        };
        let Shadow::Lanes(l) = &a.shadow else {
            return Err("enzyme_dupv arguments are not checked".to_string());
        };
        bufs.push((a.primal, l[0], bytes, kind));
    }
    // The argument block and its evaluator.
    let entry = call
        .parent_function()
        .entry_block()
        .expect("the caller is defined");
    let eb = Builder::new(ctx);
    match entry.first_non_phi() {
        Some(i) => eb.position_before(i),
        None => eb.position_at_end(entry),
    }
    let offs = arg_offsets(d, ac.func);
    let total = offs.last().copied().unwrap_or(0) + 16;
    let block = eb.array_alloca(ctx.i8(), i64t.const_int(total), "fz.gc.args");
    block.set_alignment(16);
    let eval = evaluator(d, ac.func, counter, &offs);
    for (k, a) in ac.args.iter().enumerate() {
        let t = params[k].ty();
        let v = convert(&b, a.primal, t);
        let slot = b.byte_gep(block, i64t.const_int(offs[k]));
        b.store(v, slot);
    }
    let loc = call
        .source_loc()
        .map(|l| format!("{l}"))
        .unwrap_or_else(|| "<unknown location>".to_string());
    let caller = call.parent_function().name();
    let what = if forward {
        "__enzyme_fwddiff"
    } else {
        "__enzyme_autodiff"
    };
    let where_ = d.module.add_string(
        "fz.gc.where",
        &format!("{loc}: in `{caller}`: {what} of `{fname}`"),
    );
    let gc_new = d.libc("__fz_gc_new", ptr, &[ptr, ptr, ptr]);
    let h = b.call_fn(gc_new, &[where_, eval, block]);
    let gc_scalar = d.libc("__fz_gc_scalar", ctx.void(), &[ptr, i64t, i32t, f64t]);
    for (k, a) in ac.args.iter().enumerate() {
        if a.activity != ArgActivity::Active {
            continue;
        }
        let t = params[k].ty();
        let Some(kind) = kind_of(t) else { continue };
        let tangent = match (&a.shadow, forward) {
            (Shadow::Lanes(l), true) => convert(&b, l[0], f64t),
            _ => f64t.zero(),
        };
        b.call_fn(
            gc_scalar,
            &[h, i64t.const_int(offs[k]), i32t.const_int(kind), tangent],
        );
    }
    let gc_mem = d.libc("__fz_gc_mem", ctx.void(), &[ptr, ptr, ptr, i64t, i32t]);
    for (p, s, bytes, kind) in bufs {
        b.call_fn(gc_mem, &[h, p, s, bytes, i32t.const_int(kind)]);
    }
    // Memory the function may change without derivatives: constant buffers whose size is
    // visible, and the mutable globals it (or a function it calls) refers to.
    let gc_keep = d.libc("__fz_gc_keep", ctx.void(), &[ptr, ptr, i64t]);
    for a in &ac.args {
        let read_only = base_and_offset(d, a.primal)
            .is_some_and(|(o, _)| o.is_global_variable() && o.is_global_constant());
        if a.activity == ArgActivity::Const && a.primal.ty().is_pointer() && !read_only {
            if let Some((bytes, _)) = extent(d, &b, a.primal) {
                b.call_fn(gc_keep, &[h, a.primal, bytes]);
            }
        }
    }
    for g in referenced_globals(ac.func) {
        let n = d.module.alloc_size(g.global_value_type());
        b.call_fn(gc_keep, &[h, g, i64t.const_int(n)]);
    }
    let gc_begin = d.libc("__fz_gc_begin", ctx.void(), &[ptr]);
    b.call_fn(gc_begin, &[h]);
    Ok(Plan { handle: h })
}

/// After a reverse-mode derivative call (builder after it): hand over the adjoints of the
/// active scalars (in argument order) and check.
pub fn end_reverse(d: &mut Driver, b: &Builder, plan: &Plan, adjoints: &[Value]) {
    let ctx = d.module.context();
    let (ptr, i32t, f64t) = (ctx.ptr(), ctx.i32(), ctx.f64());
    let set = d.libc("__fz_gc_set", ctx.void(), &[ptr, i32t, f64t]);
    for (k, a) in adjoints.iter().enumerate() {
        let v = convert(b, *a, f64t);
        b.call_fn(set, &[plan.handle, i32t.const_int(k as u64), v]);
    }
    let end = d.libc("__fz_gc_end_reverse", ctx.void(), &[ptr]);
    b.call_fn(end, &[plan.handle]);
}

/// After a forward-mode derivative call: check with the tangent of a scalar result.
pub fn end_forward(d: &mut Driver, b: &Builder, plan: &Plan, ret_tangent: Option<Value>) {
    let ctx = d.module.context();
    let (ptr, i32t, f64t) = (ctx.ptr(), ctx.i32(), ctx.f64());
    let end = d.libc("__fz_gc_end_forward", ctx.void(), &[ptr, i32t, f64t]);
    let (has, t) = match ret_tangent {
        Some(t) => (1, convert(b, t, f64t)),
        None => (0, f64t.zero()),
    };
    b.call_fn(end, &[plan.handle, i32t.const_int(has), t]);
}

/// Mutable global variables used by `f` or the functions it calls (directly or not).
fn referenced_globals(f: Value) -> Vec<Value> {
    let mut funcs = vec![f];
    let mut seen_f = std::collections::HashSet::from([f]);
    let mut globals = Vec::new();
    let mut k = 0;
    while k < funcs.len() && globals.len() < 64 {
        let cur = funcs[k];
        k += 1;
        for i in cur.blocks().into_iter().flat_map(|b| b.instructions()) {
            for mut o in i.operands() {
                while o.is_constant_expr() && o.num_operands() > 0 {
                    o = o.operand(0);
                }
                if o.is_function() && !o.is_declaration() && seen_f.insert(o) {
                    funcs.push(o);
                } else if o.is_global_variable()
                    && !o.is_global_constant()
                    && !o.name().starts_with("enzyme_")
                    && !globals.contains(&o)
                {
                    globals.push(o);
                }
            }
        }
    }
    globals
}

/// Byte offsets of `f`'s parameters in the argument block (16-byte aligned slots).
fn arg_offsets(d: &Driver, f: Value) -> Vec<u64> {
    let mut off = 0;
    f.params()
        .iter()
        .map(|p| {
            let here = off;
            off += d.module.alloc_size(p.ty()).max(1).div_ceil(16) * 16;
            here
        })
        .collect()
}

/// `double fz_gc_eval.N(ptr args)`: calls `f` with the arguments stored in the block and
/// returns its floating result as a double (0 for other results).
fn evaluator(d: &mut Driver, f: Value, counter: usize, offs: &[u64]) -> Value {
    let ctx = d.module.context();
    let fty = ctx.function_type(ctx.f64(), &[ctx.ptr()], false);
    let g = d.module.add_function(&format!("fz_gc_eval.{counter}"), fty);
    g.set_linkage_internal();
    let b = Builder::new(ctx);
    let entry = b.append_block(g, "entry");
    b.position_at_end(entry);
    let blk = g.params()[0];
    let args: Vec<Value> = f
        .params()
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let slot = b.byte_gep(blk, ctx.i64().const_int(offs[k]));
            b.load(p.ty(), slot, "arg")
        })
        .collect();
    let r = b.call_fn(f, &args);
    let rt = f.function_type().return_type();
    let v = if rt.is_fp_scalar() {
        convert(&b, r, ctx.f64())
    } else {
        ctx.f64().zero()
    };
    b.ret(v);
    g
}
