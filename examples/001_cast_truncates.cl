// Seed 001: a cast from float to int rounds toward zero. The book leaves x
// unset; it gets a value here.
float x = -2.75f;
int   i = (int)x;
