typedef struct { double pos[3], vel[3], mass; int id; } particle;
typedef struct { int tag; double m[3][3]; int flags; } frame;
void fill(double *x, int n) { for (int i = 0; i < n; i++) x[i] = 0.5 * i; }
static particle base[2];
static frame fr;
int setup(void) {
  for (int i = 0; i < 2; i++) { fill(base[i].pos, 3); fill(base[i].vel, 3); base[i].mass = 1; base[i].id = i; }
  fr.tag = 1; fill(&fr.m[0][0], 9); fr.flags = 2;
  return base[1].id + fr.flags;
}
