#if canImport(Glibc)
import Glibc
#endif

/// Starts a POSIX thread that runs a Swift closure: the closure (and what it captures) is passed as
/// the thread's argument, retained until it returns, and released at once when no thread could be made.
public enum NativeThread {
    /// Starts a thread that runs `body`; `nil` when it could not be created (`body` then never runs).
    /// The caller keeps what `body` touches safe to share with the thread (nothing checks it: the
    /// closure crosses as a raw pointer), and joins or detaches the thread.
    public static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
