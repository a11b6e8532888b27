// TensorFlow op `FerrozymeCall`: runs a Ferrozyme-generated wrapper inside a TF graph.
//
// One generic op for every loaded function: the wrapper (see _glue.py, `void f(void *const
// *b, const int64_t *iv, const double *rv, const int64_t *ls)`) is named by the attributes
// `lib` (content-addressed shared library, dlopen'ed once) and `sym`. `slots` maps each
// wrapper slot to an input (>= 0), an output (-1-j) or NULL (INT64_MIN); `out_shapes` gives
// the outputs' shapes (the shape function reports them, so tf.function graphs have static
// shapes); `rv_bits` holds the real constants as the bit patterns of doubles (TF's float
// attributes are single precision). Sizes unknown when the graph is traced (a Keras batch
// dimension, `TensorSpec((None, 4))`) are read from the inputs at run time: `dyn_iv` holds
// pairs (iv index, source) and `dyn_shape` triples (output, dimension, source), a source
// being input * 64 + dimension; `out_shapes` has -1 there. Such a size goes to a C integer
// parameter (`int n`): `dyn_iv_range` holds its (lo, hi) per dyn_iv pair and `dyn_iv_what` a
// description naming it, and a dimension out of that range fails the op instead of being
// truncated by the wrapper's cast (front43). The gradient is registered from Python
// (ferrozyme/_tf.py): it emits another FerrozymeCall running the `fz_vjp` wrapper.
//
// Built once per TensorFlow version by ferrozyme/_tf.py with tf.sysconfig's flags.

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/framework/shape_inference.h"

using namespace tensorflow;

namespace {

using Wrapper = void (*)(void *const *, const int64_t *, const double *, const int64_t *);
constexpr int64_t kNull = INT64_MIN;

std::mutex g_mu;
std::unordered_map<std::string, Wrapper> g_wrappers;

Status Resolve(const std::string &lib, const std::string &sym, Wrapper *out) {
  std::string key = lib + '\0' + sym;
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_wrappers.find(key);
  if (it != g_wrappers.end()) {
    *out = it->second;
    return OkStatus();
  }
  void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    return errors::Internal("ferrozyme: cannot load ", lib, ": ", e ? e : "?");
  }
  void *f = dlsym(h, sym.c_str());
  if (!f) return errors::Internal("ferrozyme: no symbol ", sym, " in ", lib);
  *out = reinterpret_cast<Wrapper>(f);
  g_wrappers.emplace(key, *out);
  return OkStatus();
}

}  // namespace

REGISTER_OP("FerrozymeCall")
    .Input("args: Tin")
    .Output("rets: Tout")
    .Attr("Tin: list(type) >= 0")
    .Attr("Tout: list(type) >= 0")
    .Attr("lib: string")
    .Attr("sym: string")
    .Attr("iv: list(int) = []")
    .Attr("rv_bits: list(int) = []")
    .Attr("slots: list(int)")
    .Attr("out_shapes: list(shape)")
    .Attr("dyn_iv: list(int) = []")
    .Attr("dyn_shape: list(int) = []")
    .Attr("dyn_iv_range: list(int) = []")
    .Attr("dyn_iv_what: list(string) = []")
    .SetShapeFn([](shape_inference::InferenceContext *c) {
      std::vector<PartialTensorShape> shapes;
      TF_RETURN_IF_ERROR(c->GetAttr("out_shapes", &shapes));
      if (static_cast<int>(shapes.size()) != c->num_outputs()) {
        return errors::InvalidArgument("ferrozyme: out_shapes does not match Tout");
      }
      for (int i = 0; i < c->num_outputs(); i++) {
        shape_inference::ShapeHandle h;
        TF_RETURN_IF_ERROR(c->MakeShapeFromPartialTensorShape(shapes[i], &h));
        c->set_output(i, h);
      }
      return OkStatus();
    });

