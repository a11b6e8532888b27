// OPT: O0 O2
// CFLAGS: -std=c++17 -I/usr/include/eigen3
// IGNORE-O0: Eigen's SSE2 `pxor<Packet2d>` at -O0 flips signs with a mask passed as an argument: "integer arithmetic on the bits of a floating-point value cannot be differentiated" (and no forward-mode rule); a clear compile-time error. tests/cxx/413 is the same program without vectorization, which passes at -O0
// IGNORE-REF: as at -O0 (the unoptimized IR)
// tests/cxx/413's pose residual (quaternions from `AngleAxisd`, `slerp`, `AngleAxisd` of
// the relative rotation, `Isometry3d`) built with Eigen's default SSE2 packets. At -O2
// clang loads slerp's `{double scale, const double *coeffs}` expression object as a
// `<2 x double>` and takes the pointer back out of lane 1 with `bitcast`,
// `extractelement` and `inttoptr`; refused before cxx35 ("a pointer rebuilt from an
// integer (`inttoptr`) may point into differentiable memory"), now the lane is the pointer
// stored there (`intptr.rs` `stored_pointer_lane`). Same oracles as 413.
#include "413_eigen_quaternion_slerp_pose.cpp"
