// Seed 003: as_type between types with different element counts is
// implementation-defined. clconv reinterprets the little-endian memory image,
// as a union does on x86 and ARM. The spec leaves i unset; it gets values
// here.
int i = 0x00020001;
// Legal. Result is implementation-defined.
short2 j = as_short2(i);

int4 i = (int4)(0x00020001, 0x00040003, -1, 0x7fff8000);
// Legal. Result is implementation-defined.
short8 j = as_short8(i);
