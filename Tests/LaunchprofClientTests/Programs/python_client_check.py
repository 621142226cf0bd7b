"""The Python client's test program (PythonClientTests runs it): each mode reports through
clients/python/launchprof.py and prints what the test checks beside the protocol on stdout."""
import mmap
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python"))
import launchprof  # noqa: E402


def basic():
    with launchprof.phase("loading config", kind="io"):
        with launchprof.phase("parsing", kind="cpu"):
            pass

    @launchprof.phase("decorated", kind="draw")
    def decorated(value):
        return value * 2

    doubled = decorated(21)
    try:
        with launchprof.phase("raising"):
            raise KeyError("inner")
    except KeyError:
        pass
    launchprof.begin("by hand")
    launchprof.end("by hand")
    launchprof.mark("interactive")
    launchprof.count(19, "keys laid out")
    launchprof.count(-5, "keys laid out")
    launchprof.count(-(2**63), "smallest")
    launchprof.count(2**63 - 1, "largest")
    launchprof.done()
    launchprof.mark("after done")
    launchprof.done()
    print(f"active {int(launchprof.active())} doubled {doubled} environment {'LAUNCHPROF_FD' in os.environ}")


def phase(name):
    with launchprof.phase(name):
        launchprof.mark(name)
        launchprof.count(1, name)


def hostile(names):
    for name in names:
        phase(name)
    phase("lone surrogate \ud800")
    launchprof.done()


def threads():
    long_name = "long name " * 390  # 3900 bytes: lines near PIPE_BUF

    def work(index):
        for step in range(100):
            with launchprof.phase(f"worker {index} step {step}", kind="cpu"):
                with launchprof.phase(long_name):
                    launchprof.mark(long_name)
                launchprof.count(1, "steps")

    workers = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    with launchprof.phase("spawning workers"):
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    launchprof.done()


def race_done():
    stop = threading.Event()

    def keep_marking():
        while not stop.is_set():
            launchprof.mark("racing done")

    workers = [threading.Thread(target=keep_marking) for _ in range(4)]
    for worker in workers:
        worker.start()
    time.sleep(0.05)
    launchprof.done()
    time.sleep(0.05)
    stop.set()
    for worker in workers:
        worker.join()
    print(f"active {int(launchprof.active())}")


def broken(default_sigpipe):
    if default_sigpipe:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    before = launchprof.active()
    with launchprof.phase("nobody reads this"):
        pass
    launchprof.done()
    pending = signal.SIGPIPE in signal.sigpending()
    print(f"alive: active before {int(before)} after {int(launchprof.active())}, SIGPIPE pending {int(pending)}")


def children():
    with launchprof.phase("parent"):
        pid = os.fork()
        if pid == 0:
            launchprof.mark("forked child")
            launchprof.done()
            os._exit(0)
        os.waitpid(pid, 0)
        sys.stdout.flush()
        # close_fds=False: descriptor 3 reaches the child only if the client left it inheritable.
        subprocess.run([sys.executable, __file__, "child"], close_fds=False, check=True)
    launchprof.done()


def child():
    try:
        os.fstat(3)
        descriptor = "open"
    except OSError:
        descriptor = "closed"
    environment = "set" if "LAUNCHPROF_FD" in os.environ else "unset"
    print(f"child: LAUNCHPROF_FD {environment}, descriptor 3 {descriptor}, active {int(launchprof.active())}")
    with launchprof.phase("started child"):
        pass
    launchprof.done()


def many():
    """Many events on a non-blocking descriptor: the pipe fills, writes meet EAGAIN."""
    os.set_blocking(3, False)
    for _ in range(20000):
        launchprof.mark("m")
    launchprof.done()


def errors():
    """Mistakes are refused the same way with or without LAUNCHPROF_FD."""
    async def coroutine():
        pass

    def generator():
        yield 1

    attempts = {
        "name not a str": lambda: launchprof.mark(42),
        "phase name not a str": lambda: launchprof.phase(b"bytes"),
        "unknown kind": lambda: launchprof.begin("x", kind="gpu"),
        "count not an int": lambda: launchprof.count(1.5, "x"),
        "count a bool": lambda: launchprof.count(True, "x"),
        "count past 64 bits": lambda: launchprof.count(2**63, "x"),
        "coroutine function": lambda: launchprof.phase("x")(coroutine),
        "generator function": lambda: launchprof.phase("x")(generator),
    }
    for label, attempt in attempts.items():
        try:
            attempt()
            print(f"{label}: accepted")
        except (TypeError, ValueError) as error:
            print(f"{label}: {type(error).__name__}")
    launchprof.done()


def counters(path):
    """Phases that do a known thing, for their counters: read a file whole, touch 256 new pages, sleep."""
    with launchprof.phase("reading", kind="io"):
        with open(path, "rb") as file:
            total = len(file.read())
    with launchprof.phase("touching"):
        memory = mmap.mmap(-1, 256 * mmap.PAGESIZE)
        for page in range(256):
            memory[page * mmap.PAGESIZE] = 1
        memory.close()
    with launchprof.phase("sleeping"):
        launchprof.mark("asleep")  # a line this thread writes is not the phase's bytes written
        time.sleep(0.1)
    launchprof.done()
    print(total)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "basic"
    modes = {"basic": basic, "threads": threads, "race-done": race_done, "children": children, "child": child,
             "errors": errors, "many": many, "broken": lambda: broken(False), "broken-default-sigpipe": lambda: broken(True),
             "hostile": lambda: hostile(sys.argv[2:]), "counters": lambda: counters(sys.argv[2])}
    modes[mode]()


main()
