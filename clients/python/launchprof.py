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


def _send(line, finish=False, boundary=0, thread=0):
    """Writes one line (after the greeting), unless the client is off or done; `boundary` is 1 for a
    phase's begin and -1 for its end, whose Callgrind dumps are made when counting."""
    global _fd, _greeted, _finished
    with _lock:
        if _fd is None or _finished:
            return
        _finished = finish
        if not _greeted:
            _greeted = True
            if not _write(_fd, b"launchprof 1\nmain %d\n" % _main_reading):
                _fd = None
                return
        # The phase's count starts after its begin line is written and ends before its end line is.
        if boundary < 0 and _dump is not None:
            _callgrind_boundary(boundary, thread)
        if not _write(_fd, line):
            _fd = None
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
    now = _now()
    thread = _thread_number()
    if thread >= _THREAD_LIMIT:
        return
    head = b"%s %d %d " % (verb, now, thread)
    if kind is not None:
        head += kind.encode() + b" "
    _send(head + encoded_name + b"\n", boundary=boundary, thread=thread)


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
