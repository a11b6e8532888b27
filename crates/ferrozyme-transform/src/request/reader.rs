//! Reading a hook call's operands after the function, left to right: `enzyme_width`,
//! then one argument at a time (its marker, primal and shadows), then what follows the
//! arguments (`__enzyme_reverse`'s seed and tape). With `enzyme_interleave` (MFEM's
//! calls) the arguments come first and the shadows of the duplicated ones after the
//! marker, in the same order; an unmarked argument then takes the activity of the one
//! before it (`enzyme_dup` at the start), as Enzyme reads them. `enzyme_byref, N` before
//! an argument passes its value by reference: `byref_args.rs` replaces the pointer by a
//! load of the parameter's type before the calls are planned ([`ByRef::Pointers`] reads
//! them for it); afterwards the reader checks N against the parameter's size. A value the
//! ABI passed as two operands (`double _Complex`, as the clang plugin describes the call)
//! is read as two parameters with one marker (`two_part.rs`).

mod two_part;

use ferrozyme_abi::Marker;
use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::hash::HashMap;
use ferrozyme_llvm::{Diagnostic, Opcode, Type, Value};

pub(super) use two_part::{layout, pair_starts, Operands};

use super::{
    default_activity, marker_of, strip_casts, CallArg, CallOptions, ErrFn, Mode, Shadow, MAX_WIDTH,
};

/// What follows `enzyme_byref, N` in the call being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ByRef {
    /// The value, loaded from the user's pointer by `byref_args.rs` (every parse after
    /// the hook calls were normalized).
    Loaded,
    /// The user's pointer, as written (the parse that finds what to load).
    Pointers,
}

/// An argument passed with `enzyme_byref`: the pointer the call passes and the type of
/// the parameter, whose value is read from it.
#[derive(Clone, Copy, Debug)]
pub struct ByRefArg {
    pub pointer: Value,
    pub ty: Type,
}

/// The operands of a hook call after the function, read left to right.
pub(super) struct Reader<'a> {
    rest: Operands,
    err: &'a ErrFn<'a>,
    /// The differentiated function's name, for messages.
    fname: String,
    func: Value,
    mode: Mode,
    opts: &'a CallOptions,
    /// With `enzyme_interleave`: the shadows, read in order as the arguments need them.
    shadows: Option<Operands>,
    /// With `enzyme_interleave`: the activity an unmarked argument takes (the last one
    /// written).
    sticky: Marker,
    byref: ByRef,
    /// With [`ByRef::Pointers`]: the arguments passed by reference, in order.
    pub(super) byref_args: Vec<ByRefArg>,
    /// The operands the call passes in memory (`byval(T)`), with their `T`.
    in_memory: HashMap<Value, Type>,
    /// The hook call, before which a tangent the call passes in memory is loaded
    /// (`two_part.rs`).
    call: Value,
    /// The second half of a two-operand value (`two_part.rs`): the argument number and
    /// what it reads as.
    second_half: Option<(usize, CallArg)>,
}

/// What precedes an argument's value: its marker, the stride of `enzyme_dupv` and the
/// byte count of `enzyme_byref`.
struct Marked {
    marker: Option<Marker>,
    stride: Option<Value>,
    byref: Option<u64>,
    primal: Value,
}

/// The operands hook call `call` passes in memory (`byval(T)`), with their `T`.
pub(super) fn in_memory(call: Value) -> HashMap<Value, Type> {
    (0..call.num_call_args())
        .filter_map(|k| call.call_byval_type(k).map(|t| (call.operand(k), t)))
        .collect()
}

impl<'a> Reader<'a> {
    pub(super) fn new(
        ops: Operands,
        err: &'a ErrFn<'a>,
        func: Value,
        mode: Mode,
        opts: &'a CallOptions,
        byref: ByRef,
        call: Value,
    ) -> Self {
        let mut ops = ops;
        let shadows = opts.interleave_at.map(|at| ops.split_off(at));
        Reader {
            rest: ops,
            err,
            fname: func.name(),
            func,
            mode,
            opts,
            shadows,
            sticky: Marker::Dup,
            byref,
            byref_args: Vec::new(),
            in_memory: in_memory(call),
            call,
            second_half: None,
        }
    }

