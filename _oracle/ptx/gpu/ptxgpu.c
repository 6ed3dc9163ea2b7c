/*
 * ptxgpu: runs one PTX cvt instruction on an NVIDIA GPU over a range of
 * inputs and writes the results to stdout, for clconv's oracle checks. It
 * needs only the driver's libcuda.so.1 (loaded with dlopen) and compiles the
 * PTX with the driver's JIT, so no CUDA toolkit is needed.
 *
 *   ptxgpu list              prints the conversions
 *   ptxgpu NAME LO HI        writes NAME's result for every input in [LO, HI)
 *                            (little-endian, 1 or 2 bytes each)
 *
 * Inputs are binary32 patterns (f32 sources), binary16 patterns (f16
 * sources) or 8-bit patterns (e4m3/e5m2 sources).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, CUdevice);
static CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
static CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, CUstream, void **, void **);
static CUresult (*cuCtxSynchronize)(void);

struct conv {
	const char *name;
	const char *src;  /* f32, f16, f8 */
	int outbytes;     /* 1 or 2 */
	const char *body; /* computes %rs1 (b16) from %f1 (f32), %r6 (input bits) */
};

/* %r6 holds the input pattern, %f1 the same bits as f32; the result goes to %rs1. */
static const struct conv convs[] = {
	{"e4m3.rn.satfinite.f32", "f32", 1, "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f1;"},
	{"e5m2.rn.satfinite.f32", "f32", 1, "cvt.rn.satfinite.e5m2x2.f32 %rs1, %f1, %f1;"},
	{"bf16.rn.f32", "f32", 2, "cvt.rn.bf16.f32 %rs1, %f1;"},
	{"bf16.rz.f32", "f32", 2, "cvt.rz.bf16.f32 %rs1, %f1;"},
	{"bf16.rm.f32", "f32", 2, "cvt.rm.bf16.f32 %rs1, %f1;"},
	{"bf16.rp.f32", "f32", 2, "cvt.rp.bf16.f32 %rs1, %f1;"},
	{"bf16.rn.satfinite.f32", "f32", 2, "cvt.rn.satfinite.bf16.f32 %rs1, %f1;"},
	{"bf16.rz.satfinite.f32", "f32", 2, "cvt.rz.satfinite.bf16.f32 %rs1, %f1;"},
	{"e4m3.rn.satfinite.f16", "f16", 1, "shl.b32 %r7, %r6, 16; or.b32 %r7, %r7, %r6; cvt.rn.satfinite.e4m3x2.f16x2 %rs1, %r7;"},
	{"e5m2.rn.satfinite.f16", "f16", 1, "shl.b32 %r7, %r6, 16; or.b32 %r7, %r7, %r6; cvt.rn.satfinite.e5m2x2.f16x2 %rs1, %r7;"},
	{"f16.rn.e4m3", "f8", 2, "cvt.u16.u32 %rs2, %r6; cvt.rn.f16x2.e4m3x2 %r7, %rs2; cvt.u16.u32 %rs1, %r7;"},
	{"f16.rn.e5m2", "f8", 2, "cvt.u16.u32 %rs2, %r6; cvt.rn.f16x2.e5m2x2 %r7, %rs2; cvt.u16.u32 %rs1, %r7;"},
};

static void check(CUresult r, const char *what) {
	if (r != 0) {
		fprintf(stderr, "ptxgpu: %s: CUDA error %d\n", what, r);
		exit(1);
	}
}

static void *sym(void *lib, const char *a, const char *b) {
	void *p = dlsym(lib, a);
	if (!p && b) p = dlsym(lib, b);
	if (!p) {
		fprintf(stderr, "ptxgpu: no %s in libcuda\n", a);
		exit(1);
	}
	return p;
}

