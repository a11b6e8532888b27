//! `__enzyme_batch`: a scalar function applied to a batch of arguments, and
//! `__enzyme_virtualreverse`, the shadow of a function pointer.
//!
//! ```c
//! v4 r = __enzyme_batch((void *)f, enzyme_width, 4,
//!                       enzyme_vector, x0, x1, x2, x3,          // one value per lane
//!                       enzyme_scalar, s,                       // the same for all lanes
//!                       enzyme_buffer, sizeof(double), xs);     // lane k at xs + k*stride
//! ```
//!
//! With `enzyme_width, N`, every argument is a *vector* argument unless marked
//! `enzyme_scalar`; the call returns the N results (lane 0 first) in whatever aggregate the
//! hook declares. Enzyme vectorizes `f`'s instructions across the lanes; Ferrozyme calls
//! `f` once per lane, in lane order, which computes the same results (each lane's
//! arithmetic is the same), and leaves vectorizing the lanes to LLVM's optimizers once `f`
//! is inlined. Lanes that write to the same memory see each other's writes in lane order.
//!
//! `__enzyme_virtualreverse(f)` is what Enzyme users put in shadow vtables and shadow
//! function-pointer slots. Ferrozyme finds the derivatives of a call through a pointer
//! from the primal pointer itself and never reads a function pointer's shadow, so the
//! shadow of `f` is `f`.

use ferrozyme_llvm::{Builder, DiagKind, Diagnostic, TypeKind, Value};

use crate::marshal::{build, convert, fp_leaves};
use crate::request::{make_err, marker_name};

/// How one argument of the batched function is passed.
enum Lanes {
    /// One value for every lane.
    Scalar(Value),
    /// One value per lane.
    Vector(Vec<Value>),
    /// `enzyme_buffer, stride, base`: lane k's pointer is `base + k * stride` bytes.
    Buffer { base: Value, stride: Value },
}

/// Replaces an `__enzyme_batch` call by one call of the function per lane.
pub fn replace_batch(call: Value) -> Result<(), Diagnostic> {
    let caller = call.parent_function().name();
    let err = make_err(call, &caller);
    let mut ops = call.call_args();
    let sret = call.call_sret_type(0).is_some();
    if sret {
        ops.remove(0);
    }
    let func = crate::request::strip_casts(*ops.first().ok_or_else(|| {
        err(
            "`__enzyme_batch` called without the function".to_string(),
            "pass the function first: __enzyme_batch((void *)f, enzyme_width, N, args...)",
        )
    })?);
    if !func.is_function() {
        return Err(err(
            format!(
                "the first argument of `__enzyme_batch` is not a function: {}",
                ops[0]
            ),
            "pass the function itself, e.g. __enzyme_batch((void *)f, ...)",
        ));
    }
    let rest = &ops[1..];
    // The width: `enzyme_width, N` anywhere among the operands.
    let mut width = 1u32;
    if let Some(k) = rest
        .iter()
        .position(|v| marker_name(*v).as_deref() == Some("enzyme_width"))
    {
        match rest.get(k + 1).and_then(|n| n.const_int_value()) {
            Some(n) if (1..=64).contains(&n) => width = n as u32,
            _ => {
                return Err(err(
                    "enzyme_width must be followed by a constant width between 1 and 64"
                        .to_string(),
                    "write enzyme_width, 4 (an integer literal)",
                ))
            }
        }
    }
    let params = func.params();
    let mut it = rest.iter().copied().peekable();
    let mut args = Vec::new();
    for (k, p) in params.iter().enumerate() {
        let mut kind = if width > 1 {
            "enzyme_vector"
        } else {
            "enzyme_scalar"
        };
        let mut stride = None;
        while let Some(name) = it.peek().and_then(|v| marker_name(*v)) {
            it.next();
            match name.as_str() {
                "enzyme_width" => {
                    it.next();
                }
                "enzyme_scalar" | "enzyme_vector" => {
                    kind = if name == "enzyme_scalar" {
                        "enzyme_scalar"
                    } else {
                        "enzyme_vector"
                    }
                }
                "enzyme_buffer" => {
                    kind = "enzyme_buffer";
                    stride = it.next();
                }
                other => {
                    return Err(err(
                        format!(
                            "`{other}` is not a marker of `__enzyme_batch` (argument {} of `{}`)",
                            k + 1,
                            func.name()
                        ),
                        "mark arguments with enzyme_scalar, enzyme_vector or enzyme_buffer, stride",
                    ))
                }
            }
        }
        let mut next = || {
            it.next().ok_or_else(|| {
                err(
                    format!(
                        "too few arguments for `{}` in `__enzyme_batch`: argument {} is missing",
                        func.name(),
                        k + 1
                    ),
                    "pass every argument; a vector argument takes one value per lane",
                )
            })
        };
        let a = match kind {
            "enzyme_scalar" => Lanes::Scalar(next()?),
            "enzyme_buffer" => {
                let stride = stride.filter(|s| s.ty().is_integer()).ok_or_else(|| {
                    err(
                        "enzyme_buffer must be followed by an integer byte stride".to_string(),
                        "write enzyme_buffer, sizeof(lane), pointer",
                    )
                })?;
                let base = next()?;
                if !base.ty().is_pointer() || !p.ty().is_pointer() {
                    return Err(err(
                        format!(
                            "enzyme_buffer is for pointer arguments; argument {} of `{}` is {}",
                            k + 1,
                            func.name(),
                            p.ty()
                        ),
                        "use enzyme_vector with one value per lane",
                    ));
                }
                Lanes::Buffer { base, stride }
            }
            _ => Lanes::Vector((0..width).map(|_| next()).collect::<Result<_, _>>()?),
        };
        args.push(a);
    }
    if let Some(extra) = it.next() {
        return Err(err(
            format!(
                "too many arguments for `{}` in `__enzyme_batch`: {extra}",
                func.name()
            ),
            "pass exactly the function's arguments (one value per lane for vector arguments)",
        ));
    }
    let ctx = call.ty().context();
    let b = Builder::new(ctx);
    b.position_before(call);
    let ret = func.function_type().return_type();
    let mut results = Vec::new();
    for lane in 0..width {
        let lane_args: Vec<Value> = args
            .iter()
            .zip(&params)
            .map(|(a, p)| match a {
                Lanes::Scalar(v) => convert(&b, *v, p.ty()),
                Lanes::Vector(vs) => convert(&b, vs[lane as usize], p.ty()),
                Lanes::Buffer { base, stride } => {
                    let s = b.int_cast(*stride, ctx.i64());
                    let off = b.mul(s, ctx.i64().const_int(lane as u64));
                    b.byte_gep(*base, off)
                }
            })
            .collect();
        results.push(b.call_fn(func, &lane_args));
    }
    let user_ty = call.call_sret_type(0).unwrap_or_else(|| call.ty());
    let value = if ret.is_void() || user_ty.is_void() {
        None
    } else if width == 1 && user_ty == ret {
        Some(results[0])
    } else {
        let entry = Builder::new(ctx);
        let caller_fn = call.parent_function();
        entry.position_before(
            caller_fn
                .entry_block()
                .and_then(|e| e.first_instruction())
                .expect("invariant: the caller has an entry block"),
        );
        let m = caller_fn.parent_module();
        let packed = pack(&b, user_ty, ret, &results)
            .or_else(|| pack_in_memory(&b, &entry, m, user_ty, ret, &results));
        Some(packed.ok_or_else(|| {
            err(
                format!(
                    "`__enzyme_batch` of `{}` returns {width} values of type {ret}, which the declared return type {user_ty} cannot hold",
                    func.name()
                ),
                "declare the hook to return e.g. struct { double r[4]; } for enzyme_width, 4",
            )
        })?)
    };
    match value {
        Some(v) if sret => {
            b.store(v, call.call_args()[0]);
        }
        Some(v) => call.replace_all_uses_with(v),
        None if !sret && !call.ty().is_void() => call.replace_all_uses_with(call.ty().zero()),
        None => {}
    }
    call.erase();
    Ok(())
}