    /// Does hook operand `v` carry a value of the small float vector type `t` the way the
    /// ABI passes one when the registers run out (`marshal::abi_float_pair`)?
    fn abi_float_pair(&self, v: Value, t: Type) -> bool {
        crate::marshal::abi_float_pair(v.ty(), self.in_memory.get(&v).copied(), t)
    }

    /// The next shadow: right after its argument, or the next one after
    /// `enzyme_interleave`.
    fn next_shadow(&mut self) -> Option<Value> {
        match &mut self.shadows {
            Some(s) => s.next(),
            None => self.rest.next(),
        }
    }
    /// `enzyme_width, N` (1 when absent) and `enzyme_primal_return`, right after the
    /// function, in either order.
    pub(super) fn leading(&mut self) -> Result<(u32, bool), Diagnostic> {
        let (mut width, mut primal_return) = (1, false);
        while let Some(&v) = self.rest.peek() {
            match marker_of(v) {
                Some(Ok(Marker::Width)) => width = self.width()?,
                Some(Ok(Marker::PrimalReturn)) => {
                    self.rest.next();
                    if self.mode != Mode::Forward {
                        return Err((self.err)(
                            "enzyme_primal_return is only supported in forward mode (__enzyme_fwddiff)".to_string(),
                            "in reverse mode, get the result from split mode: __enzyme_augmentfwd declared to return struct { void *tape; T result; }",
                        ));
                    }
                    primal_return = true;
                }
                _ => break,
            }
        }
        Ok((width, primal_return))
    }

    /// The next operand when it is a pointer and not a marker (the seed of a struct
    /// result in Enzyme's reverse-mode order, `implicit_sret::reverse_seed`).
    pub(super) fn next_plain_pointer(&mut self) -> Option<Value> {
        let &v = self.rest.peek()?;
        (v.ty().is_pointer() && marker_of(v).is_none()).then(|| {
            self.rest.next();
            v
        })
    }

    /// `enzyme_width, N`, the marker being next.
    fn width(&mut self) -> Result<u32, Diagnostic> {
        self.rest.next();
        match self.rest.next().and_then(|n| n.const_int_value()) {
            Some(n) if n >= 1 && n <= MAX_WIDTH as i64 => Ok(n as u32),
            _ => Err((self.err)(
                "enzyme_width must be followed by a constant width between 1 and 64".to_string(),
                "write enzyme_width, 4 (an integer literal) right after the function",
            )),
        }
    }

