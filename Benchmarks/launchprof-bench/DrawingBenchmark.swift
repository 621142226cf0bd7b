import Foundation
import LaunchCore
import LaunchImage
import LaunchPipeline

/// The app's drawing (``Canvas``) against pixman on the same operations and the same geometry, on a
/// frame the size of the heavy fixture's (750×1334, 32-bit RGBA, opaque): the key backgrounds the
/// app draws (anti-aliased rounded rectangle with a vertical gradient, its border, its soft shadow),
/// glyph blits (A8 glyph cells scaled bilinearly, composited in a solid colour, as ``GlyphFont``
/// draws them) and compositing a full-frame translucent layer (OVER). The C reference is written to
/// a temporary directory and compiled here (`cc -O2 $(pkg-config --cflags --libs pixman-1)`); it
/// and the Swift side run in alternating batches, each batch giving a median per operation, and
/// each figure is the median of the batches' medians. Goal: ≥ 0.25× pixman's throughput for every
/// key operation (and on their geometric mean).
struct DrawingBenchmark {
    var batches = 7
    var repetitions = 11

    // The geometry, shared with the C program (interpolated into its source).
    static let width = 750, height = 1334
    static let columns = 4, rows = 8
    static let keyWidth = 150, keyHeight = 120, keyRadius = 20
    static let borderWidth = 2
    static let shadowBlur = 6, shadowOffsetY = 4
    /// As ``UIRenderer`` pads a key's tile: three blur radii, the offset, one pixel.
    static let shadowPad = 3 * shadowBlur + shadowOffsetY + 1
    static let glyphsPerKey = 3
    static let cellWidth = 20, cellHeight = 38, atlasColumns = 16, atlasRows = 6
    static let glyphWidth = 21, glyphHeight = 40

    static func keyOrigin(_ k: Int) -> (x: Int, y: Int) { (24 + (k % columns) * 180, 40 + (k / columns) * 156) }
    static var keys: Int { columns * rows }

    enum Operation: String, CaseIterable {
        case fill, border, shadow, shadowFill = "shadow-fill", glyphs, composite

        var label: String {
            switch self {
            case .fill: return "(a) key background: AA rounded rect, vertical gradient"
            case .border: return "(b) key border: AA rounded-rect stroke, 2 px"
            case .shadow: return "(c) key shadow: AA rounded rect, blurred (3 box passes r6), translucent"
            case .shadowFill: return "(c') key shadow's compositing only: its blurred mask prebuilt"
            case .glyphs: return "(d) glyph blits: A8 cells scaled bilinearly, solid colour"
            case .composite: return "(e) compositing: full-frame translucent layer OVER"
            }
        }

        /// Pixels per frame of the operation (the same count both sides: bounding boxes).
        var pixels: Int {
            let keys = DrawingBenchmark.keys
            switch self {
            case .fill, .border: return keys * DrawingBenchmark.keyWidth * DrawingBenchmark.keyHeight
            case .shadow, .shadowFill:
                let pad = DrawingBenchmark.shadowPad
                return keys * (DrawingBenchmark.keyWidth + 2 * pad) * (DrawingBenchmark.keyHeight + 2 * pad)
            case .glyphs: return keys * DrawingBenchmark.glyphsPerKey * DrawingBenchmark.glyphWidth * DrawingBenchmark.glyphHeight
            case .composite: return DrawingBenchmark.width * DrawingBenchmark.height
            }
        }
    }

