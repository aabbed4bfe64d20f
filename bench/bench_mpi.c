/* Benchmarks of libusmarr-mpi, run under mpirun (`make bench`: one rank per core, 2 to 4,
 * through tests/scripts/mpi-check.sh --bench).  Each case is measured against its
 * reference in the same run, interleaved round by round; a round's time is the slowest
 * rank's (MPI_MAX), after a barrier.
 *   mpi-exchange       halo exchange of a 128^3 float64 device storage per rank, halo 2,
 *                      faces, periodic, vs raw MPI_Sendrecv of the same bytes per face
 *                      from malloc'ed host memory (ratio = raw / library, bar >= 0.7)
 *   mpi-overlap        start_on the queue, a fused 7-point stencil kernel on the core of
 *                      the inner domain enqueued on it, wait_on it, finish, vs exchange
 *                      then stencil back to back (ratio = overlapped / back to back,
 *                      bar <= 0.8)
 *   mpi-pack-face-I/J/K  rank 0 packs one face (width 2) of a 256^3 float64 device
 *                      storage into host USM staging, as exchange_start does (a copy
 *                      plan: one kernel), vs one clEnqueueMemcpyINTEL of the same bytes
 *                      (ratio = memcpy / pack, bar >= 0.8)
 * Options: --device SEL (default opencl:cpu:0), --repeat N (rounds, default 15),
 * --edge N (per-rank edge of the first two cases, default 128), --pack-edge N (default 256),
 * --filter SUBSTRING (of "mpi-exchange mpi-overlap" or "mpi-pack-face-I/J/K": which group runs). */
#include <usmarr_mpi.h> /* first: it sets CL_TARGET_OPENCL_VERSION for the OpenCL headers */
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef cl_int(CL_API_CALL *memcpy_fn)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                                       const cl_event *, cl_event *);

#define MAX_ROUNDS 200
#define HALO 2

static int rank, nranks;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Stops every rank when one fails (a benchmark has nothing to clean up worth a hang). */
static void check(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "bench_mpi: rank %d: %s: %s: %s\n", rank, what, usmarr_error_name(rc),
                usmarr_last_error_detail());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}
#define CHECK(call) check((call), #call)

static void report(const char *name, const char *description, double ratio, double bar, bool at_least,
                   const char *detail)
{
    if (rank != 0)
        return;
    bool met = at_least ? ratio >= bar : ratio <= bar;
    printf("  %s: %s\n  %s\n", name, description, detail);
    printf("bench: %s ratio=%.3f bar=%s%.3g %s\n", name, ratio, at_least ? ">=" : "<=", bar, met ? "met" : "missed");
    fflush(stdout);
}

typedef void (*step_fn)(void *arg);

/* Medians of a(arg) and b(arg), alternating, each timed on the slowest rank. */
static void interleave(MPI_Comm comm, int rounds, step_fn a, step_fn b, void *arg, double *ta, double *tb)
{
    static double sa[MAX_ROUNDS], sb[MAX_ROUNDS];
    for (int i = -2; i < rounds; i++) { /* two warm-up rounds */
        double t[2], slowest[2];
        for (int which = 0; which < 2; which++) {
            MPI_Barrier(comm);
            double t0 = now();
            (which ? b : a)(arg);
            t[which] = now() - t0;
        }
        MPI_Allreduce(t, slowest, 2, MPI_DOUBLE, MPI_MAX, comm);
        if (i >= 0) {
            sa[i] = slowest[0];
            sb[i] = slowest[1];
        }
    }
    *ta = median(sa, rounds);
    *tb = median(sb, rounds);
}

/* ---- exchange vs raw sendrecv, and overlap --------------------------------------------- */

struct exchange_case {
    usmarr_context_t *ctx;
    usmarr_mpi_grid_t *grid;
    usmarr_storage_t *u, *v;
    usmarr_mpi_exchange_t *plan;
    MPI_Comm comm;
    int neighbor[6];     /* -I, +I, -J, +J, -K, +K */
    size_t bytes[3];     /* one face per axis */
    char *send[6], *recv[6];
    cl_program program;
    cl_kernel kernel;
    size_t global_size[3];
};

