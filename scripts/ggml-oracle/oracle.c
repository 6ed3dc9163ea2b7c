// oracle: a pipe server around llama.cpp's libggml-base.so, used to make the
// goldens in ggml/testdata and to time ggml's reference quantizers.
//
// Requests on stdin, little-endian, answers on stdout:
//   'Q' type:u32 n_per_row:u32 nrows:u32 floats[n_per_row*nrows]
//        -> bytes[row_size*nrows]   (ggml_quantize_chunk, no imatrix)
//   'D' type:u32 n:u32 bytes[row_size(n)]
//        -> floats[n]               (dequantize_row_<type> / to_float)
//   'T' type:u32 n_per_row:u32 nrows:u32 reps:u32 floats[...]
//        -> ns:u64 quantize, ns:u64 dequantize (best of reps, one thread)
// Q8_K is not handled by ggml_quantize_chunk; 'Q' calls quantize_row_q8_K_ref.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t ggml_quantize_chunk(int type, const float *src, void *dst, int64_t start,
                           int64_t nrows, int64_t n_per_row, const float *imatrix);
size_t ggml_row_size(int type, int64_t ne);
void ggml_fp16_to_fp32_row(const uint16_t *x, float *y, int64_t n);
void ggml_bf16_to_fp32_row(const uint16_t *x, float *y, int64_t n);
void quantize_row_q8_K_ref(const float *x, void *y, int64_t k);

typedef void (*deq_fn)(const void *, float *, int64_t);
#define D(name) void dequantize_row_##name(const void *, float *, int64_t);
D(q4_0) D(q4_1) D(q5_0) D(q5_1) D(q8_0) D(q2_K) D(q3_K) D(q4_K) D(q5_K) D(q6_K) D(q8_K) D(mxfp4) D(nvfp4)

static void deq_f32(const void *x, float *y, int64_t n) { memcpy(y, x, n * 4); }
static void deq_f16(const void *x, float *y, int64_t n) { ggml_fp16_to_fp32_row(x, y, n); }
static void deq_bf16(const void *x, float *y, int64_t n) { ggml_bf16_to_fp32_row(x, y, n); }

static deq_fn deq_for(uint32_t t) {
    switch (t) {
    case 0: return deq_f32;
    case 1: return deq_f16;
    case 30: return deq_bf16;
    case 2: return dequantize_row_q4_0;
    case 3: return dequantize_row_q4_1;
    case 6: return dequantize_row_q5_0;
    case 7: return dequantize_row_q5_1;
    case 8: return dequantize_row_q8_0;
    case 10: return dequantize_row_q2_K;
    case 11: return dequantize_row_q3_K;
    case 12: return dequantize_row_q4_K;
    case 13: return dequantize_row_q5_K;
    case 14: return dequantize_row_q6_K;
    case 15: return dequantize_row_q8_K;
    case 39: return dequantize_row_mxfp4;
    case 40: return dequantize_row_nvfp4;
    }
    fprintf(stderr, "oracle: no dequantizer for type %u\n", t);
    exit(2);
}

static size_t row_size(uint32_t t, int64_t n) {
    if (t == 15) return (size_t)(n / 256) * 292;
    return ggml_row_size((int)t, n);
}

static void quant(uint32_t t, const float *src, void *dst, int64_t nrows, int64_t npr) {
    if (t == 15) {
        /* leaves bsums unwritten in all-zero blocks: start from zeros */
        memset(dst, 0, row_size(t, npr) * nrows);
        quantize_row_q8_K_ref(src, dst, nrows * npr);
        return;
    }
    ggml_quantize_chunk((int)t, src, dst, 0, nrows, npr, NULL);
}

static void rd(void *p, size_t n) {
    if (n && fread(p, 1, n, stdin) != n) { fprintf(stderr, "oracle: short read\n"); exit(2); }
}
static void wr(const void *p, size_t n) {
    if (n && fwrite(p, 1, n, stdout) != n) { fprintf(stderr, "oracle: short write\n"); exit(2); }
}
static uint32_t u32(void) { uint32_t v; rd(&v, 4); return v; }
static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void) {
    int op;
    while ((op = getchar()) != EOF) {
        if (op == 'Q' || op == 'T') {
            uint32_t t = u32(), npr = u32(), nrows = u32();
            uint32_t reps = op == 'T' ? u32() : 1;
            size_t n = (size_t)npr * nrows, rs = row_size(t, npr) * nrows;
            float *src = malloc(n * 4 + 1), *back = malloc(n * 4 + 1);
            unsigned char *dst = malloc(rs + 1);
            rd(src, n * 4);
            if (op == 'Q') {
                quant(t, src, dst, nrows, npr);
                wr(dst, rs);
            } else {
                uint64_t bq = UINT64_MAX, bd = UINT64_MAX;
                deq_fn f = deq_for(t);
                for (uint32_t r = 0; r < reps; r++) {
                    uint64_t t0 = now_ns();
                    quant(t, src, dst, nrows, npr);
                    uint64_t t1 = now_ns();
                    f(dst, back, (int64_t)n);
                    uint64_t t2 = now_ns();
                    if (t1 - t0 < bq) bq = t1 - t0;
                    if (t2 - t1 < bd) bd = t2 - t1;
                }
                wr(&bq, 8);
                wr(&bd, 8);
            }
            free(src); free(back); free(dst);
        } else if (op == 'D') {
            uint32_t t = u32(), n = u32();
            size_t rs = row_size(t, n);
            unsigned char *src = malloc(rs + 1);
            float *dst = malloc((size_t)n * 4 + 1);
            rd(src, rs);
            deq_for(t)(src, dst, n);
            wr(dst, (size_t)n * 4);
            free(src); free(dst);
        } else {
            fprintf(stderr, "oracle: bad op %d\n", op);
            return 2;
        }
        fflush(stdout);
    }
    return 0;
}
