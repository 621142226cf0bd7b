#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchImage

/// The worker threads of `strategies.backgroundDecode`: each decodes PNG assets with libpng under
/// its own ``PhaseRecorder`` (threads 1, 2 …), checks the view it decodes for before and after
/// decoding (the reuse race of ../shared/seeds/002), and hands the result back to the main thread,
/// which takes results one at a time with ``next()``.
///
/// Jobs, results and the views' image paths are shared under one mutex; the pixels are not touched
/// by two threads at once. In `sequential` mode (instruction counts, which must repeat) one worker
/// runs one job at a time while the main thread waits, so no two threads' instructions interleave.
final class DecodeWorkers: @unchecked Sendable {
    /// One asset to decode, for the views that show it.
    struct Job: Sendable {
        /// The resolved file.
        var path: String
        /// The name the report shows (`decoding <file name>`).
        var fileName: String
        /// Views that showed this file when the job was submitted (checked before and after decoding).
        var views: [String]
        /// Test only (`--force-decode-race`): the decoded image is handed back only after ``release(_:)``.
        var held = false
    }

    /// A finished job.
    struct Result: Sendable {
        var job: Job
        /// The image; `nil` when the job was skipped (its views showed another file before it started) or failed.
        var image: RGBAImage?
        /// Views of ``Job/views`` that show another file by the time the decode ended.
        var staleViews: [String]
        /// Why the file could not be read or decoded.
        var failure: PipelineError?
    }

    let recorders: [PhaseRecorder]
    private let checkStale: Bool
    private let sequential: Bool
    private let decoder: PNGDecoder
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var queue: [(id: Int, job: Job)] = []
    private var results: [Result] = []
    /// Decoded held jobs, waiting for ``release(_:)``.
    private var held: [Int: Result] = [:]
    private var viewPaths: [String: String] = [:]
    private var started: Set<Int> = []
    private var finished: Set<Int> = []
    private var submitted = 0
    private var delivered = 0
    private var stopping = false
    private var threads: [pthread_t] = []

    /// Starts `count` workers whose recorders copy `main`'s clock, emulation and instruction counting.
    init(count: Int, like main: PhaseRecorder, checkStale: Bool, decoder: PNGDecoder) {
        sequential = main.countsInstructions
        let count = sequential ? 1 : max(1, count)
        recorders = (1...count).map { thread in
            let recorder = PhaseRecorder(clock: main.clock, thread: thread)
            recorder.emulation = main.emulation
            recorder.countsInstructions = main.countsInstructions
            recorder.recordsCounters = main.recordsCounters
            return recorder
        }
        self.checkStale = checkStale
        self.decoder = decoder
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        for recorder in recorders {
            if let thread = NativeThread.start({ self.work(recorder: recorder) }) { threads.append(thread) }
        }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Whether any worker thread runs (`false`: the caller decodes on the main thread).
    var isRunning: Bool { !threads.isEmpty }

    /// The file view `view` shows now.
    func path(of view: String) -> String? {
        locked { viewPaths[view] }
    }

    /// Makes view `view` show `path` (a settings change, a rotation).
    func show(_ path: String, in view: String) {
        locked { viewPaths[view] = path }
    }

    /// Queues `job`; returns its number. In sequential mode, waits until it is decoded.
    @discardableResult
    func submit(_ job: Job) -> Int {
        pthread_mutex_lock(&mutex)
        let id = submitted
        submitted += 1
        queue.append((id, job))
        pthread_cond_broadcast(&changed)
        if sequential {
            while !finished.contains(id) { pthread_cond_wait(&changed, &mutex) }
        }
        pthread_mutex_unlock(&mutex)
        return id
    }

    /// Waits until a worker has started job `id` (checked its views and begun decoding).
    func waitUntilStarted(_ id: Int) {
        pthread_mutex_lock(&mutex)
        while !started.contains(id) { pthread_cond_wait(&changed, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    /// Lets held job `id` hand its image back, once decoded: the check after decoding happens now.
    func release(_ id: Int) {
        pthread_mutex_lock(&mutex)
        while !finished.contains(id) { pthread_cond_wait(&changed, &mutex) }
        if var result = held.removeValue(forKey: id) {
            if result.image != nil { result.staleViews = staleViews(of: result.job) }
            results.append(result)
            pthread_cond_broadcast(&changed)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// The next finished job, waiting for one; `nil` when every job submitted has been taken or is held.
    func next() -> Result? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while results.isEmpty {
            if submitted - delivered - held.count == 0 { return nil }
            pthread_cond_wait(&changed, &mutex)
        }
        delivered += 1
        return results.removeFirst()
    }

    /// The finished jobs ready now, without waiting.
    func takeReady() -> [Result] {
        locked {
            let ready = results
            results.removeAll()
            delivered += ready.count
            return ready
        }
    }

    /// Stops the workers once the queue is empty and joins them; held results are dropped.
    func finish() {
        locked {
            stopping = true
            pthread_cond_broadcast(&changed)
        }
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func staleViews(of job: Job) -> [String] {
        job.views.filter { viewPaths[$0] != job.path }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    /// The image at `path`, read within the asset limit and decoded; else the file's or the PNG's problem.
    private func decode(_ path: String) -> Swift.Result<RGBAImage, PipelineError> {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: .asset) } catch { return .failure(.file(error)) }
        do { return .success(try decoder.decode(bytes, file: path)) } catch { return .failure(.image(error)) }
    }

    private func work(recorder: PhaseRecorder) {
        while true {
            pthread_mutex_lock(&mutex)
            while queue.isEmpty && !stopping { pthread_cond_wait(&changed, &mutex) }
            if queue.isEmpty { pthread_mutex_unlock(&mutex); return }
            let (id, job) = queue.removeFirst()
            // Before: don't decode for views that all show another file already.
            let skip = checkStale && !job.views.isEmpty && staleViews(of: job).count == job.views.count
            started.insert(id)
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)

            var result = Result(job: job, image: nil, staleViews: skip ? job.views : [], failure: nil)
            if !skip {
                switch recorder.phase("decoding \(job.fileName)", kind: .decode, { decode(job.path) }) {
                case .success(let image): result.image = image
                case .failure(let error): result.failure = error
                }
            }

            pthread_mutex_lock(&mutex)
            finished.insert(id)
            if job.held {
                held[id] = result
            } else {
                // After: the views may have been given another file while this one was decoding.
                if result.image != nil { result.staleViews = staleViews(of: job) }
                results.append(result)
            }
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
        }
    }
}