    /// Argument `k` (of `n`) of the function, of type `pty`: marker, value, shadows.
    pub(super) fn argument(
        &mut self,
        k: usize,
        pty: Type,
        n: usize,
        width: u32,
    ) -> Result<CallArg, Diagnostic> {
        if let Some((j, arg)) = self.second_half.take() {
            debug_assert_eq!(j, k, "invariant: arguments are read in order");
            return Ok(arg);
        }
        let m = self.marked(k, n)?;
        if self.rest.last_starts_pair() {
            return self.pair_argument(k, pty, width, m);
        }
        let by_pointer = match m.byref {
            Some(bytes) => self.by_reference(k, pty, bytes, m.primal)?,
            None => false,
        };
        let activity = self.activity(k, m.marker, pty, m.primal)?;
        // Shadows: pointers always; float scalars in forward mode (their tangents).
        let wants_shadow = activity == ArgActivity::Dup
            || (activity == ArgActivity::Active && self.mode == Mode::Forward);
        let shadow = match (wants_shadow, m.stride) {
            (false, _) => Shadow::None,
            (true, Some(stride)) => self.strided_shadow(k, stride)?,
            (true, None) => self.shadow_lanes(k, pty, width, m.marker)?,
        };
        if !by_pointer && !types_compatible(m.primal, pty) && !self.abi_float_pair(m.primal, pty) {
            return Err((self.err)(
                format!(
                    "argument {} of `{}` has type {} but the call passes {}",
                    k + 1,
                    self.fname,
                    pty,
                    m.primal.ty()
                ),
                if pty.is_fp_scalar() && m.primal.ty().is_integer() {
                    // `__enzyme_autodiff(f, 3)`: `...` converts nothing to double.
                    "the hook takes `...`, so C does not convert an integer argument to the parameter's floating-point type: write a floating-point value (3.0, or (double)n)"
                } else if pty.is_pointer() && m.primal.const_int_value().is_some() {
                    // A marker with internal linkage that the optimizer folded to its
                    // initializer (`static int enzyme_dup;` in a header: the driver keeps
                    // those of the source file itself, `private_markers.rs`).
                    "check the argument order and markers; an integer constant where a pointer belongs is often a marker the optimizer folded to 0: markers defined `static` in a header are, so declare them `extern int enzyme_dup;` (or define them in the program's own file)"
                } else {
                    "check the argument order and markers"
                },
            ));
        }
        if let Shadow::Lanes(lanes) = &shadow {
            if m.marker != Some(Marker::DupNoNeed)
                && pty.is_pointer()
                && lanes.iter().any(|&s| same_address(m.primal, s))
            {
                return Err((self.err)(
                    format!(
                        "the shadow of argument {} of `{}` is the argument itself: {} into the memory whose derivative it is, and reads of that memory would see them",
                        k + 1,
                        self.fname,
                        if self.mode == Mode::Forward {
                            "its tangents would be written"
                        } else {
                            "the derivatives would be added"
                        }
                    ),
                    "pass a separate buffer of the same size as the shadow (zeroed for __enzyme_autodiff): enzyme_dup, x, dx; or enzyme_const, x when no derivative is wanted",
                ));
            }
        }
        let noneed = m.marker == Some(Marker::DupNoNeed) && activity == ArgActivity::Dup;
        Ok(CallArg {
            activity,
            noneed,
            placeholder: noneed && crate::placeholder::is_placeholder_address(m.primal),
            primal: m.primal,
            shadow,
            marker: m.marker,
            sret_scratch: None,
        })
    }

    /// `enzyme_byref, bytes` before argument `k` (of type `pty`), whose value the call
    /// passes as `primal`: checks the size; with [`ByRef::Pointers`] records the pointer
    /// and says the value is still behind it (true).
    fn by_reference(
        &mut self,
        k: usize,
        pty: Type,
        bytes: u64,
        primal: Value,
    ) -> Result<bool, Diagnostic> {
        let size = self.func.parent_module().store_size(pty);
        if size != bytes {
            return Err((self.err)(
                format!(
                    "`enzyme_byref, {bytes}` before argument {} of `{}`, whose type {pty} has {size} bytes",
                    k + 1,
                    self.fname
                ),
                "write enzyme_byref, sizeof(parameter), pointer_to_value",
            ));
        }
        if self.byref == ByRef::Loaded {
            return Ok(false);
        }
        if !primal.ty().is_pointer() {
            return Err((self.err)(
                format!(
                    "`enzyme_byref` before argument {} of `{}` must be followed by a pointer to the value, found {primal}",
                    k + 1,
                    self.fname
                ),
                "write enzyme_byref, sizeof(x), &x",
            ));
        }
        self.byref_args.push(ByRefArg {
            pointer: primal,
            ty: pty,
        });
        Ok(true)
    }

