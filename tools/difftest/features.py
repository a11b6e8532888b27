"""What the random programs of tools/difftest may contain, as data.

Each program draws its features from the enabled ones (one probability each); the
breakdown that `check.py` prints is per feature. A feature that main does not support
yet is off by default (`on=False`) and turned on with `--features +name` (or
`FEATURES=+name` for `make difftest`); `--features -name` turns one off.
"""

# name: (languages, on by default, probability, what the generated code does)
FEATURES = {
    # --- numerics (the original generator)
    "helpers": ("c cxx", True, 0.6, "static / noinline / inline helpers, some writing through pointers, calling each other"),
    "recursion": ("c cxx", True, 0.25, "a recursive helper"),
    "memcpy": ("c cxx", True, 0.35, "memcpy / memmove between the arrays"),
    "heap": ("c cxx", True, 0.5, "a malloc'd scratch array, freed at the end (and on early returns)"),
    "stack": ("c cxx", True, 0.6, "a local array"),
    "branches": ("c cxx", True, 0.8, "if / switch / break / continue / early return"),
    # --- what users write
    "struct": ("c cxx", True, 0.4, "a struct mixing int and floating fields: copied whole, in arrays, by value through a helper, memcpy'd"),
    "globals": ("c cxx", True, 0.4, "mutable globals set in main (outside the differentiated function) and read in it; a global written then read in it"),
    "print": ("c cxx", True, 0.3, "printf / puts of intermediate values inside the differentiated function"),
    # On since the merges (off before): snprintf is an inactive library call, fprintf(stderr)
    # no longer needs a shadow of the global stream pointer; callbacks and OpenMP below too.
    "snprintf": ("c cxx", True, 0.2, "snprintf into a local buffer inside the differentiated function"),
    "stderr": ("c cxx", True, 0.15, "fprintf(stderr, ...) inside the differentiated function"),
    "float_arg": ("c cxx", True, 0.25, "a float parameter of a double function (typed hook)"),
    "complex_arg": ("c", True, 0.2, "a double _Complex parameter (two doubles for the ABI; forward mode passes the parts' tangents explicitly)"),
    "ldouble_arg": ("c cxx", True, 0.2, "a long double parameter (computed on in long double)"),
    "fnptr": ("c cxx", True, 0.3, "a table of callbacks and a callback argument (indirect calls at -O0)"),
    "omp": ("c cxx", True, 0.2, "an OpenMP parallel for reduction over the inputs (-fopenmp)"),
    # --- C++
    "class": ("cxx", True, 0.5, "a class with a constructor, private state and methods"),
    "opover": ("cxx", True, 0.4, "a small vector type with overloaded operators"),
    "template": ("cxx", True, 0.4, "a function template instantiated with the floating type"),
    "lambda": ("cxx", True, 0.4, "lambdas capturing locals by reference"),
    "array": ("cxx", True, 0.35, "std::array"),
    "vector": ("cxx", True, 0.35, "std::vector (sized, indexed, push_back)"),
    "reference": ("cxx", True, 0.3, "references to array elements"),
    # --- what the merges brought (issue 17, continued)
    "algorithm": ("cxx", True, 0.3, "std::sort (plain and with a comparator lambda) of a std::vector built with push_back, "
                  "std::accumulate / std::inner_product, a helper reading a const std::vector & (const operator[], range-for)"),
    "cout": ("cxx", True, 0.25, "std::cout / std::cerr << of intermediate values inside the differentiated function"),
    "blas": ("c cxx", True, 0.25, "CBLAS calls on the arrays (dot, axpy, scal, nrm2, gemv; -lopenblas)"),
    # --- fuzz36: the shapes the bugs of sessions 15-17 came from
    "constw": ("c cxx", True, 0.35, "an enzyme_const weights pointer `const R *cw` read beside the active arrays, and a "
               "struct {const R *w; R s; R *out; int n;} built on the stack, passed by value and by pointer to helpers"),
    "cxxconst": ("cxx", True, 0.4, "constant C++ containers passed enzyme_const: const std::vector<R> & (operator[], "
                 "range-for, data()), a span-like view {const R *p; long n;} passed by value, std::map<int, R> "
                 "lookups (find, at, range-for)"),
    "slotreuse": ("c cxx", True, 0.35, "a local array reused for two things in sequence, two blocks each declaring "
                  "R tmp[4] / a struct, malloc + free and realloc inside loops"),
    "dispatch": ("c cxx", True, 0.35, "a global table of function pointers (libm functions and local ones) indexed by "
                 "an int, switch over an enum, early return inside nested loops, goto"),
    "scatter": ("c cxx", True, 0.35, "integer-indexed scatters and gathers with repeated indices "
                "(y[ix[i]] += w[i] * x[i]), memmove shifts of active ranges, divide-and-conquer recursion"),
    # --- fuzz37: hook variants (harness only: the program's body is the same), loops, math, C++
    "vecfwd": ("c cxx", True, 0.3, "vector forward mode (__enzyme_fwddiff with enzyme_width 2-4), each lane's tangent "
               "and output shadows compared with a scalar forward call along the same direction"),
    "split": ("c cxx", True, 0.3, "split mode: __enzyme_augmentfwd + __enzyme_reverse (tape returned, or enzyme_tape "
              "into a buffer of __enzyme_augmentsize bytes), compared with __enzyme_autodiff"),
    "dupnoneed": ("c cxx", True, 0.25, "enzyme_dupnoneed for out / x in reverse and out in forward mode, compared "
                  "with enzyme_dup"),
    "xscalar": ("c cxx", True, 0.25, "two more active scalar parameters (d, e), every scalar enzyme_out"),
    "loops2": ("c cxx", True, 0.4, "while loops with a floating-point convergence test (Newton, a max count), nested "
               "loops with a data-dependent inner bound, recurrences over a local history array, reductions into "
               "struct fields"),
    "math2": ("c cxx", True, 0.4, "fmin/fmax/fabs/copysign kinks, pow with int and active exponents, hypot, atan2, "
              "expm1, log1p, cbrt, erf, fma"),
    "complex": ("cxx", True, 0.3, "std::complex<R> arithmetic (*, /, exp, abs, arg, conj)"),
    "valarray": ("cxx", True, 0.25, "std::valarray<R> (elementwise arithmetic, apply-free math, sum, slices)"),
    "eigen": ("cxx", True, 0.2, "Eigen fixed-size Matrix<R,3,1> / Matrix<R,3,3> (products, dot, norm, transpose)"),
    "stdfunc": ("cxx", True, 0.3, "std::function<R(R)> callbacks (lambdas, plain functions) passed to a helper"),
    "virtual": ("cxx", True, 0.3, "virtual calls through a base class reference (two derived classes)"),
}

