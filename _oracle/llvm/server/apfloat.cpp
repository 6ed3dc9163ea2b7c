// apfloat: a conversion server over LLVM's APFloat, the software floating
// point of LLVM's constant folder, used by clconv's oracle checks as an
// independent implementation of rounding to bfloat16, the OCP formats and the
// IEEE formats. It reads fixed-size binary requests on stdin and answers each
// with the converted bits and APFloat's status flags on stdout.
//
// Formats are numbered as the rows of internal/minifloat.Formats; modes as
// round.Mode (rte, rtz, rtp, rtn).
#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/APInt.h>
#include <cstdint>
#include <cstdio>

using namespace llvm;

static const fltSemantics *const sems[] = {
    &APFloat::BFloat(),        &APFloat::Float8E4M3FN(), &APFloat::Float8E5M2(),
    &APFloat::Float6E2M3FN(),  &APFloat::Float6E3M2FN(), &APFloat::Float4E2M1FN(),
    &APFloat::Float8E8M0FNU(), &APFloat::IEEEhalf(),     &APFloat::IEEEsingle(),
    &APFloat::IEEEdouble(),
};
static const unsigned widths[] = {16, 8, 8, 6, 6, 4, 8, 16, 32, 64};
static const RoundingMode modes[] = {
    RoundingMode::NearestTiesToEven, RoundingMode::TowardZero,
    RoundingMode::TowardPositive, RoundingMode::TowardNegative};

struct Req {
  uint8_t dst, src, mode, kind; // kind 0: src pattern; 1: int64; 2: uint64
  uint8_t pad[4];
  uint64_t bits;
};
struct Resp {
  uint64_t bits;
  uint64_t status; // APFloat::opStatus
};

int main() {
  static Req in[4096];
  static Resp out[4096];
  size_t n;
  while ((n = fread(in, sizeof(Req), 4096, stdin)) > 0) {
    for (size_t i = 0; i < n; i++) {
      const Req &r = in[i];
      RoundingMode m = modes[r.mode & 3];
      APFloat::opStatus st;
      APFloat v(*sems[r.dst]);
      if (r.kind == 0) {
        v = APFloat(*sems[r.src], APInt(widths[r.src], r.bits));
        bool loses;
        st = v.convert(*sems[r.dst], m, &loses);
      } else {
        st = v.convertFromAPInt(APInt(64, r.bits, r.kind == 1), r.kind == 1, m);
      }
      out[i].bits = v.bitcastToAPInt().getZExtValue();
      out[i].status = st;
    }
    fwrite(out, sizeof(Resp), n, stdout);
    fflush(stdout);
  }
  return 0;
}