    /// The marker (if any) and the value of argument `k` of `n`.
    fn marked(&mut self, k: usize, n: usize) -> Result<Marked, Diagnostic> {
        let fname = &self.fname;
        let mut marker = None;
        let mut stride = None;
        let mut byref = None;
        while let Some(&v) = self.rest.peek() {
            match marker_of(v) {
                Some(Ok(Marker::ByRef)) => {
                    self.rest.next();
                    let bytes = self.rest.next().and_then(|b| b.const_int_value());
                    match bytes {
                        Some(b) if b > 0 && byref.is_none() && marker.is_none() => {
                            byref = Some(b as u64)
                        }
                        _ => {
                            return Err((self.err)(
                                format!(
                                    "`enzyme_byref` before argument {} of `{fname}` must be followed by the value's size in bytes (a constant) and come before its activity marker, once",
                                    k + 1
                                ),
                                "write enzyme_byref, sizeof(x), [enzyme_out,] &x",
                            ));
                        }
                    }
                }
                Some(Ok(m)) => {
                    self.rest.next();
                    if marker.is_some() {
                        return Err((self.err)(
                            format!(
                                "two markers in a row before argument {} of `{fname}`",
                                k + 1
                            ),
                            "give each argument at most one enzyme_* marker",
                        ));
                    }
                    if m == Marker::Width || m == Marker::PrimalReturn {
                        return Err((self.err)(
                            format!(
                                "{} must come first, right after the function",
                                if m == Marker::Width { "enzyme_width" } else { "enzyme_primal_return" }
                            ),
                            "write __enzyme_fwddiff((void*)f, enzyme_width, N, ...) / __enzyme_fwddiff((void*)f, enzyme_primal_return, ...)",
                        ));
                    }
                    if m == Marker::DupV {
                        stride = self.rest.next();
                    }
                    marker = Some(m);
                }
                Some(Err(name)) => {
                    return Err((self.err)(
                        format!(
                            "unknown activity marker `{name}` before argument {} of `{fname}`",
                            k + 1
                        ),
                        "use one of enzyme_dup, enzyme_dupnoneed, enzyme_dupv, enzyme_const, enzyme_out, enzyme_width, enzyme_primal_return",
                    ));
                }
                None => {
                    let primal = self.rest.next().expect("invariant: peeked a value");
                    if self.shadows.is_some() {
                        match marker {
                            None => marker = Some(self.sticky),
                            Some(Marker::DupV) => self.sticky = Marker::Dup,
                            Some(m) => self.sticky = m,
                        }
                    }
                    return Ok(Marked {
                        marker,
                        stride,
                        byref,
                        primal,
                    });
                }
            }
        }
        Err((self.err)(
            format!("too few arguments for `{fname}`: it takes {n}, the call passes {k}"),
            "pass every argument of the differentiated function (and a shadow after each enzyme_dup pointer)",
        ))
    }

    /// The activity marker `mk` gives an argument of type `pty` (Enzyme's defaults when
    /// unmarked).
    fn activity(
        &self,
        k: usize,
        mk: Option<Marker>,
        pty: Type,
        primal: Value,
    ) -> Result<ArgActivity, Diagnostic> {
        let (fname, forward) = (&self.fname, self.mode == Mode::Forward);
        let dup_like = matches!(
            mk,
            Some(Marker::Dup) | Some(Marker::DupNoNeed) | Some(Marker::DupV)
        );
        let activity = match mk {
            _ if dup_like && pty.is_pointer() => ArgActivity::Dup,
            _ if dup_like && pty.is_fp() && forward => ArgActivity::Active,
            _ if dup_like => {
                return Err((self.err)(
                    format!("argument {} of `{fname}` is marked enzyme_dup but has type {}, not a pointer", k + 1, pty),
                    if forward {
                        "in forward mode enzyme_dup takes a pointer or a float scalar (followed by its tangent); use enzyme_const for integers"
                    } else {
                        "use enzyme_out for an active float scalar, enzyme_const for a constant"
                    },
                ));
            }
            Some(Marker::Const) => ArgActivity::Const,
            Some(Marker::Out) if forward => {
                return Err((self.err)(
                    format!("argument {} of `{fname}` is marked enzyme_out, which has no meaning in forward mode", k + 1),
                    "in __enzyme_fwddiff pass a float scalar with its tangent (enzyme_dup, x, dx) or as enzyme_const",
                ));
            }
            Some(Marker::Out) => ArgActivity::Active,
            // A function passed unmarked (a callback): its derivatives are found from the
            // pointer itself, it has no shadow.
            None if is_function_constant(primal) => ArgActivity::Const,
            _ => default_activity(pty),
        };
        if activity == ArgActivity::Active
            && pty.is_pointer()
            && self.func.has_param_attr(k as u32, "byval")
        {
            // A struct of more than two eightbytes (`struct { double x, y, z; }`) is
            // passed in memory on x86-64: the callee receives a pointer to a copy, so
            // there is no float scalar whose adjoint the hook could return.
            return Err((self.err)(
                format!("argument {} of `{fname}` is marked enzyme_out, but it is a struct passed by value in memory (byval), not in registers: its adjoint cannot be returned", k + 1),
                "enzyme_out works for float scalars and for structs of at most two doubles (passed in registers); for a larger struct pass a pointer to it (double f(struct P *p), then enzyme_dup, &p, &dp)",
            ));
        }
        if activity == ArgActivity::Active && !pty.is_fp() {
            return Err((self.err)(
                format!("argument {} of `{fname}` is marked enzyme_out but has type {}, not a float scalar", k + 1, pty),
                "use enzyme_dup (with a shadow) for pointers, enzyme_const for integers",
            ));
        }
        Ok(activity)
    }

