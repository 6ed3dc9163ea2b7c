// SELECT_ROUNDING_MODE needs the extension enabled first.
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float x = 1.0f / 3.0f;