int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++) printf("%s\n", convs[i].name);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: ptxgpu list | ptxgpu NAME LO HI\n");
		return 2;
	}
	const struct conv *c = NULL;
	for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++)
		if (strcmp(argv[1], convs[i].name) == 0) c = &convs[i];
	if (!c) {
		fprintf(stderr, "ptxgpu: unknown conversion %s\n", argv[1]);
		return 2;
	}
	unsigned long long lo = strtoull(argv[2], NULL, 0), hi = strtoull(argv[3], NULL, 0);

	void *lib = dlopen("libcuda.so.1", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "ptxgpu: %s\n", dlerror());
		return 1;
	}
	cuInit = sym(lib, "cuInit", NULL);
	cuDeviceGet = sym(lib, "cuDeviceGet", NULL);
	cuCtxCreate = sym(lib, "cuCtxCreate_v2", "cuCtxCreate");
	cuModuleLoadDataEx = sym(lib, "cuModuleLoadDataEx", NULL);
	cuModuleGetFunction = sym(lib, "cuModuleGetFunction", NULL);
	cuMemAlloc = sym(lib, "cuMemAlloc_v2", "cuMemAlloc");
	cuMemcpyDtoH = sym(lib, "cuMemcpyDtoH_v2", "cuMemcpyDtoH");
	cuLaunchKernel = sym(lib, "cuLaunchKernel", NULL);
	cuCtxSynchronize = sym(lib, "cuCtxSynchronize", NULL);

	CUdevice dev;
	CUcontext ctx;
	check(cuInit(0), "cuInit");
	check(cuDeviceGet(&dev, 0), "cuDeviceGet");
	check(cuCtxCreate(&ctx, 0, dev), "cuCtxCreate");

	char ptx[4096];
	snprintf(ptx, sizeof ptx,
	         ".version 8.5\n.target sm_90\n.address_size 64\n"
	         ".visible .entry k(.param .u64 out, .param .u32 base, .param .u32 n)\n{\n"
	         ".reg .pred %%p1;\n.reg .b16 %%rs<4>;\n.reg .b32 %%r<9>;\n.reg .f32 %%f<2>;\n.reg .b64 %%rd<5>;\n"
	         "mov.u32 %%r1, %%ctaid.x;\nmov.u32 %%r2, %%ntid.x;\nmov.u32 %%r3, %%tid.x;\n"
	         "mad.lo.u32 %%r4, %%r1, %%r2, %%r3;\nld.param.u32 %%r8, [n];\nsetp.ge.u32 %%p1, %%r4, %%r8;\n@%%p1 ret;\n"
	         "ld.param.u32 %%r5, [base];\nadd.u32 %%r6, %%r5, %%r4;\nmov.b32 %%f1, %%r6;\n"
	         "%s\n"
	         "ld.param.u64 %%rd1, [out];\ncvta.to.global.u64 %%rd1, %%rd1;\ncvt.u64.u32 %%rd2, %%r4;\n"
	         "%s\n"
	         "ret;\n}\n",
	         c->body,
	         c->outbytes == 1 ? "add.u64 %rd3, %rd1, %rd2;\nst.global.u8 [%rd3], %rs1;"
	                          : "shl.b64 %rd4, %rd2, 1;\nadd.u64 %rd3, %rd1, %rd4;\nst.global.b16 [%rd3], %rs1;");
	CUmodule mod;
	char log[8192] = "";
	int opts[] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */};
	void *vals[] = {log, (void *)(uintptr_t)sizeof log};
	if (cuModuleLoadDataEx(&mod, ptx, 2, opts, vals) != 0) {
		fprintf(stderr, "ptxgpu: %s: the driver does not compile this PTX: %s\n", c->name, log);
		return 3;
	}
	CUfunction fn;
	check(cuModuleGetFunction(&fn, mod, "k"), "cuModuleGetFunction");

	const unsigned chunk = 1u << 26;
	CUdeviceptr dout;
	check(cuMemAlloc(&dout, (size_t)chunk * c->outbytes), "cuMemAlloc");
	unsigned char *host = malloc((size_t)chunk * c->outbytes);
	for (unsigned long long b = lo; b < hi; b += chunk) {
		unsigned n = (unsigned)(hi - b < chunk ? hi - b : chunk);
		unsigned base = (unsigned)b;
		void *args[] = {&dout, &base, &n};
		check(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL), "cuLaunchKernel");
		check(cuCtxSynchronize(), "cuCtxSynchronize");
		check(cuMemcpyDtoH(host, dout, (size_t)n * c->outbytes), "cuMemcpyDtoH");
		if (fwrite(host, c->outbytes, n, stdout) != n) return 1;
	}
	fflush(stdout);
	return 0;
}
