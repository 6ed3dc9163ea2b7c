// Seed 001, Figure 4.2: a float4 converted with round-to-nearest and
// saturation. The book writes "ushort4 c = convert_uchar4_sat_rte(f);",
// which is an error (errors/001_ushort4_typo.cl); both meanings are here.
float4  f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);
uchar4  c = convert_uchar4_sat_rte(f);
ushort4 c16 = convert_ushort4_sat_rte(f);
