//! What an automatically checkpointed loop body writes, and how big its tape is, as
//! integer expressions the loop's preheader computes (`auto.rs`).
//!
//! A snapshot must hold every byte the body overwrites that the next iteration may read;
//! taking everything it writes is the safe superset. `writes.rs` already proves that every
//! write of the outlined step lands in a local, a global (the lowering snapshots those
//! whole) or memory reached from one of the step's pointer parameters. For those, this
//! file bounds the written bytes: each address is `param + offset` with the offset an
//! interval `[lo, hi]` whose ends are IR values built in the caller before the loop
//! (so sizes only need to be known on entry, e.g. the `m` of `x[0..m)`):
//!
//! * constants, and the step's integer parameters (loop invariants of the caller);
//! * the induction variable of a counted loop (`counted.rs`) ranges over `[start, last]`;
//! * `+`, `-`, `*` and `<<` by constants, casts, `select`, `%` and `/` by positive
//!   constants of a non-negative value, `and` with a low mask;
//! * through calls of defined functions, the callee's parameters get the intervals of
//!   the arguments (context-sensitive, bounded depth).
//!
//! A write through a pointer parameter whose offset cannot be bounded this way, or that
//! may fall before the parameter's address, is a refusal: the loop keeps full taping.
//! The same walk estimates the tape of one iteration: 8 bytes per floating-point value
//! the body loads or gets from a call (what reverse sweeps usually cache; arithmetic
//! is mostly recomputed), each block weighted by the trip counts of the counted
//! loops around it (1 for a loop whose trip count is not recognised). It is an
//! estimate deciding between two correct schedules, never a size anything relies on.
//!
//! Assumed, not checked: that the ranges the body's counted loops run over are really
//! executed (a write under a condition is counted as if it happened), so a region is
//! the hull of the addresses those loops can form.

use ferrozyme_analysis::hash::HashMap;

use crate::common::ir_text::quote;
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::Loops;

use super::counted::{counted, Counted};
use ferrozyme_llvm::{Block, Builder, IntPredicate, Module, Opcode, Type, Value};

/// An interval of `i64` values built in the caller; `min` is a constant lower bound
/// when one is known.
#[derive(Clone, Copy)]
pub(crate) struct Iv {
    pub lo: Value,
    pub hi: Value,
    pub min: Option<i64>,
}

/// What a value of the step stands for.
#[derive(Clone, Copy)]
pub(crate) enum Sym {
    Int(Iv),
    /// `param #root + offset` (bytes).
    Ptr {
        root: usize,
        off: Iv,
    },
    /// A local, a fresh allocation or a global: not a region of the loop's state.
    Elsewhere,
}

/// The result of the walk.
pub(crate) struct Facts {
    /// (step parameter index after the step number, bytes written from it).
    pub regions: Vec<(usize, Value)>,
    /// Estimated tape bytes of one iteration.
    pub tape: Value,
    /// Whether the body reads memory it writes (the state it carries to the next step).
    pub carried: bool,
}

/// The step parameter `ptr` is computed from (through GEPs, casts and selects), if any.
fn root_of(ptr: Value, env: &HashMap<Value, Sym>) -> Option<usize> {
    let mut v = ptr;
    for _ in 0..32 {
        v = crate::request::strip_casts(v);
        if let Some(Sym::Ptr { root, .. }) = env.get(&v) {
            return Some(*root);
        }
        match v.opcode().or_else(|| v.const_opcode()) {
            Some(Opcode::LLVMGetElementPtr) => v = v.operand(0),
            Some(Opcode::LLVMSelect) => v = v.operand(1),
            _ => return None,
        }
    }
    None
}

pub(crate) struct Walk<'a> {
    pub module: Module,
    pub b: &'a Builder,
    counted: HashMap<Value, HashMap<Value, Counted>>,
    /// Loops of each function (block -> enclosing counted loops' phis).
    regions: HashMap<usize, (Value, Value)>,
    calls: usize,
    visiting: ferrozyme_analysis::hash::HashSet<Value>,
    /// Step parameters the body loads from (directly or in a callee).
    read: ferrozyme_analysis::hash::HashSet<usize>,
}

const MAX_DEPTH: u32 = 8;
const MAX_CALLS: usize = 256;

