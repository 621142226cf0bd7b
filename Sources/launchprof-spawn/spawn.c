// launchprof-spawn: the small process `launchprof exec` starts each run through.
//
//   launchprof-spawn REPORT_FD [--join DIRECTORY] [--enter FILE]... [--leave FILE]... -- EXECUTABLE ARGV0 ARGS...
//   launchprof-spawn --serve SOCKET_FD
//
// The first form is one run (one exec of this file per run). The second is the session spawner:
// started once, it starts each run's program itself, or forks a process per run that does exactly
// what the first form does, without this file's exec and static start-up (see "The session
// spawner" below).
//
// --join DIRECTORY (the launch's own cgroup v2, `RunContainment`): the program is started inside it
// from its first instruction, by clone3(CLONE_INTO_CGROUP) and execve instead of posix_spawn (moving
// a running process costs an RCU grace period, about 12 ms here; being born there costs nothing).
// The spawner itself stays outside. Where clone3 or the cgroup cannot be used, it falls back to
// posix_spawn and the run is uncontained.
//
// --enter/--leave (a device tier applied from outside, `RunThrottle.spawnerMoves`): it moves itself
// into each --enter file's cgroup (the run's: v1 `tasks`, v2 `cgroup.procs`; it writes 0, itself)
// just before its posix_spawn and into each --leave file's right after, so the program starts inside
// the run's cgroups while the spawner's own timing is never throttled. An --enter write that fails
// is reported as an error.
//
// Why it exists: the kernel records the resident-set high-water mark of the memory a process
// leaves at execve() in that process's peak (wait4's ru_maxrss). A program spawned directly by
// launchprof (tens of MiB: the Swift runtime) would inherit that as its "peak memory". Spawned from
// this small, static C process (no Swift runtime: see swift_addNewDSOImage below) it inherits less
// than the smallest program uses (/bin/true peaks at 0.96 MiB), so wait4's peak is the program's own.
//
// It reads CLOCK_MONOTONIC just before posix_spawn and the moment the program has exited (waitid, before its counters are read and it is reaped), so the time it adds (its
// own exec) is outside the run, and reports on REPORT_FD (close-on-exec, so the program never sees it)
// once the program has ended (a report while it runs would wake launchprof and take CPU from it):
//
//   spawn <ns> <realtime ns>                              before the program starts (both clocks)
//   exit <ns> <wait status> <user us> <system us> <peak KiB>  after it ended
//   error <errno>                                         posix_spawn failed
//
// It ignores SIGTERM, SIGINT, SIGHUP and SIGQUIT so that a program stopped at ready (SIGTERM to the
// process group) is still reported; the program gets the default actions back.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

// swiftc links its swiftrt.o into every executable, this C one too; swiftrt.o's constructor registers
// the image's Swift metadata with the runtime, and the two symbols it needs would pull the whole static
// Swift runtime (and its initialisers, which touch about 0.7 MiB) into a program with no Swift code.
// Defined here, they keep it out, and the spawner's own footprint stays below any program's peak.
void swift_addNewDSOImage(const void *image) { (void)image; }
int _swift_backtrace_isThunkFunction(const char *name) {
    (void)name;
    return 0;
}

static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void report(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, text, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        length -= (size_t)n;
    }
}

// Moves this process into a cgroup: writes 0 ("the writer") to its `cgroup.procs` (or v1 `tasks`,
// where a thread moving itself skips the global lock a move by pid takes: an RCU grace period,
// 15-44 ms at load 10): 0, or -1 with errno.
static int write_pid(const char *path) {
    int file = open(path, O_WRONLY | O_CLOEXEC);
    if (file < 0) return -1;
    char text[32];
    int length = snprintf(text, sizeof text, "0\n");
    ssize_t written = write(file, text, (size_t)length);
    int saved = errno;
    close(file);
    errno = saved;
    return written == length ? 0 : -1;
}