# The Fortran generator's features (genf.py), drawn in their own order from their own
# stream, so they never change what a C or C++ seed draws. `omp` shares its name (and
# its `-omp` override) with the C feature.
FORTRAN = {
    "real4": ("fortran", True, 0.3, "the kernel in real(4) instead of real(8)"),
    "loops": ("fortran", True, 0.5, "DO loops with CYCLE / EXIT, nested DO, DO WHILE with a data-dependent test"),
    "select": ("fortran", True, 0.35, "SELECT CASE on the loop index"),
    "sections": ("fortran", True, 0.5, "array sections with strides (1:n:2, n:1:-2, 2:n), overlapping assignments "
                 "into out"),
    "where": ("fortran", True, 0.35, "WHERE / ELSEWHERE blocks, a one-line WHERE, a masked sum"),
    "reduce": ("fortran", True, 0.5, "sum, product, dot_product, maxval, minval, norm2 of array expressions"),
    "matmul": ("fortran", True, 0.3, "matmul / transpose of a local 3x3 matrix and vectors"),
    "alloc": ("fortran", True, 0.4, "allocatable local arrays: allocate/deallocate, allocation on assignment, growth "
              "by [a1, v]"),
    "omp": ("fortran", True, 0.2, "!$omp parallel do with reduction(+:s), and one writing out(i) (-fopenmp)"),
    "elemental": ("fortran", True, 0.4, "module ELEMENTAL functions on arrays and PURE functions of assumed-shape "
                  "sections"),
    "assumed": ("fortran", True, 0.45, "module procedures with assumed-shape dummies (strided sections passed, "
                "intent(inout) ones) and explicit-shape dummies given strided sections (copy-in/copy-out)"),
    "optional": ("fortran", True, 0.35, "OPTIONAL scalar and intent(inout) array dummies, present(), keyword calls"),
    "dtype": ("fortran", True, 0.35, "a derived type with a default-initialized real component and a real array "
              "component, a PURE function of it, a subroutine updating it, an array of it assigned whole"),
    "internal": ("fortran", True, 0.35, "internal procedures of f using host association (reading w, t1; adding "
                 "into the host's s)"),
    "kinks": ("fortran", True, 0.5, "min, max, abs, sign, mod, merge inside expressions"),
}

