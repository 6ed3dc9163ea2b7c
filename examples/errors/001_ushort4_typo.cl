// Seed 001, Figure 4.2 as the book prints it: convert_uchar4_sat_rte gives a
// uchar4, and OpenCL C has no implicit conversions between vector types, so
// initializing a ushort4 with it is an error.
float4  f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);

ushort4 c = convert_uchar4_sat_rte(f);
