//! What a derivative function is asked for, and the signature it gets.
//!
//! A [`Request`] (reverse mode) or [`TangentRequest`] (forward mode) names the function
//! to differentiate and the activity of its arguments; it is the memo key of the driver
//! and the input of synthesis. The generated functions' parameter and return types follow
//! from the request alone, so a caller can emit a call of a derivative before its body
//! exists (recursive functions call their own derivatives).
//!
//! Reverse mode generates either one *combined* function (forward sweep, then reverse
//! sweep) or a *split* pair: an augmented forward function returning a tape and a reverse
//! function taking it ([`Target`]).
//!
//! Signatures, with `width` lanes (vector mode):
//! * every generated function takes each primal parameter, followed by `width` shadows
//!   when it is `Dup` (forward mode: also when it is an `Active` float — its tangents);
//! * combined/reverse functions then take `width` seeds of an active float return, and
//!   the reverse function the tape; they return the adjoints of the `Active` parameters
//!   (a literal struct, lane-major per parameter) or `void`;
//! * augmented functions return `{ result?, shadows of a pointer result?, tape }`; a
//!   nested augmented function (`reverse/tape_nest.rs`) also takes its tape block as its
//!   last parameter (and returns it);
//! * forward functions return `{ result, tangent × width? }` or `void`.

use ferrozyme_analysis::activity::{carries_fp, ArgActivity};
use ferrozyme_llvm::{Type, Value};

/// What to differentiate in reverse mode: a function and the activity of its arguments
/// and return.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Request {
    pub func: Value,
    pub args: Vec<ArgActivity>,
    /// Per argument: marked `enzyme_dupnoneed` (what the function stores into its memory
    /// is not needed by the caller). Empty when no argument is.
    pub noneed: Vec<bool>,
    /// Per argument: `enzyme_dupnoneed` with a placeholder primal pointer (`nullptr`;
    /// `placeholder.rs`): every store through it is left out. Empty when none is.
    pub placeholder: Vec<bool>,
    /// Is the (floating) return value active, i.e. does the caller pass its adjoint?
    pub ret_active: bool,
    /// Number of adjoint directions (vector reverse mode): every shadow, seed and
    /// returned adjoint comes `width` times, lane 0 first.
    pub width: u32,
    /// The derivative runs on several threads at once (an OpenMP microtask of a team of
    /// more than one thread, and what it calls): adjoints of memory the function did not
    /// allocate are added atomically (see `reverse/parallel/atomics.rs`).
    pub parallel: bool,
    /// Run-time activity at the boundary (`common::runtime_activity`); empty for
    /// ordinary calls.
    pub runtime: RuntimeIn,
}

/// What a caller under run-time activity tells its callee: which pointer parameters'
/// shadows may be the primal pointer itself, and whether pointers it reads from shadowed
/// memory may be (the caller stored a constant pointer there); or only that the caller
/// checks the pointer the callee returns (`result`, set where nothing else is: a callee
/// computing its result from a constant argument, `runtime_activity/constant_args.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuntimeIn {
    pub params: Vec<bool>,
    pub loads: bool,
    pub result: bool,
}

impl RuntimeIn {
    /// Does the callee need run-time checks at all?
    pub fn any(&self) -> bool {
        self.loads || self.params.iter().any(|b| *b)
    }

    /// May the callee return a pointer whose shadow may be the primal (the caller checks
    /// it)?
    pub fn result_checked(&self) -> bool {
        self.any() || self.result
    }
}

/// What to differentiate in forward mode: a function, its arguments' activity, and the
/// number of directions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TangentRequest {
    pub func: Value,
    pub args: Vec<ArgActivity>,
    pub width: u32,
    /// Error estimation (`__enzyme_error_estimate`): the tangents are estimates of absolute
    /// floating-point error, propagated through the magnitudes of the partials, each
    /// operation adding its own rounding (`tangent/error.rs`).
    pub error: bool,
    /// As [`Request::placeholder`].
    pub placeholder: Vec<bool>,
    /// Run-time activity at the boundary, as in [`Request::runtime`].
    pub runtime: RuntimeIn,
}

/// Where reverse-mode code goes.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// One function: forward sweep, then reverse sweep.
    Combined { g: Value },
    /// Augmented forward function (returns the tape) and reverse function (takes it).
    /// `nested`: the pair of a call whose tape is a region of its caller's
    /// (`reverse/tape_nest.rs`): the augmented function takes the region as its last
    /// parameter, the reverse function leaves it to the caller.
    Split {
        aug: Value,
        rev: Value,
        nested: bool,
    },
}

/// Parameter types shared by all reverse-mode functions: each primal parameter, followed
/// by its shadow pointers when it is `Dup`.
pub fn primal_shadow_params(req: &Request) -> Vec<Type> {
    let ctx = req.func.ty().context();
    let mut v = Vec::new();
    for (p, a) in req.func.params().into_iter().zip(&req.args) {
        v.push(p.ty());
        if *a == ArgActivity::Dup {
            for _ in 0..req.width {
                v.push(ctx.ptr());
            }
        }
    }
    v
}

/// Parameters of the combined function: [`primal_shadow_params`], then the seeds of an
/// active return.
pub fn combined_params(req: &Request) -> Vec<Type> {
    let mut params = primal_shadow_params(req);
    push_seeds(req, &mut params);
    params
}

/// Parameters of the reverse function of a split pair: the combined function's, then the
/// tape.
pub fn reverse_params(req: &Request) -> Vec<Type> {
    let mut params = combined_params(req);
    params.push(req.func.ty().context().ptr());
    params
}

fn push_seeds(req: &Request, params: &mut Vec<Type>) {
    if req.ret_active {
        for _ in 0..req.width {
            params.push(req.func.function_type().return_type());
        }
    }
}

/// The return type of reverse/combined functions: a literal struct of the adjoints of the
/// `Active` parameters, in order, or `void` when there are none.
pub fn adjoint_return_type(req: &Request) -> Type {
    let ctx = req.func.ty().context();
    let tys: Vec<Type> = req
        .func
        .params()
        .into_iter()
        .zip(&req.args)
        .filter(|(_, a)| **a == ArgActivity::Active)
        .flat_map(|(p, _)| std::iter::repeat_n(p.ty(), req.width as usize))
        .collect();
    if tys.is_empty() {
        ctx.void()
    } else {
        ctx.struct_type(&tys)
    }
}

/// The return type of augmented forward functions: `{ ret?, shadow ret?, ptr tape }`.
/// A result holding pointers (a pointer, or an aggregate such as `{ptr, i64}`) has one
/// shadow per lane, of its own type (pointer fields hold shadows).
pub fn aug_return_type(req: &Request) -> Type {
    let ctx = req.func.ty().context();
    let ret = req.func.function_type().return_type();
    let mut f = Vec::new();
    if !ret.is_void() {
        f.push(ret);
    }
    if !ret.is_void() && ret.contains_pointer() {
        for _ in 0..req.width {
            f.push(ret);
        }
    }
    f.push(ctx.ptr());
    ctx.struct_type(&f)
}

/// Does a value of this type get a tangent in the return struct?
fn has_tangent_type(t: Type) -> bool {
    carries_fp(t) || t.contains_pointer()
}

/// Parameter types of a forward-mode function.
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

/// Return type of a forward-mode function: `{ primal, tangent × width? }` or void.
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

/// Does the forward-mode function return tangents of the result?
pub fn returns_tangent(req: &TangentRequest) -> bool {
    has_tangent_type(req.func.function_type().return_type())
}
