#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchRunner
import LaunchTiers

/// This machine, as ``DoctorSystem`` reads it.
public struct LiveSystem: DoctorSystem {
    public init() {}

    public func read(_ path: String) -> String? {
        // /proc and /sys files report a size of 0 or 4096: read up to 64 KiB whatever they say.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    public func entries(of directory: String) -> [String] { FileIO.entries(of: directory) }

    public func executable(_ name: String) -> String? { ExecutableSearch.find(name) }

    public var cores: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    public var ticksPerSecond: Double { Double(max(sysconf(Int32(_SC_CLK_TCK)), 1)) }

    public func pause(_ seconds: Double) { usleep(useconds_t(max(0, seconds) * 1_000_000)) }

    public func processes() -> [ProcessSample] {
        let own = getpid()
        return FileIO.entries(of: "/proc").compactMap { Int32($0) }.filter { $0 != own }.prefix(10_000).compactMap { pid in
            read("/proc/\(pid)/stat").flatMap(ProcessSample.parse(stat:))
        }
    }

    public func clockReadings(count: Int, seconds: Double) -> [Double] {
        let start = MonotonicClock.nanoseconds()
        var readings: [Double] = []
        for i in 0..<max(1, count) {
            if i > 0 { MonotonicClock.sleep(until: start + UInt64(Double(i) * seconds / Double(max(1, count - 1)) * 1e9)) }
            if let gigahertz = HostClock.gigahertz(tries: 8) { readings.append(gigahertz) }
        }
        return readings
    }

    public func calibrationClock() -> (gigahertz: Double, made: String)? {
        var environment: [String: String] = [:]
        for name in ["XDG_CACHE_HOME", "HOME"] { if let value = getenv(name) { environment[name] = String(cString: value) } }
        guard let cache = CalibrationCache(environment: environment),
            case .found(let calibration) = cache.load(for: HostFingerprint(host: HostInfo.current())),
            let clock = calibration.reference.clockGigahertz ?? calibration.clockRange?.fastest
        else { return nil }
        return (clock, calibration.made)
    }

    public func throttleProbe() -> (mechanism: String, usesCgroup: Bool, fallback: String?) {
        do {
            let probe = try RunThrottle.make(ThrottleSpec(cpuFactor: 2, memoryLimit: nil))
            defer { _ = probe.finish() }
            return (probe.mechanism.rawValue, probe.mechanism.usesCgroup, probe.fallbackReason)
        } catch {
            return (ThrottleMechanism.signals.rawValue, false, error.description)
        }
    }

    public func pageCacheEvictionWorks() -> Bool? {
        let directory = FileIO.temporaryDirectory
        var template = Array("\(directory)/launchprof-doctor-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return nil }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer {
            close(fd)
            unlink(path)
        }
        let size = 1 << 20
        let chunk = [UInt8](repeating: 0x5A, count: size)
        guard chunk.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) == size, fsync(fd) == 0 else { return nil }
        var sink = [UInt8](repeating: 0, count: size)
        guard pread(fd, &sink, size, 0) == size else { return nil }
        guard posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 else { return false }
        guard let map = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, size) }
        let pages = (size + Int(getpagesize()) - 1) / Int(getpagesize())
        var resident = [UInt8](repeating: 0, count: pages)
        guard mincore(map, size, &resident) == 0 else { return nil }
        // Eviction is best effort: a page or two may be read back by readahead; most must be gone.
        return resident.filter { $0 & 1 != 0 }.count <= pages / 10
    }
}
