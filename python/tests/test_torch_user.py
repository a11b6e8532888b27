"""PyTorch as a user writes it (front13): a kernel with 2-D arrays and an active scalar
checked by torch.autograd.gradcheck and against torch's autograd of the same math;
float32; non-contiguous inputs; vmap of grad; a training loop; and second derivatives
(once silent zeros: torch treated the derivative ops as constants; then refused; now
computed by fz_hvp/fz_fof), with third order refused."""

import numpy as np
import pytest

from conftest import assert_close, fd_grad, framework, rbf_inputs

torch = framework("torch")
F = torch.func


def rbf_torch(x, c, ell):
    s = ((x[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    k = torch.exp(-0.5 * s / ell**2)
    w = torch.arange(1, x.shape[0] + 1, dtype=x.dtype)[:, None]
    return k, (k * w).sum()


def _t(a, grad=True, dtype=torch.float64):
    return torch.tensor(np.asarray(a), dtype=dtype, requires_grad=grad)


def test_gradcheck_and_vs_torch(rbf):
    xn, cn, ell = rbf_inputs()
    x, c, e = _t(xn), _t(cn), _t(ell)
    assert torch.autograd.gradcheck(lambda a, b, s: rbf.torch(a, b, s), (x, c, e))
    k, tot = rbf.torch(x, c, e)
    k2, tot2 = rbf_torch(x, c, e)
    g = torch.autograd.grad((k * k).sum() + tot, (x, c, e))
    g2 = torch.autograd.grad((k2 * k2).sum() + tot2, (x, c, e))
    for a, b, what in zip(g, g2, "xce"):
        assert_close(a, b, 1e-11, what=f"d/d{what}")
    (gt,) = torch.autograd.grad(rbf.torch(x, c, e)[1], x)
    fd = fd_grad(lambda v: float(rbf(v, cn, ell)[1]), xn)
    assert_close(gt, fd, 1e-6, what="d tot/dx vs FD")


def test_float32_and_python_scalar(rbf32):
    xn, cn, ell = rbf_inputs()
    x, c = _t(xn, dtype=torch.float32), _t(cn, dtype=torch.float32)
    _, tot = rbf32.torch(x, c, ell)  # a Python float for the active scalar: a constant
    tot.backward()
    x64 = _t(xn)
    rbf_torch(x64, _t(cn, False), torch.tensor(ell, dtype=torch.float64))[1].backward()
    assert_close(x.grad, x64.grad, 1e-4, what="float32 d/dx")


def test_non_contiguous_2d_inputs(rbf):
    xn, cn, ell = rbf_inputs()
    xt = torch.tensor(np.ascontiguousarray(xn.T)).T.requires_grad_()  # transposed view
    xs = torch.tensor(np.repeat(xn, 2, axis=0))[::2].requires_grad_()  # strided rows
    cx = _t(cn[:1], False).expand(4, 3)  # stride 0
    for x in (xt, xs):
        assert not x.is_contiguous()
        _, tot = rbf.torch(x, cx, ell)
        (g,) = torch.autograd.grad(tot, x)
        x2 = x.detach().clone().requires_grad_()
        (g2,) = torch.autograd.grad(rbf_torch(x2, cx, torch.tensor(ell, dtype=torch.float64))[1], x2)
        assert_close(g, g2, 1e-11, what="non-contiguous d/dx")


def test_vmap_of_grad_over_a_batch(rbf):
    xn, cn, ell = rbf_inputs()
    xb = torch.tensor(np.stack([xn, xn + 0.5, xn * 2.0]))
    c, e = _t(cn, False), torch.tensor(ell, dtype=torch.float64)
    gb = F.vmap(F.grad(lambda x: rbf.torch(x, c, e)[1]))(xb)
    g2 = torch.stack([F.grad(lambda x: rbf_torch(x, c, e)[1])(xb[i]) for i in range(3)])
    assert_close(gb, g2, 1e-11, what="vmap(grad)")


def test_training_loop_through_a_layer(layer):
    torch.manual_seed(1)
    A = torch.zeros(4, 3, dtype=torch.float64, requires_grad=True)
    X = torch.randn(16, 3, dtype=torch.float64)
    Y = torch.tanh(X @ torch.randn(4, 3, dtype=torch.float64).T)
    opt = torch.optim.Adam([A], lr=0.05)
    first = None
    for _ in range(150):
        opt.zero_grad()
        loss = sum(((layer.torch(A, X[i]) - Y[i]) ** 2).sum() for i in range(16))
        loss.backward()
        opt.step()
        first = float(loss.detach()) if first is None else first
    assert float(loss.detach()) < 0.02 * first


THIRD = "third derivatives through a ferrozyme function are not supported"


def test_second_derivatives_are_right_third_refused(layer):
    A = torch.randn(4, 3, dtype=torch.float64)
    x = torch.randn(3, dtype=torch.float64)
    f = lambda v: layer.torch(A, v).sum()
    ref = lambda v: torch.tanh(A @ v).sum()
    # first derivatives still work, in every transform
    for T in (F.grad, F.jacrev, F.jacfwd):
        assert_close(T(f)(x), T(ref)(x), 1e-12, what=T.__name__)
    assert_close(F.vmap(F.grad(f))(x[None].repeat(2, 1)), F.vmap(F.grad(ref))(x[None].repeat(2, 1)), 1e-12)
    # second derivatives (they were refused; before that, zeros) match torch's own
    nested = [
        F.hessian,
        lambda g: F.jacrev(F.jacrev(g)),
        lambda g: F.jacrev(F.jacfwd(g)),
        lambda g: F.jacfwd(F.jacfwd(g)),  # was torch's "flat_bdims must not be None"
        lambda g: F.grad(lambda v: F.grad(g)(v).sum()),
        lambda g: (lambda v: F.jvp(F.grad(g), (v,), (torch.ones_like(v),))[1]),
    ]
    for H in nested:
        assert_close(H(f)(x), H(ref)(x), 1e-12, what="second derivative")
    mixed = lambda L: F.grad(lambda a: F.grad(lambda v: L(a, v).sum())(x).sum())(A)  # d/dA d/dx
    assert_close(mixed(layer.torch), mixed(lambda a, v: torch.tanh(a @ v)), 1e-12, what="mixed")
    # third order is refused
    with pytest.raises(RuntimeError, match=THIRD):
        F.jacfwd(F.hessian(f))(x)
    # eager: a gradient penalty (backward through a create_graph gradient)
    xx = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xx), xx, create_graph=True)
    ((g**2).sum() + (xx**2).sum()).backward()
    xr = x.clone().requires_grad_()
    (gr,) = torch.autograd.grad(ref(xr), xr, create_graph=True)
    ((gr**2).sum() + (xr**2).sum()).backward()
    assert_close(xx.grad, xr.grad, 1e-12, what="gradient penalty")
    # create_graph alone (first derivatives only) is fine
    xx = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xx), xx, create_graph=True)
    assert_close(g.detach(), F.grad(ref)(x), 1e-12, what="create_graph first derivative")
    # forward-mode AD, then backward through the tangent
    import torch.autograd.forward_ad as fwAD

    xx = x.clone().requires_grad_()
    with fwAD.dual_level():
        t = fwAD.unpack_dual(layer.torch(A, fwAD.make_dual(xx, torch.ones(3, dtype=torch.float64)))).tangent
    t.sum().backward()
    xr = x.clone().requires_grad_()
    with fwAD.dual_level():
        tr = fwAD.unpack_dual(torch.tanh(A @ fwAD.make_dual(xr, torch.ones(3, dtype=torch.float64)))).tangent
    tr.sum().backward()
    assert_close(xx.grad, xr.grad, 1e-12, what="backward through a forward-mode tangent")


