// convertto measures OpenCV's Mat::convertTo on the sizes and data of
// `clconv bench` (32 Ki elements in L2, 16 Mi elements from memory; normally
// distributed values with a spread of 1000), on one thread, next to memcpy of
// as many bytes, and prints one tab-separated line per conversion:
//
//   source  dest  size  gelem_per_s  gb_per_s  copy_gb_per_s
//
// GB/s counts bytes read plus bytes written, as clconv bench does. Each
// figure is the median of 5 measurements of at least 50 ms. OpenCV rounds to
// nearest and saturates (cvRound, saturate_cast); it has no unsigned 32-bit
// type and no directed rounding, so only the rte/_sat_rte rows compare.
// Built and run by run.sh.
#include <opencv2/core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using clk = std::chrono::steady_clock;

template <class F> static double timeOp(F f) {
    f();
    for (long n = 1;;) {
        auto t0 = clk::now();
        for (long i = 0; i < n; i++) f();
        double el = std::chrono::duration<double>(clk::now() - t0).count();
        if (el >= 0.05) return el / n;
        long next = (long)(n * 1.2 * 0.05 / std::max(el, 1e-6));
        n = std::max(n * 2, std::min(next, 100 * n));
    }
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t k = v.size();
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

struct Type { const char* name; int cv; int size; };

// input mirrors clconv bench's data: x ~ N(0, 1000); float, double and half
// hold x, int and uint x*1e5 truncated, short and ushort x truncated, char and
// uchar the low byte of x truncated.
static cv::Mat input(const Type& t, int n) {
    std::mt19937_64 rng(1);
    std::normal_distribution<double> nd(0, 1000);
    cv::Mat m(1, n, t.cv);
    for (int i = 0; i < n; i++) {
        double x = nd(rng);
        switch (t.cv) {
        case CV_32F: m.ptr<float>()[i] = (float)x; break;
        case CV_64F: m.ptr<double>()[i] = x; break;
        case CV_16F: m.ptr<cv::float16_t>()[i] = cv::float16_t((float)x); break;
        case CV_32S: m.ptr<int32_t>()[i] = (int32_t)(x * 1e5); break;
        case CV_16S: case CV_16U: m.ptr<int16_t>()[i] = (int16_t)x; break;
        default: m.ptr<uint8_t>()[i] = (uint8_t)(int)x;
        }
    }
    return m;
}

int main(int argc, char** argv) {
    cv::setNumThreads(1);
    const Type F{"float", CV_32F, 4}, D{"double", CV_64F, 8}, H{"half", CV_16F, 2}, I{"int", CV_32S, 4},
        C{"char", CV_8S, 1}, UC{"uchar", CV_8U, 1}, S{"short", CV_16S, 2}, US{"ushort", CV_16U, 2};
    std::vector<std::pair<Type, Type>> pairs = {
        {F, C}, {F, UC}, {F, S}, {F, US}, {F, I}, {I, F}, {D, F}, {F, H}, {H, F},
        {C, I}, {C, F}, {UC, I}, {UC, F}, {S, I}, {S, F}, {US, I}, {US, F},
        {I, C}, {I, UC}, {I, S}, {I, US},
    };
    std::vector<std::pair<const char*, int>> sizes = {{"l2", 1 << 15}, {"mem", 1 << 24}};
    std::string only = argc > 1 ? argv[1] : "";
    printf("# OpenCV %s, one thread\n# source\tdest\tsize\tgelem_per_s\tgb_per_s\tcopy_gb_per_s\n", CV_VERSION);
    for (auto& sz : sizes) {
        if (!only.empty() && only != sz.first) continue;
        int n = sz.second;
        for (auto& p : pairs) {
            cv::Mat src = input(p.first, n), dst;
            src.convertTo(dst, p.second.cv);
            size_t moved = (size_t)n * (p.first.size + p.second.size);
            std::vector<char> from(moved / 2, 1), to(moved / 2);
            std::vector<double> tc, tconv;
            for (int r = 0; r < 5; r++) {
                tc.push_back(timeOp([&] { memcpy(to.data(), from.data(), from.size()); }));
                tconv.push_back(timeOp([&] { src.convertTo(dst, p.second.cv); }));
            }
            double t = median(tconv);
            printf("%s\t%s\t%s\t%.3f\t%.2f\t%.2f\n", p.first.name, p.second.name, sz.first, n / t / 1e9,
                   moved / t / 1e9, moved / median(tc) / 1e9);
            fflush(stdout);
        }
    }
    // Where convertTo differs from OpenCL's convert_uchar_sat_rte.
    float probe[] = {3e9f, INFINITY, -INFINITY, NAN, 254.5f, 255.5f, -0.5f, 2.5f, 1e10f, -3e9f};
    cv::Mat pf(1, 10, CV_32F, probe), pu;
    pf.convertTo(pu, CV_8U);
    printf("# convertTo(CV_8U) of 3e9 inf -inf nan 254.5 255.5 -0.5 2.5 1e10 -3e9:");
    for (int i = 0; i < 10; i++) printf(" %d", pu.at<uint8_t>(i));
    printf("  (convert_uchar_sat_rte: 255 255 0 0 254 255 0 2 255 0)\n");
    return 0;
}
