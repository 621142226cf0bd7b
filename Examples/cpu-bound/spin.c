// A CPU-bound program for `--tier` measurements: optionally sleeps, then computes for a given CPU
// time on one or more threads, then exits. Built by `make bench` (Benchmarks/launchprof-bench).
//
//   spin CPU_MS [SLEEP_MS [THREADS]]
//
// Each thread spins until its own CPU time (CLOCK_THREAD_CPUTIME_ID) reaches CPU_MS, so the work
// is the same whatever else the machine does; a throttled run's wall time divided by CPU_MS is its
// stretch. Sleeping happens first, on the main thread, before any computing.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long cpu_ms;

static double thread_cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *spin(void *unused) {
    (void)unused;
    volatile unsigned long x = 1;
    while (thread_cpu_ms() < (double)cpu_ms) {
        for (int i = 0; i < 20000; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: spin CPU_MS [SLEEP_MS [THREADS]]\n");
        return 2;
    }
    cpu_ms = atol(argv[1]);
    long sleep_ms = argc > 2 ? atol(argv[2]) : 0;
    long threads = argc > 3 ? atol(argv[3]) : 1;
    if (cpu_ms < 0 || cpu_ms > 3600000 || sleep_ms < 0 || sleep_ms > 3600000 || threads < 1 || threads > 64) {
        fprintf(stderr, "spin: out of range\n");
        return 2;
    }
    if (sleep_ms > 0) {
        struct timespec s = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
        while (nanosleep(&s, &s) != 0) {}
    }
    pthread_t others[64];
    for (long i = 1; i < threads; i++) pthread_create(&others[i], NULL, spin, NULL);
    spin(NULL);
    for (long i = 1; i < threads; i++) pthread_join(others[i], NULL);
    return 0;
}
