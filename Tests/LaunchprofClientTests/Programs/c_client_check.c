/* The C client's test program (CClientTests compiles and runs it): each mode reports through
   include/launchprof.h and prints what the test checks beside the protocol on stdout. */
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
void second_unit_report(void);

/* A name of `count` copies of `unit`, from malloc. */
static char *repeated(const char *unit, size_t count) {
    size_t n = strlen(unit);
    char *name = malloc(n * count + 1);
    for (size_t i = 0; i < count; i++) memcpy(name + i * n, unit, n);
    name[n * count] = 0;
    return name;
}

static void phase(const char *name) {
    lp_begin(name);
    lp_mark(name);
    lp_count(1, name);
    lp_end(name);
}

static int basic(void) {
    lp_begin_kind(LP_KIND_IO, "loading config");
    lp_begin_kind(LP_KIND_CPU, "parsing");
    lp_end("parsing");
    lp_end("loading config");
    {
        LP_SCOPE_KIND(LP_KIND_DRAW, "drawing");
        LP_SCOPE("inner");
    }
    lp_begin_kind((enum lp_kind)99, "unknown kind");
    lp_end("unknown kind");
    lp_mark("interactive");
    lp_count(19, "keys laid out");
    lp_count(-5, "keys laid out");
    lp_count(INT64_MIN, "smallest");
    lp_count(INT64_MAX, "largest");
    errno = 1234;
    lp_mark("errno kept");
    int kept = errno == 1234;
    lp_done();
    lp_mark("after done");
    lp_done();
    printf("active %d errno kept %d\n", lp_active(), kept);
    return 0;
}

/* Each name from the command line, then names only C can pass: NULL and invalid UTF-8. */
static int hostile(int count, char **names) {
    for (int i = 0; i < count; i++) phase(names[i]);
    char *invalid5000 = repeated("\xff", 5000);
    const char *extras[] = {NULL, "\xff\xfe invalid", "cut \xe2\x82", "lead then newline \xc3\n", invalid5000};
    for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++) phase(extras[i]);
    lp_done();
    printf("active %d\n", lp_active());
    return 0;
}

struct worker { int index; const char *long_name; };

static void *work(void *argument) {
    struct worker *w = argument;
    char name[64];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "worker %d step %d", w->index, i);
        lp_begin_kind(LP_KIND_CPU, name);
        lp_begin(w->long_name);
        lp_mark(w->long_name);
        lp_end(w->long_name);
        lp_count(1, "steps");
        lp_end(name);
    }
    return NULL;
}

static int threads(void) {
    enum { count = 8 };
    pthread_t ids[count];
    struct worker workers[count];
    char *long_name = repeated("long name ", 390);  /* 3900 bytes: lines near PIPE_BUF */
    lp_begin("spawning workers");
    for (int i = 0; i < count; i++) {
        workers[i] = (struct worker){i, long_name};
        pthread_create(&ids[i], NULL, work, &workers[i]);
    }
    for (int i = 0; i < count; i++) pthread_join(ids[i], NULL);
    lp_end("spawning workers");
    lp_done();
    return 0;
}

static volatile int stop;

static void *keep_marking(void *argument) {
    (void)argument;
    while (!stop) lp_mark("racing done");
    return NULL;
}

/* Threads keep reporting while the main thread calls lp_done: nothing may follow done. */
static int race_done(void) {
    pthread_t ids[4];
    for (int i = 0; i < 4; i++) pthread_create(&ids[i], NULL, keep_marking, NULL);
    usleep(20000);
    lp_done();
    usleep(20000);
    stop = 1;
    for (int i = 0; i < 4; i++) pthread_join(ids[i], NULL);
    printf("active %d\n", lp_active());
    return 0;
}

static int units(void) {
    lp_begin("main unit");
    second_unit_report();
    lp_end("main unit");
    lp_done();
    return 0;
}

/* The reader is gone: the first write finds the pipe broken and must not kill the program, whether
   SIGPIPE has its default action (the client's handler, installed at load), is blocked by this
   thread, or ignored by the program after load. */
static int broken(const char *sigpipe) {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    int block_sigpipe = !strcmp(sigpipe, "blocked");
    if (block_sigpipe) pthread_sigmask(SIG_BLOCK, &pipe_signal, NULL);
    if (!strcmp(sigpipe, "ignored")) signal(SIGPIPE, SIG_IGN);
    int before = lp_active();
    lp_begin("nobody reads this");
    lp_end("nobody reads this");
    lp_done();
    sigset_t pending;
    sigpending(&pending);
    int left_pending = sigismember(&pending, SIGPIPE);
    if (block_sigpipe) pthread_sigmask(SIG_UNBLOCK, &pipe_signal, NULL);
    printf("alive: active before %d after %d, SIGPIPE pending %d\n", before, lp_active(), left_pending);
    return 0;
}

/* A SIGPIPE that is not the client's acts as the default action: the process dies by it. */
static int foreign_sigpipe(const char *how) {
    lp_mark("before");
    if (!strcmp(how, "write")) {
        int fds[2];
        if (pipe(fds) != 0) return 1;
        close(fds[0]);
        ssize_t written = write(fds[1], "x", 1);
        (void)written;
    } else {
        kill(getpid(), SIGPIPE);
    }
    printf("survived a SIGPIPE not raised by the client\n");
    return 0;
}

/* A forked child and a started program report nothing into this process's pipe. */
static int children(const char *self) {
    lp_begin("parent");
    pid_t pid = fork();
    if (pid == 0) {
        lp_mark("forked child");
        lp_done();
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    char *argv[] = {(char *)self, (char *)"child", NULL};
    if (posix_spawn(&pid, self, NULL, NULL, argv, environ) != 0) return 1;
    int status = 0;
    waitpid(pid, &status, 0);
    fflush(stdout);
    lp_end("parent");
    lp_done();
    printf("environment in main: %s\n", getenv("LAUNCHPROF_FD") ? "set" : "unset");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int child(void) {
    printf("child: LAUNCHPROF_FD %s, descriptor 3 %s, active %d\n", getenv("LAUNCHPROF_FD") ? "set" : "unset",
           fcntl(3, F_GETFD) >= 0 ? "open" : "closed", lp_active());
    lp_begin("started child");
    lp_end("started child");
    lp_done();
    return 0;
}

/* Many events, as fast as possible, on a non-blocking descriptor: the pipe fills, writes meet EAGAIN. */
static int many(void) {
    fcntl(3, F_SETFL, fcntl(3, F_GETFL) | O_NONBLOCK);
    for (int i = 0; i < 20000; i++) lp_mark("m");
    lp_done();
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    if (!strcmp(mode, "basic")) return basic();
    if (!strcmp(mode, "hostile")) return hostile(argc - 2, argv + 2);
    if (!strcmp(mode, "threads")) return threads();
    if (!strcmp(mode, "race-done")) return race_done();
    if (!strcmp(mode, "units")) return units();
    if (!strcmp(mode, "broken")) return broken(argc > 2 ? argv[2] : "default");
    if (!strcmp(mode, "foreign-sigpipe")) return foreign_sigpipe(argc > 2 ? argv[2] : "write");
    if (!strcmp(mode, "children")) return children(argv[0]);
    if (!strcmp(mode, "child")) return child();
    if (!strcmp(mode, "many")) return many();
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
