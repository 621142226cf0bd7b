"""Report this program's launch phases to `launchprof exec` (docs/protocol.md). Standard library only.

    import launchprof                      # at the top: the import's reading is the `main` line

    with launchprof.phase("loading config", kind="io"):
        config = load_config()

    @launchprof.phase("building layout")
    def build_layout(config): ...

    launchprof.mark("interactive")
    launchprof.count(19, "keys laid out")
    launchprof.done()                      # the report is complete: once, at the end

Every function is a no-op unless the environment variable LAUNCHPROF_FD names a descriptor open for
writing (decimal digits only): `launchprof exec` opens a pipe there.

- Each event is one os.write of one bytes object of less than 4096 bytes (PIPE_BUF), so lines from
  several threads never interleave. Threads are numbered on their first event: 0 is the main thread,
  the others 1, 2, ... A phase begins and ends on the same thread (so phase() refuses to wrap a
  coroutine or generator function: its body would run later, interleaved with other work).
- Names are escaped as the protocol says (backslash, newline, carriage return and tab become \\\\, \\n,
  \\r and \\t) and cut, at a character boundary, to 4000 bytes once escaped; an empty name is sent as
  "(unnamed)". A character UTF-8 cannot encode (a lone surrogate) is sent as "?".
- Nothing follows done(); later events are dropped.
- Instruction counts (`launchprof exec --metric instructions`, docs/instructions.md): Python cannot
  issue Valgrind's client requests itself, so the client loads, with ctypes, the tiny shared helper
  launchprof compiles (a C compiler is needed) and names in LAUNCHPROF_CALLGRIND_HELPER, and dumps
  Callgrind's counts at the import (`main`) and at every phase boundary. Without the helper the
  program is counted as a whole, and launchprof warns that its phases have no counts.
- System counters (docs/counters.md): each phase ended within 32 levels of nesting is followed by a
  `stats` line with its thread's CPU time, wait for a CPU, page faults, context switches and bytes
  read and written during it (CLOCK_THREAD_CPUTIME_ID, getrusage(RUSAGE_THREAD),
  /proc/thread-self/schedstat and io, opened on the thread's first phase and closed when it ends), the
  client's own reads and writes left out. Off when counting instructions, and with LAUNCHPROF_COUNTERS=0.
- The program is never disturbed: if launchprof went away, the write that finds the pipe broken turns
  the client off instead of raising, and cannot kill the program with SIGPIPE even where the program
  restored SIGPIPE's default action. The client takes the descriptor: it is made non-inheritable and
  LAUNCHPROF_FD is removed from os.environ, so programs this one starts do not report into the same
  pipe; in a child made by os.fork() the client is off.
"""

import errno
import functools
import inspect
import itertools
import os
import select
import signal
import threading
import time

__all__ = ["phase", "begin", "end", "mark", "count", "done", "active"]

KINDS = frozenset(("cpu", "io", "decode", "draw"))
"""The kinds a phase may have (the protocol's <kind>); None is `-`."""

_NAME_MAX = 4000  # bytes of an escaped name: the longest head ("begin <20> <7> decode ") is 42
_THREAD_LIMIT = 1 << 20  # the parser's limit on thread numbers; a thread past it reports nothing
_UNNAMED = "(unnamed)"
_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _now():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def _usable_descriptor(text):
    """The descriptor LAUNCHPROF_FD names, or None: digits only, at most 2**31 - 1, open for writing."""
    if not text or not text.isascii() or not text.isdigit() or len(text) > 10 or int(text) > 2**31 - 1:
        return None
    fd = int(text)
    try:
        import fcntl
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        if flags & os.O_ACCMODE == os.O_RDONLY:
            return None
        os.set_inheritable(fd, False)
    except (OSError, ImportError):
        return None
    return fd


_main_reading = _now()
_fd = _usable_descriptor(os.environ.get("LAUNCHPROF_FD"))
if _fd is not None:
    del os.environ["LAUNCHPROF_FD"]