    /// `enzyme_dupv, stride, x, base`: the pointer to lane 0's shadow.
    fn strided_shadow(&mut self, k: usize, stride: Value) -> Result<Shadow, Diagnostic> {
        match self.next_shadow() {
            Some(s) if s.ty().is_pointer() && marker_of(s).is_none() && stride.ty().is_integer() => {
                Ok(Shadow::Strided { base: s, stride })
            }
            _ => Err((self.err)(
                format!("enzyme_dupv for argument {} of `{}` needs a byte stride, the value and a pointer to its shadows", k + 1, self.fname),
                "write enzyme_dupv, sizeof(lane), x, shadows",
            )),
        }
    }

    /// One shadow (pointer, or tangent of a float scalar) per lane; `marker`: the
    /// argument's (none: a pointer duplicated by default).
    fn shadow_lanes(
        &mut self,
        k: usize,
        pty: Type,
        width: u32,
        marker: Option<Marker>,
    ) -> Result<Shadow, Diagnostic> {
        let mut lanes = Vec::new();
        for _ in 0..width {
            match self.next_shadow() {
                Some(s)
                    if marker_of(s).is_none()
                        && (if pty.is_pointer() {
                            s.ty().is_pointer()
                        } else {
                            // A float scalar's tangent, or a float vector's (`float
                            // _Complex` is `<2 x float>`, also an `i64` or in memory).
                            s.ty().is_fp_scalar() || s.ty() == pty || self.abi_float_pair(s, pty)
                        }) =>
                {
                    lanes.push(s)
                }
                _ if pty.is_pointer() && self.func.has_param_attr(k as u32, "byval") => {
                    // The user passed a struct by value (`long double _Complex`, a struct
                    // of three doubles): the callee receives a copy.
                    return Err((self.err)(
                        format!(
                            "argument {} of `{}` is a struct passed by value in memory (byval); it has no shadow, and a shadow passed by value would be a copy the derivative never leaves",
                            k + 1,
                            self.fname
                        ),
                        "pass a pointer to the struct instead (double f(struct P *p), then enzyme_dup, &p, &dp), or mark the argument enzyme_const",
                    ));
                }
                Some(s)
                    if pty.is_pointer()
                        && self.shadows.is_none()
                        && marker_of(s).is_none()
                        && !s.ty().is_pointer()
                        && self
                            .func
                            .params()
                            .get(k + 1)
                            .is_some_and(|p| p.ty() == s.ty()) =>
                {
                    if marker.is_none() {
                        // `__enzyme_autodiff(f, x, n)`: an unmarked pointer is
                        // duplicated (Enzyme's default), so `n` was read as its shadow.
                        return Err((self.err)(
                            format!(
                                "argument {} of `{}` is a pointer without a marker, so it is enzyme_dup (the default for pointers) and its shadow must follow it, but the call passes a {} there (the type of argument {})",
                                k + 1,
                                self.fname,
                                s.ty(),
                                k + 2
                            ),
                            "pass enzyme_dup, x, dx (dx: a zeroed buffer like x) for the derivative with respect to what x points to, or enzyme_const, x for memory that is not differentiated",
                        ));
                    }
                    // One operand per parameter left, this one included: the shadow was
                    // left out (`enzyme_dup, x, n` for `f(double *x, int n)`).
                    if lanes.is_empty()
                        && 1 + self.rest.left() == self.func.params().len() - (k + 1)
                    {
                        return Err((self.err)(
                            format!(
                                "missing shadow for argument {} of `{}`: it is marked enzyme_dup, so its shadow must follow it, but the call passes the next argument (a {}) there",
                                k + 1,
                                self.fname,
                                s.ty()
                            ),
                            "pass the shadow buffer right after the pointer: enzyme_dup, x, dx (dx: a zeroed buffer like x), or enzyme_const, x for memory that is not differentiated",
                        ));
                    }
                    // What follows the pointer has the type of the next parameter: most
                    // likely a small struct passed by value that the x86-64 ABI split
                    // into registers (`struct view { double *p; long n; }` is a pointer
                    // and an integer), whose shadow struct was passed after it.
                    return Err((self.err)(
                        format!(
                            "argument {} of `{}` is marked enzyme_dup but is followed by a {}, the type of argument {}: a struct passed by value that the ABI split into registers (a pointer and more fields) cannot be enzyme_dup by value",
                            k + 1,
                            self.fname,
                            s.ty(),
                            k + 2
                        ),
                        "pass a pointer to the struct instead (double f(struct view *v), then enzyme_dup, &v, &dv), or, if this is a plain pointer argument, pass its shadow right after it",
                    ));
                }
                Some(s) if marker_of(s).is_none() && pty.is_pointer() != s.ty().is_pointer() => {
                    // `enzyme_dup, x, dx[0]` or `__enzyme_fwddiff(f, x, &dx)`.
                    let (want, help) = if pty.is_pointer() {
                        (
                            "a pointer",
                            "pass the shadow buffer itself right after the pointer (enzyme_dup, x, dx with double dx[N]), not one of its elements",
                        )
                    } else {
                        (
                            "a value of the argument's type",
                            "pass the tangent by value right after the value: __enzyme_fwddiff((void*)f, x, dx), not &dx; or mark the argument enzyme_const",
                        )
                    };
                    return Err((self.err)(
                        format!(
                            "the {} of argument {} of `{}` ({pty}) must be {want}, but the call passes a {}: {s}",
                            if pty.is_pointer() { "shadow" } else { "tangent" },
                            k + 1,
                            self.fname,
                            s.ty(),
                        ),
                        help,
                    ));
                }
                _ => {
                    let what = if pty.is_pointer() {
                        "shadow pointer"
                    } else {
                        "tangent"
                    };
                    return Err((self.err)(
                        format!(
                            "missing {what} for argument {} of `{}`: expected {width} {what}(s) after the value",
                            k + 1,
                            self.fname
                        ),
                        if self.shadows.is_some() {
                            "after enzyme_interleave, pass one shadow (one per lane with enzyme_width) for each duplicated argument, in the order of the arguments"
                        } else if pty.is_pointer() {
                            "pass the shadow buffer right after the pointer: enzyme_dup, x, dx (one shadow per lane with enzyme_width)"
                        } else {
                            "pass the tangent right after the value: __enzyme_fwddiff((void*)f, x, dx) (one per lane with enzyme_width)"
                        },
                    ));
                }
            }
        }
        Ok(Shadow::Lanes(lanes))
    }

