// OpenCL C widens a scalar to a vector only if the scalar's type does not
// outrank the element type: 0.5 is a double, f an float4 (write 0.5f).
float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
float4 g = f * 0.5;
