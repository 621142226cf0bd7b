/*
 * launchprof.h: report a C or C++ program's launch phases to `launchprof exec` (docs/protocol.md).
 *
 *     #define LAUNCHPROF_IMPLEMENTATION   // in exactly one source file of the program
 *     #include "launchprof.h"
 *
 *     lp_begin("loading config");
 *     load_config();
 *     lp_end("loading config");          // names the phase it ends, as the protocol's end line does
 *     { LP_SCOPE("building layout"); build_layout(); }   // ends when the block is left
 *     lp_mark("interactive");
 *     lp_count(19, "keys laid out");
 *     lp_done();                         // the report is complete: call it once, at the end
 *
 * Every function is a no-op unless the environment variable LAUNCHPROF_FD names a descriptor open
 * for writing (a decimal number from 0 to INT_MAX, nothing else): `launchprof exec` opens a pipe there.
 *
 * One implementation per program. Every file may include this header; exactly one defines
 * LAUNCHPROF_IMPLEMENTATION before including it, and that file holds the client's state, so the
 * greeting and the `main` line are sent once per process however many files report phases (a second
 * definition is a link error, a missing one an undefined reference to lp_begin and the others). A
 * shared library that reports phases calls the program's functions; if two images of one process do
 * define the implementation, the first one loaded takes the descriptor and the other stays silent.
 * The implementation needs POSIX declarations: the default GNU modes of gcc and clang have them; with
 * -std=c11 or -std=c99, compile that file with -D_POSIX_C_SOURCE=200809L. Link with -pthread.
 *
 * What the client guarantees:
 * - Thread-safe: each event is one write(2) of less than PIPE_BUF (4096) bytes, which a pipe never
 *   interleaves with another thread's. Threads are numbered on their first event: 0 is the thread that
 *   loaded the program (the main thread), the others 1, 2, … (a thread past 2^20 reports nothing).
 *   A phase begins and ends on the same thread.
 * - Names are escaped as the protocol says (backslash, newline, carriage return and tab become \\, \n,
 *   \r and \t) and cut, at a UTF-8 character boundary, to at most 4000 bytes once escaped, so every
 *   line fits; a NULL or empty name is sent as "(unnamed)". Other bytes, invalid UTF-8 included, are
 *   sent as they are (the launcher shows an invalid sequence as U+FFFD).
 * - Times are CLOCK_MONOTONIC readings. The `main` reading is taken by a constructor that runs before
 *   main; the greeting and it are sent with the first event, so a program that reports nothing is
 *   timed as a whole.
 * - Nothing follows lp_done(): it waits for events other threads are writing, and later events are
 *   dropped.
 * - The program is never disturbed: writes are retried on EINTR (and, on a non-blocking descriptor,
 *   when the pipe has room again) and errno is preserved. If launchprof went away, the write that finds
 *   the pipe broken does not kill the program with SIGPIPE, and the client stops reporting.
 *   MSG_NOSIGNAL exists only for sockets, and blocking SIGPIPE around each write would cost two more
 *   system calls per event (2.5 times a bare write's cost on a virtual machine), so: when SIGPIPE's
 *   action is the default at load, the client installs a handler that returns for a SIGPIPE raised by
 *   its own write and, for any other, does what the default action does (the process dies by
 *   SIGPIPE, exit status 141, as without the client). A program that ignores SIGPIPE or installs its
 *   own handler later replaces it, and then its choice applies to the client's writes too (one that
 *   sets SIGPIPE back to the default after load gives up the protection). A thread that blocks SIGPIPE
 *   has the SIGPIPE of the client's broken write taken back (signals do not queue, so one it already
 *   had pending goes with it).
 * - The client takes the descriptor for this process: it marks it close-on-exec and removes
 *   LAUNCHPROF_FD from the environment before main, so a program this one starts does not write a
 *   second report into the same pipe; in a child made by fork() the client is off.
 * - Not async-signal-safe: do not call it from a signal handler.
 * - Instruction counts (`launchprof exec --metric instructions`, docs/instructions.md): when the file
 *   with LAUNCHPROF_IMPLEMENTATION is compiled where <valgrind/callgrind.h> exists (the valgrind
 *   package; header-only), the client issues a Callgrind client request at `main` and at every phase
 *   boundary, labelled as docs/protocol.md says, so each phase gets its own count. The requests are
 *   made only under Valgrind with LAUNCHPROF_METRIC=instructions; elsewhere they cost a branch.
 *   Without the header (or with LAUNCHPROF_NO_CALLGRIND defined) the program is counted as a whole.
 * - System counters (docs/counters.md): each phase ended within 32 levels of nesting is followed by a
 *   `stats` line with its thread's CPU time, wait for a CPU, page faults, context switches and bytes
 *   read and written during it (CLOCK_THREAD_CPUTIME_ID, getrusage(RUSAGE_THREAD),
 *   /proc/thread-self/schedstat and io, opened once per thread and closed when it exits), the client's
 *   own reads and writes left out. Off when counting instructions, and with LAUNCHPROF_COUNTERS=0.
 */
