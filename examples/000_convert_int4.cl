// Seed 000 (and 001, 002): convert_int4 converts a uchar4 vector u to an int4
// vector c. The spec leaves u unset; it gets values here so that the output
// shows something (an uninitialized variable would be 0).
uchar4 u = (uchar4)(0, 1, 128, 255);
int4 c = convert_int4(u);