static void exchange_lib(void *arg)
{
    struct exchange_case *c = arg;
    CHECK(usmarr_mpi_exchange_start(c->plan));
    CHECK(usmarr_mpi_exchange_wait(c->plan));
}

/* The classic pattern: per axis, send up while receiving from below, then the reverse. */
static void exchange_raw(void *arg)
{
    struct exchange_case *c = arg;
    for (int a = 0; a < 3; a++)
        for (int dir = 0; dir < 2; dir++) {
            int to = c->neighbor[2 * a + 1 - dir], from = c->neighbor[2 * a + dir];
            MPI_Sendrecv(c->send[2 * a + dir], (int)c->bytes[a], MPI_BYTE, to, a, c->recv[2 * a + dir],
                         (int)c->bytes[a], MPI_BYTE, from, a, c->comm, MPI_STATUS_IGNORE);
        }
}

/* A 7-point heat step as one fused kernel, as a stencil code (or GT4Py's generated code)
 * runs it: v = u + 0.1 * (sum of the six neighbours - 6 u) over a box of points. */
static const char *stencil_source =
    "__kernel void heat(__global const double *u, __global double *v, long si, long sj, long ni, long nj,\n"
    "                   long nk, long origin)\n"
    "{\n"
    "    long k = get_global_id(0), j = get_global_id(1), i = get_global_id(2);\n"
    "    if (i >= ni || j >= nj || k >= nk)\n"
    "        return;\n"
    "    long c = origin + i * si + j * sj + k;\n"
    "    v[c] = u[c] + 0.1 * ((u[c - si] + u[c + si] + u[c - sj] + u[c + sj] + u[c - 1] + u[c + 1]) - 6.0 * u[c]);\n"
    "}\n";

typedef cl_int(CL_API_CALL *set_pointer_fn)(cl_kernel, cl_uint, const void *);

/* Enqueued and flushed: the device starts it while the host waits for the messages. */
static void stencil(struct exchange_case *c)
{
    CHECK(clEnqueueNDRangeKernel(usmarr_context_queue(c->ctx), c->kernel, 3, NULL, c->global_size, NULL, 0, NULL,
                                 NULL));
    CHECK(clFlush(usmarr_context_queue(c->ctx)));
}

/* Builds the kernel over the core of the inner domain (the points whose neighbours are
 * all inner points: computable before the halo arrives). */
static void stencil_setup(struct exchange_case *c, int64_t edge)
{
    cl_int err;
    cl_context cl_ctx = usmarr_context_cl_context(c->ctx);
    cl_device_id device = usmarr_context_device(c->ctx);
    cl_platform_id platform;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    set_pointer_fn set_pointer =
        (set_pointer_fn)clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL");
    c->program = clCreateProgramWithSource(cl_ctx, 1, &stencil_source, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(c->program, 1, &device, "", NULL, NULL));
    c->kernel = clCreateKernel(c->program, "heat", &err);
    CHECK(err);
    usmarr_array_t *u = NULL, *v = NULL;
    CHECK(usmarr_storage_device_array(c->u, false, &u));
    CHECK(usmarr_storage_device_array(c->v, true, &v));
    const int64_t *strides = usmarr_array_strides(u);
    cl_long si = strides[0], sj = strides[1], n = edge - 2, origin = (HALO + 1) * (si + sj + 1);
    CHECK(strides[2] != 1 || memcmp(strides, usmarr_array_strides(v), 3 * sizeof *strides));
    CHECK(set_pointer(c->kernel, 0, usmarr_array_data(u)));
    CHECK(set_pointer(c->kernel, 1, usmarr_array_data(v)));
    CHECK(clSetKernelArg(c->kernel, 2, sizeof si, &si));
    CHECK(clSetKernelArg(c->kernel, 3, sizeof sj, &sj));
    for (int a = 0; a < 3; a++)
        CHECK(clSetKernelArg(c->kernel, 4 + (cl_uint)a, sizeof n, &n));
    CHECK(clSetKernelArg(c->kernel, 7, sizeof origin, &origin));
    c->global_size[0] = c->global_size[1] = c->global_size[2] = (size_t)n;
}

