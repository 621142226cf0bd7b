/* The C client's system counters (docs/counters.md): phases that do a known thing. Argument: a
   file to read whole in "reading". */
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    static char buffer[1 << 16];
    size_t total = 0;
    lp_begin_kind(LP_KIND_IO, "reading");
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 3;
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, file)) > 0) total += n;
    fclose(file);
    lp_end("reading");

    lp_begin("touching");
    size_t pages = 256, page = 4096;
    char *memory = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return 4;
    for (size_t i = 0; i < pages; i++) memory[i * page] = 1;
    munmap(memory, pages * page);
    lp_end("touching");

    lp_begin("sleeping");
    struct timespec nap = {0, 100000000};
    nanosleep(&nap, NULL);
    lp_end("sleeping");
    lp_done();
    printf("%zu\n", total);
    return 0;
}