impl<'a> Walk<'a> {
    pub fn new(module: Module, b: &'a Builder) -> Walk<'a> {
        Walk {
            module,
            b,
            counted: HashMap::default(),
            regions: HashMap::default(),
            calls: 0,
            visiting: Default::default(),
            read: Default::default(),
        }
    }

    fn i64t(&self) -> Type {
        self.module.context().i64()
    }
    fn c(&self, x: i64) -> Value {
        self.module.context().i64().const_i64(x)
    }
    pub fn point(&self, v: Value) -> Iv {
        let v = self.to_i64(v, false);
        Iv {
            lo: v,
            hi: v,
            min: v.const_int_value(),
        }
    }
    pub fn to_i64(&self, v: Value, unsigned: bool) -> Value {
        let w = v.ty().int_width().unwrap_or(64);
        if w == 64 {
            v
        } else if w < 64 && (unsigned || w == 1) {
            self.b.zext(v, self.i64t())
        } else if w < 64 {
            self.b.sext(v, self.i64t())
        } else {
            self.b.trunc(v, self.i64t())
        }
    }
    fn smin(&self, a: Value, b: Value) -> Value {
        if a == b {
            return a;
        }
        let c = self.b.icmp(IntPredicate::LLVMIntSLT, a, b);
        self.b.select(c, a, b)
    }
    fn smax(&self, a: Value, b: Value) -> Value {
        if a == b {
            return a;
        }
        let c = self.b.icmp(IntPredicate::LLVMIntSGT, a, b);
        self.b.select(c, a, b)
    }
    fn add(&self, a: Iv, b: Iv) -> Iv {
        Iv {
            lo: self.b.add(a.lo, b.lo),
            hi: self.b.add(a.hi, b.hi),
            min: a.min.zip(b.min).map(|(x, y)| x.saturating_add(y)),
        }
    }
    fn scale(&self, a: Iv, k: i64) -> Iv {
        let kc = self.c(k);
        let (lo, hi) = (self.b.mul(a.lo, kc), self.b.mul(a.hi, kc));
        if k >= 0 {
            Iv {
                lo,
                hi,
                min: a.min.map(|m| m.saturating_mul(k)),
            }
        } else {
            Iv {
                lo: hi,
                hi: lo,
                min: None,
            }
        }
    }
    fn union(&self, a: Iv, b: Iv) -> Iv {
        Iv {
            lo: self.smin(a.lo, b.lo),
            hi: self.smax(a.hi, b.hi),
            min: a.min.zip(b.min).map(|(x, y)| x.min(y)),
        }
    }

    /// The counted loops of `f`, by induction phi.
    fn loops_of(&mut self, f: Value) -> &HashMap<Value, Counted> {
        self.counted.entry(f).or_insert_with(|| {
            let cfg = Cfg::new(f);
            let loops = Loops::new(&cfg);
            loops
                .loops
                .iter()
                .filter_map(counted)
                .map(|c| (c.phi, c))
                .collect()
        })
    }

    fn int(&mut self, v: Value, env: &HashMap<Value, Sym>, depth: u32) -> Result<Iv, String> {
        if depth > 48 {
            return Err("an index computed too deeply".into());
        }
        if let Some(x) = v.const_int_value() {
            return Ok(self.point(v).with_min(x));
        }
        if let Some(s) = env.get(&v) {
            return match s {
                Sym::Int(iv) => Ok(*iv),
                _ => Err("a pointer used as an index".into()),
            };
        }
        let Some(op) = v.opcode() else {
            return Err(format!("the index `{}`", quote(v)));
        };
        let d = depth + 1;
        use Opcode::*;
        match op {
            LLVMPHI => {
                let f = v.parent_function();
                let Some((start, bound, extra, unsigned)) = self
                    .loops_of(f)
                    .get(&v)
                    .map(|c| (c.start, c.bound, c.extra, c.unsigned))
                else {
                    // A value merged after branches or loops (a loop's exit value, a
                    // peeled iteration's counter): the hull of what flows in.
                    if !self.visiting.insert(v) {
                        return Err(format!("the index `{}` (a loop-carried value that is not a counted loop's counter)", quote(v)));
                    }
                    let mut acc: Option<Iv> = None;
                    for (x, _) in v.incoming() {
                        let r = match self.int(x, env, d) {
                            Ok(r) => r,
                            Err(e) => {
                                self.visiting.remove(&v);
                                return Err(e);
                            }
                        };
                        acc = Some(match acc {
                            Some(a) => self.union(a, r),
                            None => r,
                        });
                    }
                    self.visiting.remove(&v);
                    return acc.ok_or_else(|| format!("the index `{}`", quote(v)));
                };
                let bnd = self.int_u(bound, env, d, unsigned)?;
                let last = self.b.add(bnd.hi, self.c(extra));
                let s = self.c(start);
                Ok(Iv {
                    lo: s,
                    hi: self.smax(s, last),
                    min: Some(start),
                })
            }
            LLVMAdd | LLVMSub => {
                let a = self.int(v.operand(0), env, d)?;
                let bv = self.int(v.operand(1), env, d)?;
                if op == LLVMAdd {
                    Ok(self.add(a, bv))
                } else {
                    let neg = Iv {
                        lo: self.b.sub(self.c(0), bv.hi),
                        hi: self.b.sub(self.c(0), bv.lo),
                        min: None,
                    };
                    let mut r = self.add(a, neg);
                    r.min = match (a.min, bv.hi.const_int_value()) {
                        (Some(x), Some(y)) => Some(x.saturating_sub(y)),
                        _ => None,
                    };
                    Ok(r)
                }
            }
            LLVMMul | LLVMShl => {
                let (x, k) = if let Some(k) = v.operand(1).const_int_value() {
                    (v.operand(0), k)
                } else if let (Some(k), true) = (v.operand(0).const_int_value(), op == LLVMMul) {
                    (v.operand(1), k)
                } else {
                    return Err(format!("the index `{}` (a product of variables)", quote(v)));
                };
                let k = if op == LLVMShl {
                    if !(0..32).contains(&k) {
                        return Err(format!("the index `{}`", quote(v)));
                    }
                    1i64 << k
                } else {
                    k
                };
                let a = self.int(x, env, d)?;
                Ok(self.scale(a, k))
            }
            LLVMSExt | LLVMTrunc => self.int(v.operand(0), env, d),
            LLVMZExt => self.int_u(v.operand(0), env, d, true),
            LLVMSelect => {
                let a = self.int(v.operand(1), env, d)?;
                let bv = self.int(v.operand(2), env, d)?;
                Ok(self.union(a, bv))
            }
            LLVMSRem | LLVMURem | LLVMSDiv | LLVMUDiv | LLVMAnd => {
                let k = v.operand(1).const_int_value().filter(|k| *k > 0);
                let a = self.int(v.operand(0), env, d)?;
                let (Some(k), Some(m)) = (k, a.min.filter(|m| *m >= 0)) else {
                    return Err(format!("the index `{}` (may be negative)", quote(v)));
                };
                match op {
                    LLVMSRem | LLVMURem => Ok(Iv {
                        lo: self.c(0),
                        hi: self.smin(a.hi, self.c(k - 1)),
                        min: Some(0),
                    }),
                    LLVMAnd if k >= u32::MAX as i64 && (k + 1) & k == 0 => Ok(a),
                    LLVMAnd => Ok(Iv {
                        lo: self.c(0),
                        hi: self.smin(a.hi, self.c(k)),
                        min: Some(0),
                    }),
                    _ => Ok(Iv {
                        lo: self.b.binop(LLVMSDiv, a.lo, self.c(k)),
                        hi: self.b.binop(LLVMSDiv, a.hi, self.c(k)),
                        min: Some(m / k),
                    }),
                }
            }
            _ => Err(format!("the index `{}`", quote(v))),
        }
    }

    fn int_u(
        &mut self,
        v: Value,
        env: &HashMap<Value, Sym>,
        depth: u32,
        unsigned: bool,
    ) -> Result<Iv, String> {
        if unsigned {
            if let Some(x) = v.const_int_value() {
                let w = v.ty().int_width().unwrap_or(64);
                let x = if w < 64 { x & ((1i64 << w) - 1) } else { x };
                return Ok(self.point(self.c(x)).with_min(x));
            }
        }
        self.int(v, env, depth)
    }

    fn ptr(&mut self, v: Value, env: &HashMap<Value, Sym>, depth: u32) -> Result<Sym, String> {
        if depth > 48 {
            return Err("an address computed too deeply".into());
        }
        let v = crate::request::strip_casts(v);
        if let Some(s) = env.get(&v) {
            return Ok(*s);
        }
        if v.is_global_variable() || v.is_null() || v.is_undef() || v.is_function() {
            return Ok(Sym::Elsewhere);
        }
        let op = v.opcode().or_else(|| v.const_opcode());
        match op {
            Some(Opcode::LLVMAlloca) => Ok(Sym::Elsewhere),
            Some(Opcode::LLVMCall) if v.is_instruction() => {
                if ferrozyme_analysis::calls::is_fresh_c_allocation(v) {
                    Ok(Sym::Elsewhere)
                } else {
                    Err("a pointer returned by a call".into())
                }
            }
            Some(Opcode::LLVMGetElementPtr) => {
                let base = self.ptr(v.operand(0), env, depth + 1)?;
                let Sym::Ptr { root, off } = base else {
                    return Ok(base);
                };
                let off = self.gep_offset(v, off, env, depth)?;
                Ok(Sym::Ptr { root, off })
            }
            Some(Opcode::LLVMSelect) => {
                let a = self.ptr(v.operand(1), env, depth + 1)?;
                let b = self.ptr(v.operand(2), env, depth + 1)?;
                match (a, b) {
                    (Sym::Elsewhere, Sym::Elsewhere) => Ok(Sym::Elsewhere),
                    (Sym::Ptr { root: r, off: x }, Sym::Ptr { root: q, off: y }) if r == q => {
                        Ok(Sym::Ptr {
                            root: r,
                            off: self.union(x, y),
                        })
                    }
                    _ => Err("a pointer chosen between different objects".into()),
                }
            }
            _ => Err(format!("the address `{}`", quote(v))),
        }
    }

    fn gep_offset(
        &mut self,
        gep: Value,
        mut off: Iv,
        env: &HashMap<Value, Sym>,
        depth: u32,
    ) -> Result<Iv, String> {
        let mut ty = gep.gep_source_type();
        for k in 1..gep.num_operands() {
            let idx = gep.operand(k);
            if k == 1 {
                let i = self.int(idx, env, depth + 1)?;
                off = self.add(off, self.scale(i, self.module.alloc_size(ty) as i64));
                continue;
            }
            if ty.kind() == ferrozyme_llvm::TypeKind::Struct {
                let fields = ty.struct_fields();
                let j = idx
                    .const_int_value()
                    .ok_or("a structure field chosen at run time")?;
                let o = self.module.field_offset(ty, j as u32) as i64;
                off = self.add(off, self.point(self.c(o)).with_min(o));
                ty = *fields
                    .get(j as usize)
                    .ok_or("a structure field out of range")?;
            } else if matches!(
                ty.kind(),
                ferrozyme_llvm::TypeKind::Array | ferrozyme_llvm::TypeKind::Vector
            ) {
                let elem = ty.element_type();
                let i = self.int(idx, env, depth + 1)?;
                off = self.add(off, self.scale(i, self.module.alloc_size(elem) as i64));
                ty = elem;
            } else {
                return Err(format!("the address `{}`", quote(gep)));
            }
        }
        Ok(off)
    }

    /// Records `len` bytes written at `ptr`.
    fn write(
        &mut self,
        ptr: Value,
        len: Iv,
        env: &HashMap<Value, Sym>,
        inst: Value,
    ) -> Result<(), String> {
        match self.ptr(ptr, env, 0) {
            Ok(Sym::Ptr { root, off }) => {
                if !off.min.is_some_and(|m| m >= 0) {
                    return Err(format!(
                        "`{}` may write before the start of the memory it is given",
                        quote(inst)
                    ));
                }
                let end = self.b.add(off.hi, len.hi);
                let end = match self.regions.get(&root) {
                    Some((_, e)) => self.smax(*e, end),
                    None => end,
                };
                self.regions.insert(root, (ptr, end));
                Ok(())
            }
            Ok(_) => Ok(()),
            Err(why) => Err(format!("`{}` writes through {why}", quote(inst))),
        }
    }

    /// Walks `f` under `env`: records its writes and returns its estimated tape bytes.
    pub fn walk(
        &mut self,
        f: Value,
        env: &HashMap<Value, Sym>,
        depth: u32,
    ) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "calls nested more than {MAX_DEPTH} deep (in `{}`)",
                f.name()
            ));
        }
        let cfg = Cfg::new(f);
        let loops = Loops::new(&cfg);
        // The weight of a block: the product of the trip counts of the loops around it.
        let mut weights: HashMap<Block, Value> = HashMap::default();
        let mut tape = self.c(0);
        for blk in f.blocks() {
            let mut w = self.c(1);
            for l in loops.loops.iter().filter(|l| l.blocks.contains(&blk)) {
                let trips = match counted(l) {
                    Some(c) => match self.int_u(c.bound, env, 1, c.unsigned) {
                        Ok(b) => {
                            let n = self.b.add(b.hi, self.c(c.extra + 1 - c.start));
                            self.smax(n, self.c(1))
                        }
                        Err(_) => self.c(1),
                    },
                    None => self.c(1),
                };
                w = self.b.mul(w, trips);
            }
            weights.insert(blk, w);
            let mut floats = 0i64;
            for inst in blk.instructions() {
                if tapes_like(inst) {
                    floats += 1;
                }
                self.inst(inst, env, depth, w, &mut tape)?;
            }
            if floats > 0 {
                let t = self.b.mul(w, self.c(8 * floats));
                tape = self.b.add(tape, t);
            }
        }
        Ok(tape)
    }

    fn inst(
        &mut self,
        inst: Value,
        env: &HashMap<Value, Sym>,
        depth: u32,
        weight: Value,
        tape: &mut Value,
    ) -> Result<(), String> {
        let size = |t: Type, w: &Walk| {
            let n = w.module.store_size(t) as i64;
            w.point(w.c(n)).with_min(n)
        };
        match inst.opcode() {
            Some(Opcode::LLVMLoad) => {
                if let Some(r) = root_of(inst.operand(0), env) {
                    self.read.insert(r);
                }
                Ok(())
            }
            Some(Opcode::LLVMStore) => {
                let len = size(inst.operand(0).ty(), self);
                self.write(inst.operand(1), len, env, inst)
            }
            Some(Opcode::LLVMAtomicRMW) | Some(Opcode::LLVMAtomicCmpXchg) => {
                let len = size(inst.operand(1).ty(), self);
                self.write(inst.operand(0), len, env, inst)
            }
            Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke) => {
                let Some(g) = inst.called_function() else {
                    return Err(format!("`{}` is an indirect call", quote(inst)));
                };
                let name = g.name();
                let args = inst.call_args();
                if name.starts_with("llvm.") {
                    if ["llvm.memcpy", "llvm.memmove", "llvm.memset"]
                        .iter()
                        .any(|p| name.starts_with(p))
                    {
                        if !name.starts_with("llvm.memset") {
                            if let Some(r) = root_of(args[1], env) {
                                self.read.insert(r);
                            }
                        }
                        let len = self
                            .int(args[2], env, 0)
                            .map_err(|w| format!("`{}` copies {w} bytes", quote(inst)))?;
                        return self.write(args[0], len, env, inst);
                    }
                    return Ok(());
                }
                if g.is_declaration() {
                    // writes.rs refused calls that may write through the step's memory;
                    // what is left writes locals or nothing.
                    for a in args.iter().filter(|a| a.ty().is_pointer()) {
                        if let Ok(Sym::Ptr { .. }) = self.ptr(*a, env, 0) {
                            let reads = g.memory_effects().is_some_and(|m| m.only_reads())
                                || ferrozyme_abi::inactive_library(&name).is_some_and(|r| {
                                    !matches!(
                                        r.writes,
                                        ferrozyme_abi::Writes::CharsTo(_)
                                            | ferrozyme_abi::Writes::PointerTo(_)
                                            | ferrozyme_abi::Writes::IntegersTo(_)
                                    )
                                });
                            if !reads {
                                return Err(format!(
                                    "`{}` passes the loop's memory to `{name}`, which may write an amount the analysis cannot bound",
                                    quote(inst)
                                ));
                            }
                        }
                    }
                    return Ok(());
                }
                self.calls += 1;
                if self.calls > MAX_CALLS {
                    return Err("the body makes too many calls to analyse".into());
                }
                let mut inner = HashMap::default();
                for (p, a) in g.params().into_iter().zip(args) {
                    let s = if a.ty().is_pointer() {
                        self.ptr(a, env, 0).ok()
                    } else if a.ty().is_integer() {
                        self.int(a, env, 0).ok().map(Sym::Int)
                    } else {
                        None
                    };
                    if let Some(s) = s {
                        inner.insert(p, s);
                    }
                }
                let t = self.walk(g, &inner, depth + 1)?;
                let t = self.b.mul(t, weight);
                *tape = self.b.add(*tape, t);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The regions found, by step parameter.
    pub fn facts(mut self, tape: Value) -> Facts {
        let mut regions: Vec<(usize, Value)> =
            self.regions.drain().map(|(k, (_, e))| (k, e)).collect();
        regions.sort_by_key(|(k, _)| *k);
        let carried = regions.iter().any(|(k, _)| self.read.contains(k));
        Facts {
            regions,
            tape,
            carried,
        }
    }
}

/// What a reverse sweep usually keeps on its tape: floating-point values loaded from
/// memory (which may be overwritten) and results of calls (not recomputed); arithmetic
/// on them is mostly recomputed.
fn tapes_like(i: Value) -> bool {
    i.ty().is_fp()
        && (i.opcode() == Some(Opcode::LLVMLoad)
            || (i.is_call()
                && i.called_function()
                    .is_none_or(|g| !g.name().starts_with("llvm."))))
}

impl Iv {
    fn with_min(mut self, m: i64) -> Iv {
        self.min = Some(m);
        self
    }
}