#ifndef LAUNCHPROF_H
#define LAUNCHPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a phase spends its time on: the protocol's <kind> (LP_KIND_NONE is `-`). */
enum lp_kind { LP_KIND_NONE = 0, LP_KIND_CPU, LP_KIND_IO, LP_KIND_DECODE, LP_KIND_DRAW };

/** A phase begins on this thread, nested in the phase open there. */
void lp_begin(const char *name);
/** A phase of the given kind begins on this thread. */
void lp_begin_kind(enum lp_kind kind, const char *name);
/** The innermost phase open on this thread ends; `name` must be its name. */
void lp_end(const char *name);
/** An instant event, such as "first frame" or "interactive". */
void lp_mark(const char *name);
/** Adds `value` to the counter `name` ("keys laid out"). */
void lp_count(int64_t value, const char *name);
/** The report is complete: every phase must be closed. Later events are dropped. */
void lp_done(void);
/** 1 while events are sent (LAUNCHPROF_FD is usable and lp_done was not called), else 0. */
int lp_active(void);

/* For LP_SCOPE: begins the phase and returns its name, which the cleanup passes to lp_end. */
const char *lp__scope_begin(enum lp_kind kind, const char *name);
void lp__scope_end(const char *const *name);

#define LP__JOIN2(a, b) a##b
#define LP__JOIN(a, b) LP__JOIN2(a, b)
/**
 * A phase from here to the end of the enclosing block, however the block is left (return, break,
 * goto). `name` must stay valid until then (a string literal does).
 */
#define LP_SCOPE(name) LP_SCOPE_KIND(LP_KIND_NONE, name)
#define LP_SCOPE_KIND(kind, name)                                                              \
    const char *const LP__JOIN(lp__scope_, __COUNTER__) __attribute__((cleanup(lp__scope_end), unused)) = \
        lp__scope_begin((kind), (name))

#ifdef __cplusplus
}
#endif

#ifdef LAUNCHPROF_IMPLEMENTATION

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#if !defined(LAUNCHPROF_NO_CALLGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LP__CALLGRIND 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A line is at most this long with its newline: under PIPE_BUF, so one write is never interleaved. */
#define LP__LINE_MAX 4095
/* The longest escaped name: the longest head ("begin <20 digits> <7 digits> decode ") is 42 bytes. */
#define LP__NAME_MAX 4000
/* Thread numbers stay below the parser's limit. */
#define LP__THREAD_LIMIT (1u << 20)

static int lp__fd = -1;                      /* the descriptor, -1 when off; read atomically */
static uint64_t lp__main_reading;            /* CLOCK_MONOTONIC at load, before main */
static uint64_t lp__next_thread = 1;         /* the next thread's number; 0 is the loading thread's */
static __thread int64_t lp__thread = -1;     /* this thread's number, -1 until its first event */
static pthread_once_t lp__greeting = PTHREAD_ONCE_INIT;
static int lp__writing;                      /* events being written now */
static int lp__finished;                     /* lp_done was called */
static int lp__counting;                     /* Callgrind dumps at phase boundaries (set at load) */
/* Deeper phases fail the protocol: the launcher allows 256 levels on a thread. */
#define LP__DEPTH_MAX 256
static __thread uint32_t lp__begun;              /* phases begun on this thread: the next one's index */
static __thread uint32_t lp__open[LP__DEPTH_MAX]; /* the indices of this thread's open phases */
static __thread uint32_t lp__depth;

