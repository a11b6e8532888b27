// XLA FFI handler for Ferrozyme-compiled functions: one generic custom call target.
//
// `ferrozyme_call` runs a generated wrapper (see _glue.py: `void f(void *const *b, const
// int64_t *iv, const double *rv, const int64_t *ls)`) inside an XLA CPU executable, so a
// jitted JAX program calls the compiled C code directly (no Python callback). The wrapper
// is named by attributes: `lib` (path of the content-addressed shared library, dlopen'ed
// once) and `sym`. Other attributes:
//
//   iv, rv   the integer/real parameter vectors, passed through;
//   slots    for each wrapper slot b[k]: >= 0 operand index, -1-j result j, or kNull;
//   base     unbatched element count of each operand, then of each result;
//   batch    number of batch elements (vmap): each operand has either `base` elements
//            (broadcast: the same buffer for every element) or `batch * base` (stacked);
//            results always have `batch * base`;
//   vector   0: call the wrapper once per batch element; W > 0: the wrapper is a vector
//            mode one and is called once, lanes being the batch: `ls[k]` is the byte
//            stride between lanes of slot k (0 for a broadcast operand).
//
// Built once per jaxlib version by ferrozyme/_jax.py with clang++ against
// jax.ffi.include_dir(); it has no other dependency than libdl.

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

using Wrapper = void (*)(void *const *, const int64_t *, const double *, const int64_t *);
constexpr int64_t kNull = INT64_MIN;

std::mutex g_mu;
std::unordered_map<std::string, Wrapper> g_wrappers;

ffi::ErrorOr<Wrapper> Resolve(std::string_view lib, std::string_view sym) {
  std::string key(lib);
  key.push_back('\0');
  key.append(sym);
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_wrappers.find(key);
  if (it != g_wrappers.end()) return it->second;
  std::string path(lib);
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    return ffi::Unexpected(ffi::Error::Internal(
        "ferrozyme: cannot load " + path + ": " + (e ? e : "?") +
        " (was the ferrozyme cache folder cleared while the program ran?)"));
  }
  std::string s(sym);
  void *f = dlsym(h, s.c_str());
  if (!f) {
    return ffi::Unexpected(ffi::Error::Internal("ferrozyme: no symbol " + s + " in " + path));
  }
  Wrapper w = reinterpret_cast<Wrapper>(f);
  g_wrappers.emplace(std::move(key), w);
  return w;
}

ffi::Error FzCall(ffi::RemainingArgs args, ffi::RemainingRets rets, std::string_view lib,
                  std::string_view sym, ffi::Span<const int64_t> iv,
                  ffi::Span<const double> rv, ffi::Span<const int64_t> slots,
                  ffi::Span<const int64_t> base, int64_t batch, int64_t vector) {
  auto w = Resolve(lib, sym);
  if (w.has_error()) return w.error();
  const size_t na = args.size(), nr = rets.size();
  if (base.size() != na + nr) {
    return ffi::Error::InvalidArgument("ferrozyme: attribute `base` does not match the operands");
  }
  std::vector<char *> ptr(na + nr);
  std::vector<int64_t> stride(na + nr);  // bytes between batch elements
  for (size_t i = 0; i < na + nr; i++) {
    ffi::AnyBuffer buf = [&]() {
      if (i < na) return args.get<ffi::AnyBuffer>(i).value();
      return (*rets.get<ffi::AnyBuffer>(i - na).value());
    }();
    const int64_t n = static_cast<int64_t>(buf.element_count());
    const int64_t b = base[i];
    ptr[i] = static_cast<char *>(buf.untyped_data());
    if (n == b) {
      stride[i] = 0;
      if (i >= na && batch != 1) {
        return ffi::Error::InvalidArgument("ferrozyme: a result is not batched");
      }
    } else if (n == b * batch) {
      stride[i] = b * static_cast<int64_t>(ffi::ByteWidth(buf.element_type()));
    } else {
      return ffi::Error::InvalidArgument("ferrozyme: operand " + std::to_string(i) +
                                         " has " + std::to_string(n) + " elements, expected " +
                                         std::to_string(b) + " or " + std::to_string(b * batch));
    }
  }
  const size_t ns = slots.size();
  std::vector<void *> b(ns);
  std::vector<int64_t> ls(ns, 0);
  auto index = [&](int64_t code) -> int64_t {
    if (code == kNull) return -1;
    return code >= 0 ? code : static_cast<int64_t>(na) + (-1 - code);
  };
  const int64_t *ivp = iv.size() ? iv.begin() : nullptr;
  const double *rvp = rv.size() ? rv.begin() : nullptr;
  if (vector > 0) {
    for (size_t k = 0; k < ns; k++) {
      int64_t i = index(slots[k]);
      b[k] = i < 0 ? nullptr : ptr[i];
      ls[k] = i < 0 ? 0 : stride[i];
    }
    (*w)(b.data(), ivp, rvp, ls.data());
    return ffi::Error::Success();
  }
  for (int64_t e = 0; e < batch; e++) {
    for (size_t k = 0; k < ns; k++) {
      int64_t i = index(slots[k]);
      b[k] = i < 0 ? nullptr : ptr[i] + e * stride[i];
    }
    (*w)(b.data(), ivp, rvp, ls.data());
  }
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(FerrozymeCall, FzCall,
                              ffi::Ffi::Bind()
                                  .RemainingArgs()
                                  .RemainingRets()
                                  .Attr<std::string_view>("lib")
                                  .Attr<std::string_view>("sym")
                                  .Attr<ffi::Span<const int64_t>>("iv")
                                  .Attr<ffi::Span<const double>>("rv")
                                  .Attr<ffi::Span<const int64_t>>("slots")
                                  .Attr<ffi::Span<const int64_t>>("base")
                                  .Attr<int64_t>("batch")
                                  .Attr<int64_t>("vector"));
