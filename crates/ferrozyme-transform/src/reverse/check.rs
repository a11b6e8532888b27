//! Rejecting, before any code is emitted, what cannot be differentiated correctly:
//! unsupported instructions on the active path, calls without derivatives, integer
//! accesses whose float-ness type analysis cannot decide, and integer arithmetic on the
//! bits of floats beyond the lane moves and sign tricks `bits.rs` understands.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{DiagKind, Opcode, Value};
use ferrozyme_rules::OpKind;

use super::state::Facts;
use crate::common::{ops, Diags, Problem};
use crate::services::Support;

/// Rejects, before emitting anything, instructions on the active path that cannot be
/// differentiated, and calls that have no derivative.
pub(super) fn check_supported(fx: &Facts, sup: &Support, diags: &mut Diags) {
    Checker { fx, sup, diags }.run();
}

/// What to do about an MPI handle freed by a callee of the differentiated function.
const HANDED_HANDLE_FREE_HELP: &str = "free the communicator or datatype outside the differentiated function (after the __enzyme_autodiff call), or in the differentiated function itself (its free is moved after the reverse sweep); at -O1 and above a C++ destructor doing it is inlined and works";

struct Checker<'a> {
    fx: &'a Facts,
    sup: &'a Support,
    diags: &'a mut Diags,
}

