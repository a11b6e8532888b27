#!/usr/bin/env python3
"""Generated C programs for the compile-time scaling benchmark (issue 18).

`gen.py SHAPE N` prints one self-checking program of the given shape and size:

* `chain`: N noinline functions, each with a loop, a branch, `sin`/`exp`, reading `x`
  and updating `y`, each calling the previous one; the last one is differentiated in
  reverse mode.
* `tree`: N noinline functions in a binary call tree (function i calls 2i+1 and 2i+2);
  the root is differentiated.
* `wide`: N independent functions, each differentiated by its own `__enzyme_autodiff`
  call (N hook calls in the module).
* `big`: one function of N unrolled statements (about 8 instructions each: ~20k
  instructions at N = 2560), differentiated in reverse mode.

Every program checks its gradient against central finite differences of the same
function (a few coordinates) and prints `GRADIENT OK` or `CHECK FAIL ...` lines; it
exits non-zero on a failure. About 12 lines of C per unit of N.
"""
import sys

HEADER = """\
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

#define M 4
#define NOINLINE __attribute__((noinline))
"""

CHECK = """\
static int check(const char *what, int j, double ad, double fd) {
    double err = fabs(ad - fd) / fmax(1.0, fabs(ad) + fabs(fd));
    if (!(err < 1e-6)) {
        printf("CHECK FAIL %s[%d]: ad %.12g fd %.12g\\n", what, j, ad, fd);
        return 1;
    }
    return 0;
}
"""


def unit(i, callee_lines):
    """One function body: loop, branch, sin/exp, reads x, updates y."""
    c1 = 0.5 + (i * 37 % 97) / 200.0
    c2 = 0.01 + (i * 53 % 89) / 10000.0
    return f"""\
static NOINLINE double f{i}(const double *x, double *y, int n) {{
    double s = {callee_lines};
    for (int k = 0; k < n; k++) {{
        double t = x[k] * {c1:.4f} + s * 0.01;
        if (t > 0.5)
            y[k] += {c2:.4f} * sin(t);
        else
            y[k] -= {c2:.4f} * exp(-t * t);
    }}
    return 0.5 * s + 0.1 * y[{i % 4}];
}}
"""


def objective_main(root, name="objective"):
    return f"""\
static NOINLINE double {name}(const double *x, double *y, int n) {{
    return {root}(x, y, n);
}}

static double run_{name}(const double *x, const double *y0) {{
    double y[M];
    memcpy(y, y0, sizeof y);
    double r = {name}(x, y, M);
    for (int k = 0; k < M; k++) r += y[k];
    return r;
}}

static NOINLINE double {name}_sum(const double *x, double *y, int n) {{
    double r = {name}(x, y, n);
    for (int k = 0; k < n; k++) r += y[k];
    return r;
}}

static int check_{name}(void) {{
    double x[M] = {{0.31, 0.62, 0.17, 0.88}}, y0[M] = {{0.2, -0.1, 0.4, 0.05}};
    double y[M], dx[M] = {{0}}, dy[M] = {{0}};
    memcpy(y, y0, sizeof y);
    __enzyme_autodiff((void *){name}_sum, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, M);
    int bad = 0;
    const double h = 1e-6;
    for (int j = 0; j < M; j++) {{
        double xp[M], xm[M], yp[M], ym[M];
        memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);
        xp[j] += h; xm[j] -= h;
        bad += check("{name} dx", j, dx[j], (run_{name}(xp, y0) - run_{name}(xm, y0)) / (2 * h));
        memcpy(yp, y0, sizeof y0); memcpy(ym, y0, sizeof y0);
        yp[j] += h; ym[j] -= h;
        bad += check("{name} dy", j, dy[j], (run_{name}(x, yp) - run_{name}(x, ym)) / (2 * h));
    }}
    return bad;
}}
"""


def chain(n):
    out = [HEADER, CHECK]
    for i in range(n):
        call = "x[0] * 0.1" if i == 0 else f"f{i - 1}(x, y, n)"
        out.append(unit(i, call))
    out.append(objective_main(f"f{n - 1}"))
    out.append(MAIN_ONE)
    return "\n".join(out)


