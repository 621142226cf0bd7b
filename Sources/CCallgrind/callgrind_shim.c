#include "callgrind_shim.h"
#include <stdio.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LP_HAVE_CALLGRIND 1
#endif
#endif

int lp_callgrind_compiled(void) {
#ifdef LP_HAVE_CALLGRIND
    return 1;
#else
    return 0;
#endif
}

unsigned lp_running_on_valgrind(void) {
#ifdef LP_HAVE_CALLGRIND
    return RUNNING_ON_VALGRIND;
#else
    return 0;
#endif
}

void lp_callgrind_boundary(const char *what, long thread, long index) {
#ifdef LP_HAVE_CALLGRIND
    char label[64];
    if (index < 0) {
        snprintf(label, sizeof label, "launchprof %s", what);
    } else {
        snprintf(label, sizeof label, "launchprof %s %ld %ld", what, thread, index);
    }
    CALLGRIND_DUMP_STATS_AT(label);
#else
    (void)what; (void)thread; (void)index;
#endif
}
