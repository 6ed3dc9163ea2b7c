// Seed 003: a 4-vector reinterpreted as a 3-vector keeps the first three
// elements' bits. The spec leaves f unset; it gets values here.
float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
// Legal. g.xyz will have same values as f.xyz. g.w is undefined
float3 g = as_float3(f);
