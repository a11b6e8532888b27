"""PyTorch: gradients through C and C++ code against torch's own autodiff of the same math
(written with torch operations) and against finite differences; forward mode; vmap;
torch.compile; a training loop through a C ODE simulator."""

import numpy as np
import pytest

from conftest import (
    ODE_DT,
    ODE_GUESS,
    ODE_STEPS,
    ODE_TRUE,
    ODE_Y0,
    assert_close,
    fd_dir,
    fd_grad,
    framework,
    heat_inputs,
    mlp_data,
    ode_data,
)

torch = framework("torch")


# The same math, written with torch operations (torch's autodiff is the oracle).
def heat_torch(u, steps):
    for _ in range(steps):
        u = u + 0.1 * (torch.roll(u, 1) - 2 * u + torch.roll(u, -1)) - 0.01 * u**3
    return u


def mlp_torch(w, X, y, d, h):
    W, b, v = w[: d * h].reshape(h, d), w[d * h : d * h + h], w[d * h + h :]
    out = torch.tanh(X @ W.T + b) @ v
    return ((out - y) ** 2).mean()


def lv_torch(p, y0, steps, dt):
    def rhs(x, y):
        return p[0] * x - p[1] * x * y, p[1] * x * y - p[2] * y

    x, y = y0[0], y0[1]
    out = []
    for _ in range(steps):
        k1 = rhs(x, y)
        k2 = rhs(x + 0.5 * dt * k1[0], y + 0.5 * dt * k1[1])
        k3 = rhs(x + 0.5 * dt * k2[0], y + 0.5 * dt * k2[1])
        k4 = rhs(x + dt * k3[0], y + dt * k3[1])
        x = x + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        y = y + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        out.append(torch.stack([x, y]))
    return torch.stack(out)


def test_c_gradient_vs_torch_and_fd(heat):
    u0n = heat_inputs()
    w = torch.linspace(-1, 1, u0n.size, dtype=torch.float64)
    u0 = torch.tensor(u0n, requires_grad=True)
    (heat.torch(u0, steps=25) * w).square().sum().backward()
    u1 = torch.tensor(u0n, requires_grad=True)
    (heat_torch(u1, 25) * w).square().sum().backward()
    assert_close(u0.grad, u1.grad, 1e-11, what="vs torch autograd")
    fd = fd_grad(lambda x: float(np.sum((heat(x, steps=25) * w.numpy()) ** 2)), u0n)
    assert_close(u0.grad, fd, 1e-6, what="vs FD")


def test_cxx_gradient_vs_torch_and_fd(mlp):
    wn, Xn, yn, d, h = mlp_data()
    w = torch.tensor(wn, requires_grad=True)
    X, y = torch.tensor(Xn), torch.tensor(yn)
    loss = mlp.torch(w, X, y, h=h)
    loss.backward()
    w2 = torch.tensor(wn, requires_grad=True)
    ref = mlp_torch(w2, X, y, d, h)
    ref.backward()
    assert_close(loss.detach(), ref.detach(), 1e-13, what="C++ primal")
    assert_close(w.grad, w2.grad, 1e-11, what="C++ vs torch autograd")
    assert_close(w.grad, fd_grad(lambda v: float(mlp(v, Xn, yn, h=h)), wn), 1e-6, what="C++ vs FD")


def test_float32(heat32):
    u0n = heat_inputs().astype(np.float32)
    u0 = torch.tensor(u0n, requires_grad=True)
    out = heat32.torch(u0, steps=10)
    assert out.dtype == torch.float32
    out.sum().backward()
    u1 = torch.tensor(u0n, requires_grad=True)
    heat_torch(u1, 10).sum().backward()
    assert_close(u0.grad, u1.grad, 1e-5, what="f32 vs torch autograd")


def test_forward_mode_jvp(heat, model):
    u0n = heat_inputs()
    v = torch.tensor(np.cos(np.arange(u0n.size)))
    y, t = torch.func.jvp(lambda x: heat.torch(x, steps=25), (torch.tensor(u0n),), (v,))
    y2, t2 = torch.func.jvp(lambda x: heat_torch(x, 25), (torch.tensor(u0n),), (v,))
    assert_close(y, y2, 1e-13, what="jvp primal")
    assert_close(t, t2, 1e-11, what="jvp vs torch")
    assert_close(t, fd_dir(lambda x: heat(x, steps=25), u0n, v.numpy()), 1e-6, what="jvp vs FD")
    # torch.autograd.gradcheck checks backward and forward AD against its own finite differences
    x = torch.tensor(u0n[:8], requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: heat.torch(a, steps=4), (x,), check_forward_ad=True)


def test_every_role_gradcheck(model):
    rng = np.random.default_rng(5)
    n, m = 4, 6
    x = torch.tensor(rng.uniform(-1, 1, n), requires_grad=True)
    s = torch.tensor(rng.uniform(-1, 1, n), requires_grad=True)
    k = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
    idx = torch.tensor(rng.integers(0, 20, m).astype(np.int32))
    assert torch.autograd.gradcheck(lambda x, s, k: model.torch(x, s, idx, k, c=0.25), (x, s, k), check_forward_ad=True)