OPT_CONFIGS = {
    "O0": ["-O0"],
    "O2": ["-O2"],
    "O3n": ["-O3", "-march=native"],
    "fm": ["-O2", "-ffast-math", "-march=x86-64-v3"],
    # fuzz39: what users type for speed (never drawn by default; `--configs O0,O3fm`)
    "O3fm": ["-O3", "-ffast-math"],
    # A second oracle: the program built with `--check-gradients`, whose run-time checks
    # (finite differences in the program's own precision) must agree with the harness's.
    "O2cg": ["-O2", "--check-gradients"],
}


ALWAYS = "always"


def parse_overrides(spec):
    """'+fnptr,-stderr,++split' -> {'fnptr': True, 'stderr': False, 'split': ALWAYS}
    (`++name`: in every program, its probability taken as 1; the other features of a seed
    stay what they were); unknown names are errors."""
    out = {}
    for part in (spec or "").replace(" ", ",").split(","):
        part = part.strip()
        if not part:
            continue
        on = ALWAYS if part.startswith("++") else not part.startswith("-")
        name = part.lstrip("+-")
        if name == "all":
            for k in list(FEATURES) + list(FORTRAN):
                out[k] = on
            continue
        if name not in FEATURES and name not in FORTRAN:
            raise SystemExit("difftest: unknown feature %r (known: %s)" % (name, ", ".join(
                list(FEATURES) + [k for k in FORTRAN if k not in FEATURES])))
        out[name] = on
    return out


def enabled(lang, overrides):
    """The features a program in `lang` may draw."""
    table = FORTRAN if lang == "fortran" else FEATURES
    return {k for k, (langs, on, _, _) in table.items()
            if lang in langs.split() and overrides.get(k, on)}


def draw(rng, lang, allowed, table=None, order=None, overrides=None):
    """The features of one program: each allowed feature with its probability (1 for the
    `++name` ones). Every feature is drawn, allowed or not, so turning one off leaves the
    others of a seed as they were (a failure can be narrowed down feature by feature)."""
    table = table or FEATURES
    order = order or sorted(k for k in FEATURES if k not in LATER) + LATER
    forced = {k for k, v in (overrides or {}).items() if v == ALWAYS}
    return {k for k in order if (rng.random() < table[k][2] or k in forced) and k in allowed}


# Features added after the first reports, drawn after the others so that a seed keeps the
# features it had before they existed (reports stay reproducible).
LATER = ["algorithm", "cout", "blas", "constw", "cxxconst", "slotreuse", "dispatch", "scatter",
         # fuzz37
         "vecfwd", "split", "dupnoneed", "xscalar", "loops2", "math2", "complex", "valarray", "eigen", "stdfunc",
         "virtual"]
