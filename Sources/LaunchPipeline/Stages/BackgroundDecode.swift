import LaunchCore
import LaunchImage
import LaunchManifest

/// `strategies.backgroundDecode` (../shared/seeds/002): the images stage hands every PNG asset to
/// ``DecodeWorkers``, the font atlases first, and the main thread goes on. A stage that draws text
/// waits for the fonts (`waiting for fonts`, never stretched by a device tier); images not decoded
/// by the first frame are drawn as placeholders. After `interactive`, each turn of the main run loop
/// takes the images decoded since and redraws the views (`drawing decoded images`).
///
/// The window is the view whose image can change while it decodes (a settings change, a rotation):
/// its job is checked against the window's current image path before and after decoding, and with
/// `checkStaleDecodes` a stale image is discarded; without it, it is drawn.
extension Pipeline {
    /// The view name of the window's image in ``DecodeWorkers``.
    static let windowView = "window"

    /// The phase in which a stage waits for the font atlases still decoding.
    public static let fontWaitPhase = "waiting for fonts"

    /// The small variant of asset `file`: `name@thumb.png` beside it, if there is one.
    func thumbnailPath(of file: String) -> String? {
        guard file.hasSuffix(".png") else { return nil }
        var stem = String(file.dropLast(4))
        if let at = stem.lastIndex(of: "@") { stem = String(stem[..<at]) }
        let path = FileIO.resolve("\(stem)@thumb.png", relativeTo: manifest.assets)
        return FileIO.exists(path) ? path : nil
    }

    /// Starts the workers and queues every image; `false` when no thread could be started (the
    /// images are then decoded on the main thread, as without the strategy).
    func startBackgroundDecode(_ spec: BackgroundDecodeSpec) throws -> Bool {
        let theme = try require(theme, "images")
        let workers = DecodeWorkers(count: spec.threads, like: recorder, checkStale: manifest.strategies.checkStaleDecodes, decoder: decoder)
        guard workers.isRunning else { return false }
        decode.workers = workers
        workerRecorders = workers.recorders
        decode.overridesWindow = true
        decode.windowImage = nil
        let files = assetFiles(theme)
        let windowPath = try showWindowImage(theme, images: files.images, workers: workers)
        let queued = try queueDecodes(files, windowPath: windowPath, workers: workers)
        recorder.count(AppInterface.imagesQueuedForWorkersCounter, queued)
        recorder.count("image cache hits", theme.fonts.count + theme.images.count - queued)
        return true
    }

    /// The theme's font atlases and images, in name order.
    typealias AssetFiles = (fonts: [(name: String, path: String)], images: [(name: String, path: String, scale: Int)])

    /// The theme's assets, each resolved once (a resolution looks for the `@Nx` file): the jobs; the
    /// names each decoded file goes to when it comes back are noted in `decode.names`.
    private func assetFiles(_ theme: Theme) -> AssetFiles {
        let fontFiles = theme.fonts.keys.sorted().map { (name: $0, path: resolveAsset(theme.fonts[$0]!.atlas).path) }
        let imageFiles = theme.images.keys.sorted().map { name in
            let (path, scale) = resolveAsset(theme.images[name]!.source)
            return (name: name, path: path, scale: scale)
        }
        for font in fontFiles { decode.names[font.path, default: AssetNames()].fonts.append(font.name) }
        for image in imageFiles { decode.names[image.path, default: AssetNames()].images.append((image.name, image.scale)) }
        return (fontFiles, imageFiles)
    }

    /// Tells the workers which file the window shows (its path, or `nil` when it shows no image) and,
    /// with `thumbnailsFirst`, decodes its thumbnail here to show until the image comes.
    private func showWindowImage(_ theme: Theme, images: [(name: String, path: String, scale: Int)], workers: DecodeWorkers) throws -> String? {
        let windowName = theme.window.texture.flatMap { theme.images[$0] != nil ? $0 : nil }
        let windowPath = windowName.flatMap { name in images.first { $0.name == name }?.path }
        if let windowPath { workers.show(windowPath, in: Self.windowView) }
        if forceDecodeRace, windowPath == nil {
            throw PipelineError.stage(.decodeRace(theme: theme.file, .windowShowsNoImage))
        }
        if manifest.strategies.thumbnailsFirst, let name = windowName, let thumb = thumbnailPath(of: theme.images[name]!.source) {
            let image = try recorder.phase("decoding \(Self.fileName(thumb))", kind: .decode) {
                try decoder.decode(try FileIO.read(thumb, limit: .asset), file: thumb)
            }
            decode.windowImage = LoadedImage(image: image, scale: 1)
            decode.showsThumbnail = true
        }
        return windowPath
    }

