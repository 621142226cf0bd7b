#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The preload's worker thread (`strategies.preload`): prepares a lazy stage's ``PreparedPanel``
/// under phases of its own ``PhaseRecorder`` (same clock, its own thread number, marked
/// after-launch: the preload is not part of the launch total). The main thread shares nothing with
/// it but the "finished" flag, under a mutex; the recorder and the outcome are read after the thread
/// is joined.
final class PreloadThread: @unchecked Sendable {
    /// The worker's recorder; read it only after ``join()``.
    let recorder: PhaseRecorder
    private let work: (PhaseRecorder) throws -> PreparedPanel
    private var mutex = pthread_mutex_t()
    private var finished = false
    private var outcome: Result<PreparedPanel, any Error>?
    private var thread: pthread_t?
    private var joined = false

    /// A worker recording on `thread` with `main`'s clock and instrumentation (device emulation,
    /// memory samples, Callgrind dumps), that will run `work`.
    init(thread: Int, like main: PhaseRecorder, work: @escaping (PhaseRecorder) throws -> PreparedPanel) {
        recorder = PhaseRecorder(clock: main.clock, thread: thread)
        recorder.emulation = main.emulation
        recorder.memorySamplingDepth = main.memorySamplingDepth
        recorder.countsInstructions = main.countsInstructions
        recorder.recordsCounters = main.recordsCounters
        recorder.recordingAfterLaunch = true
        self.work = work
        pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    /// Starts the thread; when it cannot be created, the work runs now, on the calling thread (still
    /// recorded on the worker's recorder), so the outcome is the same.
    func start() {
        thread = NativeThread.start { self.run() }
        if thread == nil { run() }
    }

    /// Whether the work is done (the thread may still be exiting).
    var isFinished: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return finished
    }

    /// Waits for the thread and returns what it prepared (or the error it met). Repeatable.
    func join() throws -> PreparedPanel {
        if !joined, let thread { pthread_join(thread, nil) }
        joined = true
        guard let outcome else { throw PipelineError.stage(.preloadWithoutOutcome) }
        return try outcome.get()
    }

    private func run() {
        let result = Result { try work(recorder) }
        pthread_mutex_lock(&mutex)
        outcome = result
        finished = true
        pthread_mutex_unlock(&mutex)
    }
}
