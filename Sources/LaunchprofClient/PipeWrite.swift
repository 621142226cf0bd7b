import Glibc

/// Writes protocol lines to the launcher's descriptor without ever disturbing the program.
enum PipeWrite {
    /// Writes all of `bytes` to `descriptor`: retried on `EINTR`, and on a non-blocking descriptor
    /// when it has room again; `errno` is kept. A broken pipe (launchprof went away) raises no
    /// `SIGPIPE`: `MSG_NOSIGNAL` exists only for sockets, so `SIGPIPE` is blocked in this thread
    /// around the write and a `SIGPIPE` the write raised is consumed (one already pending, when the
    /// program blocks `SIGPIPE` itself, is left alone). Returns false when the descriptor is broken
    /// or unusable: the client then stops reporting.
    static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        let savedErrno = errno
        defer { errno = savedErrno }
        var pipeSignal = sigset_t(), old = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        let masked = pthread_sigmask(SIG_BLOCK, &pipeSignal, &old) == 0 && sigismember(&old, SIGPIPE) == 0
        defer { if masked { pthread_sigmask(SIG_SETMASK, &old, nil) } }
        var pendingBefore = false
        if !masked {
            var pending = sigset_t()
            pendingBefore = sigpending(&pending) != 0 || sigismember(&pending, SIGPIPE) == 1
        }
        guard var next = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let n = write(descriptor, next, left)
            if n > 0 {
                next += n
                left -= n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                if poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
            }
            if n < 0 && errno == EPIPE && !pendingBefore {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&pipeSignal, nil, &noWait) < 0 && errno == EINTR {}
            }
            return false
        }
        return true
    }
}
