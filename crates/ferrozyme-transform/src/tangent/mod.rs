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
mod error;
mod inst;
mod mixed;
mod parallel;

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::activity::{Activity, ArgActivity};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_llvm::{fastmath, Builder, Context, Diagnostic, Module, Opcode, Value};

use crate::analyses::Analyses;
use crate::common::{Diags, Problem};
use crate::lanes::Lane;
use crate::services::{Callees, Support};
use crate::signature::TangentRequest;

/// Facts about the function being differentiated, fixed before emission starts.
struct Facts {
    m: Module,
    ctx: Context,
    req: TangentRequest,
    /// The preprocessed clone of `req.func` that is differentiated.
    p: Value,
    /// The generated function.
    g: Value,
    cfg: Cfg,
    act: Activity,
    types: ferrozyme_analysis::types::TypeAnalysis,
    /// Fast-math flags for derivative code outside floating-point instructions
    /// (`ferrozyme_llvm::fastmath`).
    fmf: u32,
    /// Where shadows may be primals at run time (`common::runtime_activity`).
    rt: crate::common::runtime_activity::RuntimeActivity,
    /// Stores through placeholder primals (`placeholder.rs`): only their tangents are
    /// written.
    dropped: ferrozyme_analysis::hash::HashSet<Value>,
}

/// The forward-mode synthesizer of one function.
pub(crate) struct TangentGen<'s> {
    fx: Facts,
    /// The emission cursor.
    b: Builder,
    /// Builder for shadow allocas at the top of the generated entry block.
    eb: Builder,
    /// Primal value (or block) of `p` -> its copy in `g`.
    map: HashMap<Value, Value>,
    /// Primal value -> its tangent, one value per lane.
    tan: HashMap<Value, Vec<Value>>,
    /// Run-time validity of shadows of pointers of mixed activity (see `mixed.rs`).
    valid: HashMap<Value, Value>,
    diags: Diags,
    callees: &'s mut dyn Callees,
    sup: &'s mut Support,
}

/// Synthesizes the forward derivative of `p` (the preprocessed clone of `req.func`,
/// analysed in `an`) into the empty function `g`.
pub(crate) fn synthesize(
    callees: &mut dyn Callees,
    sup: &mut Support,
    req: &TangentRequest,
    p: Value,
    an: Analyses,
    g: Value,
) -> Result<(), Vec<Diagnostic>> {
    let m = sup.module;
    let ctx = m.context();
    let b = Builder::new(ctx);
    let eb = Builder::new(ctx);
    let fmf = fastmath::function_default(p);
    b.set_fast_math(fmf);
    let mut diags = Diags::new(req.func.source_name());
    let dropped = crate::placeholder::placeholder_stores(p, &req.placeholder, &mut diags);
    if !diags.is_empty() {
        return diags.into_result();
    }
    let mut t = TangentGen {
        fx: Facts {
            m,
            ctx,
            req: req.clone(),
            p,
            g,
            cfg: an.cfg,
            act: an.act,
            types: an.types,
            fmf,
            rt: an.rt,
            dropped,
        },
        callees,
        sup,
        b,
        eb,
        map: HashMap::default(),
        tan: HashMap::default(),
        valid: HashMap::default(),
        diags,
    };
    if t.check_supported() {
        t.emit();
    }
    t.diags.into_result()
}

