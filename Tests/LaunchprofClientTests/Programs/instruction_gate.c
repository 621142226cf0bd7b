/* A C program with two phases for the instruction gate (Tests/Integration/instructions.sh, `make
 * bench-gate`): `computing` does SLOWER_PERCENT percent more work than the baseline build's. */
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"

#ifndef SLOWER_PERCENT
#define SLOWER_PERCENT 0
#endif

static volatile unsigned long sink;

/* About 4 instructions an iteration, whatever the optimiser does with it. */
static void work(unsigned long iterations) {
    unsigned long x = sink;
    for (unsigned long i = 0; i < iterations; i++) x = x * 31u + (i ^ (x >> 7));
    sink = x;
}

int main(void) {
    lp_begin_kind(LP_KIND_IO, "reading input");
    work(1000000);
    lp_end("reading input");
    lp_begin_kind(LP_KIND_CPU, "computing");
    work(1000000ul + 1000000ul * SLOWER_PERCENT / 100);
    lp_end("computing");
    lp_mark("interactive");
    lp_done();
    return 0;
}