/* System counters per phase (docs/counters.md): readings at each begin, up to this depth. */
#define LP__COUNTER_DEPTH 32
struct lp__reading { uint64_t cpu, delay, rchar, wchar; long minflt, majflt, nvcsw, nivcsw; };
static int lp__counters;                                   /* on (set at load) */
static pthread_key_t lp__counter_key;                       /* closes a thread's files when it exits */
static __thread int lp__schedstat_fd = -2, lp__io_fd = -2;  /* -2 until opened on this thread */
static __thread uint64_t lp__own_read, lp__own_written;     /* the client's own bytes on this thread */
static __thread struct lp__reading lp__starts[LP__COUNTER_DEPTH];
static __thread uint32_t lp__counter_depth;

static uint64_t lp__now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Set while this thread writes a line: a SIGPIPE then is the client's, raised by a broken pipe. */
static __thread volatile sig_atomic_t lp__in_write;

/* The SIGPIPE handler the client installs when SIGPIPE's action is the default at load. */
static void lp__on_sigpipe(int signal_number) {
    if (lp__in_write) return; /* the client's: its write returns EPIPE, and the client stops */
    /* Anyone else's: what the default action does, terminating the process by SIGPIPE. */
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigaction(signal_number, &default_action, NULL);
    raise(signal_number); /* delivered when the handler returns */
}

/* Writes all of `length` bytes; on a broken or unusable descriptor the client turns itself off. */
static void lp__write(int fd, const char *bytes, size_t length) {
    int saved = errno;
    lp__in_write = 1;
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n > 0) {
            lp__own_written += (uint64_t)n;
            bytes += n;
            length -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd ready = {fd, POLLOUT, 0};
            if (poll(&ready, 1, -1) >= 0 || errno == EINTR) continue;
        }
        if (n < 0 && errno == EPIPE) {
            /* A thread that blocks SIGPIPE holds it pending instead: take it back. */
            sigset_t blocked, pipe_signal;
            sigemptyset(&pipe_signal);
            sigaddset(&pipe_signal, SIGPIPE);
            static const struct timespec no_wait = {0, 0};
            if (pthread_sigmask(SIG_BLOCK, NULL, &blocked) == 0 && sigismember(&blocked, SIGPIPE)) {
                while (sigtimedwait(&pipe_signal, NULL, &no_wait) < 0 && errno == EINTR) {}
            }
        }
        __atomic_store_n(&lp__fd, -1, __ATOMIC_RELAXED);
        break;
    }
    lp__in_write = 0;
    errno = saved;
}

static char *lp__text(char *p, const char *text) {
    while (*text) *p++ = *text++;
    return p;
}

static char *lp__unsigned(char *p, uint64_t value) {
    char digits[20];
    int n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    while (n) *p++ = digits[--n];
    return p;
}

/* The name escaped and cut to LP__NAME_MAX bytes, never inside an escape or a UTF-8 sequence. */
static char *lp__name(char *p, const char *name) {
    const unsigned char *s = (const unsigned char *)(name && *name ? name : "(unnamed)");
    char *limit = p + LP__NAME_MAX;
    while (*s) {
        unsigned char c = *s;
        char escaped = c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : 0;
        if (escaped) {
            if (limit - p < 2) break;
            *p++ = '\\';
            *p++ = escaped;
            s++;
            continue;
        }
        /* A lead byte and the continuation bytes that follow it, as many as it announces. */
        size_t expected = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
        size_t unit = 1;
        while (unit < expected && (s[unit] & 0xC0) == 0x80) unit++;
        if ((size_t)(limit - p) < unit) break;
        memcpy(p, s, unit);
        p += unit;
        s += unit;
    }
    return p;
}

static void lp__send_greeting(void) {
    char line[64];
    char *p = lp__text(line, "launchprof 1\nmain ");
    p = lp__unsigned(p, lp__main_reading);
    *p++ = '\n';
    lp__write(__atomic_load_n(&lp__fd, __ATOMIC_RELAXED), line, (size_t)(p - line));
}