impl Checker<'_> {
    fn run(&mut self) {
        // The silent-zero audit shared with forward mode (undifferentiated float types,
        // active values lost in memory without a shadow, pointers rebuilt from integers,
        // constant pointers in shadowed memory, floats crossing calls inside integers).
        let fx = self.fx;
        let reachable = fx.cfg.reachable_blocks();
        for f in crate::audit::body::check_body(
            fx.p,
            &reachable,
            &fx.act,
            &fx.types,
            &fx.req.args,
            &fx.rt,
        ) {
            self.diags.report(Some(f.at), f.problem());
        }
        for blk in reachable {
            for i in blk.instructions() {
                let Some(op) = i.opcode() else { continue };
                if self.check_scalable(i) {
                    continue;
                }
                let touches = self.fx.act.is_active(i)
                    || i.operands().iter().any(|&o| {
                        self.fx.act.is_active(o)
                            || (o.ty().is_pointer_like() && self.fx.act.is_shadowed(o))
                    });
                super::parallel::check_parallel(self.fx, self.sup, self.diags, i);
                if op == Opcode::LLVMCall {
                    self.check_call(i);
                    continue;
                }
                self.check_int_access(i, op);
                self.check_untracked_store(i, op);
                self.check_packed_moves(i, op);
                self.check_mixed_pointers(i, op);
                self.check_bit_ops(i, op);
                if let OpKind::Unsupported { why } = ops::kind(op) {
                    // Exception-handling control flow is never replayed by the sweeps, even
                    // when no active value goes through it (a copied `landingpad` would
                    // also sit in a function without a personality).
                    let eh = ferrozyme_llvm::is_exception_handling(op);
                    if (touches && !ops::integer_cas(i, &self.fx.act, &self.fx.types)) || eh {
                        self.diags.report(
                            Some(i),
                            Problem::UnsupportedOpcode {
                                opcode: ferrozyme_llvm::opcode_name(op),
                                why,
                            },
                        );
                    }
                }
            }
        }
    }

    /// Scalable vectors (`<vscale x N x T>`) anywhere in the function: their size is not
    /// a constant, so shadows and tape slots cannot be sized. True when reported.
    fn check_scalable(&mut self, i: Value) -> bool {
        let scalable = i.involves_scalable();
        if scalable {
            self.diags.report(Some(i), Problem::ScalableVector);
        }
        scalable
    }

    /// A value move (`phi`, `select`, `freeze`, vector lane moves) between a float pair
    /// packed in an `i64` (adjoint `<2 x float>`) and an integer that is not such a pair
    /// (e.g. a lane of an `<8 x i64>`, adjoint `double`): the adjoints would not fit, and
    /// floats packed into integer vectors are not followed yet.
    fn check_packed_moves(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        if !matches!(
            op,
            LLVMPHI
                | LLVMSelect
                | LLVMFreeze
                | LLVMShuffleVector
                | LLVMExtractElement
                | LLVMInsertElement
        ) || !self.fx.act.is_active(i)
        {
            return;
        }
        let ops = i.operands();
        let vals = if op == LLVMSelect {
            &ops[1..]
        } else {
            &ops[..]
        };
        let out_packed = self.fx.act.packed.contains(&i);
        let mismatch = vals.iter().any(|&o| {
            self.fx.act.is_active(o)
                && !o.ty().is_fp()
                && (self.fx.act.packed.contains(&o) != out_packed)
        });
        if mismatch {
            self.diags.report(Some(i), Problem::PackedIntoIntVector);
        }
    }

    /// An integer load or store that moves bytes of differentiable memory whose type is
    /// unknown or conflicting (e.g. a `long *` access to a `double` array, which TBAA
    /// types as `long`): guessing could silently lose or corrupt the derivative.
    fn check_int_access(&mut self, i: Value, op: Opcode) {
        use ferrozyme_analysis::types::BaseType;
        let (val, addr) = match op {
            Opcode::LLVMLoad => (i, i.operand(0)),
            Opcode::LLVMStore => (i.operand(0), i.operand(1)),
            _ => return,
        };
        if !ferrozyme_analysis::activity::is_int_carrier_type(val.ty())
            || !self.fx.act.is_shadowed(addr)
            || self.fx.act.is_active(val)
        {
            return;
        }
        if op == Opcode::LLVMStore && (val.is_constant() || is_constant_bytes_load(val)) {
            // A constant (folded bit pattern of a float, or an integer) overwrites the
            // memory: its adjoint is killed either way (see the reverse of stores).
            return;
        }
        if matches!(
            self.fx.types.access_member_type(i),
            Some(BaseType::Integer | BaseType::Pointer)
        ) {
            // A struct member whose `!tbaa` says integer or pointer (`_List_base::_M_size`):
            // it moves no float bits, whatever else the memory's merged facts hold.
            return;
        }
        if ferrozyme_analysis::activity::shadowed_swap(&self.fx.act, i).is_some() {
            // A swap of untyped bytes whose shadows are swapped with them
            // (`reverse/untyped_moves.rs`): right whatever the bytes are.
            return;
        }
        if super::store_back::is_store_back(i)
            || (op == Opcode::LLVMStore && super::store_back::restores_loaded_bytes(i))
        {
            // `store (load p), p`: the bytes keep what they held (a struct's padding
            // copied out and back), whatever type they are.
            return;
        }
        let pieces = access_pieces(self.fx, val, addr);
        if pieces.iter().all(|(_, m)| !m.is_float())
            && super::store_back::is_counter_update(i, |k| {
                k.opcode() != Some(Opcode::LLVMLoad)
                    && int_origin(self.fx.p, self.fx.req.func, k, 0)
            })
        {
            // rustmap: an integer counter updated in place where type analysis merged
            // conflicting facts (a `HashMap`'s `growth_left`/`items`, one `sub <2 x i64>`):
            // computed on and written back, no float's bits move. Memory known to hold a
            // float stays refused (errors/int_access_through_union_gep.ll).
            return;
        }
        let tape_int = self.fx.ctx.md_kind(ferrozyme_analysis::types::TAPE_INT_MD);
        if i.metadata(tape_int).is_some() && pieces.iter().all(|(v, _)| v.is_not_float()) {
            // A derivative's own tape access of integer data (a counter, a path tag),
            // differentiated again: the record's memory mixes integers and floats at this
            // offset across records, the access itself is typed (`alias::mark_tape_int`).
            return;
        }
        // A float in memory, or conflicting facts about it.
        let float_mem = |m: &BaseType| *m == BaseType::Anything || m.is_float();
        let (vt, mt) = pieces
            .iter()
            .copied()
            .find(|(v, m)| !v.is_not_float() || float_mem(m))
            .unwrap_or(pieces[0]);
        // Understood: integers/pointers over non-float memory, or values type analysis
        // knows are floats (an inactive float copied as an integer: the store kills the
        // destination's adjoint, as for any inactive float).
        // An integer accessing memory with conflicting facts (objects of several classes
        // through one pointer: a `Polygon`'s `int n` where a `Circle` has `double r`; a
        // `std::variant`'s storage), when it cannot be a float's bits moved: a store of
        // an integer computed or copied from integer storage (`int_origin`) overwrites
        // whatever was there (the reverse clears the destination's adjoint,
        // `stores_float_bits`); a load whose value is only computed on (`computed_on`)
        // moves nothing. A copy through integers (`long t = la[i]; la[i] = la[j]` over
        // doubles) stays refused: its Integer type may be the `!tbaa` of the punning.
        // rustmap: an integer read from memory without a shadow (a `BTreeMap` key copied
        // from a `Const` slice into the map's node) has no derivative whatever its bits
        // are; the store clears the destination's adjoint.
        let unshadowed_load = |v: Value| {
            v.opcode() == Some(Opcode::LLVMLoad) && !self.fx.act.is_shadowed(v.operand(0))
        };
        let plain_int = || match op {
            Opcode::LLVMStore => {
                int_origin(self.fx.p, self.fx.req.func, val, 0) || unshadowed_load(val)
            }
            // A store writing the loaded bytes back where they were moves nothing either
            // (`store_back::restores_loaded_bytes`).
            _ => computed_on_or_restored(val),
        };
        // rust30: a load whose value nothing types (memory Unknown: a `BTreeMap`'s node keys
        // read through a pointer merged with a byte-buffer `alloca`, which always has a
        // shadow; or Anything: `<usize as Ord>::cmp` on those keys in debug builds) and which
        // is only compared or computed on moves no bits either. front43: so does one whose
        // value has conflicting facts as its memory has (`f64::total_cmp` called out of
        // line on the elements of a slice, `iter().min_by(|a, b| a.total_cmp(b))`: it
        // reads each float's bits as an `i64` to compare them); an integer computed from
        // it and stored is checked at that store.
        let untyped_computed_on = |v: &BaseType, m: &BaseType| {
            op == Opcode::LLVMLoad
                && matches!(v, BaseType::Unknown | BaseType::Anything)
                && matches!(m, BaseType::Unknown | BaseType::Anything)
                && computed_on(val)
        };
        let proven_not_fp = pieces.iter().all(|(v, m)| {
            (v.is_not_float() && !float_mem(m))
                || (v.is_float() && *m != BaseType::Anything)
                || (v.is_not_float() && *m == BaseType::Anything && plain_int())
                || untyped_computed_on(v, m)
        }) && (op == Opcode::LLVMStore
            || pieces.iter().all(|(v, _)| !v.is_float()));
        // Unknown counts as possibly float: an integer moving bytes of differentiable
        // memory that nothing types could be moving floats.
        let maybe_fp = pieces
            .iter()
            .any(|(v, m)| matches!(v, BaseType::Anything | BaseType::Unknown) || float_mem(m));
        if !proven_not_fp && maybe_fp {
            self.diags.report(
                Some(i),
                Problem::AmbiguousIntAccess {
                    value: vt.to_string(),
                    memory: mt.to_string(),
                },
            );
        }
    }

    /// A differentiable value stored into memory no shadow can exist for.
    fn check_untracked_store(&mut self, i: Value, op: Opcode) {
        if op != Opcode::LLVMStore
            || !self.fx.act.is_active(i.operand(0))
            || self.fx.act.is_shadowed(i.operand(1))
        {
            return;
        }
        if let Some(call) = crate::common::shadows::untracked_source(i.operand(1)) {
            let callee = call.called_function().map(|f| f.name()).unwrap_or_default();
            self.diags
                .report(Some(i), Problem::UntrackedMemory { callee });
        }
    }

    /// Integer arithmetic on the bits of an active float that is not one of the lane
    /// moves or sign tricks `rev_lane_op` understands would silently drop the derivative.
    fn check_bit_ops(&mut self, i: Value, op: Opcode) {
        let int_op = ops::computes_on_bits(op);
        // Integer vectors: only `xor/and/or`, whose sign-bit lanes are understood
        // (`bits::sign_lanes`; before sweep22 their adjoints were dropped silently: Eigen's
        // `Matrix4d::inverse`, tests/cxx/188).
        let int_vector = |t: ferrozyme_llvm::Type| {
            t.kind() == ferrozyme_llvm::TypeKind::Vector
                && t.element_type().is_integer()
                && matches!(op, Opcode::LLVMXor | Opcode::LLVMAnd | Opcode::LLVMOr)
        };
        if !int_op
            || !i
                .operands()
                .iter()
                .any(|&o| self.fx.act.is_active(o) && (o.ty().is_integer() || int_vector(o.ty())))
        {
            return;
        }
        let understood = if super::bits::magic_seed(i) {
            true
        } else if super::bits::exponent_field(i) {
            !self.fx.act.packed.contains(&i.operand(0))
        } else if ferrozyme_analysis::activity::is_lane_op(i) {
            let packed = self.fx.act.packed.contains(&i)
                || i.operands().iter().any(|o| self.fx.act.packed.contains(o));
            let sign_trick =
                super::bits::sign_trick(i).is_some() || super::bits::sign_lanes(i).is_some();
            packed || sign_trick
        } else {
            false
        };
        if !understood {
            self.diags.report(Some(i), Problem::BitArithmetic);
        }
    }

    /// A `select` or `phi` choosing between a pointer into differentiable memory and one
    /// into constant memory (an `enzyme_const` argument, a constant table): the choice is
    /// only known at run time, and derivatives through the constant side have nowhere to
    /// go. Enzyme calls this mismatched activity; we refuse it rather than guess.
    fn check_mixed_pointers(&mut self, i: Value, op: Opcode) {
        if !matches!(op, Opcode::LLVMSelect | Opcode::LLVMPHI)
            || !i.ty().is_pointer_like()
            || !self.fx.act.is_shadowed(i)
            || self.fx.rt.is_guarded(i)
        {
            // Guarded ones: run-time activity (common/runtime_activity/).
            return;
        }
        let choices: Vec<Value> = if op == Opcode::LLVMSelect {
            vec![i.operand(1), i.operand(2)]
        } else {
            i.incoming().into_iter().map(|(v, _)| v).collect()
        };
        let constant_side = choices
            .iter()
            .find(|&&v| super::mixed::lacks_shadow(&self.fx.act, v));
        if op == Opcode::LLVMSelect
            && super::mixed::mixed_select(&self.fx.act, i).is_some()
            && super::mixed::uses_are_guardable(i)
        {
            // Loads and stores through it are guarded at run time (reverse/mixed.rs).
            return;
        }
        if let Some(c) = constant_side {
            self.diags.report(
                Some(i),
                Problem::MixedActivity {
                    detail: format!(
                        "this pointer is either differentiable memory or constant memory ({}), decided at run time",
                        c.to_string().split('=').next().unwrap_or("").trim()
                    ),
                },
            );
        }
    }

    fn check_call(&mut self, i: Value) {
        if super::memory::is_mpi_handle_free(i)
            && !self.fx.deferred_frees.contains(&i)
            && !self.fx.split_kept.contains(&i)
        {
            let name = i.called_function().map(|f| f.name()).unwrap_or_default();
            if self.fx.split && !super::memory::frees_local_handle(i) {
                // Kept for the outermost reverse exit (`handed_free.rs`; tests/mpi/103 at
                // -O0, a C++ destructor).
                return;
            }
            if let Some(ferrozyme_rules::mpi::MpiRule::HandleFree { why, help }) =
                ferrozyme_rules::mpi::mpi_rule(&name)
            {
                self.diags.report(
                    Some(i),
                    Problem::LibraryRoutine {
                        callee: &name,
                        family: "MPI",
                        why,
                        help,
                    },
                );
            }
            return;
        }
        if super::memory::is_fortran_deallocation(i)
            && !self.fx.deferred_frees.contains(&i)
            && !self.fx.split_kept.contains(&i)
            && !crate::fortran::destroys_argument(i)
        {
            let name = i.called_function().map(|f| f.name()).unwrap_or_default();
            if let Some(ferrozyme_rules::fortran::FortranRule::Deallocation { why }) =
                ferrozyme_rules::fortran::fortran_rule(&name)
            {
                self.diags.report(
                    Some(i),
                    Problem::LibraryRoutine {
                        callee: &name,
                        family: "flang's runtime library",
                        why,
                        help: ferrozyme_rules::fortran::DEALLOCATION_HELP,
                    },
                );
            }
            return;
        }
        if !self.fx.act.call_is_active(i, &self.sup.touchers) {
            if let Some((holder, free)) = super::callee_handle_free::outliving_handle_free(i) {
                let routine = free.called_function().map(|f| f.name()).unwrap_or_default();
                self.diags.report(
                    Some(i),
                    Problem::Audit {
                        kind: DiagKind::UnsupportedInstruction,
                        msg: format!(
                            "`{}` frees an MPI handle it was handed (`{routine}` in `{}`) and has no derivative, so it runs in the forward sweep: the adjoint communication of the reverse sweep would use the freed handle",
                            i.called_function().map(|f| f.source_name()).unwrap_or_default(),
                            holder.source_name()
                        ),
                        help: HANDED_HANDLE_FREE_HELP,
                    },
                );
            }
            return;
        }
        let callee_name = i.called_function().map(|f| f.name()).unwrap_or_default();
        if let CallKind::Defined(_) = classify(i) {
            // Shadows travel in pointer arguments; one inside an aggregate argument would be
            // dropped (rustc passes pairs as two scalars, so this is rare C code).
            if let Some(a) = i.call_args().into_iter().find(|a| {
                !a.ty().is_pointer_like()
                    && a.ty().contains_pointer()
                    && self.fx.act.is_shadowed(*a)
            }) {
                self.diags.report(
                    Some(i),
                    Problem::Audit {
                        kind: DiagKind::UnsupportedInstruction,
                        msg: format!(
                            "an aggregate holding a pointer to differentiable memory is passed by value to `{callee_name}` ({})",
                            a.ty()
                        ),
                        help: "pass the pointer itself (or the aggregate by pointer)",
                    },
                );
            }
        }
        let problem = match classify(i) {
            CallKind::UnknownExternal => crate::libcalls::missing_derivative(&callee_name),
            CallKind::UnknownIntrinsic => Problem::UnknownIntrinsic {
                callee: &callee_name,
            },
            CallKind::InlineAsm => Problem::InlineAsm,
            _ => return,
        };
        self.diags.report(Some(i), problem);
    }
}