    /// Queues one job per file: the fonts first (text needs them soonest), then the images, in name
    /// order; returns how many files were queued.
    private func queueDecodes(_ files: AssetFiles, windowPath: String?, workers: DecodeWorkers) throws -> Int {
        var windowPath = windowPath
        var queued: Set<String> = []
        for (_, path) in files.fonts {
            guard queued.insert(path).inserted else { continue }
            decode.pendingFonts.insert(path)
            workers.submit(.init(path: path, fileName: Self.fileName(path), views: []))
        }
        for (index, (_, path, _)) in files.images.enumerated() {
            guard queued.insert(path).inserted else { continue }
            let forWindow = path == windowPath
            let race = forWindow && forceDecodeRace && decode.heldRaceJob == nil
            let id = workers.submit(.init(path: path, fileName: Self.fileName(path), views: forWindow ? [Self.windowView] : [], held: race))
            if race { windowPath = try raceWindowDecode(id, image: index, of: files.images, workers: workers) }
        }
        return queued.count
    }

    /// `--force-decode-race`: while the window's image (job `id`, `images[index]`) decodes, the window
    /// is given the next image by name; returns that image's path.
    private func raceWindowDecode(_ id: Int, image index: Int, of images: [(name: String, path: String, scale: Int)], workers: DecodeWorkers) throws
        -> String
    {
        workers.waitUntilStarted(id)
        let path = images[index].path
        let others = images[(index + 1)...] + images[..<index]
        guard let replacement = others.map(\.path).first(where: { $0 != path }) else {
            throw PipelineError.stage(.decodeRace(theme: manifest.theme, .noOtherImage))
        }
        workers.show(replacement, in: Self.windowView)
        decode.showsThumbnail = false
        decode.windowImage = nil
        decode.heldRaceJob = id
        return replacement
    }

    /// Before text is drawn or measured: waits for the font atlases still decoding on the workers,
    /// taking in whatever else they finished meanwhile (drawn in the next frame).
    func awaitFonts() throws {
        guard let workers = decode.workers, let theme, !decode.pendingFonts.isEmpty else { return }
        // Only the waiting is in the phase: making the fonts from the atlases is the main thread's work.
        let taken = recorder.waiting(Self.fontWaitPhase) { () -> [DecodeWorkers.Result] in
            var fontsLeft = decode.pendingFonts, taken: [DecodeWorkers.Result] = []
            while !fontsLeft.isEmpty, let result = workers.next() {
                fontsLeft.remove(result.job.path)
                taken.append(result)
            }
            return taken
        }
        var counts = DecodeCounts()
        for result in taken { _ = try apply(result, theme: theme, counts: &counts) }
        decode.counts.add(counts)
    }

    /// After `interactive`: takes the decoded images as the workers finish them and redraws the
    /// views once per batch, until every image is in; counts what happened to the window's image.
    func showDecodedImages() throws {
        guard let workers = decode.workers, let theme else { return }
        recorder.recordingAfterLaunch = true
        defer { recorder.recordingAfterLaunch = false }
        var counts = decode.counts
        while true {
            guard let first = workers.next() else {
                // What is left is the race's held decode: it comes back once the window shows its new image.
                guard let id = decode.heldRaceJob else { break }
                decode.heldRaceJob = nil
                workers.release(id)
                continue
            }
            var redraw = false
            for result in [first] + workers.takeReady() {
                redraw = try apply(result, theme: theme, counts: &counts) || redraw
            }
            if redraw, var canvas, let orientation = manifest.orientations.first, let layout = layouts[orientation] {
                var renderer = makeRenderer(theme)
                try recorder.phase("drawing decoded images", kind: .draw) {
                    renderer.drawWindow(on: &canvas)
                    try renderer.drawDisplay(layout, on: &canvas)
                    try renderer.drawKeys(layout, on: &canvas)
                }
                self.canvas = canvas
                counts.redraws += 1
            }
            // The race: the held decode is handed back after the window's new image is drawn.
            if let id = decode.heldRaceJob, let path = workers.path(of: Self.windowView), imageCache.cached(path) != nil {
                decode.heldRaceJob = nil
                workers.release(id)
            }
        }
        stopDecodeWorkers()
        recorder.count("images decoded", imageCache.misses)
        recorder.count("decoded image bytes", imageCache.byteCount)
        recorder.count("redraws with decoded images", counts.redraws)
        if manifest.strategies.thumbnailsFirst { recorder.count("thumbnails replaced", counts.thumbnailsReplaced) }
        if manifest.strategies.checkStaleDecodes {
            recorder.count("stale decodes discarded", counts.staleDiscarded)
        } else {
            recorder.count("stale images drawn", counts.staleDrawn)
        }
    }

