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

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::types::{BaseType, TypeAnalysis, TypeSession};
use ferrozyme_llvm::{Builder, Opcode, Through, Type, TypeKind, Value};

use crate::marshal::{convert, fp_leaves, scalars};
use crate::request::{AutodiffCall, Shadow};
use crate::services::Support;

/// The C runtime's element kinds.
const KIND_F64: u64 = 1;
const KIND_F32: u64 = 2;
/// `x86_fp80` (C `long double` on x86-64): active scalars only.
const KIND_F80: u64 = 3;

/// The kind of an active scalar's floating leaf, when the C runtime can perturb it.
fn leaf_kind(t: Type) -> Option<u64> {
    match t.kind() {
        TypeKind::Double => Some(KIND_F64),
        TypeKind::Float => Some(KIND_F32),
        TypeKind::X86Fp80 => Some(KIND_F80),
        _ => None,
    }
}

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
fn base_and_offset(sup: &Support, p: Value) -> Option<(Value, u64)> {
    let (base, off) = sup
        .module
        .strip_const_geps_through(p, Through::GepsCastsAndConstants);
    let is_gep =
        |v: Value| v.opcode().or_else(|| v.const_opcode()) == Some(Opcode::LLVMGetElementPtr);
    if is_gep(base) {
        return None;
    }
    u64::try_from(off?).ok().map(|o| (base, o))
}