def test_vmap_jacobians_use_vector_mode(model):
    rng = np.random.default_rng(6)
    n, m = 5, 7
    x, s = torch.tensor(rng.uniform(-1, 1, n)), torch.tensor(rng.uniform(-1, 1, n))
    idx, k = torch.tensor(rng.integers(0, 50, m).astype(np.int32)), torch.tensor(0.6, dtype=torch.float64)

    def F(x, s, k):
        y, s2, e = model.torch(x, s, idx, k, c=0.2)
        return torch.cat([y, s2, e[None]])

    model._vec.clear()
    Jr = torch.func.jacrev(F, argnums=(0, 1, 2))(x, s, k)
    Jf = torch.func.jacfwd(F, argnums=(0, 1, 2))(x, s, k)
    assert ("vjp", 13) in model._vec and ("jvp", 11) in model._vec  # one vector call each

    def Fn(z):
        y, s2, e = model(z[:n], z[n:2 * n], idx.numpy(), z[-1], c=0.2)
        return np.concatenate([y, s2, [e]])

    z = np.concatenate([x.numpy(), s.numpy(), [0.6]])
    J_fd = np.stack([fd_dir(Fn, z, e) for e in np.eye(z.size)], axis=1)
    for J in (Jr, Jf):
        assert_close(torch.cat([J[0], J[1], J[2][:, None]], 1), J_fd, 1e-6, what="jacobian vs FD")
    # vmap over a batch of inputs (the primal and the gradient loop over the batch)
    X = torch.tensor(rng.uniform(-1, 1, (3, n)))
    Yb = torch.func.vmap(lambda x: F(x, s, k))(X)
    Gb = torch.func.vmap(torch.func.grad(lambda x: F(x, s, k).square().sum()))(X)
    for i in range(3):
        assert_close(Yb[i], Fn(np.concatenate([X[i].numpy(), s.numpy(), [0.6]])), 1e-14, what="vmap")
        g = fd_grad(lambda v: float(np.sum(Fn(np.concatenate([v, s.numpy(), [0.6]])) ** 2)), X[i].numpy())
        assert_close(Gb[i], g, 1e-6, what="vmap grad vs FD")


def test_torch_compile_keeps_the_op_in_the_graph(heat):
    def loss(x):
        return (heat.torch(x * 1.5, steps=10) ** 2).sum()

    compiled = torch.compile(loss, fullgraph=True)  # fullgraph: a graph break is an error
    u0n = heat_inputs()
    x = torch.tensor(u0n, requires_grad=True)
    lc = compiled(x)
    lc.backward()
    x2 = torch.tensor(u0n, requires_grad=True)
    le = (heat_torch(x2 * 1.5, 10) ** 2).sum()
    le.backward()
    assert_close(lc.detach(), le.detach(), 1e-12, what="compiled primal")
    assert_close(x.grad, x2.grad, 1e-10, what="compiled grad vs torch")


def test_training_loop_converges(ode):
    data = torch.tensor(ode_data(ode))
    p = torch.tensor(ODE_GUESS, requires_grad=True)
    y0 = torch.tensor(ODE_Y0)
    opt = torch.optim.Adam([p], lr=0.02)
    first = None
    for it in range(250):
        opt.zero_grad()
        loss = ((ode.torch(p, y0, steps=ODE_STEPS, dt=ODE_DT) - data) ** 2).mean()
        loss.backward()
        opt.step()
        first = first if first is not None else loss.item()
    assert loss.item() < 1e-8 * first, (first, loss.item())
    assert_close(p.detach(), ODE_TRUE, 1e-3, what="fitted parameters")
    # one gradient against torch's autodiff of the same RK4 in torch
    q = torch.tensor(ODE_GUESS, requires_grad=True)
    ((ode.torch(q, y0, steps=40, dt=ODE_DT) - data[:40]) ** 2).mean().backward()
    q2 = torch.tensor(ODE_GUESS, requires_grad=True)
    ((lv_torch(q2, y0, 40, ODE_DT) - data[:40]) ** 2).mean().backward()
    assert_close(q.grad, q2.grad, 1e-10, what="ODE grad vs torch")


def test_errors(heat):
    with pytest.raises(ValueError, match="dtype float64"):
        heat.torch(torch.zeros(4, dtype=torch.float32), steps=2)
    with pytest.raises(ValueError, match="1 dimension"):
        heat.torch(torch.zeros(2, 2, dtype=torch.float64), steps=2)
    with pytest.raises(TypeError, match="missing keyword constant"):
        heat.torch(torch.zeros(4, dtype=torch.float64))


def test_non_contiguous_input(heat):
    base = torch.tensor(np.random.default_rng(0).uniform(-1, 1, 40), requires_grad=True)
    x = base[::2]  # a strided view: made contiguous before the call
    y = heat.torch(x, steps=5)
    y.sum().backward()
    b2 = base.detach().clone().requires_grad_(True)
    heat_torch(b2[::2], 5).sum().backward()
    assert_close(base.grad, b2.grad, 1e-12, what="strided view")
