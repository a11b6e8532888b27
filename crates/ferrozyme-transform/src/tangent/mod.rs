//! Forward-mode (tangent) synthesis, scalar and batched.
//!
//! One generated function per [`TangentRequest`]: the primal, copied block by block in
//! reverse postorder, with each active instruction's *tangent* emitted right after its
//! copy. A tangent has `width` lanes (vector mode = several directions in one pass, all
//! sharing the primal computation). Values carry:
//!
//! * floats (scalars, vectors, aggregates): the directional derivative, same type;
//! * pointers with a shadow: the shadow pointer of each lane — shadow memory holds the
//!   tangents of what the primal memory holds, so loads read tangents and stores write them
//!   (an inactive value stored into shadowed memory writes a zero tangent);
//! * integers that carry floats bit for bit (`i64` copies of doubles, packed float pairs):
//!   the tangent's bits, moved by the same bit operations (sign-bit tricks get their rule).
//!
//! There is no tape and no reverse sweep, so forward mode needs no type analysis beyond
//! what activity uses, and every allocation's shadow lives exactly as long as the primal.
//!
//! The generated function takes each primal parameter followed by `width` shadows when
//! the parameter is active (`Active` floats: tangent values; `Dup` pointers: shadow
//! pointers), and returns `{ primal result?, width tangents of the result? }` (void when
//! both are absent).

mod calls;
mod inst;
mod mixed;

use std::collections::HashMap;

use ferrozyme_analysis::activity::{carries_fp, Activity, ActivityInput, ArgActivity};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{
    fastmath, Builder, Context, DiagKind, Diagnostic, Module, Opcode, Type, Value,
};

use crate::driver::Driver;

/// What to differentiate in forward mode: a function, its arguments' activity, and the
/// number of directions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TangentRequest {
    pub func: Value,
    pub args: Vec<ArgActivity>,
    pub width: u32,
}

/// Does a value of this type get a tangent in the return struct?
fn has_tangent_type(t: Type) -> bool {
    carries_fp(t) || t.contains_pointer()
}

/// Parameter types of the generated function.
pub fn tangent_params(req: &TangentRequest) -> Vec<Type> {
    let mut v = Vec::new();
    for (p, a) in req.func.params().into_iter().zip(&req.args) {
        v.push(p.ty());
        if *a != ArgActivity::Const {
            for _ in 0..req.width {
                v.push(p.ty());
            }
        }
    }
    v
}

/// Return type of the generated function: `{ primal?, tangent x width? }` or void.
pub fn tangent_return_type(req: &TangentRequest) -> Type {
    let ctx = req.func.ty().context();
    let ret = req.func.function_type().return_type();
    if ret.is_void() {
        return ctx.void();
    }
    let mut f = vec![ret];
    if has_tangent_type(ret) {
        for _ in 0..req.width {
            f.push(ret);
        }
    }
    ctx.struct_type(&f)
}

/// Does the generated function return tangents of the result?
pub fn returns_tangent(req: &TangentRequest) -> bool {
    has_tangent_type(req.func.function_type().return_type())
}

pub(crate) struct TangentGen<'d> {
    d: &'d mut Driver,
    m: Module,
    ctx: Context,
    /// Fast-math flags for derivative code outside floating-point instructions
    /// (`ferrozyme_llvm::fastmath`).
    fmf: u32,
    b: Builder,
    /// Builder for shadow allocas at the top of the generated entry block.
    eb: Builder,
    fname: String,
    req: TangentRequest,
    p: Value,
    g: Value,
    cfg: Cfg,
    act: Activity,
    /// Primal value (or block) of `p` -> its copy in `g`.
    map: HashMap<Value, Value>,
    /// Primal value -> its tangent lanes in `g`.
    tan: HashMap<Value, Vec<Value>>,
    /// Run-time validity of shadows of pointers of mixed activity (see `mixed.rs`).
    valid: HashMap<Value, Value>,
    diags: Vec<Diagnostic>,
}