    func report() {
        let title = "draw: drawing ≥ 0.25× pixman"
        guard Self.shell("pkg-config --exists pixman-1").status == 0 else {
            print("\(title): skipped: pixman not found (pkg-config pixman-1; apt-get install libpixman-1-dev)")
            return
        }
        guard let program = Self.buildReference() else {
            print("\(title): skipped: the C reference did not compile (is there a C compiler?)")
            return
        }
        defer { FileIO.removeTree(FileIO.parentDirectory(of: program)) }
        var app: [Operation: [Double]] = [:], reference: [Operation: [Double]] = [:], prebuilt: [Operation: [Double]] = [:]
        let scene = Scene()
        var canvas = Canvas(width: Self.width, height: Self.height, fill: RGBA(20, 24, 32))
        for _ in 0..<batches {
            guard let c = Self.runReference(program, repetitions: repetitions) else {
                print("\(title): skipped: the C reference failed")
                return
            }
            for (op, ns) in c {
                reference[op, default: []].append(ns.0)
                if let p = ns.1 { prebuilt[op, default: []].append(p) }
            }
            for op in Operation.allCases {
                var times: [Double] = []
                for _ in 0..<repetitions {
                    let start = MonotonicClock.nanoseconds()
                    scene.draw(op, on: &canvas)
                    times.append(Double(MonotonicClock.nanoseconds() - start))
                }
                app[op, default: []].append(Self.median(times))
            }
        }
        print(
            "draw: frame \(Self.width)x\(Self.height), \(Self.keys) keys \(Self.keyWidth)x\(Self.keyHeight) radius \(Self.keyRadius), \(batches) alternating batches of \(repetitions); Mpixel/s, app (Canvas) / pixman \(Self.pixmanVersion())"
        )
        var logSum = 0.0
        var allMet = true
        for op in Operation.allCases {
            let a = Self.median(app[op] ?? []), c = Self.median(reference[op] ?? [])
            let appRate = Double(op.pixels) / a * 1000, cRate = Double(op.pixels) / c * 1000
            // The goal is against pixman's faster way: for shapes, compositing through a mask rasterised beforehand.
            var best = cRate, also = ""
            if let p = prebuilt[op] {
                let pRate = Double(op.pixels) / Self.median(p) * 1000
                best = max(best, pRate)
                also = ", pixman mask prebuilt \(Self.format(pRate))"
            }
            let ratio = appRate / best
            logSum += log(ratio)
            allMet = allMet && ratio >= 0.25
            let pad = String(repeating: " ", count: max(0, 72 - op.label.count))
            print(
                "draw: \(op.label)\(pad) app \(Self.format(appRate)), pixman \(Self.format(cRate))\(also); ratio \(Self.format(ratio))x: \(ratio >= 0.25 ? "met" : "missed")"
            )
        }
        let mean = exp(logSum / Double(Operation.allCases.count))
        print(
            "draw: (pixman on shapes: its trapezoid rasteriser each time, and compositing only through the shape's A8 mask rasterised once; ratios are against the faster)"
        )
        print(
            "\(title): geometric mean of the ratios \(Self.format(mean))x, every operation \(allMet ? ">=" : "not all >=") 0.25x; goal >= 0.25x: \(mean >= 0.25 && allMet ? "met" : "missed")"
        )
        if canvas.width == 0 { print("") }  // Keeps the drawing observable.
    }

    /// The app's side: the same operations with ``Canvas``, as ``UIRenderer`` and ``GlyphFont`` call it.
    struct Scene {
        let gradient = Paint.linear(
            LinearGradient(
                angle: 90,
                stops: [
                    .init(offset: 0, color: RGBA(0x3d, 0x44, 0x50)),
                    .init(offset: 1, color: RGBA(0x2a, 0x2f, 0x38))
                ]))
        let edge = RGBA(0, 0, 0, 0x55)
        let shadow = RGBA(0, 0, 0, 0xa0)
        let label = RGBA(0xf5, 0xf7, 0xfa)
        let atlas: RGBAImage
        let layer: RGBAImage
        let shadowMask: AlphaMask