/// The byte size of the memory `p` points to from `p` on, at the builder, if the call site
/// shows it; also the element kind the object's type declares, if any.
fn extent(sup: &Support, b: &Builder, p: Value) -> Option<(Value, Option<u64>)> {
    let (obj, off) = base_and_offset(sup, p)?;
    let i64t = sup.module.context().i64();
    let minus = |b: &Builder, n: Value| b.sub(n, i64t.const_int(off));
    if obj.is_global_variable() {
        let t = obj.global_value_type();
        let n = sup.module.alloc_size(t);
        return (n >= off).then(|| (i64t.const_int(n - off), kind_of(t)));
    }
    match obj.opcode() {
        Some(Opcode::LLVMAlloca) => {
            let t = obj.allocated_type();
            let count = obj.operand(0);
            let count = b.int_cast(count, i64t);
            let n = b.mul(count, i64t.const_int(sup.module.alloc_size(t)));
            Some((minus(b, n), kind_of(t)))
        }
        Some(Opcode::LLVMCall) => {
            let name = obj.called_function().map(|f| f.name()).unwrap_or_default();
            let args = obj.call_args();
            let n = match name.as_str() {
                a if ferrozyme_abi::allocator_size_arg(a).is_some() => {
                    b.int_cast(ferrozyme_analysis::calls::alloc_size(obj), i64t)
                }
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

/// Why a call is not checked (said in a note; the call still works).
#[derive(Debug)]
pub enum Unchecked {
    /// The size of a duplicated buffer is not visible at the call.
    UnknownSize { arg: usize },
    /// A duplicated buffer is not known to hold only doubles (or only floats).
    NotFloatBuffer { arg: usize },
    /// `enzyme_dupv` arguments.
    StridedShadow,
    /// An active scalar argument that is not made of `double`, `float` and `long double`
    /// values only (`_Float16`, `__float128`, integers beside floats in a struct).
    ScalarType { arg: usize },
}

impl std::fmt::Display for Unchecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unchecked::UnknownSize { arg } => write!(
                f,
                "the size of the buffer passed as argument {arg} is not visible at the call (pass a local array, a global or a malloc'd buffer directly)"
            ),
            Unchecked::NotFloatBuffer { arg } => write!(
                f,
                "the element type of the buffer passed as argument {arg} is not known to be double or float"
            ),
            Unchecked::StridedShadow => write!(f, "enzyme_dupv arguments are not checked"),
            Unchecked::ScalarType { arg } => write!(
                f,
                "the active argument {arg} is not made of double, float and long double values only"
            ),
        }
    }
}

/// The `--check-gradients` state of one run of the pass.
pub struct Checks {
    /// Functions that are themselves differentiated: hook calls inside them are not
    /// checked (their derivative is code that is differentiated again).
    skip: HashSet<Value>,
    /// Call sites instrumented so far (names the evaluators).
    counter: usize,
    /// Type analyses of the functions the round's hook calls differentiate (`prepare`).
    types: HashMap<Value, TypeAnalysis>,
}

impl Checks {
    pub fn new(skip: HashSet<Value>) -> Checks {
        Checks {
            skip,
            counter: 0,
            types: HashMap::default(),
        }
    }

    /// Type analyses of `funcs`, computed in one session before any hook call of the
    /// round is replaced (replacing changes the callers, which share the functions'
    /// call-graph component): one analysis per component instead of one per hook call.
    pub fn prepare(&mut self, module: ferrozyme_llvm::Module, funcs: &[Value]) {
        self.types.clear();
        let mut session = TypeSession::new(module);
        for &f in funcs {
            if !self.types.contains_key(&f) {
                let t = session.analyse_function(f, &|_| false);
                self.types.insert(f, t);
            }
        }
    }

    /// Instruments hook call `ac` (still in place): `None` when it is not to be checked
    /// (inside differentiated code), `Some(Err)` when it cannot be.
    pub fn begin(
        &mut self,
        sup: &mut Support,
        ac: &AutodiffCall,
        forward: bool,
    ) -> Option<Result<Plan, Unchecked>> {
        if self.skip.contains(&ac.call.parent_function()) {
            return None;
        }
        self.counter += 1;
        let types = self
            .types
            .remove(&ac.func)
            .unwrap_or_else(|| TypeAnalysis::run(sup.module, ac.func));
        Some(begin(sup, ac, forward, self.counter, &types))
    }
}

/// A duplicated buffer to check: pointer, shadow, byte size (at the call), element kind.
struct Buffer {
    primal: Value,
    shadow: Value,
    bytes: Value,
    kind: u64,
}

/// Emits the registration and `begin` before the hook call; returns the handle, or why
/// this call is not checked (then nothing is emitted).
fn begin(
    sup: &mut Support,
    ac: &AutodiffCall,
    forward: bool,
    counter: usize,
    types: &TypeAnalysis,
) -> Result<Plan, Unchecked> {
    let b = Builder::new(sup.module.context());
    b.position_before(ac.call);
    let leaves = scalar_leaves(sup, ac)?;
    let bufs = buffers(sup, &b, ac, types)?;
    let block = argument_block(sup, &b, ac);
    let offs = arg_offsets(sup, ac.func);
    let eval = evaluator(sup, ac.func, counter, &offs);
    let h = register_call(sup, &b, ac, forward, eval, block);
    register_scalars(sup, &b, ac, forward, h, &offs, &leaves);
    register_memory(sup, &b, ac, h, bufs);
    let ctx = sup.module.context();
    let gc_begin = sup.libc("__fz_gc_begin", ctx.void(), &[ctx.ptr()]);
    b.call_fn(gc_begin, &[h]);
    Ok(Plan { handle: h })
}

/// The duplicated buffers with their sizes and element kinds (nothing emitted but the
/// size computations, and only when every buffer can be checked).
fn buffers(
    sup: &Support,
    b: &Builder,
    ac: &AutodiffCall,
    types: &TypeAnalysis,
) -> Result<Vec<Buffer>, Unchecked> {
    let params = ac.func.params();
    let mut bufs = Vec::new();
    for (k, a) in ac.args.iter().enumerate() {
        if a.activity != ArgActivity::Dup {
            continue;
        }
        let (bytes, decl_kind) =
            extent(sup, b, a.primal).ok_or(Unchecked::UnknownSize { arg: k + 1 })?;
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
        let kind = kind
            .filter(|k| decl_kind.is_none_or(|dk| dk == *k))
            .ok_or(Unchecked::NotFloatBuffer { arg: k + 1 })?;
        let Shadow::Lanes(l) = &a.shadow else {
            return Err(Unchecked::StridedShadow);
        };
        bufs.push(Buffer {
            primal: a.primal,
            shadow: l[0],
            bytes,
            kind,
        });
    }
    Ok(bufs)
}

/// The arguments, stored in a block (an `alloca` of the caller) that the evaluator passes
/// to the function.
fn argument_block(sup: &Support, b: &Builder, ac: &AutodiffCall) -> Value {
    let ctx = sup.module.context();
    let i64t = ctx.i64();
    let entry = ac
        .call
        .parent_function()
        .entry_block()
        .expect("invariant: the caller of a hook is defined");
    let eb = Builder::new(ctx);
    match entry.first_non_phi() {
        Some(i) => eb.position_before(i),
        None => eb.position_at_end(entry),
    }
    let offs = arg_offsets(sup, ac.func);
    let total = offs.last().copied().unwrap_or(0) + 16;
    let block = eb.array_alloca(ctx.i8(), i64t.const_int(total), "fz.gc.args");
    block.set_alignment(16);
    for ((a, p), off) in ac.args.iter().zip(ac.func.params()).zip(&offs) {
        let v = convert(b, a.primal, p.ty());
        let slot = b.byte_gep(block, i64t.const_int(*off));
        b.store(v, slot);
    }
    block
}

/// `__fz_gc_new(where, evaluator, args)`: the check's handle.
fn register_call(
    sup: &mut Support,
    b: &Builder,
    ac: &AutodiffCall,
    forward: bool,
    eval: Value,
    block: Value,
) -> Value {
    let ptr = sup.module.context().ptr();
    let call = ac.call;
    let loc = call
        .source_loc()
        .map(|l| format!("{l}"))
        .unwrap_or_else(|| "<unknown location>".to_string());
    let caller = call.parent_function().name();
    let what = if forward {
        ferrozyme_abi::EntryPoint::Fwddiff.name()
    } else {
        ferrozyme_abi::EntryPoint::Autodiff.name()
    };
    let where_ = sup.module.add_string(
        "fz.gc.where",
        &format!("{loc}: in `{caller}`: {what} of `{}`", ac.func.name()),
    );
    let gc_new = sup.libc("__fz_gc_new", ptr, &[ptr, ptr, ptr]);
    b.call_fn(gc_new, &[where_, eval, block])
}

/// The floating leaves of each active scalar argument, in argument order, each with its
/// byte offset inside the argument's slot and its kind: one checked scalar per leaf, so
/// that the adjoints (and forward tangents) of `float _Complex` (`<2 x float>`) or a
/// struct of doubles passed by value line up with what the evaluator perturbs. `Err`
/// when one cannot be perturbed (then the call is not checked: perturbing only some of
/// the active inputs would compare a forward tangent with the wrong difference, and the
/// reverse adjoints would be handed to the wrong scalars).
fn scalar_leaves(sup: &Support, ac: &AutodiffCall) -> Result<Vec<Vec<(u64, u64)>>, Unchecked> {
    let module = sup.module;
    let mut out = Vec::new();
    for (k, (a, p)) in ac.args.iter().zip(ac.func.params()).enumerate() {
        if a.activity != ArgActivity::Active {
            continue;
        }
        let t = p.ty();
        let mut leaves = Vec::new();
        fp_leaves(t, &mut Vec::new(), &mut leaves);
        let bytes: u64 = leaves.iter().map(|(_, l)| module.store_size(*l)).sum();
        let kinds: Option<Vec<(u64, u64)>> = leaves
            .iter()
            .map(|(path, l)| Some((leaf_offset(module, t, path), leaf_kind(*l)?)))
            .collect();
        // Integer or pointer bytes beside the floats: not a value of floats alone.
        match kinds {
            Some(kinds) if !kinds.is_empty() && bytes == module.store_size(t) => out.push(kinds),
            _ => return Err(Unchecked::ScalarType { arg: k + 1 }),
        }
    }
    Ok(out)
}

/// The byte offset of the leaf at `path` (field and lane indices) inside a value of `t`.
fn leaf_offset(module: ferrozyme_llvm::Module, t: Type, path: &[u32]) -> u64 {
    let (mut t, mut off) = (t, 0);
    for &k in path {
        match t.kind() {
            TypeKind::Struct => {
                off += module.field_offset(t, k);
                t = t.struct_fields()[k as usize];
            }
            TypeKind::Vector => {
                t = t.element_type();
                off += u64::from(k) * module.store_size(t);
            }
            _ => {
                t = t.element_type();
                off += u64::from(k) * module.alloc_size(t);
            }
        }
    }
    off
}

/// The active scalars' leaves (with their tangents in forward mode).
fn register_scalars(
    sup: &mut Support,
    b: &Builder,
    ac: &AutodiffCall,
    forward: bool,
    h: Value,
    offs: &[u64],
    leaves: &[Vec<(u64, u64)>],
) {
    let ctx = sup.module.context();
    let (i64t, i32t, f64t) = (ctx.i64(), ctx.i32(), ctx.f64());
    let gc_scalar = sup.libc("__fz_gc_scalar", ctx.void(), &[ctx.ptr(), i64t, i32t, f64t]);
    let active = ac
        .args
        .iter()
        .zip(ac.func.params())
        .zip(offs)
        .filter(|((a, _), _)| a.activity == ArgActivity::Active);
    for (((a, p), off), leaves) in active.zip(leaves) {
        let tangents = match (&a.shadow, forward) {
            (Shadow::Lanes(l), true) => scalars(b, convert(b, l[0], p.ty())),
            _ => Vec::new(),
        };
        for (k, (leaf_off, kind)) in leaves.iter().enumerate() {
            let t = tangents
                .get(k)
                .map_or_else(|| f64t.zero(), |t| convert(b, *t, f64t));
            b.call_fn(
                gc_scalar,
                &[h, i64t.const_int(off + leaf_off), i32t.const_int(*kind), t],
            );
        }
    }
}

/// The duplicated buffers, and the memory the function may change without derivatives:
/// constant buffers whose size is visible, and the mutable globals it (or a function it
/// calls) refers to.
fn register_memory(sup: &mut Support, b: &Builder, ac: &AutodiffCall, h: Value, bufs: Vec<Buffer>) {
    let ctx = sup.module.context();
    let (ptr, i64t, i32t) = (ctx.ptr(), ctx.i64(), ctx.i32());
    let gc_mem = sup.libc("__fz_gc_mem", ctx.void(), &[ptr, ptr, ptr, i64t, i32t]);
    for buf in bufs {
        b.call_fn(
            gc_mem,
            &[
                h,
                buf.primal,
                buf.shadow,
                buf.bytes,
                i32t.const_int(buf.kind),
            ],
        );
    }
    let gc_keep = sup.libc("__fz_gc_keep", ctx.void(), &[ptr, ptr, i64t]);
    for a in &ac.args {
        let read_only = base_and_offset(sup, a.primal)
            .is_some_and(|(o, _)| o.is_global_variable() && o.is_global_constant());
        if a.activity == ArgActivity::Const && a.primal.ty().is_pointer() && !read_only {
            if let Some((bytes, _)) = extent(sup, b, a.primal) {
                b.call_fn(gc_keep, &[h, a.primal, bytes]);
            }
        }
    }
    for g in referenced_globals(ac.func) {
        let n = sup.module.alloc_size(g.global_value_type());
        b.call_fn(gc_keep, &[h, g, i64t.const_int(n)]);
    }
}

/// After a reverse-mode derivative call (builder after it): hand over the adjoints of the
/// active scalars' leaves (in argument order, as `register_scalars` registered them) and
/// check.
pub fn end_reverse(sup: &mut Support, b: &Builder, plan: &Plan, adjoints: &[Value]) {
    let ctx = sup.module.context();
    let (ptr, i32t, f64t) = (ctx.ptr(), ctx.i32(), ctx.f64());
    let set = sup.libc("__fz_gc_set", ctx.void(), &[ptr, i32t, f64t]);
    let leaves: Vec<Value> = adjoints.iter().flat_map(|a| scalars(b, *a)).collect();
    for (k, a) in leaves.iter().enumerate() {
        let v = convert(b, *a, f64t);
        b.call_fn(set, &[plan.handle, i32t.const_int(k as u64), v]);
    }
    let end = sup.libc("__fz_gc_end_reverse", ctx.void(), &[ptr]);
    b.call_fn(end, &[plan.handle]);
}

/// After a forward-mode derivative call: check with the tangent of a scalar result.
pub fn end_forward(sup: &mut Support, b: &Builder, plan: &Plan, ret_tangent: Option<Value>) {
    let ctx = sup.module.context();
    let (ptr, i32t, f64t) = (ctx.ptr(), ctx.i32(), ctx.f64());
    let end = sup.libc("__fz_gc_end_forward", ctx.void(), &[ptr, i32t, f64t]);
    let (has, t) = match ret_tangent {
        Some(t) => (1, convert(b, t, f64t)),
        None => (0, f64t.zero()),
    };
    b.call_fn(end, &[plan.handle, i32t.const_int(has), t]);
}

/// Mutable global variables used by `f` or the functions it calls (directly or not).
fn referenced_globals(f: Value) -> Vec<Value> {
    let mut funcs = vec![f];
    let mut seen_f = ferrozyme_analysis::hash::HashSet::from_iter([f]);
    let mut globals = Vec::new();
    // A static's guard and the object it initializes once (`ONE_TIME_INIT`) are not put
    // back: restored, the guard would run the initialization again at each evaluation.
    let mut one_time = Vec::new();
    let mut k = 0;
    while k < funcs.len() && globals.len() < 64 {
        let cur = funcs[k];
        k += 1;
        for i in cur.instructions() {
            let init_state = (i.opcode() == Some(Opcode::LLVMCall))
                .then(|| i.called_function())
                .flatten()
                .and_then(|g| ferrozyme_abi::one_time_init_state(&g.name()))
                .filter(|&n| n < i.call_args().len());
            if let Some(n) = init_state {
                let mut o = i.call_args()[n];
                while o.is_constant_expr() && o.num_operands() > 0 {
                    o = o.operand(0);
                }
                one_time.push(o);
            }
            for mut o in i.operands() {
                while o.is_constant_expr() && o.num_operands() > 0 {
                    o = o.operand(0);
                }
                if o.is_function() && !o.is_declaration() && seen_f.insert(o) {
                    funcs.push(o);
                } else if o.is_global_variable()
                    && !o.is_global_constant()
                    && !ferrozyme_abi::is_marker_name(&o.name())
                    && !globals.contains(&o)
                {
                    globals.push(o);
                }
            }
        }
    }
    globals.retain(|g| !one_time.contains(g));
    globals
}

/// Byte offsets of `f`'s parameters in the argument block (16-byte aligned slots).
fn arg_offsets(sup: &Support, f: Value) -> Vec<u64> {
    let mut off = 0;
    f.params()
        .iter()
        .map(|p| {
            let here = off;
            off += sup.module.alloc_size(p.ty()).max(1).div_ceil(16) * 16;
            here
        })
        .collect()
}

/// `double fz_gc_eval.N(ptr args)`: calls `f` with the arguments stored in the block and
/// returns its floating result as a double (0 for other results).
fn evaluator(sup: &mut Support, f: Value, counter: usize, offs: &[u64]) -> Value {
    let ctx = sup.module.context();
    let fty = ctx.function_type(ctx.f64(), &[ctx.ptr()], false);
    let g = sup
        .module
        .add_function(&format!("fz_gc_eval.{counter}"), fty);
    g.set_linkage_internal();
    crate::generated::mark(g);
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
