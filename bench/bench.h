/* The benchmark harness (bench/bench.c), built into a convenience library that both
 * `usmarr bench` (tools/usmarr.c) and bench/bench (`make bench`) run through bench_main().
 *
 * Adding benchmarks: write bench/bench_<name>.c defining
 *
 *     const struct bench_case bench_<name>[] = {
 *         {"my-case", "what it measures", 2.0, BENCH_AT_LEAST, run_my_case},
 *         {NULL},
 *     };
 *
 * add X(<name>) to BENCH_FILES below and the file to bench_libusmarr_bench_la_SOURCES in
 * Makefile.am.  A case's run function fills result->ratio (and result->detail, one
 * human-readable line with the raw figures) and returns 0, or returns non-zero on failure
 * (printed, counted, the run goes on).  The harness prints, per case,
 *
 *     bench: <case> ratio=<x> bar=<y> met|missed
 *
 * where bar is ">= y" (BENCH_AT_LEAST) or "<= y" (BENCH_AT_MOST); scripts read that line.
 * NumPy references are measured in the same run with bench_numpy() (bench/numpy_*.py,
 * installed in $(pkgdatadir)/bench). */
#ifndef USMARR_BENCH_H
#define USMARR_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <usmarr.h>

#define BENCH_FILES(X)                                                                                       \
    X(copy) X(ops) X(expr) X(index) X(storage) X(memory) X(linalg) X(fft) X(sort) X(startup) X(roofline) X(queue)

enum bench_bar { BENCH_AT_LEAST, BENCH_AT_MOST };

struct bench_env {
    usmarr_context_t *ctx; /* on the device under test (--device, default: the library's default) */
    const char *scripts;   /* the directory of numpy_ref.py and numpy_index.py, or NULL */
    const char *self;      /* shell command that runs this harness again (for `--child`) */
    int repeat;            /* suggested repetitions for medians (--repeat, default 15) */
};

struct bench_result {
    double ratio;
    char detail[512];
    double bar; /* when > 0: the bar on this device, in place of the case's */
};

struct bench_case {
    const char *name;
    const char *description;
    double bar;
    enum bench_bar bar_kind;
    int (*run)(const struct bench_env *env, struct bench_result *result);
};

#define BENCH_DECLARE_(name) extern const struct bench_case bench_##name[];
BENCH_FILES(BENCH_DECLARE_)
#undef BENCH_DECLARE_

/* The harness: `[--device SEL] [--filter S] [--repeat N] [--srcdir DIR] [--plot FILE]
 * [--list]`, or `--child ARGS...`.  argv[0] is ignored; `command` names the harness in
 * messages and in the command that re-runs it ("bench" for bench/bench, "usmarr bench" for
 * the tool, whose first word is then replaced by the path of the running executable). */
int bench_main(int argc, char **argv, const char *command);

/* `bench --child ARGS...` runs this instead of the cases (bench_copy.c: the warm-start
 * measurement runs in fresh processes). */
int bench_child_main(int argc, char **argv);
/* `bench --child SEL expr` (bench_expr.c): a new expression's first result. */
int bench_expr_child(const char *selector);
/* Seconds the child `bench --child SELECTOR [MODE]` prints (seconds=...), run with the
 * disk cache on in `cache_dir` and PoCL's in `pocl_dir`; negative on failure.  `mode` ""
 * is the warm-start cases' 10 casts. */
double bench_child_seconds(const struct bench_env *env, const char *mode, const char *cache_dir, const char *pocl_dir);
/* A fresh process's time with cold caches (*cold, in new directories) and the median of
 * five with those caches warm (*warm).  Non-zero on failure. */
int bench_warm_start(const struct bench_env *env, const char *mode, double *cold, double *warm);

/* `bench --child SEL first-add` (bench_startup.c): a fresh process's first a + a. */
int bench_first_use_child(const char *selector);

/* Monotonic clock in seconds. */
double bench_now(void);
/* Median of `n` samples (sorts them). */
double bench_median(double *samples, int n);
/* Runs `$PYTHON_NUMPY <scripts>/<script> <args> <repeat>` (OPENBLAS_CORETYPE unset for
 * that command only) and returns the median seconds it prints; negative when the script
 * or NumPy is unavailable. */