/// What type analysis says about each 4-byte piece of the bytes an integer access of
/// `val` at `addr` moves, as (value, memory): `{int, float}` copied as one i64 is integer
/// at offset 0 and float at offset 4; a double covers 8 bytes.
fn access_pieces(
    fx: &Facts,
    val: Value,
    addr: Value,
) -> Vec<(
    ferrozyme_analysis::types::BaseType,
    ferrozyme_analysis::types::BaseType,
)> {
    use ferrozyme_analysis::types::BaseType;
    let size = fx.m.store_size(val.ty()) as i64;
    let vtree = fx.types.value_tree(val);
    let mtree = fx.types.pointee_tree(addr);
    let mut pieces: Vec<(BaseType, BaseType)> = Vec::new();
    let mut o = 0;
    while o < size.max(4) {
        let (v, m) = (vtree.get(o), mtree.get(o));
        pieces.push((v, m));
        o += if v == BaseType::Double || m == BaseType::Double {
            8
        } else {
            4
        };
    }
    // An integer scalar typed as an integer at offset 0 (type analysis saw it compared,
    // indexed with, multiplied, shifted: used as a whole) is an integer as a whole; its
    // other pieces are integer too unless the memory says float (a Rust `usize` length
    // has no TBAA to say so).
    if val.ty().is_integer() && vtree.get(0).is_not_float() {
        for p in pieces.iter_mut().skip(1) {
            if p.0 == BaseType::Unknown {
                p.0 = BaseType::Integer;
            }
        }
    }
    pieces
}

