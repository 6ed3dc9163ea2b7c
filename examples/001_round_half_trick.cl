// Seed 001: why (int)(x + 0.5f) is not rounding to nearest. The book shows it
// with a C program (nextafterf and printf); here is the same computation in
// OpenCL C. b is 0.5f - 1 ulp: b + 0.5f is exactly halfway between
// 1 - 2^-24 and 1.0f, rounds (ties to even) to 1.0f, and so gives 1, not 0.
float a = 0.5f;
float b = as_float(as_uint(a) - 1); // a - 1 ulp
uint a_bits = as_uint(a);           // 0x3f000000
uint b_bits = as_uint(b);           // 0x3effffff
int ia = (int)(a + 0.5f);           // 1
int ib = (int)(b + 0.5f);           // 1: the surprise
int ib_rte = convert_int_rte(b);    // 0: what was meant
// For negative x the trick rounds the wrong way too.
float x = -2.7f;
int trick = (int)(x + 0.5f);        // -2
int right = convert_int_rte(x);     // -3
