// Seed 000 (and 001, 002): saturating conversions from short4. The spec leaves
// s unset; it gets values here that reach both ends of each range.
short4 s = (short4)(-300, -1, 100, 300);
// negative values clamped to 0
ushort4 u = convert_ushort4_sat( s );
// values > CHAR_MAX converted to CHAR_MAX
// values < CHAR_MIN converted to CHAR_MIN
char4 c = convert_char4_sat( s );
