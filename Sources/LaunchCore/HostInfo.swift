#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine a result was measured on.
public struct HostInfo: Codable, Equatable, Sendable {
    public var cpuModel: String
    public var cores: Int
    /// Operating system name and release, e.g. `Linux 6.1.0`.
    public var os: String
    public var architecture: String
    /// The Swift compiler launchprof was built with.
    public var swiftVersion: String
    public var hostname: String

    public init(cpuModel: String, cores: Int, os: String, architecture: String, swiftVersion: String, hostname: String) {
        self.cpuModel = cpuModel
        self.cores = cores
        self.os = os
        self.architecture = architecture
        self.swiftVersion = swiftVersion
        self.hostname = hostname
    }

    /// Probes the current machine (uname, sysconf and `/proc/cpuinfo`).
    public static func current() -> HostInfo {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: inout T) -> String {
            withUnsafePointer(to: &value) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout<T>.size) { String(cString: $0) }
            }
        }
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return HostInfo(
            cpuModel: cpuModelName() ?? field(&names.machine),
            cores: max(cores, 1),
            os: "\(field(&names.sysname)) \(field(&names.release))",
            architecture: field(&names.machine),
            swiftVersion: compilerVersion,
            hostname: field(&names.nodename))
    }

    private static func cpuModelName() -> String? {
        guard let file = fopen("/proc/cpuinfo", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            if text.hasPrefix("model name") || text.hasPrefix("Model") || text.hasPrefix("cpu model") {
                if let colon = text.firstIndex(of: ":") {
                    let value = text[text.index(after: colon)...].trimmingCharacters(in: " \t\n")
                    if !value.isEmpty { return value }
                }
            }
        }
        return nil
    }

    private static var compilerVersion: String {
        #if compiler(>=6.4)
        return "6.4+"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }
}