        init() {
            var atlas = RGBAImage(
                width: DrawingBenchmark.cellWidth * DrawingBenchmark.atlasColumns,
                height: DrawingBenchmark.cellHeight * DrawingBenchmark.atlasRows)
            for y in 0..<atlas.height {
                for x in 0..<atlas.width {
                    atlas[x, y] = RGBA(255, 255, 255, UInt8(DrawingBenchmark.glyphAlpha(x, y)))
                }
            }
            self.atlas = atlas
            var layer = RGBAImage(width: DrawingBenchmark.width, height: DrawingBenchmark.height)
            for y in 0..<layer.height {
                for x in 0..<layer.width {
                    let p = DrawingBenchmark.layerPixel(x, y)
                    layer[x, y] = RGBA(UInt8(p.r), UInt8(p.g), UInt8(p.b), UInt8(p.a))
                }
            }
            self.layer = layer
            shadowMask = Self.shadowMask()
        }

        static func shadowMask() -> AlphaMask {
            let pad = DrawingBenchmark.shadowPad
            var mask = AlphaMask(width: DrawingBenchmark.keyWidth + 2 * pad, height: DrawingBenchmark.keyHeight + 2 * pad)
            mask.addRoundedRect(
                Rect(
                    x: Double(pad), y: Double(pad + DrawingBenchmark.shadowOffsetY),
                    width: Double(DrawingBenchmark.keyWidth), height: Double(DrawingBenchmark.keyHeight)),
                radius: Double(DrawingBenchmark.keyRadius))
            mask.blur(radius: DrawingBenchmark.shadowBlur)
            return mask
        }

        func keyRect(_ k: Int) -> Rect {
            let o = DrawingBenchmark.keyOrigin(k)
            return Rect(x: Double(o.x), y: Double(o.y), width: Double(DrawingBenchmark.keyWidth), height: Double(DrawingBenchmark.keyHeight))
        }

        func draw(_ op: Operation, on canvas: inout Canvas) {
            let radius = Double(DrawingBenchmark.keyRadius)
            switch op {
            case .fill:
                for k in 0..<DrawingBenchmark.keys { canvas.fillRoundedRect(keyRect(k), radius: radius, paint: gradient) }
            case .border:
                for k in 0..<DrawingBenchmark.keys {
                    canvas.strokeRoundedRect(keyRect(k), radius: radius, lineWidth: Double(DrawingBenchmark.borderWidth), color: edge)
                }
            case .shadow:
                let pad = DrawingBenchmark.shadowPad
                for k in 0..<DrawingBenchmark.keys {
                    let o = DrawingBenchmark.keyOrigin(k)
                    let mask = Self.shadowMask()
                    canvas.fillMask(mask.values, maskWidth: mask.width, origin: (o.x - pad, o.y - pad), color: shadow)
                }
            case .shadowFill:
                let pad = DrawingBenchmark.shadowPad
                for k in 0..<DrawingBenchmark.keys {
                    let o = DrawingBenchmark.keyOrigin(k)
                    canvas.fillMask(shadowMask.values, maskWidth: shadowMask.width, origin: (o.x - pad, o.y - pad), color: shadow)
                }
            case .glyphs:
                for k in 0..<DrawingBenchmark.keys {
                    for g in 0..<DrawingBenchmark.glyphsPerKey {
                        let cell = DrawingBenchmark.glyphCell(k, g), at = DrawingBenchmark.glyphOrigin(k, g)
                        let source = Rect(
                            x: Double(cell.x), y: Double(cell.y), width: Double(DrawingBenchmark.cellWidth), height: Double(DrawingBenchmark.cellHeight))
                        canvas.drawImage(
                            atlas, from: source,
                            in: Rect(
                                x: Double(at.x), y: Double(at.y), width: Double(DrawingBenchmark.glyphWidth),
                                height: Double(DrawingBenchmark.glyphHeight)), tint: label)
                    }
                }
            case .composite:
                canvas.blit(layer, at: (0, 0))
            }
        }
    }

    // Shared definitions of the synthetic data (the C program has the same formulas).