static void stencil_alone(void *arg)
{
    struct exchange_case *c = arg;
    stencil(c);
    CHECK(usmarr_context_finish(c->ctx));
}

static void back_to_back(void *arg)
{
    struct exchange_case *c = arg;
    exchange_lib(c);
    stencil(c);
    CHECK(usmarr_context_finish(c->ctx));
}

/* As GHEX's schedule_exchange: the pack waits for the queue's earlier work, the stencil is
 * enqueued on the queue while the messages travel, the queue then waits for the unpack. */
static void overlapped(void *arg)
{
    struct exchange_case *c = arg;
    usmarr_queue_t *queue = usmarr_queue_current(c->ctx);
    CHECK(usmarr_mpi_exchange_start_on(c->plan, queue, 0, NULL));
    stencil(c);
    CHECK(usmarr_mpi_exchange_wait_on(c->plan, queue, NULL));
    CHECK(usmarr_queue_finish(queue));
}

static void run_exchange_cases(usmarr_context_t *ctx, int64_t edge, int rounds)
{
    struct exchange_case c = {.ctx = ctx};
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(nranks, 3, dims);
    usmarr_mpi_grid_options_t go = USMARR_MPI_GRID_OPTIONS_INIT;
    for (int a = 0; a < 3; a++) {
        go.shape[a] = edge * dims[a];
        go.periodic[a] = true;
        go.halo[a] = HALO;
    }
    CHECK(usmarr_mpi_grid_create(MPI_COMM_WORLD, &go, &c.grid));
    usmarr_storage_options_t so = USMARR_STORAGE_OPTIONS_INIT;
    so.context = ctx;
    so.dtype = USMARR_FLOAT64;
    so.device = "gpu";
    so.managed = "none";
    CHECK(usmarr_mpi_grid_storage(c.grid, &so, &c.u));
    CHECK(usmarr_mpi_grid_storage(c.grid, &so, &c.v));
    CHECK(usmarr_mpi_exchange_create(c.grid, 1, &c.u, USMARR_MPI_FACES, &c.plan));
    MPI_Comm_dup(usmarr_mpi_grid_comm(c.grid), &c.comm);
    for (int a = 0; a < 3; a++) {
        int offset[3] = {0, 0, 0};
        for (int side = 0; side < 2; side++) {
            offset[a] = side ? 1 : -1;
            CHECK(usmarr_mpi_grid_neighbor(c.grid, offset, &c.neighbor[2 * a + side]));
            c.bytes[a] = sizeof(double) * HALO * (size_t)(edge * edge);
            c.send[2 * a + side] = calloc(1, c.bytes[a]);
            c.recv[2 * a + side] = calloc(1, c.bytes[a]);
        }
    }
    double t_lib, t_raw;
    interleave(MPI_COMM_WORLD, rounds, exchange_lib, exchange_raw, &c, &t_lib, &t_raw);
    char detail[512];
    snprintf(detail, sizeof detail,
             "%d ranks (%dx%dx%d), %lld^3 float64 per rank, halo %d, %.2f MiB sent per rank: library %.3f ms, "
             "MPI_Sendrecv %.3f ms",
             nranks, dims[0], dims[1], dims[2], (long long)edge, HALO,
             (double)usmarr_mpi_exchange_bytes(c.plan) / 1048576.0, 1e3 * t_lib, 1e3 * t_raw);
    report("mpi-exchange", "halo exchange (faces) vs raw MPI_Sendrecv of the same bytes from host memory",
           t_raw / t_lib, 0.7, true, detail);

    stencil_setup(&c, edge);
    double t_overlap, t_sequence, t_stencil, t_exchange;
    interleave(MPI_COMM_WORLD, rounds, overlapped, back_to_back, &c, &t_overlap, &t_sequence);
    /* The bound: perfect overlap takes the longer of the two alone, back to back their sum. */
    interleave(MPI_COMM_WORLD, rounds, stencil_alone, exchange_lib, &c, &t_stencil, &t_exchange);
    double longer = t_stencil > t_exchange ? t_stencil : t_exchange;
    snprintf(detail, sizeof detail,
             "start + 7-point stencil on the %lld^3 core + wait %.3f ms, exchange then stencil %.3f ms; "
             "stencil alone %.3f ms, exchange alone %.3f ms: perfect overlap would give %.3f",
             (long long)edge - 2, 1e3 * t_overlap, 1e3 * t_sequence, 1e3 * t_stencil, 1e3 * t_exchange,
             longer / (t_stencil + t_exchange));
    report("mpi-overlap", "non-blocking exchange overlapping the stencil vs the two back to back",
           t_overlap / t_sequence, 0.8, false, detail);

    clReleaseKernel(c.kernel);
    clReleaseProgram(c.program);
    for (int i = 0; i < 6; i++) {
        free(c.send[i]);
        free(c.recv[i]);
    }
    MPI_Comm_free(&c.comm);
    usmarr_mpi_exchange_release(c.plan);
    usmarr_storage_release(c.u);
    usmarr_storage_release(c.v);
    usmarr_mpi_grid_release(c.grid);
}