def _callgrind_dump():
    """The helper's dump function when this process is counted by `launchprof exec --metric
    instructions` (under Valgrind, with the helper launchprof made), else None."""
    path = os.environ.get("LAUNCHPROF_CALLGRIND_HELPER")
    if _fd is None or os.environ.get("LAUNCHPROF_METRIC") != "instructions" or not path:
        return None
    try:
        import ctypes
        helper = ctypes.CDLL(path)
        if not helper.launchprof_running_on_valgrind():
            return None
        dump = helper.launchprof_dump
        dump.argtypes = [ctypes.c_char_p]
        dump.restype = None
        return dump
    except (ImportError, OSError, AttributeError):
        return None


_dump = _callgrind_dump()
if _dump is not None:
    _dump(b"launchprof main")  # everything before it is `process start`'s count
_lock = threading.Lock()  # held while a line is written: orders the greeting, events and done
_greeted = False
_finished = False
_local = threading.local()
_next_thread = itertools.count(1)


_COUNTER_DEPTH = 32  # phases nested deeper than this get no counters (as the C and Swift clients)
_UNREAD = None  # a counter that could not be read: left out of the line, never 0


def _counters_wanted():
    """Whether each phase's end is followed by its thread's counters: not when counting instructions
    (the readings would be counted), nor with LAUNCHPROF_COUNTERS=0, nor without the thread clocks."""
    if _fd is None or _dump is not None or os.environ.get("LAUNCHPROF_COUNTERS") == "0":
        return None
    try:
        import resource
        if not hasattr(resource, "RUSAGE_THREAD") or not hasattr(time, "CLOCK_THREAD_CPUTIME_ID"):
            return None
        return resource
    except ImportError:
        return None


_resource = _counters_wanted()


class _ThreadCounters:
    """One thread's counters for its phases: the readings at the begin of its open phases and the
    /proc files they are read from (closed when the thread's locals go, at its end)."""

    __slots__ = ("schedstat", "io", "own_read", "own_written", "starts", "depth")

    def __init__(self):
        self.schedstat = self._open("/proc/thread-self/schedstat")
        self.io = self._open("/proc/thread-self/io")
        self.own_read = 0  # bytes the client's reads of /proc added to the thread's rchar
        self.own_written = 0  # bytes of protocol lines this thread wrote (its wchar)
        self.starts = []
        self.depth = 0

    @staticmethod
    def _open(path):
        try:
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return -1

    def __del__(self):
        for fd in (self.schedstat, self.io):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def _numbers(self, fd):
        """The first two decimal numbers of the file at fd, read at offset 0; None when unreadable."""
        if fd < 0:
            return None
        try:
            data = os.pread(fd, 256, 0)
        except OSError:
            return None
        self.own_read += len(data)
        numbers = [int(word) for word in data.replace(b":", b" ").split() if word.isdigit()][:2]
        return numbers if len(numbers) == 2 else None

    def read(self):
        """This thread's counters now, the client's own bytes left out."""
        own_read = self.own_read  # the io file's reading does not include its own read
        io = self._numbers(self.io)
        sched = self._numbers(self.schedstat)
        usage = _resource.getrusage(_resource.RUSAGE_THREAD)
        return (
            time.clock_gettime_ns(time.CLOCK_THREAD_CPUTIME_ID),
            sched[1] if sched else _UNREAD,
            usage.ru_minflt, usage.ru_majflt, usage.ru_nvcsw, usage.ru_nivcsw,
            max(io[0] - own_read, 0) if io else _UNREAD,
            max(io[1] - self.own_written, 0) if io else _UNREAD,
        )

    def began(self):
        """A phase began (after its line was written): its reading, within _COUNTER_DEPTH."""
        self.depth += 1
        if self.depth <= _COUNTER_DEPTH:
            self.starts.append(self.read())

    def ending(self):
        """A phase is ending (before its line is written): its `stats` fields, or None past the depth."""
        if self.depth == 0:
            return None
        self.depth -= 1
        if self.depth >= _COUNTER_DEPTH or not self.starts:
            return None
        start, end = self.starts.pop(), self.read()

        def delta(i):
            return max(end[i] - start[i], 0)

        fields = b"cpu=%d" % delta(0)
        if start[1] is not _UNREAD and end[1] is not _UNREAD:
            fields += b" runnable=%d" % delta(1)
        fields += b" minflt=%d majflt=%d vcsw=%d ivcsw=%d" % (delta(2), delta(3), delta(4), delta(5))
        if start[6] is not _UNREAD and end[6] is not _UNREAD:
            fields += b" rchar=%d wchar=%d" % (delta(6), delta(7))
        return fields