// clone3's arguments (Linux 5.7, CLONE_ARGS_SIZE_VER2), declared here rather than from
// <linux/sched.h>, whose CLONE_* macros collide with glibc's.
struct spawn_clone_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};
#define SPAWN_CLONE_INTO_CGROUP 0x200000000ULL
#define SPAWN_CLONE_VFORK 0x00004000ULL

#define SPAWN_CLONE_VM 0x00000100ULL

// What the child started by spawn_in_cgroup runs: it shares this process's memory (CLONE_VM) while
// this process waits (CLONE_VFORK), as posix_spawn's child does.
struct spawn_child {
    char **program;
    const sigset_t *defaults;
    volatile int error;  // the execve's errno, written by the child
};

static int spawn_child_main(void *raw) {
    struct spawn_child *child = raw;
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (sigismember(child->defaults, signal_number) == 1) signal(signal_number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(child->program[0], child->program + 1, environ);
    child->error = errno ? errno : EIO;
    return 127;
}

// clone3 with the child on `args->stack` calling fn(arg) then exiting: glibc has no wrapper for
// clone3, and a child sharing the caller's memory cannot return through the caller's frames. On
// other architectures than x86-64: -1 with ENOSYS (posix_spawn is used instead).
static long clone3_calling(struct spawn_clone_args *args, int (*fn)(void *), void *arg) {
#if defined(__x86_64__)
    long result;
    register void *function __asm__("r12") = (void *)fn;
    register void *argument __asm__("r13") = arg;
    // r12 and r13 survive the syscall in both processes; the child starts on its own stack (16-byte
    // aligned top, so the call below leaves it as the ABI expects), calls fn, and exits with its result.
    __asm__ volatile(
        "syscall\n\t"
        "test %%rax, %%rax\n\t"
        "jnz 1f\n\t"
        "xor %%ebp, %%ebp\n\t"
        "mov %%r13, %%rdi\n\t"
        "call *%%r12\n\t"
        "mov %%eax, %%edi\n\t"
        "mov $60, %%eax\n\t"  // exit
        "syscall\n\t"
        "hlt\n\t"
        "1:\n\t"
        : "=a"(result)
        : "a"((long)SYS_clone3), "D"(args), "S"(sizeof *args), "r"(function), "r"(argument)
        : "rcx", "r11", "memory");
    if (result < 0) {
        errno = (int)-result;
        return -1;
    }
    return result;
#else
    (void)args, (void)fn, (void)arg;
    errno = ENOSYS;
    return -1;
#endif
}

// Starts program[0] with argv program + 1 inside the cgroup directory `cgroup`, its signals set as
// posix_spawn's attributes would set them (`defaults` to SIG_DFL, none blocked), exactly as cheaply
// (the child shares this process's memory until its execve). Returns 0 with *pid set, the errno of
// a failed execve (the child has exited and is reaped), or -1 when clone3 with CLONE_INTO_CGROUP
// cannot be used here (nothing was started: use posix_spawn).
static int spawn_in_cgroup(const char *cgroup, char **program, const sigset_t *defaults, pid_t *pid) {
    static char stack[64 * 1024] __attribute__((aligned(16)));
    int directory = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return -1;
    struct spawn_child child = {program, defaults, 0};
    struct spawn_clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = SPAWN_CLONE_INTO_CGROUP | SPAWN_CLONE_VM | SPAWN_CLONE_VFORK;
    args.exit_signal = SIGCHLD;
    args.stack = (uint64_t)(uintptr_t)stack;
    args.stack_size = sizeof stack;
    args.cgroup = (uint64_t)directory;
    long started = clone3_calling(&args, spawn_child_main, &child);
    close(directory);
    if (started < 0) return -1;
    *pid = (pid_t)started;
    if (child.error == 0) return 0;
    waitpid(*pid, NULL, 0);
    return child.error;
}

// The signals the spawner ignores (the program gets their default actions back), SIGPIPE's
// default too: the set posix_spawn's and spawn_in_cgroup's child reset.
static const int handled[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

static void ignore_handled_signals(sigset_t *defaults) {
    sigemptyset(defaults);
    for (size_t i = 0; i < sizeof handled / sizeof handled[0]; i++) {
        signal(handled[i], SIG_IGN);
        sigaddset(defaults, handled[i]);
    }
    sigaddset(defaults, SIGPIPE);
}

static const char usage_text[] =
    "launchprof-spawn: usage: launchprof-spawn REPORT_FD [--join DIRECTORY] [--enter FILE]... [--leave FILE]... -- EXECUTABLE ARGV0 [ARGS...]\n"
    "       launchprof-spawn --serve SOCKET_FD (run by launchprof exec)\n";

// One run: `options` are [--join DIRECTORY] [--enter FILE]... [--leave FILE]... -- EXECUTABLE ARGV0
// ARGS... (`count` of them); the program gets `envp`. Spawns it, waits for it and reports on `fd`
// (see the top of this file); returns this process's exit status.

// Waits for `pid` to exit without reaping it (WNOWAIT): 0, or -1 when it cannot be waited for.
static int wait_exited(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0) {
        if (errno != EINTR) return -1;
    }
    return 0;
}

// Reads an exited (not yet reaped) process's `rchar` and `wchar` from /proc/<pid>/io (every thread's,
// the zombie's own included); leaves -1 where they cannot be read.
static void exited_io(pid_t pid, long long *read_bytes, long long *written_bytes) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char text[512];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return;
    text[n] = 0;
    long long rchar = 0, wchar = 0;
    if (sscanf(text, "rchar: %lld wchar: %lld", &rchar, &wchar) == 2 && rchar >= 0 && wchar >= 0) {
        *read_bytes = rchar;
        *written_bytes = wchar;
    }
}