impl<'d> TangentGen<'d> {
    /// Synthesizes the forward derivative of `p` (the preprocessed clone of `req.func`)
    /// into the empty function `g`.
    pub(crate) fn run(
        d: &'d mut Driver,
        req: &TangentRequest,
        p: Value,
        g: Value,
    ) -> Result<(), Vec<Diagnostic>> {
        let m = d.module;
        let ctx = m.context();
        let cfg = Cfg::new(p);
        let types = d.types_for_clone(p, req.func);
        let mut act = Activity::run_full(
            &ActivityInput {
                func: p,
                args: &req.args,
                global_touchers: &d.touchers,
            },
            Some(&types),
            true,
        );
        act.restrict_to_useful(p);
        let smuggled: Vec<Value> = p
            .blocks()
            .into_iter()
            .flat_map(|b| b.instructions())
            .filter(|i| ferrozyme_analysis::activity::is_smuggled_pointer(*i, &types))
            .collect();
        if d.print_activity {
            let orig = req.func.name();
            d.printout.push_str(
                &act.print(p)
                    .replace(&format!("@{}", p.name()), &format!("@{orig}")),
            );
        }
        let b = Builder::new(ctx);
        let eb = Builder::new(ctx);
        let fmf = fastmath::function_default(p);
        b.set_fast_math(fmf);
        let mut t = TangentGen {
            d,
            m,
            ctx,
            fmf,
            b,
            eb,
            fname: req.func.name(),
            req: req.clone(),
            p,
            g,
            cfg,
            act,
            map: HashMap::new(),
            tan: HashMap::new(),
            valid: HashMap::new(),
            diags: Vec::new(),
        };
        for i in smuggled {
            t.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "a pointer rebuilt from an integer (`inttoptr`) may point into differentiable memory; shadows are not followed through integers".to_string(),
                "keep the pointer a pointer (no casts to and from integers) in the differentiated code",
            );
        }
        if t.diags.is_empty() && t.check_supported() {
            t.emit();
        }
        if t.diags.is_empty() {
            Ok(())
        } else {
            Err(t.diags)
        }
    }

    fn width(&self) -> usize {
        self.req.width as usize
    }

    fn diag(&mut self, kind: DiagKind, at: Option<Value>, msg: String, help: &str) {
        let mut d = Diagnostic::new(kind, msg)
            .in_function(self.fname.clone())
            .with_help(help.to_string());
        if let Some(i) = at {
            d = d.at_instruction(i.to_string()).at_loc(i.source_loc());
        }
        self.diags.push(d);
    }

    /// Rejects what forward mode cannot size or replay, before any code is emitted:
    /// scalable vectors (`<vscale x N x T>`) and exception handling. True when supported.
    fn check_supported(&mut self) -> bool {
        use Opcode::*;
        for blk in self.cfg.blocks.clone() {
            for i in blk.instructions() {
                let op = i.opcode().expect("instruction");
                if i.involves_scalable() {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        "scalable vectors (`<vscale x N x T>`) are not differentiated".to_string(),
                        "use fixed-width vectors in the differentiated function",
                    );
                    return false;
                }
                if ferrozyme_llvm::is_exception_handling(op)
                    || matches!(op, LLVMCallBr | LLVMIndirectBr)
                {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        format!(
                            "cannot differentiate `{}` instructions in forward mode: exception handling and indirect branches are not supported",
                            ferrozyme_llvm::opcode_name(op)
                        ),
                        "mark the function nounwind / compile with -fno-exceptions, or move this code out of the differentiated function",
                    );
                    return false;
                }
            }
        }
        true
    }

    fn emit(&mut self) {
        let entry = self.b.append_block(self.g, "fz.entry");
        self.eb.position_at_end(entry);
        // Parameters.
        let gp = self.g.params();
        let mut k = 0;
        for (p, a) in self.p.params().into_iter().zip(self.req.args.clone()) {
            gp[k].set_name(&p.name());
            self.map.insert(p, gp[k]);
            k += 1;
            if a != ArgActivity::Const {
                let lanes: Vec<Value> = (0..self.width())
                    .map(|l| {
                        gp[k + l].set_name(&format!("{}.d{l}", p.name()));
                        gp[k + l]
                    })
                    .collect();
                k += self.width();
                self.tan.insert(p, lanes);
            }
        }
        // One block per reachable primal block.
        let order = self.cfg.rpo();
        for blk in &order {
            let nb = self.b.append_block(self.g, &blk.name());
            self.map.insert(blk.as_value(), nb.as_value());
        }
        let mut phis = Vec::new();
        for blk in &order {
            let nb = self.map[&blk.as_value()].as_block();
            self.b.position_at_end(nb);
            for i in blk.phis() {
                let np = self.b.phi(i.ty(), &i.name());
                self.map.insert(i, np);
                let lanes: Vec<Value> = if self.needs_tangent(i) {
                    (0..self.width())
                        .map(|l| self.b.phi(i.ty(), &format!("{}.d{l}", i.name())))
                        .collect()
                } else {
                    Vec::new()
                };
                if !lanes.is_empty() {
                    self.tan.insert(i, lanes.clone());
                }
                if i.ty().is_pointer() {
                    for (v, _) in i.incoming() {
                        if !self.act.is_shadowed(v)
                            && self.act.is_shadowed(i)
                            && !ferrozyme_analysis::activity::is_unaddressable(v)
                        {
                            self.diag(
                                DiagKind::UnsupportedInstruction,
                                Some(i),
                                "a phi merges pointers to constant (enzyme_const) and duplicated memory (mismatched activity)".to_string(),
                                "pass both pointers as enzyme_dup (a zero shadow for the constant one)",
                            );
                            break;
                        }
                    }
                }
                phis.push((i, np, lanes));
            }
            for i in blk.instructions() {
                if i.opcode() != Some(Opcode::LLVMPHI) {
                    let prev = self.b.set_fast_math(fastmath::for_instruction(i, self.fmf));
                    self.tangent_inst(i);
                    self.b.set_fast_math(prev);
                }
            }
        }
        for (orig, np, lanes) in phis {
            for (v, pb) in orig.incoming() {
                if !self.cfg.is_reachable(pb) {
                    continue;
                }
                let gpb = self.map[&pb.as_value()].as_block();
                np.add_incoming(self.prim(v), gpb);
                if !lanes.is_empty() {
                    let term = gpb.terminator().expect("copied blocks are terminated");
                    self.b.position_before(term);
                    let t = self.tangent(v);
                    for (lp, tv) in lanes.iter().zip(t) {
                        lp.add_incoming(tv, gpb);
                    }
                }
            }
        }
        let first = self.map[&order[0].as_value()].as_block();
        self.eb.position_at_end(entry);
        self.eb.br(first);
    }

    /// Does `v` get tangent lanes?
    fn needs_tangent(&self, v: Value) -> bool {
        self.act.is_active(v) || (v.ty().contains_pointer() && self.act.is_shadowed(v))
    }

    /// The copy of a primal operand in `g`.
    fn prim(&self, v: Value) -> Value {
        if let Some(&x) = self.map.get(&v) {
            return x;
        }
        if v.is_instruction() || v.is_argument() {
            // Defined in an unreachable block: never used at run time.
            return v.ty().poison();
        }
        v
    }

    /// The tangent lanes of an operand, at the builder's position: computed ones, shadows
    /// of constants (globals with shadows), or zeros for inactive values.
    fn tangent(&mut self, v: Value) -> Vec<Value> {
        if let Some(t) = self.tan.get(&v) {
            return t.clone();
        }
        if (v.is_instruction() || v.is_argument()) && self.needs_tangent(v) {
            if v.is_instruction() && !self.cfg.is_reachable(v.parent_block()) {
                return vec![v.ty().poison(); self.width()];
            }
            let op = v
                .opcode()
                .map(ferrozyme_llvm::opcode_name)
                .unwrap_or("argument");
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(v),
                format!("forward mode has no tangent rule for this `{op}` instruction"),
                "please report this; as a workaround keep the values involved constant (enzyme_const)",
            );
            return vec![v.ty().zero(); self.width()];
        }
        (0..self.width())
            .map(|l| self.const_tangent(v, l))
            .collect()
    }

    /// The tangent of a constant in lane `l`: the shadow of a global with one, else zero.
    fn const_tangent(&mut self, v: Value, l: usize) -> Value {
        let t = v.ty();
        if !t.is_pointer() {
            return t.zero();
        }
        if v.is_global_variable() {
            return if ferrozyme_analysis::activity::global_needs_shadow(v) {
                self.d.shadow_global_lane(v, l)
            } else {
                t.zero()
            };
        }
        if v.is_constant_expr() {
            match v.const_opcode() {
                Some(Opcode::LLVMGetElementPtr) => {
                    let base = self.const_tangent(v.operand(0), l);
                    if base.is_null() {
                        return t.zero();
                    }
                    let idx: Vec<Value> = v.operands()[1..].to_vec();
                    return self.b.gep(v.gep_source_type(), base, &idx);
                }
                Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast) => {
                    return self.const_tangent(v.operand(0), l);
                }
                _ => {}
            }
        }
        t.zero()
    }

    /// Copies `i` into `g` at the builder, operands mapped.
    fn copy(&mut self, i: Value) -> Value {
        let c = i.clone_instruction();
        self.b.insert(c);
        c.set_name(&i.name());
        c.clear_debug_loc();
        for k in 0..c.num_operands() {
            let op = c.operand(k);
            let n = self.prim(op);
            if n != op {
                c.set_operand(k, n);
            }
        }
        self.map.insert(i, c);
        c
    }

    /// Per lane: a copy of the (already copied) instruction `c` with the operands at
    /// `which` replaced by their tangents in that lane.
    fn same_op_on_tangents(&mut self, i: Value, c: Value, which: &[u32]) -> Vec<Value> {
        let tans: Vec<Vec<Value>> = which.iter().map(|&k| self.tangent(i.operand(k))).collect();
        (0..self.width())
            .map(|l| {
                let s = c.clone_instruction();
                self.b.insert(s);
                for (n, &k) in which.iter().enumerate() {
                    s.set_operand(k, tans[n][l]);
                }
                s
            })
            .collect()
    }
}
