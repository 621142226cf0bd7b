/*
 * make bench: the C client's cost per event (include/launchprof.h) beside a bare write(2) of the same
 * line to the same pipe, which a reader thread drains, measured in alternation in one run: 301
 * samples of 200 events each, each figure the median sample. Goal: at most 2x.
 *
 * The client takes its descriptor before main, so the program starts itself again with a pipe at
 * descriptor 3 and LAUNCHPROF_FD=3, as `launchprof exec` would.
 */
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { samples = 301, batch = 200 };

static uint64_t lines_read;

static void *drain(void *argument) {
    int fd = *(int *)argument;
    char buffer[65536];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) != 0) {
        for (ssize_t i = 0; i < n; i++) lines_read += buffer[i] == '\n';
    }
    return NULL;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values) {
    qsort(values, samples, sizeof *values, by_value);
    return values[samples / 2];
}

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Starts this program again with the pipe's write end at descriptor 3 and LAUNCHPROF_FD=3. */
static int start_with_pipe(char **argv) {
    int fds[2];
    char read_end[16];
    if (pipe(fds) != 0) return perror("client bench: pipe"), 1;
    int reader = fcntl(fds[0], F_DUPFD, 10), writer = fcntl(fds[1], F_DUPFD, 10); /* 3 may be one of them */
    close(fds[0]);
    close(fds[1]);
    if (reader < 0 || writer < 0 || dup2(writer, 3) < 0) return perror("client bench: descriptors"), 1;
    close(writer);
    snprintf(read_end, sizeof read_end, "%d", reader);
    setenv("LAUNCHPROF_FD", "3", 1);
    setenv("CLIENT_BENCH_READ_FD", read_end, 1);
    execv("/proc/self/exe", argv);
    return perror("client bench: execv /proc/self/exe"), 1;
}

int main(int argc, char **argv) {
    (void)argc;
    const char *read_end = getenv("CLIENT_BENCH_READ_FD");
    if (!read_end) return start_with_pipe(argv);
    if (!lp_active()) return fprintf(stderr, "client bench: the client did not take descriptor 3\n"), 1;
    int reader_fd = atoi(read_end);
    pthread_t reader;
    pthread_create(&reader, NULL, drain, &reader_fd);

    /* The line lp_mark("first frame") writes on the main thread (number 0), with a current reading. */
    char line[64];
    int length = snprintf(line, sizeof line, "mark %llu 0 first frame\n", (unsigned long long)now());
    double bare[samples], client[samples];
    for (int i = 0; i < 1000; i++) lp_mark("first frame"); /* warm-up: the greeting, caches, the reader */
    for (int s = 0; s < samples; s++) {
        uint64_t start = now();
        for (int i = 0; i < batch; i++) {
            if (write(3, line, (size_t)length) != length) return perror("client bench: write"), 1;
        }
        bare[s] = (double)(now() - start) / batch;
        start = now();
        for (int i = 0; i < batch; i++) lp_mark("first frame");
        client[s] = (double)(now() - start) / batch;
    }
    lp_done();
    close(3);
    pthread_join(reader, NULL);
    uint64_t expected = 2 + 1000 + 2ull * samples * batch + 1; /* greeting, warm-up, both sides, done */
    if (lines_read != expected) {
        fprintf(stderr, "client bench: the reader got %llu lines, not %llu\n", (unsigned long long)lines_read,
                (unsigned long long)expected);
        return 1;
    }
    double b = median(bare), c = median(client), ratio = c / b;
    printf("c client: lp_mark %.0f ns per event, a bare write of the same line to the same pipe %.0f ns, %.2fx, goal <= 2x: %s\n",
           c, b, ratio, ratio <= 2 ? "met" : "missed");
    return 0;
}