def _thread_counters():
    """This thread's _ThreadCounters when counters are recorded, made on its first phase; else None."""
    if _resource is None:
        return None
    counters = getattr(_local, "counters", None)
    if counters is None:
        counters = _local.counters = _ThreadCounters()
    return counters


def _off_in_child():
    global _fd, _lock
    _fd = None
    _lock = threading.Lock()  # another thread may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_off_in_child)


def _thread_number():
    number = getattr(_local, "number", None)
    if number is None:
        number = 0 if threading.current_thread() is threading.main_thread() else next(_next_thread)
        _local.number = number
    return number


def _encoded_name(name):
    """The name escaped, UTF-8 encoded and cut to _NAME_MAX bytes, never inside an escape or a character."""
    if not isinstance(name, str):
        raise TypeError(f"a launchprof name must be a str, not {type(name).__name__}")
    data = (name or _UNNAMED).translate(_ESCAPES).encode("utf-8", "replace")
    if len(data) <= _NAME_MAX:
        return data
    cut = _NAME_MAX
    while data[cut] & 0xC0 == 0x80:  # the cut would split a character: keep it out whole
        cut -= 1
    backslashes = len(data[:cut]) - len(data[:cut].rstrip(b"\\"))
    if backslashes % 2:  # escapes are pairs: an odd run ends with half of one
        cut -= 1
    return data[:cut]


def _write(fd, data):
    """Writes all of data; False when the descriptor is broken or unusable."""
    guard = signal.getsignal(signal.SIGPIPE) is not signal.SIG_IGN
    pipe_signal = {signal.SIGPIPE}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, pipe_signal) if guard else set()
    masked = guard and signal.SIGPIPE not in old
    pending_before = guard and not masked and signal.SIGPIPE in signal.sigpending()
    try:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:  # a non-blocking descriptor: wait until the pipe has room
                ready = select.poll()
                ready.register(fd, select.POLLOUT)
                ready.poll()
            except OSError as error:
                if error.errno == errno.EPIPE and guard and not pending_before:
                    signal.sigtimedwait(pipe_signal, 0)
                return False
        return True
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _greeting():
    return b"launchprof 1\nmain %d\n" % _main_reading


def _send(line, finish=False, boundary=0, thread=0, after=b""):
    """Writes one line (after the greeting), unless the client is off or done; `boundary` is 1 for a
    phase's begin and -1 for its end, whose Callgrind dumps are made when counting. `after` (a phase's
    `stats` line) is written with it."""
    global _fd, _greeted, _finished
    with _lock:
        if _fd is None or _finished:
            return
        _finished = finish
        greeted_before = _greeted
        if not _greeted:
            _greeted = True
            if not _write(_fd, _greeting()):
                _fd = None
                return
        # The phase's count starts after its begin line is written and ends before its end line is.
        if boundary < 0 and _dump is not None:
            _callgrind_boundary(boundary, thread)
        if not _write(_fd, line + after):
            _fd = None
            return
        counters = getattr(_local, "counters", None)
        if counters is not None:  # this thread's own writes are not its phases' bytes written
            counters.own_written += len(line) + len(after) + (0 if greeted_before else len(_greeting()))
        if boundary > 0 and _dump is not None:
            _callgrind_boundary(boundary, thread)


