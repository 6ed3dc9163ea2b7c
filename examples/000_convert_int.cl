// Seed 000 (and 001, 002): convert_int converts a float scalar f to an int
// scalar i, rounding toward zero (no suffix on an integer destination). The
// spec leaves f unset; it gets a value here.
float f = -2.75f;
int i = convert_int(f);