def tree(n):
    out = [HEADER, CHECK]
    for i in range(n):
        parts = [f"f{c}(x, y, n)" for c in (2 * i + 1, 2 * i + 2) if c < n]
        call = " + ".join(parts) if parts else f"x[{i % 4}] * 0.1"
        out.append(unit(i, call if len(parts) < 2 else f"0.5 * ({call})"))
    # Definitions in reverse order so each function is declared before use.
    body = out[2:]
    out = out[:2] + body[::-1]
    out.append(objective_main("f0"))
    out.append(MAIN_ONE)
    return "\n".join(out)


def wide(n):
    out = [HEADER, CHECK]
    for i in range(n):
        out.append(unit(i, f"x[{i % 4}] * 0.1"))
    for i in range(n):
        out.append(f"""\
static NOINLINE double g{i}(const double *x, double *y, int n) {{
    double r = f{i}(x, y, n);
    for (int k = 0; k < n; k++) r += y[k];
    return r;
}}

NOINLINE void grad{i}(const double *x, double *dx, double *y, double *dy) {{
    __enzyme_autodiff((void *)g{i}, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, M);
}}
""")
    # Check a few of the gradients (first, middle, last) against finite differences.
    checks = sorted({0, n // 2, n - 1})
    out.append("static double run(double (*g)(const double *, double *, int), const double *x, const double *y0) {\n"
               "    double y[M];\n    memcpy(y, y0, sizeof y);\n    return g(x, y, M);\n}\n")
    out.append("int main(void) {\n    int bad = 0;\n    const double h = 1e-6;\n")
    for i in checks:
        out.append(f"""\
    {{
        double x[M] = {{0.31, 0.62, 0.17, 0.88}}, y0[M] = {{0.2, -0.1, 0.4, 0.05}};
        double y[M], dx[M] = {{0}}, dy[M] = {{0}};
        memcpy(y, y0, sizeof y);
        grad{i}(x, dx, y, dy);
        for (int j = 0; j < M; j++) {{
            double xp[M], xm[M];
            memcpy(xp, x, sizeof x); memcpy(xm, x, sizeof x);
            xp[j] += h; xm[j] -= h;
            bad += check("g{i} dx", j, dx[j], (run(g{i}, xp, y0) - run(g{i}, xm, y0)) / (2 * h));
        }}
    }}
""")
    out.append("    if (bad) return 1;\n    printf(\"GRADIENT OK\\n\");\n    return 0;\n}\n")
    return "\n".join(out)


def big(n):
    out = [HEADER, CHECK]
    out.append("static NOINLINE double kernel(const double *x, double *y, int n) {\n"
               "    double a = x[0], b = x[1], c = x[2], d = x[3];\n")
    for i in range(n):
        k = i % 4
        c1 = 0.001 + (i * 37 % 97) / 100000.0
        stmt = [
            f"    a += {c1:.6f} * sin(b * c + {i % 7});\n",
            f"    b -= {c1:.6f} * exp(-a * a) * d;\n",
            f"    c = c * 0.9995 + {c1:.6f} * (a * d - b);\n",
            f"    d += {c1:.6f} * y[{k}] * a;\n",
        ][i % 4]
        out.append(stmt)
        if i % 16 == 15:
            out.append(f"    y[{k}] += 0.001 * (a - c);\n")
    out.append("    return a + 2.0 * b + 3.0 * c + 4.0 * d;\n}\n")
    out.append(objective_main("kernel"))
    out.append(MAIN_ONE)
    return "\n".join(out)


MAIN_ONE = """\
int main(void) {
    if (check_objective()) return 1;
    printf("GRADIENT OK\\n");
    return 0;
}
"""

SHAPES = {"chain": chain, "tree": tree, "wide": wide, "big": big}

DESCRIPTIONS = {
    "chain": "n noinline functions, each calling the previous one, the last differentiated",
    "tree": "n noinline functions in a binary call tree, the root differentiated",
    "wide": "n independent functions, one __enzyme_autodiff call each",
    "big": "one function of n unrolled statements (~8n instructions)",
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit(f"usage: gen.py {{{'|'.join(SHAPES)}}} N")
    sys.stdout.write(SHAPES[sys.argv[1]](int(sys.argv[2])))


if __name__ == "__main__":
    main()