def _callgrind_boundary(boundary, thread):
    """The dump at a phase boundary of this thread, labelled by the thread's number and the phase's
    index among the phases it began (`launchprof begin 0 3`)."""
    open_phases = getattr(_local, "open", None)
    if open_phases is None:
        open_phases = _local.open = []
        _local.begun = 0
    if boundary > 0:
        index = _local.begun
        _local.begun += 1
        open_phases.append(index)
        _dump(b"launchprof begin %d %d" % (thread, index))
    elif open_phases:
        _dump(b"launchprof end %d %d" % (thread, open_phases.pop()))


def _timed(verb, encoded_name, kind=None, boundary=0):
    if _fd is None:
        return
    # A phase's end reading first, so the client's own work is not in it.
    counters = _thread_counters() if boundary else None
    stats = counters.ending() if counters is not None and boundary < 0 else None
    now = _now()
    thread = _thread_number()
    if thread >= _THREAD_LIMIT:
        return
    head = b"%s %d %d " % (verb, now, thread)
    if kind is not None:
        head += kind.encode() + b" "
    line = head + encoded_name + b"\n"
    after = b"stats %d %s\n" % (thread, stats) if stats is not None else b""
    _send(line, boundary=boundary, thread=thread, after=after)
    # A phase's begin reading last, after its begin line is written.
    if counters is not None and boundary > 0:
        counters.began()


def _checked_kind(kind):
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(sorted(KINDS))} or None, not {kind!r}")
    return kind


def begin(name, kind=None):
    """The phase `name` begins on this thread, nested in the phase open there."""
    _timed(b"begin", _encoded_name(name), _checked_kind(kind) or "-", boundary=1)


def end(name):
    """The innermost phase open on this thread ends; `name` must be its name."""
    _timed(b"end", _encoded_name(name), boundary=-1)


def mark(name):
    """An instant event, such as "first frame" or "interactive"."""
    _timed(b"mark", _encoded_name(name))


def count(value, name):
    """Adds the integer `value` (a 64-bit one) to the counter `name` ("keys laid out")."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a launchprof count must be an int, not {type(value).__name__}")
    if not -(2**63) <= value < 2**63:
        raise ValueError(f"a launchprof count must fit in 64 bits, not {value}")
    if _fd is not None:
        _send(b"count %d " % value + _encoded_name(name) + b"\n")


def done():
    """The report is complete: every phase must be closed. Later events are dropped."""
    if _fd is not None:
        _send(b"done %d\n" % _now(), finish=True)


def active():
    """Whether events are sent: LAUNCHPROF_FD named a usable descriptor and done() was not called."""
    return _fd is not None and not _finished


class phase:
    """A phase, as a context manager (`with phase("loading config"):`) or a decorator
    (`@phase("building layout")`). The phase ends also when its body raises."""

    __slots__ = ("name", "kind", "_encoded")

    def __init__(self, name, kind=None):
        self._encoded = _encoded_name(name)  # escaped once; a name that is not a str is refused here
        self.name = name
        self.kind = _checked_kind(kind)

    def __enter__(self):
        _timed(b"begin", self._encoded, self.kind or "-", boundary=1)
        return self

    def __exit__(self, *exception):
        _timed(b"end", self._encoded, boundary=-1)
        return False

    def __call__(self, function):
        if inspect.iscoroutinefunction(function) or inspect.isgeneratorfunction(function) \
                or inspect.isasyncgenfunction(function):
            raise TypeError(f"launchprof.phase({self.name!r}) cannot wrap {function.__qualname__}: its body runs "
                            "later, interleaved with other work; use `with launchprof.phase(...)` inside it around "
                            "code that does not await or yield")

        @functools.wraps(function)
        def wrapper(*arguments, **keywords):
            with self:
                return function(*arguments, **keywords)

        return wrapper
