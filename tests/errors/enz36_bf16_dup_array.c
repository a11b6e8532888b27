// OPT: O0 O2
// EXPECT-ERROR: unsupported-instruction
// EXPECT-ERROR: `bfloat` values (C `__bf16`) are not differentiated
// EXPECT-ERROR: is read from memory with a shadow
// EXPECT-ERROR-LINE: LOAD-MARKER
// A `__bf16` array passed with enzyme_dup and widened to float inside: activity analysis
// saw no derivative in bf16 memory, so d/db came back 0, silently, in reverse and forward
// mode (enz36; a bf16 value computed from active data was already refused:
// audit_bfloat.c). The bits are set by hand: plain C has no portable float -> __bf16
// conversion at -O0 (`__truncsfbf2` is missing from older libgcc).
#include <stdint.h>
#include <string.h>
extern float __enzyme_autodiff_f(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);
extern int enzyme_dup, enzyme_const;
float f(const __bf16 *b, float w, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) {
    float q = (float)b[i] * w; // LOAD-MARKER
    s += q * q;
  }
  return s;
}
int main(void) {
  uint16_t bits[3] = {0x3f80, 0x4000, 0xbf00}; /* 1, 2, -0.5 */
  __bf16 b[3], db[3], tb[3];
  memcpy(b, bits, sizeof b);
  memset(db, 0, sizeof db);
  memset(tb, 0, sizeof tb);
  float dw = __enzyme_autodiff_f((void *)f, enzyme_dup, b, db, 0.5f, enzyme_const, 3);
  return (int)(dw + __enzyme_fwddiff_f((void *)f, enzyme_dup, b, tb, 0.5f, 0.0f, enzyme_const, 3));
}
