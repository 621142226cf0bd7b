/// The documented exit codes.
enum ExitStatus {
    static let success: Int32 = 0
    /// A launch regression or blown budget was found.
    static let regression: Int32 = 1
    /// Bad usage or bad input (a missing, unreadable or malformed file).
    static let inputError: Int32 = 2
}
