#ifndef LAUNCHPROF_CALLGRIND_SHIM_H
#define LAUNCHPROF_CALLGRIND_SHIM_H

/// Callgrind client requests for launchprof's instruction counts (valgrind/callgrind.h's macros,
/// which Swift cannot call). Each costs a few instructions and does nothing outside Valgrind.

/// 1 when this build saw <valgrind/callgrind.h> (the `valgrind` package), else 0: the requests below
/// are then empty and no instruction can be counted.
int lp_callgrind_compiled(void);

/// Non-zero when the process runs under Valgrind.
unsigned lp_running_on_valgrind(void);

/// Dumps Callgrind's counts since the previous dump, labelled `launchprof <what> <thread> <index>`
/// (`what` is "main", "begin" or "end"; thread and index are left out for "main").
void lp_callgrind_boundary(const char *what, long thread, long index);

#endif