def test_gradient_for_a_const_argument_is_refused(mlp):
    """`const X` passed with requires_grad: a backward that needs X's gradient used to
    leave X.grad None without a word (front13); now it says to declare X `in` or detach it.
    Gradients with respect to the other inputs only are not affected."""
    from conftest import mlp_data

    wn, Xn, yn, d, h = mlp_data()
    w, X, y = _t(wn), _t(Xn), _t(yn, False)
    with pytest.raises(RuntimeError, match="declares it `const`"):
        mlp.torch(w, X, y, h=h).backward()
    (gw,) = torch.autograd.grad(mlp.torch(w, X, y, h=h), w)  # only w requested: fine
    X2 = X * 1.0
    (gw2,) = torch.autograd.grad(mlp.torch(w, X2, y, h=h), w)
    assert_close(gw, gw2, 0.0, what="grad wrt w with a const X that requires grad")
    assert_close(gw, fd_grad(lambda v: float(mlp(v, Xn, yn, h=h)), wn), 1e-6, what="vs FD")
    with pytest.raises(RuntimeError, match="declares it `const`"):
        torch.autograd.grad(mlp.torch(w, X * 2.0, y, h=h), X)
    with pytest.raises(RuntimeError, match="declares it `const`"):
        F.grad(lambda XX: mlp.torch(w.detach(), XX, y, h=h))(X.detach())
    mlp.torch(w, X.detach(), y, h=h).backward()  # the fix the message suggests
    assert_close(w.grad, gw, 0.0, what="detached X")


def test_gradient_for_a_const_argument_under_torch_compile(mlp):
    """Under torch.compile the op's registered backward ran and left the const input's
    gradient None; the backward (traced ahead of time) now refuses it."""
    from conftest import mlp_data

    wn, Xn, yn, d, h = mlp_data()
    w, X, y = _t(wn), _t(Xn), _t(yn, False)
    f = torch.compile(lambda a, b: mlp.torch(a, b, y, h=h), backend="aot_eager", fullgraph=True)
    with pytest.raises(Exception, match="declares it `const`"):
        f(w, X).backward()
    g = torch.compile(lambda a: mlp.torch(a, X.detach(), y, h=h), backend="aot_eager", fullgraph=True)
    g(w).backward()
    assert_close(w.grad, fd_grad(lambda v: float(mlp(v, Xn, yn, h=h)), wn), 1e-6, what="compiled, detached X")
