// A name that was never declared.
float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
int4 i = convert_int4(g);
