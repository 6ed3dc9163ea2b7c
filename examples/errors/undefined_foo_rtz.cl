// The working macro form maps foo(a) to foo_rtz(a) under rtz; when there is
// no foo_rtz, that is an error.
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define foo XCAT(foo_, __ROUNDING_MODE__)
float foo_rte(float x) { return x; }
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float a = foo(1.0f);
