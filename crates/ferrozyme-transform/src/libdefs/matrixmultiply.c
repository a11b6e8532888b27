/* Differentiable definitions of the Rust crate `matrixmultiply`'s `dgemm` and `sgemm`
 * (0.3: `C <- alpha A B + beta C` for an m x k matrix A, a k x n matrix B and an m x n
 * matrix C, each with arbitrary row and column strides in elements; when beta is zero, C
 * is not read: it may be uninitialized). ndarray's `dot` of two matrices and nalgebra's
 * products of dynamic matrices larger than 5 x 5 call them. The crate's own code packs A
 * and B into buffers it allocates, and picks an AVX/FMA/AVX-512 kernel at run time; a
 * derivative of that would need shadow packing buffers. These are the same products
 * written as three loops, which `cargo-ferrozyme` calls instead inside the code it
 * differentiates (its `preopt.rs`); the program's own calls keep the packed kernel.
 * The parameters are Rust's `usize`, `f64`/`f32`, `*const`/`*mut` and `isize`.
 * Compiled to matrixmultiply.ll by tools/gen_libdefs.sh. */
#include <stddef.h>

#define GEMM(NAME, T)                                                                  \
  void NAME(size_t m, size_t k, size_t n, T alpha, const T *a, ptrdiff_t rsa,          \
            ptrdiff_t csa, const T *b, ptrdiff_t rsb, ptrdiff_t csb, T beta, T *c,     \
            ptrdiff_t rsc, ptrdiff_t csc) {                                            \
    for (size_t i = 0; i < m; i++) {                                                   \
      for (size_t j = 0; j < n; j++) {                                                 \
        T acc = 0;                                                                     \
        for (size_t l = 0; l < k; l++)                                                 \
          acc += a[(ptrdiff_t)i * rsa + (ptrdiff_t)l * csa] *                          \
                 b[(ptrdiff_t)l * rsb + (ptrdiff_t)j * csb];                           \
        T *cij = &c[(ptrdiff_t)i * rsc + (ptrdiff_t)j * csc];                          \
        if (beta == 0)                                                                 \
          *cij = alpha * acc;                                                          \
        else                                                                           \
          *cij = alpha * acc + beta * *cij;                                            \
      }                                                                                \
    }                                                                                  \
  }

GEMM(__fz_lib_matrixmultiply_dgemm, double)
GEMM(__fz_lib_matrixmultiply_sgemm, float)
