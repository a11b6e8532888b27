/* Lotka-Volterra predator-prey model integrated with classical RK4.
 * p = (a, b, c):  x' = a x - b x y,  y' = b x y - c y.
 * traj[k][0..1] is the state after step k+1. */

static void rhs(const double *p, double x, double y, double *dx, double *dy) {
  *dx = p[0] * x - p[1] * x * y;
  *dy = p[1] * x * y - p[2] * y;
}

void lotka_volterra(const double *p, const double *y0, double *traj, int steps, double dt) {
  double x = y0[0], y = y0[1];
  for (int k = 0; k < steps; k++) {
    double k1x, k1y, k2x, k2y, k3x, k3y, k4x, k4y;
    rhs(p, x, y, &k1x, &k1y);
    rhs(p, x + 0.5 * dt * k1x, y + 0.5 * dt * k1y, &k2x, &k2y);
    rhs(p, x + 0.5 * dt * k2x, y + 0.5 * dt * k2y, &k3x, &k3y);
    rhs(p, x + dt * k3x, y + dt * k3y, &k4x, &k4y);
    x += dt / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    y += dt / 6.0 * (k1y + 2.0 * k2y + 2.0 * k3y + k4y);
    traj[2 * k] = x;
    traj[2 * k + 1] = y;
  }
}
