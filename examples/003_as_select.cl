// Seed 003: a comparison gives -1 (all bits set) or 0 per element, so & with
// the bits of f keeps f where f < g and gives 0.0f elsewhere. The spec leaves
// f and g unset; they get values here.
float4 f = (float4)(1.0f, 5.0f, -3.0f, 8.0f), g = (float4)(2.0f, 4.0f, 0.0f, 8.0f);
int4 is_less = f < g;
// Legal. f[i] = f[i] < g[i] ? f[i] : 0.0f
f = as_float4(as_int4(f) & is_less);
