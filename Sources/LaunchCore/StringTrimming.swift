extension StringProtocol {
    /// The string without leading and trailing characters from `set` (`" \t\n"`): Foundation's
    /// `trimmingCharacters(in:)` for a set written as a string, without Foundation.
    public func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