    /// Glyph-like alpha: an anti-aliased ring per cell, its size varying with the cell.
    static func glyphAlpha(_ x: Int, _ y: Int) -> Int {
        let cx = x % cellWidth, cy = y % cellHeight, i = (x / cellWidth) + (y / cellHeight) * atlasColumns
        let rx = Double(4 + i % 5), ry = Double(9 + i % 7)
        let dx = (Double(cx) + 0.5 - Double(cellWidth) / 2) / rx, dy = (Double(cy) + 0.5 - Double(cellHeight) / 2) / ry
        let d = abs((dx * dx + dy * dy).squareRoot() - 1) * rx
        return Int(max(0, min(1, 1.8 - d)) * 255)
    }

    static func glyphCell(_ k: Int, _ g: Int) -> (x: Int, y: Int) {
        let i = (k * 3 + g * 5) % (atlasColumns * atlasRows)
        return ((i % atlasColumns) * cellWidth, (i / atlasColumns) * cellHeight)
    }

    static func glyphOrigin(_ k: Int, _ g: Int) -> (x: Int, y: Int) {
        let o = keyOrigin(k)
        return (o.x + (keyWidth - glyphsPerKey * glyphWidth) / 2 + g * glyphWidth, o.y + (keyHeight - glyphHeight) / 2)
    }

