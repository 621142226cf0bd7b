import Testing
@testable import LaunchPipeline

@Suite struct CalculatorTests {
    func typed(_ keys: [String], from display: String = "0") -> String {
        var calculator = Calculator(display: display)
        for name in keys { calculator.press(Calculator.key(named: name)!) }
        return calculator.display
    }

    @Test func arithmeticChainsLeftToRight() {
        #expect(typed(["7", "×", "6", "="]) == "42")
        #expect(typed(["2", "+", "3", "×", "4", "="]) == "20")
        #expect(typed(["1", "0", "÷", "4", "="]) == "2.5")
        #expect(typed(["5", "−", "8", "="]) == "-3")
        #expect(typed(["1", ".", "5", "+", ".", "5", "="]) == "2")
        #expect(typed(["5", "0", "%"]) == "0.5")
    }

    @Test func editingAndClearing() {
        #expect(typed(["1", "2", "3", "backspace"]) == "12")
        #expect(typed(["1", "backspace"]) == "0")
        #expect(typed(["9", "+", "1", "AC"]) == "0")
        #expect(typed(["7"], from: "1234.5") == "7")  // The theme's display is replaced by typing.
        #expect(Calculator(display: "Hello").display == "Hello")  // Shown until the first key,
        #expect(typed(["+", "2", "="], from: "Hello") == "2")  // where it counts as 0.
    }

    @Test func errorsAndLimits() {
        #expect(typed(["1", "÷", "0", "="]) == "Error")
        #expect(typed(["1", "÷", "0", "=", "5"]) == "Error")  // Until cleared.
        #expect(typed(["1", "÷", "0", "=", "AC", "5"]) == "5")
        #expect(typed(Array(repeating: "9", count: 20)) == String(repeating: "9", count: Calculator.maximumDigits))
        #expect(typed(Array(repeating: "9", count: 12) + ["×"] + Array(repeating: "9", count: 12) + ["="]) == "Error")
    }

    @Test func keyNames() {
        #expect(Calculator.key(named: "/") == .operation(.divide))
        #expect(Calculator.key(named: "*") == .operation(.multiply))
        #expect(Calculator.key(named: "-") == .operation(.subtract))
        #expect(Calculator.key(named: "Q") == nil)
        #expect(Calculator.key(named: "77") == nil)
    }
}