static int run_program(int fd, char **options, int count, char **envp) {
    // The cgroup files to enter and leave, then `--` and the program.
    const char *enter[8], *leave[8];
    int enters = 0, leaves = 0, next = 0;
    const char *join = NULL;
    if (next + 1 < count && strcmp(options[next], "--join") == 0) {
        join = options[next + 1];
        next += 2;
    }
    while (next + 1 < count && (strcmp(options[next], "--enter") == 0 || strcmp(options[next], "--leave") == 0)) {
        int entering = strcmp(options[next], "--enter") == 0;
        if ((entering ? enters : leaves) == 8) break;
        if (entering) enter[enters++] = options[next + 1]; else leave[leaves++] = options[next + 1];
        next += 2;
    }
    if (next + 2 >= count || strcmp(options[next], "--") != 0) {
        report(2, usage_text, sizeof usage_text - 1);
        return 127;
    }
    char **program = options + next + 1;
    environ = envp;

    sigset_t defaults;
    ignore_handled_signals(&defaults);
    sigset_t none;
    sigemptyset(&none);

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &none);

    char line[512];
    pid_t pid = 0;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    unsigned long long spawned = now_ns();
    int length = snprintf(line, sizeof line, "spawn %llu %llu\n", spawned,
                          (unsigned long long)wall.tv_sec * 1000000000ULL + (unsigned long long)wall.tv_nsec);
    int status = 0;
    for (int i = 0; i < enters && status == 0; i++) {
        if (write_pid(enter[i]) != 0) status = errno ? errno : EIO;
    }
    int joined = status == 0 && join != NULL ? spawn_in_cgroup(join, program, &defaults, &pid) : -1;
    if (joined >= 0) {
        status = joined;
    } else if (status == 0) {
        status = posix_spawn(&pid, program[0], NULL, &attributes, program + 1, environ);
    }
    for (int i = 0; i < leaves; i++) (void)write_pid(leave[i]);
    if (status != 0) {
        length += snprintf(line + length, sizeof line - (size_t)length, "error %d\n", status);
        report(fd, line, (size_t)length);
        return 127;
    }
    int wstatus = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    // The end is read the moment the program has exited (waitid, not reaping it): reading its
    // /proc/<pid>/io and reaping it come after, outside the run's time.
    int exited = wait_exited(pid);
    unsigned long long ended = now_ns();
    // The whole process's bytes read and written, from /proc/<pid>/io while it is a zombie (docs/counters.md).
    long long io_read = -1, io_written = -1;
    if (exited == 0) exited_io(pid, &io_read, &io_written);
    while (wait4(pid, &wstatus, 0, &usage) < 0) {
        if (errno != EINTR) return 127;
    }
    if (exited != 0) ended = now_ns();
    length += snprintf(line + length, sizeof line - (size_t)length, "exit %llu %d %lld %lld %ld %ld %ld %ld %ld %lld %lld\n", ended,
                      wstatus, (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec,
                      (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec, usage.ru_maxrss, usage.ru_minflt,
                      usage.ru_majflt, usage.ru_nvcsw, usage.ru_nivcsw, io_read, io_written);
    report(fd, line, (size_t)length);
    return 0;
}

// ---- The session spawner: `launchprof-spawn --serve SOCKET_FD` -------------------------------
//
// Started once per launchprof process (Sources/LaunchRunner/SessionSpawner.swift). At its start it
// closes every descriptor it inherited but its socket and its standard streams (a pipe launchprof's
// own parent left open must not be held for the whole session). It serves two kinds of request:
//
// - "LPS2", a direct start (a run without a device tier): it starts the program itself, by clone3
//   with CLONE_VM | CLONE_VFORK (as posix_spawn does, without copying this process), CLONE_PARENT
//   (the program is launchprof's own child: launchprof waits for it, reads its /proc/<pid>/io and
//   reaps it with wait4, whose peak is then the program's, the memory it left at execve being
//   this small process's) and CLONE_INTO_CGROUP (--join). The child puts itself in a process group
//   of its own and takes the run's descriptors as 0, 1, 2 and 3 before its execve. The answer
//   carries the clock readings taken just before the clone: the run's origin. One process and one
//   pipe less per run than a forked spawner.
// - "LPS1", a forked spawner (a run whose tier the spawner applies, --enter/--leave): it forks a
//   child with CLONE_PARENT (launchprof's child, as a spawner launchprof spawned would be: its
//   pidfd, wait4 and process group work unchanged) that puts itself in a process group of its own,
//   takes the run's descriptors as 0, 1, 2, 3 and its report descriptor, and does what
//   `run_program` does. The server answers with the child's pid at once, without waiting for the
//   child to run: launchprof, the child's parent, also puts it in its group (setpgid on both
//   sides, whichever runs first), so the group exists when launchprof goes on.
//
// It ends when the socket reaches its end (launchprof ended, however it ended).
//
// A request, on a SOCK_STREAM socket: a header of four uint32 (magic, the number of option
// strings, the number of environment strings, the payload's length in bytes) sent with exactly
// five descriptors for LPS1 (SCM_RIGHTS: standard input, output, error, the protocol descriptor,
// the report descriptor) or four for LPS2 (the same without the report descriptor), then the
// payload: the options then the environment, each string NUL-terminated. The options are those of
// the first form (LPS2: [--join DIRECTORY] -- EXECUTABLE ARGV0 ARGS...).
// The answer to LPS1: one int32, the child's pid, or minus an errno (nothing was started).
// The answer to LPS2: `struct direct_answer` (below): the program's pid (0: nothing was started),
// the errno of its failed execve or clone (the child, if any, has exited: launchprof reaps it),
// and the two clocks read just before the clone. Error -1: a direct start cannot be made here
// (no clone3): send LPS1.

#define SERVE_MAGIC 0x4c505331u         // "LPS1"
#define SERVE_DIRECT_MAGIC 0x4c505332u  // "LPS2"
#define SERVE_DESCRIPTORS 5
#define DIRECT_DESCRIPTORS 4
#define SERVE_MAX_PAYLOAD (64u << 20)
#define SERVE_MAX_STRINGS (1u << 20)

struct serve_header {
    uint32_t magic, options, environment, length;
};

// Reads exactly `length` bytes: 0, or -1 at the end of the stream or on an error.
static int read_fully(int fd, void *buffer, size_t length) {
    char *at = buffer;
    while (length > 0) {
        ssize_t n = read(fd, at, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        at += n;
        length -= (size_t)n;
    }
    return 0;
}

// The descriptors a request of kind `magic` comes with, 0 for an unknown kind.
static int request_descriptors(uint32_t magic) {
    return magic == SERVE_MAGIC ? SERVE_DESCRIPTORS : magic == SERVE_DIRECT_MAGIC ? DIRECT_DESCRIPTORS : 0;
}

// Receives a request's header and descriptors (*received of them): 1, 0 at the end of the stream,
// -1 when malformed.
static int receive_header(int sock, struct serve_header *header, int descriptors[SERVE_DESCRIPTORS], int *received_count) {
    union {
        char space[CMSG_SPACE(sizeof(int) * SERVE_DESCRIPTORS)];
        struct cmsghdr align;
    } control;
    struct iovec part = {header, sizeof *header};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    ssize_t n;
    do n = recvmsg(sock, &message, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    if (n == 0) return 0;
    if (n < 0) return -1;
    int received = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (received < SERVE_DESCRIPTORS) descriptors[received++] = fd; else close(fd);
        }
    }
    int complete = (message.msg_flags & MSG_CTRUNC) == 0;
    if (complete && (size_t)n < sizeof *header) complete = read_fully(sock, (char *)header + n, sizeof *header - (size_t)n) == 0;
    *received_count = received;
    int expected = complete ? request_descriptors(header->magic) : 0;
    if (expected == 0 || received != expected || header->length > SERVE_MAX_PAYLOAD ||
        header->options < 3 || header->options > SERVE_MAX_STRINGS || header->environment > SERVE_MAX_STRINGS) {
        for (int i = 0; i < received; i++) close(descriptors[i]);
        return -1;
    }
    return 1;
}

// Points `strings` (count + 1 entries, NULL last) at the NUL-terminated strings of `payload`: 0, or
// -1 when the payload holds another number of strings.
static int split_strings(char *payload, uint32_t length, char **strings, uint32_t count) {
    uint32_t found = 0, at = 0;
    while (at < length && found < count) {
        strings[found++] = payload + at;
        char *nul = memchr(payload + at, 0, length - at);
        if (nul == NULL) return -1;
        at = (uint32_t)(nul - payload) + 1;
    }
    strings[found] = NULL;
    return found == count && at == length ? 0 : -1;
}

// The forked child: its own process group (launchprof sets it too), the run's descriptors in place,
// then the run.
static void run_child(int sock, int descriptors[SERVE_DESCRIPTORS], char **options, int count, char **envp) {
    setpgid(0, 0);
    close(sock);
    int high[SERVE_DESCRIPTORS];
    for (int i = 0; i < SERVE_DESCRIPTORS; i++) {
        high[i] = fcntl(descriptors[i], F_DUPFD_CLOEXEC, 20);
        if (high[i] < 0) _exit(127);
        close(descriptors[i]);
    }
    for (int i = 0; i < SERVE_DESCRIPTORS - 1; i++) {
        if (dup2(high[i], i) < 0) _exit(127);
        close(high[i]);
    }
    // Nothing else: what launchprof had open without close-on-exec when it started the server is
    // not the run's (a spawned spawner passes on what is open at each spawn).
    int report_fd = high[SERVE_DESCRIPTORS - 1];
    close_range(SERVE_DESCRIPTORS - 1, (unsigned)report_fd - 1, 0);
    close_range((unsigned)report_fd + 1, ~0U, 0);
    _exit(run_program(report_fd, options, count, envp));
}

// Starts one request's run: the child's pid, or minus an errno. The answer does not wait for the
// child to be scheduled (a hand-over between processes per run less).
static int32_t start_run(int sock, int descriptors[SERVE_DESCRIPTORS], char **options, int count, char **envp) {
    long pid = syscall(SYS_clone, (unsigned long)(CLONE_PARENT | SIGCHLD), NULL, NULL, NULL, NULL);
    if (pid == 0) run_child(sock, descriptors, options, count, envp);
    int saved = errno;
    return pid > 0 ? (int32_t)pid : -(saved ? saved : EAGAIN);
}

// ---- A direct start (LPS2) ----

// What the server answers a direct start with.
struct direct_answer {
    int32_t pid;     // the program's, 0 when nothing was started
    int32_t error;   // 0, the errno of the failed clone or execve, or -1: no direct start here
    uint64_t spawn;  // CLOCK_MONOTONIC just before the clone, ns
    uint64_t wall;   // CLOCK_REALTIME read with it, ns since 1970
};

// What the program's child runs before its execve: it shares this process's memory (CLONE_VM)
// while this process waits (CLONE_VFORK), but has a descriptor table and signal actions of its own.
struct direct_child {
    const int *descriptors;  // standard input, output, error, the protocol descriptor
    char **program;
    char **envp;
    const sigset_t *defaults;
    volatile int error;  // written by the child when it cannot exec
};

static int direct_child_main(void *raw) {
    struct direct_child *child = raw;
    setpgid(0, 0);
    // Above any number the dup2s below write, then in place; everything else closed.
    int high[DIRECT_DESCRIPTORS];
    for (int i = 0; i < DIRECT_DESCRIPTORS; i++) {
        high[i] = fcntl(child->descriptors[i], F_DUPFD, 20);
        if (high[i] < 0) {
            child->error = errno ? errno : EMFILE;
            return 127;
        }
    }
    for (int i = 0; i < DIRECT_DESCRIPTORS; i++) {
        if (dup2(high[i], i) < 0) {
            child->error = errno ? errno : EBADF;
            return 127;
        }
    }
    close_range(DIRECT_DESCRIPTORS, ~0U, 0);
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (sigismember(child->defaults, signal_number) == 1) signal(signal_number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(child->program[0], child->program + 1, child->envp);
    child->error = errno ? errno : EIO;
    return 127;
}

#define SPAWN_CLONE_PARENT 0x00008000ULL

// Starts a direct request's program: `options` are [--join DIRECTORY] -- EXECUTABLE ARGV0 ARGS...
static struct direct_answer start_direct(const int descriptors[DIRECT_DESCRIPTORS], char **options, int count, char **envp,
                                         const sigset_t *defaults) {
    struct direct_answer answer = {0, 0, 0, 0};
    const char *join = NULL;
    int next = 0;
    if (count >= 2 && strcmp(options[0], "--join") == 0) {
        join = options[1];
        next = 2;
    }
    if (next + 2 >= count || strcmp(options[next], "--") != 0) {
        answer.error = EINVAL;
        return answer;
    }
    int directory = -1;
    if (join != NULL && (directory = open(join, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        answer.error = errno ? errno : ENOENT;
        return answer;
    }
    static char stack[64 * 1024] __attribute__((aligned(16)));
    struct direct_child child = {descriptors, options + next + 1, envp, defaults, 0};
    struct spawn_clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = SPAWN_CLONE_VM | SPAWN_CLONE_VFORK | SPAWN_CLONE_PARENT | (directory >= 0 ? SPAWN_CLONE_INTO_CGROUP : 0);
    // 0: with CLONE_PARENT clone3 refuses any other; the child gets this process's own (SIGCHLD).
    args.exit_signal = 0;
    args.stack = (uint64_t)(uintptr_t)stack;
    args.stack_size = sizeof stack;
    args.cgroup = directory >= 0 ? (uint64_t)directory : 0;
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    answer.spawn = now_ns();
    answer.wall = (uint64_t)wall.tv_sec * 1000000000ULL + (uint64_t)wall.tv_nsec;
    long started = clone3_calling(&args, direct_child_main, &child);
    int saved = errno;
    if (directory >= 0) close(directory);
    if (started < 0) {
        // No clone3 (or not with these flags) here: the launcher sends LPS1 instead.
        answer.error = saved == ENOSYS || saved == EINVAL || saved == E2BIG || saved == EPERM ? -1 : saved;
        return answer;
    }
    answer.pid = (int32_t)started;
    answer.error = child.error;
    return answer;
}

// Sends `length` bytes of `answer`: 0, or -1 when the socket has gone.
static int send_answer(int sock, void *answer, size_t length) {
    struct iovec part = {answer, length};
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    ssize_t n;
    do n = sendmsg(sock, &message, MSG_NOSIGNAL); while (n < 0 && errno == EINTR);
    return n == (ssize_t)length ? 0 : -1;
}

// Reads a request's payload into `strings` (the options, NULL, the environment, NULL): the
// environment's first entry, or NULL when the payload is malformed. The caller frees *payload and *strings.
static char **read_request(int sock, const struct serve_header *header, char **payload, char ***strings) {
    *payload = malloc((size_t)header->length + 1);
    *strings = malloc(((size_t)header->options + header->environment + 2) * sizeof(char *));
    if (*payload == NULL || *strings == NULL || read_fully(sock, *payload, header->length) != 0) return NULL;
    if (split_strings(*payload, header->length, *strings, header->options + header->environment) != 0) return NULL;
    // The options end at the environment's first entry: NULL there (it was split into the slot after).
    char **environment = *strings + header->options + 1;
    memmove(environment, *strings + header->options, ((size_t)header->environment + 1) * sizeof(char *));
    (*strings)[header->options] = NULL;
    return environment;
}

static int serve(int sock) {
    sigset_t defaults;
    ignore_handled_signals(&defaults);
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        struct serve_header header;
        int descriptors[SERVE_DESCRIPTORS];
        int count = 0;
        int received = receive_header(sock, &header, descriptors, &count);
        if (received == 0) return 0;
        if (received < 0) return 127;
        char *payload = NULL, **strings = NULL;
        char **environment = read_request(sock, &header, &payload, &strings);
        int sent = -1;
        if (environment != NULL && header.magic == SERVE_DIRECT_MAGIC) {
            struct direct_answer answer = start_direct(descriptors, strings, (int)header.options, environment, &defaults);
            sent = send_answer(sock, &answer, sizeof answer);
        } else if (environment != NULL) {
            int32_t answer = start_run(sock, descriptors, strings, (int)header.options, environment);
            sent = send_answer(sock, &answer, sizeof answer);
        }
        for (int i = 0; i < count; i++) close(descriptors[i]);
        free(payload);
        free(strings);
        if (sent != 0) return 127;
    }
}

// Parses a descriptor number argument: the descriptor, or -1 with a message.
static int descriptor_argument(const char *text, const char *what) {
    char *end = NULL;
    errno = 0;
    long fd = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || fd < 3 || fd > 1 << 20 || fcntl((int)fd, F_GETFD) < 0) {
        char message[160];
        int length = snprintf(message, sizeof message, "launchprof-spawn: %s must be an open descriptor number above 2\n", what);
        report(2, message, (size_t)length);
        return -1;
    }
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    return (int)fd;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--serve") == 0) {
        int sock = descriptor_argument(argv[2], "SOCKET_FD");
        if (sock < 0) return 127;
        // Nothing inherited but the socket and the standard streams: a pipe launchprof's parent
        // left open (without close-on-exec) would otherwise be held until the session ends.
        if (sock > 3) close_range(3, (unsigned)sock - 1, 0);
        close_range((unsigned)sock + 1, ~0U, 0);
        return serve(sock);
    }
    if (argc < 5) {
        report(2, usage_text, sizeof usage_text - 1);
        return 127;
    }
    int fd = descriptor_argument(argv[1], "REPORT_FD");
    if (fd < 0) return 127;
    return run_program(fd, argv + 2, argc - 2, environ);
}
