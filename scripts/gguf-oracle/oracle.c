// oracle: ggml's own GGUF reader and writer, from llama.cpp's
// libggml-base.so (loaded with dlopen; no ggml headers needed), for
// comparison with package gguf. See run.sh.
//
//   oracle LIB dump FILE        print what gguf_init_from_file reads, or REJECT
//   oracle LIB types N          print name, block size, type size of ids 0..N-1
//   oracle LIB rewrite IN OUT   read IN with gguf_init_from_file and write
//                               its KVs and tensors to OUT as llama-quantize
//                               does (gguf_set_kv, gguf_add_tensor,
//                               gguf_set_tensor_data, gguf_write_to_file)
//   oracle LIB write FILE [A]   write a small file with gguf_write_to_file
//                               (A: set general.alignment to A first)
//
// The dump format is the one gocheck's dump prints: fixed-size values as
// the hex of their little-endian bytes, strings as hex, so that a diff
// compares bits.
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// From gguf.h and ggml.h (the few declarations used here).
struct ggml_context;
struct ggml_tensor;
struct gguf_context;
struct gguf_init_params {
    bool no_alloc;
    struct ggml_context **ctx;
};
struct ggml_init_params {
    size_t mem_size;
    void *mem_buffer;
    bool no_alloc;
};
enum gguf_type {
    GGUF_TYPE_UINT8, GGUF_TYPE_INT8, GGUF_TYPE_UINT16, GGUF_TYPE_INT16,
    GGUF_TYPE_UINT32, GGUF_TYPE_INT32, GGUF_TYPE_FLOAT32, GGUF_TYPE_BOOL,
    GGUF_TYPE_STRING, GGUF_TYPE_ARRAY, GGUF_TYPE_UINT64, GGUF_TYPE_INT64,
    GGUF_TYPE_FLOAT64,
};

static struct gguf_context *(*gguf_init_from_file)(const char *, struct gguf_init_params);
static struct gguf_context *(*gguf_init_empty)(void);
static void (*gguf_free)(struct gguf_context *);
static uint32_t (*gguf_get_version)(const struct gguf_context *);
static size_t (*gguf_get_alignment)(const struct gguf_context *);
static size_t (*gguf_get_data_offset)(const struct gguf_context *);
static int64_t (*gguf_get_n_kv)(const struct gguf_context *);
static const char *(*gguf_get_key)(const struct gguf_context *, int64_t);
static enum gguf_type (*gguf_get_kv_type)(const struct gguf_context *, int64_t);
static enum gguf_type (*gguf_get_arr_type)(const struct gguf_context *, int64_t);
static size_t (*gguf_get_arr_n)(const struct gguf_context *, int64_t);
static const void *(*gguf_get_arr_data)(const struct gguf_context *, int64_t);
static const char *(*gguf_get_arr_str)(const struct gguf_context *, int64_t, size_t);
static const void *(*gguf_get_val_data)(const struct gguf_context *, int64_t);
static const char *(*gguf_get_val_str)(const struct gguf_context *, int64_t);
static int64_t (*gguf_get_n_tensors)(const struct gguf_context *);
static const char *(*gguf_get_tensor_name)(const struct gguf_context *, int64_t);
static size_t (*gguf_get_tensor_offset)(const struct gguf_context *, int64_t);
static int (*gguf_get_tensor_type)(const struct gguf_context *, int64_t);
static const int64_t *(*gguf_get_tensor_ne)(const struct gguf_context *, int64_t);
static size_t (*gguf_get_tensor_size)(const struct gguf_context *, int64_t);
static const char *(*gguf_type_name)(enum gguf_type);
static void (*gguf_set_val_u8)(struct gguf_context *, const char *, uint8_t);
static void (*gguf_set_val_i8)(struct gguf_context *, const char *, int8_t);
static void (*gguf_set_val_u16)(struct gguf_context *, const char *, uint16_t);
static void (*gguf_set_val_i16)(struct gguf_context *, const char *, int16_t);
static void (*gguf_set_val_u32)(struct gguf_context *, const char *, uint32_t);
static void (*gguf_set_val_i32)(struct gguf_context *, const char *, int32_t);
static void (*gguf_set_val_f32)(struct gguf_context *, const char *, float);
static void (*gguf_set_val_u64)(struct gguf_context *, const char *, uint64_t);
static void (*gguf_set_val_i64)(struct gguf_context *, const char *, int64_t);
static void (*gguf_set_val_f64)(struct gguf_context *, const char *, double);
static void (*gguf_set_val_bool)(struct gguf_context *, const char *, bool);
static void (*gguf_set_val_str)(struct gguf_context *, const char *, const char *);
static void (*gguf_set_arr_data)(struct gguf_context *, const char *, enum gguf_type, const void *, size_t);
static void (*gguf_set_arr_str)(struct gguf_context *, const char *, const char **, size_t);
static void (*gguf_add_tensor)(struct gguf_context *, const struct ggml_tensor *);
static void (*gguf_set_kv)(struct gguf_context *, const struct gguf_context *);
static size_t (*ggml_tensor_overhead)(void);
static void (*gguf_set_tensor_data)(struct gguf_context *, const char *, const void *);
static bool (*gguf_write_to_file)(const struct gguf_context *, const char *, bool);
static struct ggml_context *(*ggml_init)(struct ggml_init_params);
static void (*ggml_free)(struct ggml_context *);
static struct ggml_tensor *(*ggml_new_tensor)(struct ggml_context *, int, int, const int64_t *);
static struct ggml_tensor *(*ggml_set_name)(struct ggml_tensor *, const char *);
static void *(*ggml_get_data)(const struct ggml_tensor *);
static size_t (*ggml_nbytes)(const struct ggml_tensor *);
static const char *(*ggml_type_name)(int);
static int64_t (*ggml_blck_size)(int);
static size_t (*ggml_type_size)(int);