    /// A straight-alpha pixel of the translucent layer (alpha 40…199).
    static func layerPixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        (x * 255 / width, y * 255 / height, 128, 40 + (x + y) % 160)
    }

    // MARK: The C reference

    static func cSource() -> String {
        """
        #include <pixman.h>
        #include <math.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>

        enum { W = \(width), H = \(height), COLS = \(columns), ROWS = \(rows), KW = \(keyWidth), KH = \(keyHeight), RADIUS = \(keyRadius),
               BORDER = \(borderWidth), BLUR = \(shadowBlur), SHADOW_Y = \(shadowOffsetY), PAD = \(shadowPad), GLYPHS = \(glyphsPerKey),
               CW = \(cellWidth), CH = \(cellHeight), ACOLS = \(atlasColumns), AROWS = \(atlasRows), GW = \(glyphWidth), GH = \(glyphHeight),
               KEYS = COLS * ROWS, SEG = 8 };

        static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
        static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
        static void key_origin(int k, int *x, int *y) { *x = 24 + (k % COLS) * 180; *y = 40 + (k / COLS) * 156; }

        /* A rounded rectangle's outline: SEG segments per corner, 4 * (SEG + 1) points. */
        static int outline(double x, double y, double w, double h, double r, pixman_point_fixed_t *p) {
            double cx[4] = { x + w - r, x + r, x + r, x + w - r }, cy[4] = { y + h - r, y + h - r, y + r, y + r };
            int n = 0;
            for (int c = 0; c < 4; c++)
                for (int s = 0; s <= SEG; s++) {
                    double a = (c + (double)s / SEG) * M_PI / 2;
                    p[n].x = pixman_double_to_fixed(cx[c] + r * cos(a));
                    p[n].y = pixman_double_to_fixed(cy[c] + r * sin(a));
                    n++;
                }
            return n;
        }

        /* A fan of triangles from the centre (the outline is convex). */
        static int fill_tris(double x, double y, double w, double h, double r, pixman_triangle_t *t) {
            pixman_point_fixed_t p[4 * (SEG + 1)], c = { pixman_double_to_fixed(x + w / 2), pixman_double_to_fixed(y + h / 2) };
            int n = outline(x, y, w, h, r, p);
            for (int i = 0; i < n; i++) { t[i].p1 = c; t[i].p2 = p[i]; t[i].p3 = p[(i + 1) % n]; }
            return n;
        }

        /* The ring between the outline and the outline inset by the line width (an inside stroke). */
        static int ring_tris(double x, double y, double w, double h, double r, double lw, pixman_triangle_t *t) {
            pixman_point_fixed_t o[4 * (SEG + 1)], in[4 * (SEG + 1)];
            int n = outline(x, y, w, h, r, o);
            outline(x + lw, y + lw, w - 2 * lw, h - 2 * lw, r > lw ? r - lw : 0, in);
            for (int i = 0; i < n; i++) {
                int j = (i + 1) % n;
                t[2 * i].p1 = o[i]; t[2 * i].p2 = o[j]; t[2 * i].p3 = in[j];
                t[2 * i + 1].p1 = o[i]; t[2 * i + 1].p2 = in[j]; t[2 * i + 1].p3 = in[i];
            }
            return 2 * n;
        }

        /* One box-blur pass over n values spaced by step (integer sums, rounded). */
        static void box_pass(uint8_t *v, int n, int step, int r, uint8_t *line) {
            for (int i = 0; i < n; i++) line[i] = v[i * step];
            int sum = 0, win = 2 * r + 1;
            for (int i = 0; i <= r && i < n; i++) sum += line[i];
            for (int i = 0; i < n; i++) {
                v[i * step] = (uint8_t)((sum + win / 2) / win);
                if (i - r >= 0) sum -= line[i - r];
                if (i + r + 1 < n) sum += line[i + r + 1];
            }
        }

        static int glyph_alpha(int x, int y) {
            int cx = x % CW, cy = y % CH, i = x / CW + (y / CH) * ACOLS;
            double rx = 4 + i % 5, ry = 9 + i % 7;
            double dx = (cx + 0.5 - CW / 2.0) / rx, dy = (cy + 0.5 - CH / 2.0) / ry;
            double d = fabs(sqrt(dx * dx + dy * dy) - 1) * rx, a = 1.8 - d;
            return (int)((a < 0 ? 0 : a > 1 ? 1 : a) * 255);
        }

        int main(int argc, char **argv) {
            int reps = argc > 1 ? atoi(argv[1]) : 11;
            uint32_t *bits = malloc(W * H * 4);
            for (int i = 0; i < W * H; i++) bits[i] = 0xff201814u;  /* a8b8g8r8: bytes r g b a = 20 24 32 255 */
            pixman_image_t *dst = pixman_image_create_bits(PIXMAN_a8b8g8r8, W, H, bits, W * 4);
            double *t = malloc(sizeof(double) * reps);
            pixman_triangle_t tris[8 * (SEG + 1)];

            /* (a) vertical gradient #3d4450 -> #2a2f38 through the rounded rectangle. */
            pixman_gradient_stop_t stops[2] = { { 0, { 0x3d3d, 0x4444, 0x5050, 0xffff } }, { pixman_double_to_fixed(1), { 0x2a2a, 0x2f2f, 0x3838, 0xffff } } };
            pixman_image_t *gradients[KEYS];
            for (int k = 0; k < KEYS; k++) {
                int x, y; key_origin(k, &x, &y);
                pixman_point_fixed_t p1 = { pixman_int_to_fixed(x), pixman_int_to_fixed(y) }, p2 = { pixman_int_to_fixed(x), pixman_int_to_fixed(y + KH) };
                gradients[k] = pixman_image_create_linear_gradient(&p1, &p2, stops, 2);
            }
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    int n = fill_tris(x, y, KW, KH, RADIUS, tris);
                    pixman_composite_triangles(PIXMAN_OP_OVER, gradients[k], dst, PIXMAN_a8, 0, 0, 0, 0, n, tris);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); double raster = t[reps / 2];
            /* The same, through the shape's A8 mask rasterised once (compositing only). */
            enum { KSTRIDE = (KW + 3) & ~3 };
            uint8_t *fbits = calloc(KSTRIDE * KH, 1), *rbits = calloc(KSTRIDE * KH, 1);
            pixman_image_t *fill_mask = pixman_image_create_bits(PIXMAN_a8, KW, KH, (uint32_t *)fbits, KSTRIDE);
            pixman_image_t *ring_mask = pixman_image_create_bits(PIXMAN_a8, KW, KH, (uint32_t *)rbits, KSTRIDE);
            pixman_add_triangles(fill_mask, 0, 0, fill_tris(0, 0, KW, KH, RADIUS, tris), tris);
            pixman_add_triangles(ring_mask, 0, 0, ring_tris(0, 0, KW, KH, RADIUS, BORDER, tris), tris);
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    pixman_image_composite32(PIXMAN_OP_OVER, gradients[k], fill_mask, dst, x, y, 0, 0, x, y, KW, KH);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("fill %.0f %.0f\\n", raster, t[reps / 2]);

            /* (b) border #00000055, 2 px inside. */
            pixman_color_t edge_color = { 0, 0, 0, 0x5555 };
            pixman_image_t *edge = pixman_image_create_solid_fill(&edge_color);
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    int n = ring_tris(x, y, KW, KH, RADIUS, BORDER, tris);
                    pixman_composite_triangles(PIXMAN_OP_OVER, edge, dst, PIXMAN_a8, 0, 0, 0, 0, n, tris);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); raster = t[reps / 2];
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    pixman_image_composite32(PIXMAN_OP_OVER, edge, ring_mask, dst, 0, 0, 0, 0, x, y, KW, KH);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("border %.0f %.0f\\n", raster, t[reps / 2]);

            /* (c) shadow #000000a0: the shape rasterised to A8, blurred (3 box passes each way), composited. */
            enum { MW = KW + 2 * PAD, MH = KH + 2 * PAD, MSTRIDE = (MW + 3) & ~3 };
            uint8_t *mbits = malloc(MSTRIDE * MH), line[MW > MH ? MW : MH];
            pixman_image_t *mask = pixman_image_create_bits(PIXMAN_a8, MW, MH, (uint32_t *)mbits, MSTRIDE);
            pixman_color_t shadow_color = { 0, 0, 0, 0xa0a0 };
            pixman_image_t *shadow = pixman_image_create_solid_fill(&shadow_color);
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    memset(mbits, 0, MSTRIDE * MH);
                    int n = fill_tris(PAD, PAD + SHADOW_Y, KW, KH, RADIUS, tris);
                    pixman_add_triangles(mask, 0, 0, n, tris);
                    for (int pass = 0; pass < 3; pass++) {
                        for (int row = 0; row < MH; row++) box_pass(mbits + row * MSTRIDE, MW, 1, BLUR, line);
                        for (int col = 0; col < MW; col++) box_pass(mbits + col, MH, MSTRIDE, BLUR, line);
                    }
                    pixman_image_composite32(PIXMAN_OP_OVER, shadow, mask, dst, 0, 0, 0, 0, x - PAD, y - PAD, MW, MH);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("shadow %.0f\\n", t[reps / 2]);
            /* (c') the last blurred mask, composited only. */
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    pixman_image_composite32(PIXMAN_OP_OVER, shadow, mask, dst, 0, 0, 0, 0, x - PAD, y - PAD, MW, MH);
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("shadow-fill %.0f\\n", t[reps / 2]);

            /* (d) glyphs: A8 atlas cells scaled bilinearly (cell CW x CH to GW x GH), solid #f5f7fa. */
            enum { AW = CW * ACOLS, AH = CH * AROWS, ASTRIDE = (AW + 3) & ~3 };
            uint8_t *abits = calloc(ASTRIDE * AH, 1);
            for (int y = 0; y < AH; y++) for (int x = 0; x < AW; x++) abits[y * ASTRIDE + x] = (uint8_t)glyph_alpha(x, y);
            pixman_image_t *atlas = pixman_image_create_bits(PIXMAN_a8, AW, AH, (uint32_t *)abits, ASTRIDE);
            pixman_image_set_filter(atlas, PIXMAN_FILTER_BILINEAR, NULL, 0);
            pixman_color_t label_color = { 0xf5f5, 0xf7f7, 0xfafa, 0xffff };
            pixman_image_t *label = pixman_image_create_solid_fill(&label_color);
            for (int r = 0; r < reps; r++) {
                double start = now();
                for (int k = 0; k < KEYS; k++) {
                    int x, y; key_origin(k, &x, &y);
                    for (int g = 0; g < GLYPHS; g++) {
                        int i = (k * 3 + g * 5) % (ACOLS * AROWS);
                        pixman_transform_t m = { { { pixman_double_to_fixed((double)CW / GW), 0, pixman_int_to_fixed((i % ACOLS) * CW) },
                                                   { 0, pixman_double_to_fixed((double)CH / GH), pixman_int_to_fixed((i / ACOLS) * CH) },
                                                   { 0, 0, pixman_fixed_1 } } };
                        pixman_image_set_transform(atlas, &m);
                        int gx = x + (KW - GLYPHS * GW) / 2 + g * GW, gy = y + (KH - GH) / 2;
                        pixman_image_composite32(PIXMAN_OP_OVER, label, atlas, dst, 0, 0, 0, 0, gx, gy, GW, GH);
                    }
                }
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("glyphs %.0f\\n", t[reps / 2]);

            /* (e) a full-frame translucent layer (premultiplied) OVER the frame. */
            uint32_t *lbits = malloc(W * H * 4);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int a = 40 + (x + y) % 160, rr = x * 255 / W, gg = y * 255 / H, bb = 128;
                    #define PM(c) ((uint32_t)((c * a + 127) / 255))
                    lbits[y * W + x] = (uint32_t)a << 24 | PM(bb) << 16 | PM(gg) << 8 | PM(rr);
                }
            pixman_image_t *layer = pixman_image_create_bits(PIXMAN_a8b8g8r8, W, H, lbits, W * 4);
            for (int r = 0; r < reps; r++) {
                double start = now();
                pixman_image_composite32(PIXMAN_OP_OVER, layer, NULL, dst, 0, 0, 0, 0, 0, 0, W, H);
                t[r] = now() - start;
            }
            qsort(t, reps, sizeof(double), cmp); printf("composite %.0f\\n", t[reps / 2]);
            uint32_t sum = 0;
            for (int i = 0; i < W * H; i++) sum += bits[i];
            fprintf(stderr, "checksum %u\\n", sum);
            return 0;
        }
        """
    }

    /// Writes and compiles the C reference; its path, or `nil`.
    static func buildReference() -> String? {
        let dir = NSTemporaryDirectory() + "launchprof-draw-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let source = dir + "/draw.c", binary = dir + "/draw"
        guard FileManager.default.createFile(atPath: source, contents: Data(cSource().utf8)) else { return nil }
        let result = shell("${CC:-cc} -O2 '\(source)' -o '\(binary)' $(pkg-config --cflags --libs pixman-1) -lm")
        guard result.status == 0 else {
            print("draw: cc failed: \(result.output.prefix(2000))")
            return nil
        }
        return binary
    }

    /// One run of the C reference: median nanoseconds per operation.
    static func runReference(_ binary: String, repetitions: Int) -> [Operation: (Double, Double?)]? {
        let result = shell("'\(binary)' \(repetitions) 2>/dev/null")
        guard result.status == 0 else { return nil }
        var times: [Operation: (Double, Double?)] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let op = Operation(rawValue: String(parts[0])), let ns = Double(parts[1]) {
                times[op] = (ns, parts.count > 2 ? Double(parts[2]) : nil)
            }
        }
        return times.count == Operation.allCases.count ? times : nil
    }

    static func pixmanVersion() -> String {
        let v = shell("pkg-config --modversion pixman-1").output.trimmingCharacters(in: .whitespacesAndNewlines)
        return v.isEmpty ? "" : v
    }

    static func shell(_ command: String) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }

    static func format(_ value: Double) -> String {
        let scaled = (value * 10).rounded() / 10
        return String(scaled)
    }
}