class FerrozymeCallOp : public OpKernel {
 public:
  explicit FerrozymeCallOp(OpKernelConstruction *ctx) : OpKernel(ctx) {
    std::string lib, sym;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("lib", &lib));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("sym", &sym));
    std::vector<int64_t> bits;
    OP_REQUIRES_OK(ctx, ctx->GetAttr("iv", &iv_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("rv_bits", &bits));
    for (int64_t b : bits) {
      double d;
      std::memcpy(&d, &b, sizeof d);
      rv_.push_back(d);
    }
    OP_REQUIRES_OK(ctx, ctx->GetAttr("slots", &slots_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("out_shapes", &shapes_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dyn_iv", &dyn_iv_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dyn_shape", &dyn_shape_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dyn_iv_range", &dyn_range_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("dyn_iv_what", &dyn_what_));
    OP_REQUIRES(ctx, dyn_iv_.size() % 2 == 0 && dyn_shape_.size() % 3 == 0,
                errors::InvalidArgument("ferrozyme: malformed dyn_iv/dyn_shape"));
    OP_REQUIRES(ctx,
                dyn_range_.empty() || (dyn_range_.size() == dyn_iv_.size() &&
                                       2 * dyn_what_.size() == dyn_iv_.size()),
                errors::InvalidArgument("ferrozyme: malformed dyn_iv_range/dyn_iv_what"));
    OP_REQUIRES_OK(ctx, Resolve(lib, sym, &wrapper_));
  }

  void Compute(OpKernelContext *ctx) override {
    const int nin = ctx->num_inputs(), nout = ctx->num_outputs();
    OP_REQUIRES(ctx, static_cast<int>(shapes_.size()) == nout,
                errors::InvalidArgument("ferrozyme: out_shapes does not match the outputs"));
    std::vector<void *> in(nin), out(nout);
    for (int i = 0; i < nin; i++) {
      in[i] = const_cast<char *>(ctx->input(i).tensor_data().data());
    }
    auto source = [&](int64_t src, int64_t *v) -> Status {
      const int64_t i = src / 64, d = src % 64;
      if (src < 0 || i >= nin || d >= ctx->input(i).dims()) {
        return errors::InvalidArgument("ferrozyme: bad size source ", src);
      }
      *v = ctx->input(i).dim_size(d);
      return OkStatus();
    };
    std::vector<int64_t> iv = iv_;
    for (size_t k = 0; k + 1 < dyn_iv_.size(); k += 2) {
      OP_REQUIRES(ctx, dyn_iv_[k] >= 0 && dyn_iv_[k] < static_cast<int64_t>(iv.size()),
                  errors::InvalidArgument("ferrozyme: bad dyn_iv"));
      int64_t &v = iv[dyn_iv_[k]];
      OP_REQUIRES_OK(ctx, source(dyn_iv_[k + 1], &v));
      if (!dyn_range_.empty()) {
        const int64_t lo = dyn_range_[k], hi = dyn_range_[k + 1];
        OP_REQUIRES(ctx, lo <= v && v <= hi,
                    errors::InvalidArgument("ferrozyme: ", dyn_what_[k / 2], " is ", v,
                                            ", which does not fit the C parameter (", lo,
                                            " to ", hi, ")"));
      }
    }
    std::vector<PartialTensorShape> pshapes = shapes_;
    for (size_t k = 0; k + 2 < dyn_shape_.size(); k += 3) {
      const int64_t j = dyn_shape_[k], d = dyn_shape_[k + 1];
      OP_REQUIRES(ctx, j >= 0 && j < nout && d >= 0 && d < pshapes[j].dims(),
                  errors::InvalidArgument("ferrozyme: bad dyn_shape"));
      int64_t v = 0;
      OP_REQUIRES_OK(ctx, source(dyn_shape_[k + 2], &v));
      pshapes[j].set_dim(d, v);
    }
    for (int j = 0; j < nout; j++) {
      TensorShape shape;
      OP_REQUIRES(ctx, pshapes[j].AsTensorShape(&shape),
                  errors::InvalidArgument("ferrozyme: output ", j, " has an unresolved shape"));
      Tensor *t = nullptr;
      OP_REQUIRES_OK(ctx, ctx->allocate_output(j, shape, &t));
      out[j] = const_cast<char *>(t->tensor_data().data());
    }
    std::vector<void *> b(slots_.size());
    for (size_t k = 0; k < slots_.size(); k++) {
      int64_t s = slots_[k];
      if (s == kNull) {
        b[k] = nullptr;
      } else if (s >= 0) {
        OP_REQUIRES(ctx, s < nin, errors::InvalidArgument("ferrozyme: bad slot"));
        b[k] = in[s];
      } else {
        OP_REQUIRES(ctx, -1 - s < nout, errors::InvalidArgument("ferrozyme: bad slot"));
        b[k] = out[-1 - s];
      }
    }
    wrapper_(b.data(), iv.empty() ? nullptr : iv.data(), rv_.empty() ? nullptr : rv_.data(),
             nullptr);
  }

 private:
  Wrapper wrapper_ = nullptr;
  std::vector<int64_t> iv_;
  std::vector<double> rv_;
  std::vector<int64_t> slots_;
  std::vector<PartialTensorShape> shapes_;
  std::vector<int64_t> dyn_iv_, dyn_shape_, dyn_range_;
  std::vector<std::string> dyn_what_;
};

REGISTER_KERNEL_BUILDER(Name("FerrozymeCall").Device(DEVICE_CPU), FerrozymeCallOp);
