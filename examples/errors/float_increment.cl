// OpenCL C has no ++ or -- for float, double and half, scalar or vector
// (OpenCL C 1.2 6.3.c: a++ of 0x1.0p25f would give 0x1.0p25f back).
// Integers have them.
int i = 1;
i++;
float2 v = (float2)(1.0f, 2.0f);
v--;
