// oracle.c: run llama.cpp's llama_model_quantize (libllama from the npm
// package @node-llama-cpp/linux-x64 3.22.1) on a GGUF file.
//
//   oracle LIBDIR params                          dump llama_model_quantize_default_params
//   oracle LIBDIR quantize IN OUT FTYPE NTHREAD PURE [REQUANT]
//
// llama-quantize's other choices come from the environment, types as ggml
// ids: ORACLE_OUT (output_tensor_type), ORACLE_EMB (token_embedding_type),
// ORACLE_LEAVE=1 (quantize_output_tensor = false) and ORACLE_TT, the
// --tensor-type rules "PATTERN=ID;PATTERN=ID" (tt_overrides: an array of
// {pattern, type} ended by a null pattern; this library's fourth-from-last
// pointer, which older llama.h called tensor_types).
//
// The parameter struct is llama.h's llama_model_quantize_params (nthread,
// ftype, output_tensor_type, token_embedding_type, six bools, four
// pointers); `params` prints the library's defaults so that run.sh can
// check the layout before trusting it.
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct qparams {
	int32_t nthread;
	int32_t ftype;
	int32_t output_tensor_type;
	int32_t token_embedding_type;
	bool allow_requantize;
	bool quantize_output_tensor;
	bool only_copy;
	bool pure;
	bool keep_split;
	bool dry_run;
	void *imatrix;
	void *kv_overrides;
	void *tensor_types;
	void *prune_layers;
	unsigned char guard[64]; // room in case the library's struct is larger
};

static void *sym(void *h, const char *name) {
	void *p = dlsym(h, name);
	if (!p) {
		fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
		exit(2);
	}
	return p;
}

static void quiet(int level, const char *text, void *ud) {
	(void)ud;
	if (getenv("ORACLE_VERBOSE") || level == 4 /* GGML_LOG_LEVEL_ERROR */) fputs(text, stderr);
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: oracle LIBDIR params | quantize IN OUT FTYPE NTHREAD PURE [REQUANT]\n");
		return 2;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s/libllama.v0.5.0.so", argv[1]);
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	struct qparams (*defaults)(void) = (struct qparams(*)(void))sym(h, "llama_model_quantize_default_params");
	uint32_t (*quantize)(const char *, const char *, const struct qparams *) = sym(h, "llama_model_quantize");
	void (*backend_init)(void) = sym(h, "llama_backend_init");
	void (*log_set)(void (*)(int, const char *, void *), void *) = sym(h, "llama_log_set");
	log_set(quiet, NULL);
	backend_init();

	struct qparams p;
	memset(&p, 0xAA, sizeof p);
	p = defaults();
	if (strcmp(argv[2], "params") == 0) {
		printf("nthread %d ftype %d output_tensor_type %d token_embedding_type %d bools %d %d %d %d %d %d ptrs %p %p %p %p guard %02x\n",
		       p.nthread, p.ftype, p.output_tensor_type, p.token_embedding_type, p.allow_requantize,
		       p.quantize_output_tensor, p.only_copy, p.pure, p.keep_split, p.dry_run, p.imatrix,
		       p.kv_overrides, p.tensor_types, p.prune_layers, p.guard[0]);
		return 0;
	}
	if (strcmp(argv[2], "quantize") != 0 || argc < 8) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	p.ftype = atoi(argv[5]);
	p.nthread = atoi(argv[6]);
	p.pure = atoi(argv[7]) != 0;
	p.allow_requantize = argc > 8 && atoi(argv[8]) != 0;
	if (getenv("ORACLE_OUT")) p.output_tensor_type = atoi(getenv("ORACLE_OUT"));
	if (getenv("ORACLE_EMB")) p.token_embedding_type = atoi(getenv("ORACLE_EMB"));
	if (getenv("ORACLE_LEAVE")) p.quantize_output_tensor = false;
	struct tt { const char *pattern; int32_t type; } tts[33];
	if (getenv("ORACLE_TT")) {
		char *spec = strdup(getenv("ORACLE_TT")), *save = NULL;
		int n = 0;
		for (char *r = strtok_r(spec, ";", &save); r && n < 32; r = strtok_r(NULL, ";", &save)) {
			char *eq = strrchr(r, '=');
			if (!eq) {
				fprintf(stderr, "ORACLE_TT: %s: no '='\n", r);
				return 2;
			}
			*eq = 0;
			tts[n].pattern = r;
			tts[n].type = atoi(eq + 1);
			n++;
		}
		tts[n].pattern = NULL;
		tts[n].type = 39; /* GGML_TYPE_COUNT of this library's era; unused */
		p.tensor_types = tts;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint32_t rc = quantize(argv[3], argv[4], &p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "seconds %.3f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return rc ? 1 : 0;
}
