// The condition of ?: may be an integer scalar or vector, not a floating
// one (OpenCL C 1.2 6.3.i); if and while take floating conditions.
float f = 0.5f;
int a = f ? 1 : 2;
