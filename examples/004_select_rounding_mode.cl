// Seed 004: #pragma OPENCL SELECT_ROUNDING_MODE. The example needs the
// extension enabled and b, c and foo defined; they are added here.
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable

float4 b = (float4)(1.1f, 0.1f, -1.1f, 3.0f);
float4 c = (float4)(1.3f, 3.0f, 1.3f, 0.7f);

// foo is written where the mode is rte (the default), so it computes in rte wherever it is
// called from ("callees do not inherit the rounding mode of the caller").
float4 foo(float4 x) { return x * 1.1f + 1.0f; }

float4 a_rte = b * c; // the default mode, for comparison

#pragma OPENCL SELECT_ROUNDING_MODE rtz
float4 a = b * c; // uses round to zero rounding mode.

#pragma OPENCL SELECT_ROUNDING_MODE rtp
float4 d = foo(a); // function foo uses rounding mode
                   // specified where source for foo() is implemented.
float4 d_here = a * 1.1f + 1.0f; // the same arithmetic written here rounds up

// A pragma inside a block lasts to the end of the block.
float4 e = 0.0f;
{
#pragma OPENCL SELECT_ROUNDING_MODE rtn
    e = b * c;
}
float4 after_block = b * c; // rtp again

#pragma OPENCL SELECT_ROUNDING_MODE rte // back to the default