    /// What follows the function's arguments: nothing, except for `__enzyme_reverse`
    /// (`[seed of a float result,] tape`).
    pub(super) fn trailing(self, func: Value, n: usize) -> Result<Vec<Value>, Diagnostic> {
        let fname = &self.fname;
        // With `enzyme_interleave`, what follows the last shadow.
        let trailing: Vec<Value> = self
            .rest
            .chain(self.shadows.into_iter().flatten())
            .collect();
        if trailing
            .iter()
            .any(|v| matches!(marker_of(*v), Some(Ok(Marker::ByRef))))
        {
            return Err((self.err)(
                format!("`enzyme_byref` after the arguments of `{fname}` (before `__enzyme_reverse`'s seed or tape) is not supported"),
                "pass the seed of the result by value",
            ));
        }
        let seed = func.function_type().return_type().is_fp_scalar() && !self.opts.const_return;
        let tape_last = self.opts.tape.is_none();
        let want = match self.mode {
            Mode::ReverseSplit => usize::from(tape_last) + usize::from(seed),
            _ => 0,
        };
        if trailing.len() > want {
            let extra = trailing[want];
            return Err((self.err)(
                format!("too many arguments for `{fname}`: it takes {n}, found an extra argument {extra}"),
                "pass exactly the arguments of the differentiated function, with shadows after enzyme_dup pointers",
            ));
        }
        if trailing.len() < want {
            return Err((self.err)(
                format!(
                    "`__enzyme_reverse` for `{fname}` needs {} after the arguments, found {}",
                    match (seed, tape_last) {
                        (true, true) => "the return's adjoint seed and the tape",
                        (true, false) => "the return's adjoint seed",
                        _ => "the tape",
                    },
                    trailing.len()
                ),
                "pass the same arguments as to __enzyme_augmentfwd, then the seed of the result (if it returns a float), then the tape",
            ));
        }
        if self.mode == Mode::ReverseSplit
            && tape_last
            && !trailing.last().is_some_and(|t| t.ty().is_pointer())
        {
            return Err((self.err)(
                "the last argument of `__enzyme_reverse` must be the tape returned by __enzyme_augmentfwd".to_string(),
                "pass the tape pointer last",
            ));
        }
        Ok(trailing)
    }
}

