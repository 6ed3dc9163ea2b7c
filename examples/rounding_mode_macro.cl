// __ROUNDING_MODE__ names the mode in force, so that a macro can pick a
// function per mode. The SELECT_ROUNDING_MODE page suggests
// "#define foo foo ## __ROUNDING_MODE__", but ## does not expand its
// operands (see errors/004_paste_idiom.cl); this form works:
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define third XCAT(third_, __ROUNDING_MODE__)

float third_rte(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float third_rtz(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtp
float third_rtp(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float third_rtn(float x) { return x / 3.0f; }

#pragma OPENCL SELECT_ROUNDING_MODE rte
float t_rte = third(1.0f); // third_rte(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float t_rtz = third(1.0f); // third_rtz(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtp
float t_rtp = third(1.0f); // third_rtp(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float t_rtn = third(1.0f); // third_rtn(1.0f)
