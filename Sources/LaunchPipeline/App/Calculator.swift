/// The built-in app's calculator: digits, the four operations, equals, percent, backspace and clear,
/// with the display as text. Taps during the launch change it, so they change the final frame.
///
/// Operations chain left to right (`2 + 3 × 4 =` gives 20), as a pocket calculator does; dividing
/// by zero shows `Error` until cleared. The display holds at most ``maximumDigits`` digits.
public struct Calculator: Equatable, Sendable {
    public enum Operation: Equatable, Sendable { case add, subtract, multiply, divide }

    public enum Key: Equatable, Sendable {
        case digit(Int)
        case point
        case operation(Operation)
        case equals
        case percent
        case backspace
        case clear
    }

    /// The longest display, in digits.
    public static let maximumDigits = 12

    public private(set) var display: String
    private var accumulator: Double?
    private var pending: Operation?
    private var typing = false

    /// A calculator showing `display` (the theme's display text) until the first key; text that is
    /// not a number counts as 0.
    public init(display: String = "0") {
        self.display = display
    }

    /// The key a theme key stands for: its label (`7`, `÷`, `AC`, `=`…) or icon (`backspace`), or an
    /// ASCII spelling (`/`, `*`, `-`, `C`); `nil` for anything else.
    public static func key(named name: String) -> Key? {
        if name.count == 1, let digit = name.first?.wholeNumberValue, (0...9).contains(digit) { return .digit(digit) }
        switch name {
        case ".", ",": return .point
        case "+": return .operation(.add)
        case "−", "-": return .operation(.subtract)
        case "×", "*", "x": return .operation(.multiply)
        case "÷", "/": return .operation(.divide)
        case "=": return .equals
        case "%": return .percent
        case "backspace", "⌫": return .backspace
        case "AC", "C", "clear": return .clear
        default: return nil
        }
    }

    public mutating func press(_ key: Key) {
        if display == "Error", key != .clear { return }
        if Double(display) == nil, !typing, display != "Error" { display = "0" }
        switch key {
        case .digit(let d):
            if !typing || display == "0" { display = ""; typing = true }
            if display.filter(\.isNumber).count < Self.maximumDigits { display += String(d) }
        case .point:
            if !typing { display = "0"; typing = true }
            if !display.contains(".") { display += "." }
        case .operation(let operation):
            if typing || accumulator == nil { evaluate() }
            pending = operation
            typing = false
        case .equals:
            evaluate()
            pending = nil
            typing = false
        case .percent:
            show(value / 100)
            typing = false
        case .backspace:
            guard typing else { return }
            display.removeLast()
            if display.isEmpty || display == "-" { display = "0"; typing = false }
        case .clear:
            self = Calculator()
        }
    }

    private var value: Double { Double(display) ?? 0 }

    private mutating func evaluate() {
        guard let accumulator, let pending else {
            self.accumulator = value
            return
        }
        let result: Double
        switch pending {
        case .add: result = accumulator + value
        case .subtract: result = accumulator - value
        case .multiply: result = accumulator * value
        case .divide:
            guard value != 0 else { display = "Error"; self.accumulator = nil; self.pending = nil; return }
            result = accumulator / value
        }
        show(result)
        self.accumulator = result
    }

    /// Shows `number`: whole numbers without a point, others in Swift's shortest form, `Error` when
    /// it does not fit.
    private mutating func show(_ number: Double) {
        guard number.isFinite else { display = "Error"; return }
        if number == number.rounded(), abs(number) < 1e12 {
            display = String(Int64(number))
        } else {
            let text = "\(number)"
            display = text.count <= Self.maximumDigits + 2 && !text.contains("e") ? text : "Error"
        }
    }
}