static void *lib;

// gguf.cpp's GGUF_TYPE_SIZE (gguf_type_size is not exported).
static size_t gguf_type_size(enum gguf_type t) {
    static const size_t size[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return (unsigned)t < 13 ? size[t] : 0;
}

static void *sym(const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "oracle: %s\n", dlerror());
        exit(2);
    }
    return p;
}

#define LOAD(f) (*(void **)&f = sym(#f))

static void load(const char *path) {
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "oracle: %s\n", dlerror());
        exit(2);
    }
    LOAD(gguf_init_from_file); LOAD(gguf_init_empty); LOAD(gguf_free);
    LOAD(gguf_get_version); LOAD(gguf_get_alignment); LOAD(gguf_get_data_offset);
    LOAD(gguf_get_n_kv); LOAD(gguf_get_key); LOAD(gguf_get_kv_type);
    LOAD(gguf_get_arr_type); LOAD(gguf_get_arr_n); LOAD(gguf_get_arr_data);
    LOAD(gguf_get_arr_str); LOAD(gguf_get_val_data); LOAD(gguf_get_val_str);
    LOAD(gguf_get_n_tensors); LOAD(gguf_get_tensor_name); LOAD(gguf_get_tensor_offset);
    LOAD(gguf_get_tensor_type); LOAD(gguf_get_tensor_ne); LOAD(gguf_get_tensor_size);
    LOAD(gguf_type_name);
    LOAD(gguf_set_val_u8); LOAD(gguf_set_val_i8); LOAD(gguf_set_val_u16);
    LOAD(gguf_set_val_i16); LOAD(gguf_set_val_u32); LOAD(gguf_set_val_i32);
    LOAD(gguf_set_val_f32); LOAD(gguf_set_val_u64); LOAD(gguf_set_val_i64);
    LOAD(gguf_set_val_f64); LOAD(gguf_set_val_bool); LOAD(gguf_set_val_str);
    LOAD(gguf_set_arr_data); LOAD(gguf_set_arr_str); LOAD(gguf_add_tensor);
    LOAD(gguf_write_to_file); LOAD(gguf_set_tensor_data); LOAD(gguf_set_kv); LOAD(ggml_tensor_overhead);
    LOAD(ggml_init); LOAD(ggml_free); LOAD(ggml_new_tensor); LOAD(ggml_set_name);
    LOAD(ggml_get_data); LOAD(ggml_nbytes); LOAD(ggml_type_name);
    LOAD(ggml_blck_size); LOAD(ggml_type_size);
}

static void hex(const void *p, size_t n) {
    const uint8_t *b = p;
    if (n == 0) {
        printf("-");
    }
    for (size_t i = 0; i < n; i++) {
        printf("%02x", b[i]);
    }
}