/* Starts writing an event: the descriptor, or -1 when the client is off or done. */
static int lp__enter(void) {
    if (__atomic_load_n(&lp__fd, __ATOMIC_RELAXED) < 0) return -1;
    /* With lp_done's exchange and wait, either this sees `finished` or lp_done waits for this event. */
    __atomic_fetch_add(&lp__writing, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&lp__finished, __ATOMIC_SEQ_CST)) {
        __atomic_fetch_sub(&lp__writing, 1, __ATOMIC_SEQ_CST);
        return -1;
    }
    pthread_once(&lp__greeting, lp__send_greeting);
    int fd = __atomic_load_n(&lp__fd, __ATOMIC_RELAXED);
    if (fd < 0) __atomic_fetch_sub(&lp__writing, 1, __ATOMIC_SEQ_CST);
    return fd;
}

static int64_t lp__thread_number(void) {
    if (lp__thread < 0) {
        uint64_t n = __atomic_fetch_add(&lp__next_thread, 1, __ATOMIC_RELAXED);
        lp__thread = n < LP__THREAD_LIMIT ? (int64_t)n : INT64_MAX;
    }
    return lp__thread;
}

/* A Callgrind dump labelled `launchprof <what>` (main) or `launchprof <what> <thread> <index>`. */
static void lp__dump(const char *what, int64_t thread, int64_t index) {
#ifdef LP__CALLGRIND
    char label[64];
    char *p = lp__text(lp__text(label, "launchprof "), what);
    if (index >= 0) {
        *p++ = ' ';
        p = lp__unsigned(p, (uint64_t)thread);
        *p++ = ' ';
        p = lp__unsigned(p, (uint64_t)index);
    }
    *p = 0;
    CALLGRIND_DUMP_STATS_AT(label);
#else
    (void)what; (void)thread; (void)index;
#endif
}

/* The dump at a phase boundary of this thread: `boundary` 1 after a begin line, -1 before an end line. */
static void lp__boundary(int boundary, int64_t thread) {
    if (boundary > 0) {
        uint32_t index = lp__begun++;
        if (lp__depth < LP__DEPTH_MAX) lp__open[lp__depth] = index;
        lp__depth++;
        lp__dump("begin", thread, index);
    } else if (lp__depth > 0) {
        lp__depth--;
        if (lp__depth < LP__DEPTH_MAX) lp__dump("end", thread, lp__open[lp__depth]);
    }
}

static void lp__close_counters(void *unused) {
    (void)unused;
    if (lp__schedstat_fd >= 0) close(lp__schedstat_fd);
    if (lp__io_fd >= 0) close(lp__io_fd);
    lp__schedstat_fd = lp__io_fd = -1;
}

/* The first `count` decimal numbers of a /proc file read at offset 0 (0 where missing); -1 unread. */
static int lp__numbers(int fd, uint64_t *numbers, int count) {
    char text[256];
    ssize_t n = fd >= 0 ? pread(fd, text, sizeof text, 0) : -1;
    if (n <= 0) return -1;
    lp__own_read += (uint64_t)n;
    int field = 0, in_number = 0;
    uint64_t value = 0;
    for (ssize_t i = 0; i <= n && field < count; i++) {
        char c = i < n ? text[i] : ' ';
        if (c >= '0' && c <= '9') {
            value = value * 10 + (uint64_t)(c - '0');
            in_number = 1;
        } else if (in_number) {
            numbers[field++] = value;
            value = 0;
            in_number = 0;
        }
    }
    return 0;
}

