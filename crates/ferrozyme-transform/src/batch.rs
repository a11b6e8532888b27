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

/// How the next argument is marked (`enzyme_scalar`, `enzyme_vector`, `enzyme_buffer`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Scalar,
    Vector,
    Buffer,
}

/// A parsed `__enzyme_batch` call.
struct Batch {
    func: Value,
    width: u32,
    args: Vec<Lanes>,
    /// The hook returns its result through a hidden first argument.
    sret: bool,
}

type Err<'a> = &'a dyn Fn(String, &str) -> Diagnostic;

/// Replaces an `__enzyme_batch` call by one call of the function per lane.
pub fn replace_batch(call: Value) -> Result<(), Diagnostic> {
    let caller = call.parent_function().name();
    let err = make_err(call, &caller);
    let batch = parse(call, &err)?;
    let b = Builder::new(call.ty().context());
    b.position_before(call);
    let results = call_lanes(&b, &batch);
    let value = pack_results(&b, call, &batch, &results, &err)?;
    match value {
        Some(v) if batch.sret => {
            b.store(v, call.call_args()[0]);
        }
        Some(v) => call.replace_all_uses_with(v),
        None if !batch.sret && !call.ty().is_void() => call.replace_all_uses_with(call.ty().zero()),
        None => {}
    }
    call.erase();
    Ok(())
}

/// The function, the width and each argument's lanes.
fn parse(call: Value, err: Err<'_>) -> Result<Batch, Diagnostic> {
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
    let width = parse_width(rest, err)?;
    let mut it = rest.iter().copied().peekable();
    let mut args = Vec::new();
    for (k, p) in func.params().iter().enumerate() {
        args.push(parse_arg(&mut it, func, k, *p, width, err)?);
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
    Ok(Batch {
        func,
        width,
        args,
        sret,
    })
}

/// The width: `enzyme_width, N` anywhere among the operands (1 without it).
fn parse_width(rest: &[Value], err: Err<'_>) -> Result<u32, Diagnostic> {
    let Some(k) = rest
        .iter()
        .position(|v| marker_name(*v).as_deref() == Some("enzyme_width"))
    else {
        return Ok(1);
    };
    match rest.get(k + 1).and_then(|n| n.const_int_value()) {
        Some(n) if (1..=64).contains(&n) => Ok(n as u32),
        _ => Err(err(
            "enzyme_width must be followed by a constant width between 1 and 64".to_string(),
            "write enzyme_width, 4 (an integer literal)",
        )),
    }
}

/// Argument `k` (parameter `p`) of `func`: its markers, then its value(s).
fn parse_arg(
    it: &mut std::iter::Peekable<impl Iterator<Item = Value>>,
    func: Value,
    k: usize,
    p: Value,
    width: u32,
    err: Err<'_>,
) -> Result<Lanes, Diagnostic> {
    let mut mark = if width > 1 {
        Mark::Vector
    } else {
        Mark::Scalar
    };
    let mut stride = None;
    while let Some(name) = it.peek().and_then(|v| marker_name(*v)) {
        it.next();
        match name.as_str() {
            "enzyme_width" => {
                it.next();
            }
            "enzyme_scalar" => mark = Mark::Scalar,
            "enzyme_vector" => mark = Mark::Vector,
            "enzyme_buffer" => {
                mark = Mark::Buffer;
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
    Ok(match mark {
        Mark::Scalar => Lanes::Scalar(next()?),
        Mark::Vector => Lanes::Vector((0..width).map(|_| next()).collect::<Result<_, _>>()?),
        Mark::Buffer => {
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
    })
}

/// One call of the function per lane, in lane order.
fn call_lanes(b: &Builder, batch: &Batch) -> Vec<Value> {
    let ctx = batch.func.ty().context();
    let params = batch.func.params();
    (0..batch.width)
        .map(|lane| {
            let lane_args: Vec<Value> = batch
                .args
                .iter()
                .zip(&params)
                .map(|(a, p)| match a {
                    Lanes::Scalar(v) => convert(b, *v, p.ty()),
                    Lanes::Vector(vs) => convert(b, vs[lane as usize], p.ty()),
                    Lanes::Buffer { base, stride } => {
                        let s = b.int_cast(*stride, ctx.i64());
                        let off = b.mul(s, ctx.i64().const_int(lane as u64));
                        b.byte_gep(*base, off)
                    }
                })
                .collect();
            b.call_fn(batch.func, &lane_args)
        })
        .collect()
}

/// The lane results in the type the hook declares (`None` for void).
fn pack_results(
    b: &Builder,
    call: Value,
    batch: &Batch,
    results: &[Value],
    err: Err<'_>,
) -> Result<Option<Value>, Diagnostic> {
    let ret = batch.func.function_type().return_type();
    let user_ty = call.call_sret_type(0).unwrap_or_else(|| call.ty());
    if ret.is_void() || user_ty.is_void() {
        return Ok(None);
    }
    if batch.width == 1 && user_ty == ret {
        return Ok(Some(results[0]));
    }
    let entry = Builder::new(call.ty().context());
    let caller_fn = call.parent_function();
    entry.position_before(
        caller_fn
            .entry_block()
            .and_then(|e| e.first_instruction())
            .expect("invariant: the caller has an entry block"),
    );
    let m = caller_fn.parent_module();
    let packed = pack(b, user_ty, ret, results)
        .or_else(|| pack_in_memory(b, &entry, m, user_ty, ret, results));
    packed.map(Some).ok_or_else(|| {
        err(
            format!(
                "`__enzyme_batch` of `{}` returns {} values of type {ret}, which the declared return type {user_ty} cannot hold",
                batch.func.name(),
                batch.width
            ),
            "declare the hook to return e.g. struct { double r[4]; } for enzyme_width, 4",
        )
    })
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
        .at_value(call)
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