/// May the integer `v` stored over memory of conflicting type be anything but a float's
/// bits moved from memory? True for constants, values computed by integer instructions,
/// values loaded from integer stack slots (`alloca i32`: -O0's `int n` and temporaries
/// of `int &&`), and arguments whose every call site passes such a value (`clone` is the
/// function being checked, a clone of `orig`, whose call sites are `orig`'s).
fn int_origin(clone: Value, orig: Value, v: Value, depth: u32) -> bool {
    if depth > 6 {
        return false;
    }
    if v.const_int_value().is_some() {
        return true;
    }
    if v.is_argument() {
        return call_site_args(clone, orig, v).is_some_and(|args| {
            args.into_iter()
                .all(|a| int_origin(clone, orig, a, depth + 1))
        });
    }
    if !v.is_instruction() {
        return false;
    }
    match v.opcode() {
        Some(Opcode::LLVMLoad) => int_slot(clone, orig, v.operand(0), depth + 1),
        Some(Opcode::LLVMPHI) => v
            .incoming()
            .into_iter()
            .all(|(x, _)| int_origin(clone, orig, x, depth + 1)),
        Some(Opcode::LLVMSelect) => {
            int_origin(clone, orig, v.operand(1), depth + 1)
                && int_origin(clone, orig, v.operand(2), depth + 1)
        }
        Some(
            Opcode::LLVMCall
            | Opcode::LLVMInvoke
            | Opcode::LLVMBitCast
            | Opcode::LLVMExtractValue
            | Opcode::LLVMExtractElement
            | Opcode::LLVMFreeze,
        ) => false,
        // Integer arithmetic, comparisons, casts from other types.
        _ => true,
    }
}