/* This thread's counters now, the client's own reads and writes left out. */
static void lp__read_counters(struct lp__reading *r) {
    if (lp__schedstat_fd == -2) {
        lp__schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
        lp__io_fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
        pthread_setspecific(lp__counter_key, (void *)1);
    }
    memset(r, 0, sizeof *r);
    uint64_t io[2] = {0, 0}, sched[2] = {0, 0};
    uint64_t own_read = lp__own_read; /* the value read below does not include its own read */
    if (lp__numbers(lp__io_fd, io, 2) == 0) {
        r->rchar = io[0] > own_read ? io[0] - own_read : 0;
        r->wchar = io[1] > lp__own_written ? io[1] - lp__own_written : 0;
    } else {
        r->rchar = r->wchar = UINT64_MAX;
    }
    r->delay = lp__numbers(lp__schedstat_fd, sched, 2) == 0 ? sched[1] : UINT64_MAX;
    struct rusage usage;
    if (getrusage(1 /* RUSAGE_THREAD */, &usage) == 0) {
        r->minflt = usage.ru_minflt;
        r->majflt = usage.ru_majflt;
        r->nvcsw = usage.ru_nvcsw;
        r->nivcsw = usage.ru_nivcsw;
    }
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    r->cpu = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static char *lp__field(char *p, const char *key, uint64_t start, uint64_t end) {
    p = lp__text(p, key);
    return lp__unsigned(p, end > start ? end - start : 0);
}

/* `stats <thread> cpu=… …` for the phase this thread just ended, from its begin's reading to `end`. */
static void lp__send_counters(int fd, int64_t thread, const struct lp__reading *start, const struct lp__reading *end) {
    char line[320];
    char *p = lp__unsigned(lp__text(line, "stats "), (uint64_t)thread);
    p = lp__field(p, " cpu=", start->cpu, end->cpu);
    if (start->delay != UINT64_MAX && end->delay != UINT64_MAX) p = lp__field(p, " runnable=", start->delay, end->delay);
    p = lp__field(p, " minflt=", (uint64_t)start->minflt, (uint64_t)end->minflt);
    p = lp__field(p, " majflt=", (uint64_t)start->majflt, (uint64_t)end->majflt);
    p = lp__field(p, " vcsw=", (uint64_t)start->nvcsw, (uint64_t)end->nvcsw);
    p = lp__field(p, " ivcsw=", (uint64_t)start->nivcsw, (uint64_t)end->nivcsw);
    if (start->rchar != UINT64_MAX && end->rchar != UINT64_MAX) {
        p = lp__field(p, " rchar=", start->rchar, end->rchar);
        p = lp__field(p, " wchar=", start->wchar, end->wchar);
    }
    *p++ = '\n';
    lp__write(fd, line, (size_t)(p - line));
}

/* One event: `verb`, then the time and thread (`timed`), the kind, the count, the name; `boundary`
   as lp__boundary's (0 for an event that is not a phase's). */
static void lp__event(const char *verb, int timed, const char *kind, const int64_t *value, const char *name, int boundary) {
    if (__atomic_load_n(&lp__fd, __ATOMIC_RELAXED) < 0) return;
    /* A phase's end reading first, so the client's own work is not in it. */
    struct lp__reading ended;
    int counted = lp__counters && boundary < 0 && lp__counter_depth > 0 && lp__counter_depth <= LP__COUNTER_DEPTH;
    if (counted) lp__read_counters(&ended);
    uint64_t now = timed ? lp__now() : 0;
    int64_t thread = timed ? lp__thread_number() : 0;
    if (thread >= (int64_t)LP__THREAD_LIMIT) return;
    int fd = lp__enter();
    if (fd < 0) return;
    char line[LP__LINE_MAX];
    char *p = lp__text(line, verb);
    if (timed) {
        *p++ = ' ';
        p = lp__unsigned(p, now);
        *p++ = ' ';
        p = lp__unsigned(p, (uint64_t)thread);
    }
    if (kind) {
        *p++ = ' ';
        p = lp__text(p, kind);
    }
    if (value) {
        *p++ = ' ';
        if (*value < 0) *p++ = '-';
        p = lp__unsigned(p, *value < 0 ? (uint64_t)0 - (uint64_t)*value : (uint64_t)*value);
    }
    *p++ = ' ';
    p = lp__name(p, name);
    *p++ = '\n';
    /* The phase's count starts after its begin line is written and ends before its end line is. */
    if (boundary < 0 && lp__counting) lp__boundary(boundary, thread);
    lp__write(fd, line, (size_t)(p - line));
    if (boundary > 0 && lp__counting) lp__boundary(boundary, thread);
    if (counted) lp__send_counters(fd, thread, &lp__starts[lp__counter_depth - 1], &ended);
    if (lp__counters && boundary < 0 && lp__counter_depth > 0) lp__counter_depth--;
    /* A phase's begin reading last, after its begin line is written. */
    if (lp__counters && boundary > 0 && ++lp__counter_depth <= LP__COUNTER_DEPTH) lp__read_counters(&lp__starts[lp__counter_depth - 1]);
    __atomic_fetch_sub(&lp__writing, 1, __ATOMIC_SEQ_CST);
}

void lp_begin(const char *name) { lp_begin_kind(LP_KIND_NONE, name); }

void lp_begin_kind(enum lp_kind kind, const char *name) {
    static const char *const kinds[] = {"-", "cpu", "io", "decode", "draw"};
    unsigned k = (unsigned)kind;
    lp__event("begin", 1, kinds[k < sizeof kinds / sizeof kinds[0] ? k : 0], NULL, name, 1);
}

void lp_end(const char *name) { lp__event("end", 1, NULL, NULL, name, -1); }

void lp_mark(const char *name) { lp__event("mark", 1, NULL, NULL, name, 0); }

void lp_count(int64_t value, const char *name) { lp__event("count", 0, NULL, &value, name, 0); }

void lp_done(void) {
    if (__atomic_load_n(&lp__fd, __ATOMIC_RELAXED) < 0) return;
    if (__atomic_exchange_n(&lp__finished, 1, __ATOMIC_SEQ_CST)) return;
    while (__atomic_load_n(&lp__writing, __ATOMIC_SEQ_CST) != 0) sched_yield();
    pthread_once(&lp__greeting, lp__send_greeting);
    int fd = __atomic_load_n(&lp__fd, __ATOMIC_RELAXED);
    if (fd < 0) return;
    char line[32];
    char *p = lp__unsigned(lp__text(line, "done "), lp__now());
    *p++ = '\n';
    lp__write(fd, line, (size_t)(p - line));
}

int lp_active(void) {
    return __atomic_load_n(&lp__fd, __ATOMIC_RELAXED) >= 0 && !__atomic_load_n(&lp__finished, __ATOMIC_SEQ_CST);
}

const char *lp__scope_begin(enum lp_kind kind, const char *name) {
    lp_begin_kind(kind, name);
    return name;
}

void lp__scope_end(const char *const *name) { lp_end(*name); }

static void lp__off_in_child(void) { __atomic_store_n(&lp__fd, -1, __ATOMIC_RELAXED); }

/* LAUNCHPROF_FD as a descriptor: decimal digits only, at most INT_MAX; -1 for anything else. */
static int lp__parse_descriptor(const char *text) {
    if (!text || !*text) return -1;
    long long value = 0;
    for (; *text; text++) {
        if (*text < '0' || *text > '9') return -1;
        value = value * 10 + (*text - '0');
        if (value > INT_MAX) return -1;
    }
    return (int)value;
}

__attribute__((constructor)) static void lp__load(void) {
    lp__main_reading = lp__now();
    lp__thread = 0;
    const char *text = getenv("LAUNCHPROF_FD");
    int fd = lp__parse_descriptor(text);
    if (fd < 0) return;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) return;
    int descriptor_flags = fcntl(fd, F_GETFD);
    if (descriptor_flags >= 0) fcntl(fd, F_SETFD, descriptor_flags | FD_CLOEXEC);
    unsetenv("LAUNCHPROF_FD");
    pthread_atfork(NULL, NULL, lp__off_in_child);
    /* Under SIGPIPE's default action a write to a pipe launchprof no longer reads would kill the
       program: the client's handler takes the SIGPIPEs of its own writes and acts as the default
       action on any other. An ignored SIGPIPE needs nothing. */
    struct sigaction current;
    if (sigaction(SIGPIPE, NULL, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL) {
        struct sigaction handler;
        memset(&handler, 0, sizeof handler);
        handler.sa_handler = lp__on_sigpipe;
        handler.sa_flags = SA_RESTART;
        sigemptyset(&handler.sa_mask);
        sigaction(SIGPIPE, &handler, NULL);
    }
#ifdef LP__CALLGRIND
    /* Under `launchprof exec --metric instructions`: the `main` dump, at the `main` line's reading. */
    const char *metric = getenv("LAUNCHPROF_METRIC");
    if (metric && strcmp(metric, "instructions") == 0 && RUNNING_ON_VALGRIND) {
        lp__counting = 1;
        lp__dump("main", 0, -1);
    }
#endif
    const char *counters = getenv("LAUNCHPROF_COUNTERS");
    if (!lp__counting && !(counters && strcmp(counters, "0") == 0) && pthread_key_create(&lp__counter_key, lp__close_counters) == 0) {
        lp__counters = 1;
    }
    __atomic_store_n(&lp__fd, fd, __ATOMIC_RELAXED);
}

#ifdef __cplusplus
}
#endif

#endif /* LAUNCHPROF_IMPLEMENTATION */
#endif /* LAUNCHPROF_H */