/// Do `a` and `b` compute the same (non-null) address? The same value, the same
/// `getelementptr` of it, or two loads of one pointer with nothing that writes memory
/// between them (`-O0` reloads a variable for each use).
fn same_address(a: Value, b: Value) -> bool {
    if a == b {
        return !a.is_null() && !a.is_undef() && !is_dangling_constant(a);
    }
    if !(a.is_instruction() && b.is_instruction()) || a.opcode() != b.opcode() {
        return false;
    }
    let (ops_a, ops_b) = (a.operands(), b.operands());
    match a.opcode() {
        Some(Opcode::LLVMGetElementPtr) => {
            ops_a.len() == ops_b.len()
                && ops_a
                    .iter()
                    .zip(&ops_b)
                    .all(|(&x, &y)| x == y || same_address(x, y))
        }
        Some(Opcode::LLVMLoad) => {
            a.ty() == b.ty()
                && same_address(ops_a[0], ops_b[0])
                && (nothing_written_between(a, b) || nothing_written_between(b, a))
        }
        _ => false,
    }
}

/// A constant address that names no memory: a constant integer cast to a pointer
/// (Rust's `NonNull::dangling()` of an empty slice is address 8), or arithmetic on one.
/// Passing it as both primal and shadow is harmless: nothing can be read through it.
fn is_dangling_constant(v: Value) -> bool {
    if v.is_global_variable() || v.is_function() || v.is_global_alias() {
        return false;
    }
    if v.is_constant_expr() {
        return v.operands().into_iter().all(is_dangling_constant);
    }
    v.is_constant()
}

/// Is `to` after `from` in its block, with no instruction between that may write memory?
fn nothing_written_between(from: Value, to: Value) -> bool {
    let mut i = from.next_instruction();
    while let Some(v) = i {
        if v == to {
            return true;
        }
        if matches!(
            v.opcode(),
            Some(
                Opcode::LLVMStore
                    | Opcode::LLVMCall
                    | Opcode::LLVMInvoke
                    | Opcode::LLVMAtomicRMW
                    | Opcode::LLVMAtomicCmpXchg
                    | Opcode::LLVMFence
                    | Opcode::LLVMVAArg
            )
        ) {
            return false;
        }
        i = v.next_instruction();
    }
    false
}

/// A function (possibly cast) passed as a value.
fn is_function_constant(v: Value) -> bool {
    strip_casts(v).is_function()
}

fn types_compatible(v: Value, t: ferrozyme_llvm::Type) -> bool {
    let vt = v.ty();
    vt == t
        || (vt.is_fp_scalar() && t.is_fp_scalar())
        || (vt.is_integer() && t.is_integer())
        || (vt.is_integer() && crate::marshal::is_unit_int_array(t))
}