double bench_numpy(const struct bench_env *env, const char *script, const char *args);
/* The ratio against `script`'s case `name` (bench_numpy) for the library's median `lib`
 * seconds of `n` runs, with both medians in res->detail; negative when NumPy's is
 * unavailable. */
int bench_numpy_ratio(const struct bench_env *env, const char *script, const char *name, double lib, int n,
                      struct bench_result *res);
/* NumPy's median seconds (env->repeat runs after one warm-up) of `stmt` after `setup`,
 * run by $PYTHON_NUMPY (python3 when unset) with OPENBLAS_CORETYPE unset; negative when
 * NumPy is unavailable. */
double bench_numpy_stmt(const struct bench_env *env, const char *setup, const char *stmt);
/* Median seconds of `count` calls of `op(arg)` + usmarr_context_finish and of `count` raw
 * enqueues + clFinish of a trivial 16-work-item kernel on the same queue, interleaved over
 * `rounds` rounds (after rounds/40, at least one, warm-up rounds) so that drift hits both
 * alike.  Non-zero on failure. */
int bench_tiny_vs_raw(const struct bench_env *env, int (*op)(void *arg), void *arg, int count, int rounds, double *lib,
                      double *raw);
/* What a case measured, for the plot (bench/plot.c). */
struct bench_outcome {
    const char *name;
    double ratio, bar;
    enum bench_bar bar_kind;
    bool met;
};
/* 0 when `file` ends in .svg or .png and a plotter is installed (gnuplot, else Python's
 * matplotlib); otherwise prints why not to stderr and returns non-zero. */
int bench_plot_check(const char *file);
/* Draws each outcome's ratio as a bar, its bar as a mark, into `file` (log scale). */
int bench_plot(const char *file, const char *title, const struct bench_outcome *outcomes, int n);

/* The machine's limit for 16M float32 streams (bench/roofline.c), one pass at a time so
 * that a case interleaves them with its own: a C loop over every core with the CPU's
 * widest vectors, plain and non-temporal stores, and a raw OpenCL kernel (float16, one
 * work-item per 16 elements) on the device under test, plain and with non-temporal
 * stores.  Every array is written before it is read (a page never written maps the zero
 * page, which reads from the caches). */
#define BENCH_STREAM_N (16 << 20)
enum bench_stream {
    BENCH_STREAM_COPY,
    BENCH_STREAM_ADD,
    BENCH_STREAM_TRIAD,
    BENCH_STREAM_FILL,
    BENCH_STREAM_KINDS,                    /* the loop's kinds above */
    BENCH_STREAM_JOB = BENCH_STREAM_KINDS, /* the raw kernel of bench_roofline_job */
};
struct bench_roofline;
/* Starts the loop's threads, allocates its arrays and the kernels' (USM arrays of the
 * library on env->ctx) and builds the kernels.  Non-zero on failure (printed). */
int bench_roofline_open(const struct bench_env *env, struct bench_roofline **rl);
void bench_roofline_close(struct bench_roofline *rl);
/* One pass of the C loop over N elements: seconds. */
int bench_roofline_loop(struct bench_roofline *rl, enum bench_stream kind, bool nontemporal, double *seconds);
/* The raw kernel of a case's own job, `name` one of job_copy, job_astype, job_fill,
 * job_add, job_exp, job_broadcast, job_strided, job_where, job_expr (bench/roofline.c), on
 * the case's arrays a, b, c and out (a NULL one unused); it then runs as BENCH_STREAM_JOB.
 * Non-zero on failure (printed). */
int bench_roofline_job(struct bench_roofline *rl, const char *name, usmarr_array_t *const args[4]);
/* One launch + clFinish of the raw kernel of `kind` over N elements: seconds, negative
 * where the device did not build the variant (non-temporal stores).  Non-zero on failure. */
int bench_roofline_kernel(struct bench_roofline *rl, enum bench_stream kind, bool nontemporal, double *seconds);
/* The loop's threads, and *isa its vectors' name ("AVX-512", ...). */
int bench_roofline_threads(const struct bench_roofline *rl, const char **isa);

/* Prints a failed call's detail and returns its code (BENCH_OK uses it). */
int bench_fail(int rc, const char *what);
#define BENCH_OK(call)                                                                             \
    do {                                                                                           \
        int rc_ = (call);                                                                          \
        if (rc_)                                                                                   \
            return bench_fail(rc_, #call);                                                         \
    } while (0)

#endif
