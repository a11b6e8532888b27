/* Regenerate: clang-22 -O2 -S -emit-llvm -o mixed_struct.ll mixed_struct.c */
struct Particle {
  int id;
  double mass;
  float charge;
  double *pos;
  long steps;
};

double energy(struct Particle *ps, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += ps[i].mass * ps[i].charge * ps[i].pos[0] + (double)ps[i].id;
  return e;
}

void step(struct Particle *p) {
  p->steps += 1;
  p->pos[1] = p->pos[0] * p->mass;
}