/// Is `v` an integer load from a constant global holding no floats (a character
/// literal: flang copies `'weighted'` into a stack buffer with one `i64` load and store
/// before passing it as a `character(len=*)` argument)? Such bytes are as constant as an
/// integer literal.
pub(crate) fn is_constant_bytes_load(v: Value) -> bool {
    if v.opcode() != Some(Opcode::LLVMLoad) || !v.ty().is_integer() {
        return false;
    }
    let g = v.operand(0);
    g.is_global_variable()
        && g.is_global_constant()
        && g.initializer().is_some()
        && !g.global_value_type().contains_fp()
        && !g.global_value_type().contains_pointer()
}

/// Is `p` an integer stack slot (`alloca iN`), directly, as the pointer every call
/// site passes, or as what an -O0 pointer slot holds?
fn int_slot(clone: Value, orig: Value, p: Value, depth: u32) -> bool {
    if depth > 6 {
        return false;
    }
    if p.opcode() == Some(Opcode::LLVMAlloca) {
        return p.allocated_type().int_width().is_some();
    }
    // -O0: the pointer read back from its own slot (`int &&` kept in an `alloca ptr`):
    // every pointer stored there.
    if p.opcode() == Some(Opcode::LLVMLoad) {
        let m = p.parent_function().parent_module();
        return ferrozyme_analysis::slots::slot_stores(m, p.operand(0)).is_some_and(|s| {
            !s.is_empty()
                && s.into_iter()
                    .all(|(q, off)| off == 0 && int_slot(clone, orig, q, depth + 1))
        });
    }
    p.is_argument()
        && call_site_args(clone, orig, p).is_some_and(|args| {
            args.into_iter()
                .all(|a| int_slot(clone, orig, a, depth + 1))
        })
}

