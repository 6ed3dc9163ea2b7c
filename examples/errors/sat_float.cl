// _sat is not allowed with a floating destination.
int i = 16777217;
float f = convert_float_sat(i);