static int dump(const char *path) {
    struct ggml_context *meta = NULL;
    struct gguf_init_params params = {true, &meta};
    struct gguf_context *ctx = gguf_init_from_file(path, params);
    if (!ctx) {
        printf("REJECT\n");
        return 0;
    }
    printf("version %u\nalignment %zu\ndata_offset %zu\n", gguf_get_version(ctx),
           gguf_get_alignment(ctx), gguf_get_data_offset(ctx));
    int64_t n_kv = gguf_get_n_kv(ctx);
    printf("kv %lld\n", (long long)n_kv);
    for (int64_t i = 0; i < n_kv; i++) {
        enum gguf_type t = gguf_get_kv_type(ctx, i);
        printf("kv \"%s\" %s ", gguf_get_key(ctx, i), gguf_type_name(t));
        if (t == GGUF_TYPE_ARRAY) {
            enum gguf_type et = gguf_get_arr_type(ctx, i);
            size_t n = gguf_get_arr_n(ctx, i);
            printf("%s %zu ", gguf_type_name(et), n);
            if (et == GGUF_TYPE_STRING) {
                for (size_t j = 0; j < n; j++) {
                    const char *s = gguf_get_arr_str(ctx, i, j);
                    printf(j ? "," : "");
                    hex(s, strlen(s));
                }
                if (n == 0) {
                    printf("-");
                }
            } else {
                hex(gguf_get_arr_data(ctx, i), n * gguf_type_size(et));
            }
        } else if (t == GGUF_TYPE_STRING) {
            const char *s = gguf_get_val_str(ctx, i);
            hex(s, strlen(s));
        } else {
            hex(gguf_get_val_data(ctx, i), gguf_type_size(t));
        }
        printf("\n");
    }
    int64_t n_t = gguf_get_n_tensors(ctx);
    printf("tensors %lld\n", (long long)n_t);
    for (int64_t i = 0; i < n_t; i++) {
        const int64_t *ne = gguf_get_tensor_ne(ctx, i);
        printf("tensor \"%s\" %s ne %lld %lld %lld %lld offset %zu size %zu\n",
               gguf_get_tensor_name(ctx, i), ggml_type_name(gguf_get_tensor_type(ctx, i)),
               (long long)ne[0], (long long)ne[1], (long long)ne[2], (long long)ne[3],
               gguf_get_tensor_offset(ctx, i), gguf_get_tensor_size(ctx, i));
    }
    gguf_free(ctx);
    if (meta) {
        ggml_free(meta);
    }
    return 0;
}

// rewrite is ggml's read-then-write as llama.cpp's writers do it
// (llama-quantize): a fresh context, gguf_set_kv from the file read, then
// each tensor added (gguf_add_tensor) with its data (gguf_set_tensor_data).
// A fresh context keeps the default alignment 32 whatever general.alignment
// says: see TestGGMLWrittenAlign64.
static int rewrite(const char *in, const char *out) {
    struct gguf_init_params params = {true, NULL};
    struct gguf_context *src = gguf_init_from_file(in, params);
    if (!src) {
        printf("REJECT\n");
        return 1;
    }
    int64_t n = gguf_get_n_tensors(src);
    struct ggml_init_params ip = {(size_t)(n + 1) * ggml_tensor_overhead(), NULL, true};
    struct ggml_context *tctx = ggml_init(ip);
    struct gguf_context *dst = gguf_init_empty();
    gguf_set_kv(dst, src);
    FILE *f = fopen(in, "rb");
    void **bufs = calloc(n + 1, sizeof *bufs);
    for (int64_t i = 0; i < n; i++) {
        const char *name = gguf_get_tensor_name(src, i);
        struct ggml_tensor *t = ggml_new_tensor(tctx, gguf_get_tensor_type(src, i), 4, gguf_get_tensor_ne(src, i));
        ggml_set_name(t, name);
        gguf_add_tensor(dst, t);
        size_t size = gguf_get_tensor_size(src, i);
        bufs[i] = malloc(size + 1);
        if (fseeko(f, (off_t)(gguf_get_data_offset(src) + gguf_get_tensor_offset(src, i)), SEEK_SET) != 0 ||
            fread(bufs[i], 1, size, f) != size) {
            fprintf(stderr, "oracle: cannot read tensor %lld\n", (long long)i);
            return 1;
        }
        gguf_set_tensor_data(dst, name, bufs[i]);
    }
    fclose(f);
    bool ok = gguf_write_to_file(dst, out, false);
    for (int64_t i = 0; i < n; i++) {
        free(bufs[i]);
    }
    free(bufs);
    gguf_free(dst);
    gguf_free(src);
    ggml_free(tctx);
    return ok ? 0 : 1;
}