/* ---- packing one face vs memcpy ----------------------------------------------------- */

struct pack_case {
    usmarr_context_t *ctx;
    usmarr_array_t *stage, *region;
    usmarr_copy_plan_t *plan;
    memcpy_fn copy;
    void *device_bytes, *host_bytes;
    size_t bytes;
};

static void pack(void *arg)
{
    struct pack_case *p = arg;
    CHECK(usmarr_copy_plan_run(p->plan));
    CHECK(usmarr_context_finish(p->ctx));
}

static void raw_copy(void *arg)
{
    struct pack_case *p = arg;
    CHECK(p->copy(usmarr_context_queue(p->ctx), CL_TRUE, p->host_bytes, p->device_bytes, p->bytes, 0, NULL, NULL));
}

static void run_pack_cases(usmarr_context_t *ctx, int64_t edge, int rounds)
{
    /* Rank 0 measures alone; the others keep it company in the barriers. */
    MPI_Comm self;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &self);
    if (rank != 0)
        return;
    struct pack_case p = {.ctx = ctx};
    cl_platform_id platform;
    clGetDeviceInfo(usmarr_context_device(ctx), CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    p.copy = (memcpy_fn)clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueMemcpyINTEL");
    usmarr_storage_options_t so = USMARR_STORAGE_OPTIONS_INIT;
    so.context = ctx;
    so.dtype = USMARR_FLOAT64;
    so.device = "gpu";
    so.managed = "none";
    so.nshape = 3;
    so.shape[0] = so.shape[1] = so.shape[2] = edge + 2 * HALO;
    int64_t width[3] = {HALO, HALO, HALO};
    usmarr_storage_halo_symmetric(&so, 3, width);
    usmarr_storage_t *s = NULL;
    usmarr_array_t *side = NULL;
    CHECK(usmarr_storage_zeros(&so, &s));
    CHECK(usmarr_storage_device_array(s, false, &side));
    p.bytes = sizeof(double) * HALO * (size_t)(edge * edge);
    usmarr_memory_t *staging = NULL;
    CHECK(usmarr_memory_create(ctx, USMARR_USM_HOST, p.bytes, 64, &staging));
    p.host_bytes = usmarr_memory_pointer(staging);
    p.device_bytes = usmarr_array_data(side);
    for (int a = 0; a < 3; a++) {
        /* The layers sent towards +a: the last HALO inner layers, inner extent elsewhere. */
        int64_t shape[3] = {edge, edge, edge};
        usmarr_index_item_t items[3];
        int64_t start[3], stop[3];
        for (int d = 0; d < 3; d++) {
            start[d] = d == a ? edge : HALO;
            stop[d] = d == a ? edge + HALO : HALO + edge;
            items[d] = usmarr_index_slice(&start[d], &stop[d], NULL);
        }
        shape[a] = HALO;
        CHECK(usmarr_array_index(side, items, 3, &p.region));
        usmarr_array_options_t ao = USMARR_ARRAY_OPTIONS_INIT;
        ao.ndim = 3;
        ao.shape = shape;
        ao.buffer = USMARR_BUFFER_MEMORY;
        ao.memory = staging;
        CHECK(usmarr_array_create(&ao, &p.stage));
        CHECK(usmarr_copy_plan_create(ctx, 1, &p.stage, (const usmarr_array_t *const *)&p.region, &p.plan));
        double t_pack, t_copy;
        interleave(self, rounds, pack, raw_copy, &p, &t_pack, &t_copy);
        char name[32], detail[256];
        snprintf(name, sizeof name, "mpi-pack-face-%c", "IJK"[a]);
        snprintf(detail, sizeof detail,
                 "face %c (%lldx%lldx%lld) of a %lld^3 float64 device storage, %.2f MiB into host USM: "
                 "pack %.3f ms, clEnqueueMemcpyINTEL %.3f ms",
                 "IJK"[a], (long long)shape[0], (long long)shape[1], (long long)shape[2], (long long)edge,
                 (double)p.bytes / 1048576.0, 1e3 * t_pack, 1e3 * t_copy);
        report(name, "packing a face into staging vs clEnqueueMemcpyINTEL of the same bytes", t_copy / t_pack, 0.8,
               true, detail);
        usmarr_copy_plan_release(p.plan);
        usmarr_array_release(p.stage);
        usmarr_array_release(p.region);
    }
    usmarr_memory_release(staging);
    usmarr_storage_release(s);
    MPI_Comm_free(&self);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const char *device = getenv("USMARR_DEVICE") ? getenv("USMARR_DEVICE") : "opencl:cpu:0", *filter = NULL;
    int rounds = 15;
    int64_t edge = 128, pack_edge = 256;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--edge") && i + 1 < argc)
            edge = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--pack-edge") && i + 1 < argc)
            pack_edge = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc)
            filter = argv[++i];
        else if ((!strcmp(argv[i], "--srcdir") || !strcmp(argv[i], "--plot")) && i + 1 < argc)
            i++; /* the engine harness's options (make bench passes BENCH_ARGS to both) */
        else if (!strcmp(argv[i], "--list")) {
            if (rank == 0)
                printf("mpi-exchange\nmpi-overlap\nmpi-pack-face-I\nmpi-pack-face-J\nmpi-pack-face-K\n");
            MPI_Finalize();
            return 0;
        }
        else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--device SEL] [--repeat N] [--edge N] [--pack-edge N] [--filter SUBSTRING]\n",
                        argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
    edge = edge < 4 ? 4 : edge;
    pack_edge = pack_edge < 4 ? 4 : pack_edge;
    usmarr_context_t *ctx = NULL;
    CHECK(usmarr_context_create(device, &ctx));
    if (rank == 0)
        printf("bench: device %s / %s (%s), %d ranks, %d rounds\n", usmarr_context_info(ctx)->platform_name,
               usmarr_context_info(ctx)->device_name, usmarr_context_info(ctx)->selector, nranks, rounds);
    if (!filter || strstr("mpi-exchange mpi-overlap", filter))
        run_exchange_cases(ctx, edge, rounds);
    if (!filter || strstr("mpi-pack-face-I mpi-pack-face-J mpi-pack-face-K", filter))
        run_pack_cases(ctx, pack_edge, rounds);
    usmarr_context_release(ctx);
    MPI_Finalize();
    return 0;
}
