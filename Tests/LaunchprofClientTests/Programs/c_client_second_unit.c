/* A second translation unit that includes the header without the implementation. */
#include "launchprof.h"

void second_unit_report(void);

void second_unit_report(void) {
    lp_begin_kind(LP_KIND_IO, "second unit");
    lp_mark("from the second unit");
    lp_end("second unit");
}
