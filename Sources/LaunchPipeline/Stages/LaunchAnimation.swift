import LaunchCore
import LaunchImage
import LaunchManifest

/// The launch animation the preload hides under (`strategies.preload`, `"during": "launch
/// animation"`): after the first frame the keys slide up into place over 0.4 s, 24 frames at 60
/// frames a second, each really drawn on the main thread: the still part (window and display) is
/// drawn once, then every frame copies it and redraws the key grid at that frame's offset (the key
/// backgrounds reused across frames as the draw stage reuses them). The last frame is the keys at
/// rest: the same pixels as the draw stage's frame.
///
/// Frames are paced to a 16.7 ms deadline each: a frame drawn early waits for its deadline (the
/// wait is not work: device emulation does not stretch it); a frame whose drawing ends after its
/// deadline is late, is shown at the next one, and the animation goes on from there (every frame
/// is drawn, so a slow device takes longer). Unpaced (for repeatable instruction counts) it draws
/// the frames back to back and counts no late frames.
struct LaunchAnimation {
    static let frameCount = 24
    static let frameNanoseconds: UInt64 = 16_666_667
    /// How far below their place the keys start, as a fraction of the screen's height.
    static let slideFraction = 0.25

    var renderer: UIRenderer
    let layout: BuiltLayout
    let screen: Screen

    /// What the animation did.
    struct Outcome {
        var canvas: Canvas
        var framesDrawn = 0
        /// `nil` when unpaced.
        var framesLate: Int?
        var pixelsDrawn = 0
    }

    /// The keys' offset in points at frame `index` (0-based): ease-out from ``slideFraction`` of the
    /// screen's height to exactly 0 at the last frame.
    static func offset(frame index: Int, screenHeight: Double) -> Double {
        let t = Double(index + 1) / Double(frameCount)
        let remaining = (1 - t) * (1 - t) * (1 - t)
        return index + 1 >= frameCount ? 0 : screenHeight * slideFraction * remaining
    }

    /// Plays the animation, each frame a `.draw` phase on `recorder`; `paced`: frames wait for their deadlines.
    mutating func play(recorder: PhaseRecorder, paced: Bool) throws -> Outcome {
        var still = Canvas(width: screen.width * screen.scale, height: screen.height * screen.scale, fill: RGBA(0, 0, 0))
        try recorder.phase("still layer", kind: .draw) {
            renderer.drawWindow(on: &still)
            try renderer.drawDisplay(layout, on: &still)
        }
        var outcome = Outcome(canvas: still, pixelsDrawn: still.pixelsDrawn)
        var late = 0
        let start = MonotonicClock.nanoseconds()
        var deadline = start &+ Self.frameNanoseconds
        for index in 0..<Self.frameCount {
            var shifted = layout
            let dy = Self.offset(frame: index, screenHeight: layout.screenHeight)
            for k in shifted.keys.indices { shifted.keys[k].frame.y += dy }
            var frame = still
            try recorder.phase("animation frame", kind: .draw) {
                try renderer.drawKeys(shifted, on: &frame)
            }
            outcome.pixelsDrawn += frame.pixelsDrawn - still.pixelsDrawn
            outcome.canvas = frame
            outcome.framesDrawn += 1
            guard paced else { continue }
            let end = MonotonicClock.nanoseconds()
            if end > deadline {
                late += 1
                // Shown at the next deadline after it was done; the next frame is due one later.
                let periods = (end &- start) / Self.frameNanoseconds + 1
                deadline = start &+ periods * Self.frameNanoseconds
            } else {
                recorder.idle(until: deadline)
            }
            deadline &+= Self.frameNanoseconds
        }
        if paced { outcome.framesLate = late }
        return outcome
    }
}