/// The values every direct call site passes for argument `a` (of `clone`, standing for
/// `orig`, or of any other function); `None` when the function's address is taken or it
/// has no call sites outside clones and generated code.
fn call_site_args(clone: Value, orig: Value, a: Value) -> Option<Vec<Value>> {
    let owner = a.parent_function();
    let k = owner.params().iter().position(|q| *q == a)?;
    let f = if owner == clone { orig } else { owner };
    let mut out = Vec::new();
    for u in f.users() {
        // Calls in other clones and in generated code pass what the original call
        // sites pass.
        if u.is_instruction() && {
            let g = u.parent_function();
            crate::clone::is_clone(g) || crate::generated::is_generated(g)
        } {
            continue;
        }
        let direct = (u.is_call() || u.opcode() == Some(Opcode::LLVMInvoke))
            && u.called_function() == Some(f)
            && u.call_args().iter().all(|x| *x != f);
        if !direct {
            return None;
        }
        out.push(*u.call_args().get(k)?);
    }
    (!out.is_empty()).then_some(out)
}

/// `llvm.ucmp`/`llvm.scmp`: a three-way comparison of integers (Rust's `Ord::cmp`).
fn is_three_way_compare(call: Value) -> bool {
    call.called_function().is_some_and(|f| {
        let n = f.name();
        n.starts_with("llvm.ucmp.") || n.starts_with("llvm.scmp.")
    })
}

