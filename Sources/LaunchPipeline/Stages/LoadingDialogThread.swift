#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchImage
import LaunchManifest

/// The loading dialog's own thread (`strategies.loadingDialog`). It waits `showAfter` seconds from
/// the first frame; if init is still running then, it loads what the dialog needs (the theme's label
/// font, decoded on this thread) and redraws the dialog over a copy of the first frame at 30 frames
/// a second, its spinner turning, until init is done and the message has been up at least
/// `minMessageSeconds`. The main thread shares nothing with it but the "init is done" flag, under a
/// mutex; the outcome is read after the thread is joined.
final class LoadingDialogThread: @unchecked Sendable {
    /// What the dialog did.
    struct Outcome: Sendable {
        var shown = false
        var shownNanoseconds: UInt64 = 0
        var frames = 0
        var longestGapNanoseconds: UInt64 = 0
        var failure: String?
    }

    static let frameNanoseconds: UInt64 = 33_333_333

    private let spec: LoadingDialogSpec
    private let manifest: Manifest
    private let frame: Canvas
    private let firstFrameReading: UInt64
    private var seed: UInt64
    private var mutex = pthread_mutex_t()
    /// Signalled when init is done, so a thread waiting to show the dialog stops waiting at once.
    private var initDoneSignal = pthread_cond_t()
    private var initDone = false
    private var outcome = Outcome()
    private var thread: pthread_t?

    init(spec: LoadingDialogSpec, manifest: Manifest, frame: Canvas, firstFrameReading: UInt64, seed: UInt64) {
        self.spec = spec
        self.manifest = manifest
        self.frame = frame
        self.firstFrameReading = firstFrameReading
        self.seed = seed
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&initDoneSignal, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&initDoneSignal)
        pthread_mutex_destroy(&mutex)
    }

    /// Starts the thread; `false` when it could not be created (the launch goes on without a dialog).
    func start() -> Bool {
        thread = NativeThread.start { self.run() }
        return thread != nil
    }

    /// Tells the thread that init is done, waits for it (the message's minimum time included) and
    /// returns what it did.
    func finish() -> Outcome {
        pthread_mutex_lock(&mutex)
        initDone = true
        pthread_cond_signal(&initDoneSignal)
        pthread_mutex_unlock(&mutex)
        if let thread { pthread_join(thread, nil) }
        return outcome
    }

    private var isInitDone: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return initDone
    }

    private func sleep(until reading: UInt64) {
        let now = MonotonicClock.nanoseconds()
        guard reading > now else { return }
        let wait = min(reading - now, 10_000_000)
        var request = timespec(tv_sec: 0, tv_nsec: Int(wait))
        nanosleep(&request, nil)
    }

    /// Waits until the monotonic `reading` or until init is done, whichever comes first; `true`
    /// when init is done.
    private func waitForInit(until reading: UInt64) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        var deadline = timespec(tv_sec: Int(reading / 1_000_000_000), tv_nsec: Int(reading % 1_000_000_000))
        while !initDone && MonotonicClock.nanoseconds() < reading {
            _ = pthread_cond_timedwait(&initDoneSignal, &mutex, &deadline)
        }
        return initDone
    }

    private func run() {
        let showAt = firstFrameReading &+ UInt64(spec.showAfter * 1e9)
        // Init done before the dialog is due: the thread ends at once, so interactive is not held up.
        if waitForInit(until: showAt) { return }
        let dialog = makeDialog()
        let shownAt = MonotonicClock.nanoseconds()
        var last = shownAt, step = 0
        outcome.shown = true
        while true {
            var canvas = frame
            dialog.draw(on: &canvas, step: step)
            step = (step + 1) % 12
            outcome.frames += 1
            let now = MonotonicClock.nanoseconds()
            outcome.longestGapNanoseconds = max(outcome.longestGapNanoseconds, now - last)
            last = now
            if isInitDone, now - shownAt >= UInt64(spec.minMessageSeconds * 1e9) { break }
            let next = now &+ Self.frameNanoseconds
            while MonotonicClock.nanoseconds() < next { sleep(until: next) }
        }
        outcome.shownNanoseconds = MonotonicClock.nanoseconds() - shownAt
    }

    /// The dialog this thread draws: its message picked (the seed advanced) and its font loaded.
    func makeDialog() -> LoadingDialog {
        LoadingDialog(message: pickMessage(), scale: Double(manifest.screen.scale), font: loadFont())
    }

    /// A message from the theme's list (a seeded xorshift, so `--seed` repeats it); `Loading...` without one.
    private func pickMessage() -> String {
        let messages = (try? ThemeParser.load(path: manifest.theme).loadingMessages) ?? []
        guard !messages.isEmpty else { return "Loading..." }
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
        return messages[Int(seed % UInt64(messages.count))]
    }

    /// The theme's `label` font (or its first), decoded on this thread; `nil` when it cannot be loaded.
    private func loadFont() -> GlyphFont? {
        guard let theme = try? ThemeParser.load(path: manifest.theme),
            let spec = theme.fonts["label"] ?? theme.fonts.sorted(by: { $0.key < $1.key }).first?.value
        else { return nil }
        let path = manifest.resolveAsset(spec.atlas).path
        do {
            let atlas = try PNGDecoder().decode(try FileIO.read(path, limit: .asset), file: path)
            return try GlyphFont(spec: spec, atlas: atlas, file: path)
        } catch {
            outcome.failure = "\(error)"
            return nil
        }
    }
}
