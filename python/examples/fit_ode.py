"""Train through a C simulator: fit the 3 parameters of a Lotka-Volterra model written in C
(lotka_volterra.c, next to this file) to noisy observations, with PyTorch's Adam.

    python python/examples/fit_ode.py

ferrozyme.load compiles the C file once with automatic differentiation (Ferrozyme's
LLVM pass) and caches it; `ode.torch(...)` is then an ordinary differentiable PyTorch op.
Writes fit_ode_loss.png (the loss curve and the fitted trajectories) next to this script.
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402

import ferrozyme  # noqa: E402

HERE = Path(__file__).resolve().parent
ode = ferrozyme.load(HERE / "lotka_volterra.c", "lotka_volterra",
                     signature="(in p[3], const y0[2], out traj[steps, 2], steps, const dt)")

steps, dt = 200, 0.05
y0 = torch.tensor([2.0, 1.0], dtype=torch.float64)
true_p = torch.tensor([1.1, 0.4, 0.9], dtype=torch.float64)
torch.manual_seed(0)
observed = ode.torch(true_p, y0, steps=steps, dt=dt) * (1 + 0.02 * torch.randn(steps, 2, dtype=torch.float64))

p = torch.tensor([0.7, 0.6, 1.3], dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([p], lr=0.02)
losses = []
for it in range(400):
    opt.zero_grad()
    loss = ((ode.torch(p, y0, steps=steps, dt=dt) - observed) ** 2).mean()
    loss.backward()  # reverse mode through the C code
    opt.step()
    losses.append(loss.item())
print(f"fitted p = {p.detach().numpy()}, true p = {true_p.numpy()}, final loss {losses[-1]:.3e}")

fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
a.semilogy(losses)
a.set_xlabel("Adam iteration")
a.set_ylabel("mean squared error")
a.set_title("Training through lotka_volterra.c")
t = torch.arange(1, steps + 1) * dt
fit = ode.torch(p.detach(), y0, steps=steps, dt=dt)
for k, name in enumerate(("prey", "predator")):
    color = ("C0", "C3")[k]
    b.plot(t, observed[:, k], ".", ms=2, color=color, alpha=0.5, label=f"{name} (observed)")
    b.plot(t, fit[:, k], "-", color=color, label=f"{name} (fitted)")
b.set_xlabel("time")
b.legend(fontsize=7)
b.set_title("fitted trajectories")
fig.tight_layout()
out = HERE / "fit_ode_loss.png"
fig.savefig(out, dpi=110)
print(f"wrote {out}")