    /// Takes one decoded image into the cache and the views; `true` when a view shows it.
    private func apply(_ result: DecodeWorkers.Result, theme: Theme, counts: inout DecodeCounts) throws -> Bool {
        if let failure = result.failure { throw failure }
        let forWindow = result.job.views.contains(Self.windowView)
        let stale = result.staleViews.contains(Self.windowView)
        guard let image = result.image else {
            // Skipped before decoding: the window showed another file already.
            if stale { counts.staleDiscarded += 1 }
            return false
        }
        imageCache.store(image, for: result.job.path)
        decode.pendingFonts.remove(result.job.path)
        let names = decode.names[result.job.path] ?? AssetNames()
        for name in names.fonts {
            guard let spec = theme.fonts[name] else { continue }
            fonts[name] = try GlyphFont(spec: spec, atlas: image, file: result.job.path)
        }
        // The keys' icons as laid out now (the images stage may run before the layout stage).
        let icons = Set(manifest.orientations.first.flatMap { layouts[$0] }?.keys.compactMap(\.spec.icon) ?? [])
        var shown = false
        for (name, scale) in names.images {
            images[name] = LoadedImage(image: image, scale: scale)
            shown = shown || icons.contains(name)
        }
        let current = decode.workers?.path(of: Self.windowView)
        if forWindow, stale {
            guard !manifest.strategies.checkStaleDecodes else {
                counts.staleDiscarded += 1
                return shown
            }
            // Nothing checked: the image decoded for the window's old file is drawn over its new one.
            decode.windowImage = LoadedImage(image: image, scale: 1)
            counts.staleDrawn += 1
            return true
        }
        if current == result.job.path {
            if decode.showsThumbnail { counts.thumbnailsReplaced += 1 }
            decode.showsThumbnail = false
            decode.windowImage = LoadedImage(image: image, scale: 1)
            return true
        }
        return shown
    }

    /// Stops and joins the workers, if they run.
    func stopDecodeWorkers() {
        decode.workers?.finish()
        decode.workers = nil
        decode.heldRaceJob = nil
        decode.pendingFonts = []
        decode.counts = DecodeCounts()  // The window keeps its image.
        decode.names = [:]
    }
}

/// What `backgroundDecode` keeps between the images stage and the last image drawn, and what the
/// window shows in place of its theme texture.
struct DecodeState {
    /// The decode workers while the launch runs.
    var workers: DecodeWorkers?
    /// The window's image instead of its theme texture, while ``overridesWindow`` (`nil`: a placeholder).
    var windowImage: LoadedImage?
    var overridesWindow = false
    /// With `thumbnailsFirst`, whether the window still shows its thumbnail.
    var showsThumbnail = false
    /// `--force-decode-race`: the window's decode, held until the window shows its new image.
    var heldRaceJob: Int?
    /// Font atlases still decoding on the workers.
    var pendingFonts: Set<String> = []
    /// What happened to the images taken in so far.
    var counts = DecodeCounts()
    /// The theme's fonts and images each decoded file stands for, by resolved path.
    var names: [String: AssetNames] = [:]
}

/// The theme's names for one asset file: the fonts whose atlas it is, the images it is (and at which scale).
struct AssetNames {
    var fonts: [String] = []
    var images: [(name: String, scale: Int)] = []
}

/// What happened to the images decoded on workers in one launch.
struct DecodeCounts {
    var redraws = 0
    var thumbnailsReplaced = 0
    var staleDiscarded = 0
    var staleDrawn = 0

    mutating func add(_ other: DecodeCounts) {
        redraws += other.redraws
        thumbnailsReplaced += other.thumbnailsReplaced
        staleDiscarded += other.staleDiscarded
        staleDrawn += other.staleDrawn
    }
}
