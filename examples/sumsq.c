// Quick-start example: gradients with the Enzyme-compatible ABI, checked two ways.
//
//   ferrozyme cc -O2 examples/sumsq.c -o sumsq -lm && ./sumsq
//
// f(x)  = sum_i x_i^2              gradient 2 x            (pointer argument: enzyme_dup)
// g(x)  = sum_i sin(x_i) exp(x_i/n) * w_i, with a loop-carried weight
//         gradient checked against central finite differences only.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);

#define N 5

double f(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}

double g(const double *x, int n) {
    double s = 0.0, w = 1.0;
    for (int i = 0; i < n; i++) {
        s += w * sin(x[i]) * exp(x[i] / n);
        w *= 0.5 + 0.1 * x[i]; // the weight depends on earlier inputs
    }
    return s;
}

// Central finite difference of fn with respect to x[i].
static double fd(double (*fn)(const double *, int), double *x, int n, int i) {
    const double h = 1e-6;
    double keep = x[i];
    x[i] = keep + h;
    double up = fn(x, n);
    x[i] = keep - h;
    double down = fn(x, n);
    x[i] = keep;
    return (up - down) / (2 * h);
}

int main(void) {
    double x[N] = {1.0, -2.0, 0.5, 3.0, -0.25};
    double dx[N] = {0}, dgx[N] = {0}; // shadows: gradients accumulate with +=
    double max_err = 0.0;

    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
    printf("f(x) = sum x_i^2 = %g\n", f(x, N));
    printf("  i        x_i          ad          fd     analytic 2x\n");
    for (int i = 0; i < N; i++) {
        double d = fd(f, x, N, i);
        printf("%3d %10.4f %11.6f %11.6f %11.6f\n", i, x[i], dx[i], d, 2 * x[i]);
        max_err = fmax(max_err, fabs(dx[i] - d));
    }

    __enzyme_autodiff((void *)g, enzyme_dup, x, dgx, enzyme_const, N);
    printf("g(x) = sum w_i sin(x_i) exp(x_i/n) = %g\n", g(x, N));
    printf("  i        x_i          ad          fd\n");
    for (int i = 0; i < N; i++) {
        double d = fd(g, x, N, i);
        printf("%3d %10.4f %11.6f %11.6f\n", i, x[i], dgx[i], d);
        max_err = fmax(max_err, fabs(dgx[i] - d));
    }

    printf("max |ad - fd| = %.3g\n", max_err);

    // Cost of a gradient relative to the function itself, measured in this run.
    enum { BIG = 1 << 20, REPS = 50 };
    double *bx = malloc(sizeof(double) * BIG), *bd = malloc(sizeof(double) * BIG);
    for (int i = 0; i < BIG; i++) bx[i] = sin(i), bd[i] = 0;
    volatile double sink = 0;
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int r = 0; r < REPS; r++) sink += g(bx, BIG);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (int r = 0; r < REPS; r++) __enzyme_autodiff((void *)g, enzyme_dup, bx, bd, enzyme_const, BIG);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    double tp = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    double tg = (t2.tv_sec - t1.tv_sec) + 1e-9 * (t2.tv_nsec - t1.tv_nsec);
    printf("g on n = %d: primal %.3f ms, gradient %.3f ms, gradient/primal = %.2f\n", BIG, 1e3 * tp / REPS,
           1e3 * tg / REPS, tg / tp);
    free(bx);
    free(bd);
    return max_err < 1e-6 ? 0 : 1;
}