/// The lane results in the user's aggregate: its floating leaves when the results are
/// floats, else its fields or elements (one per lane).
fn pack(
    b: &Builder,
    user_ty: ferrozyme_llvm::Type,
    ret: ferrozyme_llvm::Type,
    rs: &[Value],
) -> Option<Value> {
    let mut leaves = Vec::new();
    fp_leaves(user_ty, &mut Vec::new(), &mut leaves);
    let mut rl = Vec::new();
    fp_leaves(ret, &mut Vec::new(), &mut rl);
    if ret.is_fp_scalar() && leaves.len() == rs.len() {
        return Some(build(b, user_ty, &leaves, rs));
    }
    let n = match user_ty.kind() {
        TypeKind::Struct => user_ty.struct_fields().len(),
        TypeKind::Array => user_ty.array_len() as usize,
        _ => return None,
    };
    if n != rs.len() {
        return None;
    }
    let mut agg = user_ty.zero();
    for (k, r) in rs.iter().enumerate() {
        let ft = match user_ty.kind() {
            TypeKind::Struct => user_ty.struct_fields()[k],
            _ => user_ty.element_type(),
        };
        if ft != r.ty() && !(ft.is_fp_scalar() && r.ty().is_fp_scalar()) {
            return None;
        }
        agg = b.insert_value(agg, convert(b, *r, ft), k as u32);
    }
    let _ = rl;
    Some(agg)
}

/// The lane results laid out as an array in memory and read back as the user's type, when
/// the sizes agree (the C ABI returns `struct { int r[4]; }` as `{ i64, i64 }`).
fn pack_in_memory(
    b: &Builder,
    entry: &Builder,
    m: ferrozyme_llvm::Module,
    user_ty: ferrozyme_llvm::Type,
    ret: ferrozyme_llvm::Type,
    rs: &[Value],
) -> Option<Value> {
    let elem = m.alloc_size(ret);
    if m.store_size(user_ty) != elem * rs.len() as u64 {
        return None;
    }
    let ctx = ret.context();
    let arr = ctx.array_type(ret, rs.len() as u64);
    let slot = entry.alloca(arr, "fz.batch");
    for (k, r) in rs.iter().enumerate() {
        let p = b.byte_gep(slot, ctx.i64().const_int(elem * k as u64));
        b.store(*r, p);
    }
    Some(b.load(user_ty, slot, "fz.batch.r"))
}

/// Replaces `__enzyme_virtualreverse(f)` by `f` (see the module docs).
pub fn replace_virtual_reverse(call: Value) -> Result<(), Diagnostic> {
    let ops = call.call_args();
    let f = ops.first().map(|v| crate::request::strip_casts(*v));
    let Some(f) = f.filter(|f| f.is_function()) else {
        return Err(Diagnostic::new(
            DiagKind::BadAutodiffCall,
            "`__enzyme_virtualreverse` takes the function whose shadow it gives".to_string(),
        )
        .in_function(call.parent_function().name())
        .at_loc(call.source_loc())
        .with_help("write __enzyme_virtualreverse((void *)f)"));
    };
    let ty = call.ty();
    if !ty.is_void() {
        let b = Builder::new(ty.context());
        b.position_before(call);
        call.replace_all_uses_with(convert(&b, f, ty));
    }
    call.erase();
    Ok(())
}
