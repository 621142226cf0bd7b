/* Phases on two threads, nested, for `exec --metric instructions` (Tests/Integration/instructions.sh):
 * the client's Callgrind dumps are labelled by the protocol's thread number and each thread's own
 * phase index, so every phase gets its own count. */
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"
#include <pthread.h>

static volatile unsigned long sink;

static void work(unsigned long iterations) {
    unsigned long x = sink;
    for (unsigned long i = 0; i < iterations; i++) x = x * 31u + (i ^ (x >> 7));
    sink = x;
}

static void *worker(void *unused) {
    (void)unused;
    lp_begin("worker setup");
    work(20000);
    lp_end("worker setup");
    lp_begin("worker load");
    lp_begin("worker decode");
    work(300000);
    lp_end("worker decode");
    lp_end("worker load");
    return NULL;
}

int main(void) {
    lp_begin("main setup");
    work(50000);
    lp_end("main setup");
    pthread_t thread;
    pthread_create(&thread, NULL, worker, NULL);
    pthread_join(thread, NULL);
    lp_begin("main layout");
    work(100000);
    lp_end("main layout");
    lp_done();
    return 0;
}