static int types(int n) {
    for (int t = 0; t < n; t++) {
        if (ggml_blck_size(t) == 0) {
            continue; // removed ids: "DEPRECATED", "... REMOVED"
        }
        printf("type %d %s %lld %zu\n", t, ggml_type_name(t), (long long)ggml_blck_size(t), ggml_type_size(t));
    }
    return 0;
}

// write makes a file with every value type, arrays of each, and tensors of
// several types whose bytes are a counter.
static int write(const char *path, uint32_t align) {
    struct gguf_context *g = gguf_init_empty();
    if (align) {
        gguf_set_val_u32(g, "general.alignment", align);
    }
    gguf_set_val_str(g, "general.architecture", "llama");
    gguf_set_val_str(g, "general.name", "ggml-written golden");
    gguf_set_val_u8(g, "test.u8", 200);
    gguf_set_val_i8(g, "test.i8", -100);
    gguf_set_val_u16(g, "test.u16", 60000);
    gguf_set_val_i16(g, "test.i16", -30000);
    gguf_set_val_u32(g, "test.u32", 4000000000u);
    gguf_set_val_i32(g, "test.i32", -2000000000);
    gguf_set_val_f32(g, "test.f32", 0.1f);
    gguf_set_val_bool(g, "test.bool", true);
    gguf_set_val_u64(g, "test.u64", 18000000000000000000ull);
    gguf_set_val_i64(g, "test.i64", -9000000000000000000ll);
    gguf_set_val_f64(g, "test.f64", -2.5e-300);
    gguf_set_val_str(g, "test.str.empty", "");
    int32_t ai[] = {1, -2, 3};
    gguf_set_arr_data(g, "test.arr.i32", GGUF_TYPE_INT32, ai, 3);
    float af[] = {1.5f, -0.0f};
    gguf_set_arr_data(g, "test.arr.f32", GGUF_TYPE_FLOAT32, af, 2);
    uint8_t ab[] = {1, 0, 1};
    gguf_set_arr_data(g, "test.arr.bool", GGUF_TYPE_BOOL, ab, 3);
    double ad[] = {1e300};
    gguf_set_arr_data(g, "test.arr.f64", GGUF_TYPE_FLOAT64, ad, 1);
    gguf_set_arr_data(g, "test.arr.u8.empty", GGUF_TYPE_UINT8, NULL, 0);
    const char *as[] = {"<s>", "</s>", "", "\xe2\x96\x81hello"};
    gguf_set_arr_str(g, "tokenizer.ggml.tokens", as, 4);

    struct ggml_init_params ip = {16 << 20, NULL, false};
    struct ggml_context *ctx = ggml_init(ip);
    struct {
        const char *name;
        int type;
        int n_dims;
        int64_t ne[4];
    } ts[] = {
        {"token_embd.weight", 0 /* F32 */, 2, {3, 5}},
        {"blk.0.attn_q.weight", 8 /* Q8_0 */, 2, {64, 2}},
        {"blk.0.ffn_down.weight", 12 /* Q4_K */, 2, {256, 1}}, // written with n_dims 1
        {"blk.0.attn_norm.weight", 1 /* F16 */, 1, {7}},
        {"output.weight", 39 /* MXFP4 */, 3, {32, 2, 2}},
        {"rope_freqs", 30 /* BF16 */, 4, {2, 1, 1, 3}},
    };
    uint8_t counter = 0;
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        struct ggml_tensor *t = ggml_new_tensor(ctx, ts[i].type, ts[i].n_dims, ts[i].ne);
        ggml_set_name(t, ts[i].name);
        uint8_t *d = ggml_get_data(t);
        for (size_t j = 0; j < ggml_nbytes(t); j++) {
            d[j] = counter++;
        }
        gguf_add_tensor(g, t);
    }
    bool ok = gguf_write_to_file(g, path, false);
    gguf_free(g);
    ggml_free(ctx);
    if (!ok) {
        fprintf(stderr, "oracle: gguf_write_to_file failed\n");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: oracle LIB dump FILE | types N | rewrite IN OUT | write FILE [ALIGN]\n");
        return 2;
    }
    load(argv[1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(argv[2], "dump")) {
        return dump(argv[3]);
    }
    if (!strcmp(argv[2], "types")) {
        return types(atoi(argv[3]));
    }
    if (!strcmp(argv[2], "rewrite") && argc > 4) {
        return rewrite(argv[3], argv[4]);
    }
    if (!strcmp(argv[2], "write")) {
        return write(argv[3], argc > 4 ? (uint32_t)atoi(argv[4]) : 0);
    }
    fprintf(stderr, "oracle: unknown command %s\n", argv[2]);
    return 2;
}