/// Is `v` an integer argument of `call`, a function with a derivative rule (`llvm.powi`'s
/// and `ldexp`'s exponent, `jn`'s order)? The rules compute with such an argument (its
/// partial is a structural zero); they never move its bits into a float.
fn math_integer_operand(call: Value, v: Value) -> bool {
    v.ty().is_integer()
        && call.called_function().is_some_and(|f| {
            let name = f.name();
            ferrozyme_rules::intrinsic_rule(&name).is_some()
                || ferrozyme_rules::libm_rule(&name).is_some()
        })
}

/// A call to a `noreturn` function (Rust's `core::panicking::*`, C's `abort`).
fn never_returns(call: Value) -> bool {
    call.called_function()
        .is_some_and(|f| f.has_fn_attr("noreturn"))
}

/// Is the loaded integer `v` only computed on (compared, converted, used in
/// arithmetic or as an index, or passed to a call that never returns), never stored,
/// passed or returned as it is? `phi`,
/// `select` and `freeze` only move the value: their results are checked the same way
/// (`f64::total_cmp` in `max_by`: the bits of the running maximum are carried by a loop
/// `phi` and chosen by a `select`, and only ever compared).
fn computed_on(v: Value) -> bool {
    computed_on_with(v, |_| false)
}

/// `computed_on`, where a store that writes the value back to the bytes it was loaded
/// from (`store_back::restores_loaded_bytes`) counts as no move.
fn computed_on_or_restored(v: Value) -> bool {
    computed_on_with(v, super::store_back::restores_loaded_bytes)
}

fn computed_on_with(v: Value, harmless_store: impl Fn(Value) -> bool) -> bool {
    let moves = |o: Option<Opcode>| {
        matches!(
            o,
            Some(Opcode::LLVMPHI | Opcode::LLVMSelect | Opcode::LLVMFreeze)
        )
    };
    let mut seen = ferrozyme_analysis::hash::HashSet::from_iter([v]);
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        let users = v.users();
        if users.is_empty() && seen.len() == 1 {
            return false;
        }
        for u in users {
            let op = u.opcode();
            if moves(op) {
                if op == Some(Opcode::LLVMSelect) && u.operand(0) == v {
                    continue;
                }
                if seen.insert(u) {
                    todo.push(u);
                }
                continue;
            }
            if op == Some(Opcode::LLVMCall) && is_three_way_compare(u) {
                // `llvm.ucmp`/`llvm.scmp` (Rust's `Ord::cmp` of integers): a comparison.
                continue;
            }
            if op == Some(Opcode::LLVMCall) && math_integer_operand(u, v) {
                // hpc38: the exponent of `llvm.powi` (a Fortran `r**w` with an integer `w`
                // read from a `class(*)` that holds a real(8) elsewhere): a math function
                // computes with it.
                continue;
            }
            if op == Some(Opcode::LLVMCall) && never_returns(u) {
                // rustpy32: an argument of a call that never returns (a `Vec`'s length
                // passed to `panic_bounds_check(index, len)` beside its uses as a loop
                // bound): the run ends on that path, no derivative is produced there
                // (`calls::classify` makes such calls inactive for the same reason).
                continue;
            }
            if op == Some(Opcode::LLVMStore) && u.operand(0) == v && harmless_store(u) {
                continue;
            }
            if matches!(
                op,
                Some(
                    Opcode::LLVMStore
                        | Opcode::LLVMCall
                        | Opcode::LLVMInvoke
                        | Opcode::LLVMRet
                        | Opcode::LLVMInsertValue
                        | Opcode::LLVMInsertElement
                        | Opcode::LLVMBitCast
                )
            ) {
                return false;
            }
        }
    }
    true
}
