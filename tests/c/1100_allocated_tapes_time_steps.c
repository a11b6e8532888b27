// OPT: O0 O1 O2 O3
// Enzyme-style split mode over a time loop: each step's tape lives in caller memory
// (enzyme_allocated, bytes, enzyme_tape, buf), one buffer per step in a 2-D char array;
// the steps are reversed last-in first-out by hand, with a float parameter (drag) that
// is enzyme_out and a struct state duplicated. Oracle: central differences of the
// whole time loop.
#include "fz_test.h"

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_tape, enzyme_allocated;
extern void *__enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);

#define NSTEP 12
#define TAPE 512

typedef struct {
  double pos[3];
  double vel[3];
  int steps_taken;
} particle;

static double speed2(const particle *p) {
  return p->vel[0] * p->vel[0] + p->vel[1] * p->vel[1] + p->vel[2] * p->vel[2];
}

/* one explicit step with quadratic drag and a sinusoidal force field */
void step(particle *p, double drag, double dt) {
  double s = sqrt(speed2(p) + 1e-12);
  double f[3];
  for (int k = 0; k < 3; k++) f[k] = -drag * s * p->vel[k] + sin(p->pos[(k + 1) % 3]);
  for (int k = 0; k < 3; k++) {
    p->vel[k] += dt * f[k];
    p->pos[k] += dt * p->vel[k];
  }
  p->steps_taken++;
}

static double energy(const particle *p) {
  return 0.5 * speed2(p) + cos(p->pos[0]) * p->pos[1] + p->pos[2] * p->pos[2];
}

typedef struct {
  particle p0;
  double drag;
} ctx_t;

static double run_all(void *c) {
  ctx_t *x = c;
  particle p = x->p0;
  for (int i = 0; i < NSTEP; i++) step(&p, x->drag, 0.05);
  return energy(&p);
}

int main(void) {
  particle p0 = {{0.3, -0.7, 1.1}, {0.9, 0.2, -0.4}, 0};
  double drag = 0.35;
  particle p = p0, dp;
  memset(&dp, 0, sizeof dp);
  _Alignas(16) static char tapes[NSTEP][TAPE];
  for (int i = 0; i < NSTEP; i++)
    __enzyme_augmentfwd((void *)step, enzyme_dup, &p, &dp, enzyme_out, drag, enzyme_const,
                        0.05, enzyme_allocated, TAPE, enzyme_tape, (void *)tapes[i]);
  fz_check("steps counted in the augmented forward", p.steps_taken, NSTEP, 0);
  /* seed with d energy / d final state (analytic) */
  dp.vel[0] = p.vel[0];
  dp.vel[1] = p.vel[1];
  dp.vel[2] = p.vel[2];
  dp.pos[0] = -sin(p.pos[0]) * p.pos[1];
  dp.pos[1] = cos(p.pos[0]);
  dp.pos[2] = 2 * p.pos[2];
  double ddrag = 0;
  for (int i = NSTEP - 1; i >= 0; i--)
    ddrag += __enzyme_reverse((void *)step, enzyme_dup, &p, &dp, enzyme_out, drag,
                              enzyme_const, 0.05, enzyme_allocated, TAPE, enzyme_tape,
                              (void *)tapes[i]);
  ctx_t c = {p0, drag};
  fz_check("d energy / d drag", ddrag, fz_fd_ptr(run_all, &c, &c.drag), 1e-6);
  for (int k = 0; k < 3; k++) {
    char buf[64];
    snprintf(buf, sizeof buf, "d energy / d pos0[%d]", k);
    fz_check(buf, dp.pos[k], fz_fd_ptr(run_all, &c, &c.p0.pos[k]), 1e-6);
    snprintf(buf, sizeof buf, "d energy / d vel0[%d]", k);
    fz_check(buf, dp.vel[k], fz_fd_ptr(run_all, &c, &c.p0.vel[k]), 1e-6);
  }
  return fz_finish();
}
