// Seed 003: as_type between types of different sizes is an error.
float4 f;
//Error. result and operand have different size
double4 g = as_double4(f); // Only if double is supported.
