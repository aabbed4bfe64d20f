/* bench/bench, which `make bench` runs: the harness of `usmarr bench` on its own. */
#include "bench.h"

int main(int argc, char **argv) { return bench_main(argc, argv, "bench"); }