impl TangentGen<'_> {
    fn width(&self) -> usize {
        self.fx.req.width as usize
    }

    /// Rejects what forward mode cannot size or replay, before any code is emitted:
    /// scalable vectors (`<vscale x N x T>`) and exception handling. True when supported.
    fn check_supported(&mut self) -> bool {
        use Opcode::*;
        // The silent-zero audit shared with reverse mode (see `audit::body`).
        let fx = &self.fx;
        let reachable = fx.cfg.reachable_blocks();
        let findings = crate::audit::body::check_body(
            fx.p,
            &reachable,
            &fx.act,
            &fx.types,
            &fx.req.args,
            &fx.rt,
        );
        let clean = findings.is_empty();
        for f in findings {
            self.diags.report(Some(f.at), f.problem());
        }
        if !clean {
            return false;
        }
        for blk in self.fx.cfg.blocks.clone() {
            for i in blk.instructions() {
                let op = i.opcode().expect("instruction");
                if i.involves_scalable() {
                    self.diags.report(Some(i), Problem::ScalableVector);
                    return false;
                }
                if ferrozyme_llvm::is_exception_handling(op)
                    || matches!(op, LLVMCallBr | LLVMIndirectBr)
                {
                    self.diags.report(
                        Some(i),
                        Problem::UnsupportedOpcode {
                            opcode: ferrozyme_llvm::opcode_name(op),
                            why: "exception handling and indirect branches are not supported in forward mode; mark the function nounwind / compile with -fno-exceptions, or move this code out of the differentiated function",
                        },
                    );
                    return false;
                }
            }
        }
        true
    }

    fn emit(&mut self) {
        let entry = self.b.append_block(self.fx.g, "fz.entry");
        self.eb.position_at_end(entry);
        // Parameters.
        let gp = self.fx.g.params();
        let mut k = 0;
        for (p, a) in self.fx.p.params().into_iter().zip(self.fx.req.args.clone()) {
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
        let order = self.fx.cfg.rpo();
        for blk in &order {
            let nb = self.b.append_block(self.fx.g, &blk.name());
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
                if i.ty().is_pointer() && !self.fx.rt.is_guarded(i) {
                    // A null pointer, `getelementptr (null, n)` (an empty std::vector's
                    // end, `begin + size` with a null begin), a small integer cast to a
                    // pointer or `undef` (-O1's value on a path that never uses it) is
                    // never dereferenced: its shadow is null, like reverse mode's.
                    for (v, _) in i.incoming() {
                        if !self.fx.act.is_shadowed(v)
                            && self.fx.act.is_shadowed(i)
                            && !v.is_undef()
                            && !ferrozyme_analysis::activity::is_unaddressable(v)
                        {
                            self.diags.report(
                                Some(i),
                                Problem::MixedActivity {
                                    detail: "a phi merges pointers to constant (enzyme_const) and duplicated memory".to_string(),
                                },
                            );
                            break;
                        }
                    }
                }
                phis.push((i, np, lanes));
            }
            for i in blk.instructions() {
                if i.opcode() != Some(Opcode::LLVMPHI) {
                    let prev = self
                        .b
                        .set_fast_math(fastmath::for_instruction(i, self.fx.fmf));
                    self.tangent_inst(i);
                    self.b.set_fast_math(prev);
                }
            }
        }
        for (orig, np, lanes) in phis {
            for (v, pb) in orig.incoming() {
                if !self.fx.cfg.is_reachable(pb) {
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
        self.fx.act.is_active(v) || (v.ty().contains_pointer() && self.fx.act.is_shadowed(v))
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
        if self.fx.rt.is_own_shadow(v) {
            // Run-time activity: a constant pointer is its own shadow.
            let p = self.prim(v);
            return vec![p; self.width()];
        }
        if let Some(s) = self.fx.rt.constant_record_shadow(v) {
            return vec![s; self.width()];
        }
        if (v.is_instruction() || v.is_argument()) && self.needs_tangent(v) {
            if v.is_instruction() && !self.fx.cfg.is_reachable(v.parent_block()) {
                return vec![v.ty().poison(); self.width()];
            }
            let op = v
                .opcode()
                .map(ferrozyme_llvm::opcode_name)
                .unwrap_or("argument");
            self.diags
                .report(Some(v), Problem::NoTangentRule { opcode: op });
            return vec![v.ty().zero(); self.width()];
        }
        Lane::all(self.fx.req.width)
            .map(|l| self.const_tangent(v, l))
            .collect()
    }

    /// The tangent of a constant in lane `l`: the shadow of a global with one, else zero.
    fn const_tangent(&mut self, v: Value, l: Lane) -> Value {
        crate::common::shadows::const_shadow(&self.b, self.sup, v, l)
            .unwrap_or_else(|| v.ty().zero())
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
        crate::common::punned::drop_punned_tbaa(&self.fx.types, &self.fx.act, i, c);
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
