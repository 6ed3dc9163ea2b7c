// Seed 004's idiom "#define foo foo ## __ROUNDING_MODE__" does not work in
// standard C preprocessing: the operands of ## are not macro-expanded, so foo
// becomes foo__ROUNDING_MODE__. run --warn explains at the #define; see
// rounding_mode_macro.cl for the form that works.
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#define foo foo ## __ROUNDING_MODE__
float foo_rte(float x) { return x; }
float a = foo(1.0f);
