/// A JSON number kept as its literal text, so integers of any size round-trip exactly and
/// nothing is lost to binary floating point until a caller asks for a `Double`.
///
/// Two numbers are equal when their texts are equal: `1`, `1.0` and `1e0` are three different
/// literals.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The literal, which always matches the RFC 8259 number grammar.
    public let text: String

    /// Wraps text the reader has already checked against the grammar.
    init(validatedText: String) {
        self.text = validatedText
    }

    /// The number written as `text`, or nil when `text` is not an RFC 8259 number literal
    /// (no leading `+`, no leading zeros, digits on both sides of `.`, no `NaN`/`Infinity`).
    public init?(_ text: String) {
        var utf8 = text
        let valid = utf8.withUTF8 { buffer -> Bool in
            if case .success(let end) = JSONNumber.scan(buffer, from: 0) {
                return end == buffer.count
            }
            return false
        }
        guard valid else { return nil }
        self.text = text
    }

    /// The integer `value`.
    public init(_ value: Int64) {
        self.text = String(value)
    }

    /// The integer `value`.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// The integer `value`.
    public init(_ value: UInt64) {
        self.text = String(value)
    }

    /// The integer literal `value`.
    public init(integerLiteral value: Int64) {
        self.init(value)
    }

    /// `value` written as JavaScript's `Number.prototype.toString` writes it (the shortest digits
    /// that read back to the same `Double`; `1e21` and above and below `1e-6` in exponent form;
    /// `-0` as `0`), or nil when `value` is infinite or NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = JSONNumber.javaScriptText(of: value)
    }

    /// Whether the literal is an integer (no fraction and no exponent).
    public var isInteger: Bool {
        !text.utf8.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
    }

    /// The value as an `Int64` when the literal is an integer (no fraction, no exponent) within
    /// `Int64`'s range; nil otherwise, never a rounded or clamped value.
    public var int64Value: Int64? {
        var text = text
        return text.withUTF8 { digits -> Int64? in
            var index = 0
            let negative = digits.first == UInt8(ascii: "-")
            if negative { index = 1 }
            guard index < digits.count else { return nil }
            var result: Int64 = 0
            while index < digits.count {
                let digit = digits[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (shifted, overflow) = result.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                // Accumulate toward the sign so Int64.min is reachable.
                let (next, overflow2) =
                    negative
                    ? shifted.subtractingReportingOverflow(Int64(digit))
                    : shifted.addingReportingOverflow(Int64(digit))
                guard !overflow2 else { return nil }
                result = next
                index += 1
            }
            return result
        }
    }

    /// The value as an `Int` when ``int64Value`` fits one.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The value as the nearest `Double`, or nil when it is beyond `Double`'s range (which would
    /// read as infinity).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The literal text.
    public var description: String { text }

    // MARK: - Grammar

    /// Where a number literal starting at `start` ends, or why it is not one:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func scan(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int
    )
        -> Result<Int, Fido2EncodingError>
    {
        let count = input.count
        var position = start
        func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        func digitRequired(_ what: String) -> Result<Int, Fido2EncodingError> {
            if position >= count {
                return .failure(
                    Fido2EncodingError(.truncated, "input ends inside a number", offset: count))
            }
            return .failure(
                Fido2EncodingError(
                    .invalidNumber, "a number needs a digit \(what)", offset: position))
        }
        if position < count, input[position] == UInt8(ascii: "-") { position += 1 }
        guard position < count, isDigit(input[position]) else {
            return digitRequired("to start its integer part")
        }
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(input[position]) {
                return .failure(
                    Fido2EncodingError(
                        .leadingZero, "a number may not have a leading zero", offset: position - 1))
            }
        } else {
            while position < count, isDigit(input[position]) { position += 1 }
        }
        if position < count, input[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, isDigit(input[position]) else {
                return digitRequired("after its decimal point")
            }
            while position < count, isDigit(input[position]) { position += 1 }
        }
        if position < count, input[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < count,
                input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-")
            {
                position += 1
            }
            guard position < count, isDigit(input[position]) else {
                return digitRequired("in its exponent")
            }
            while position < count, isDigit(input[position]) { position += 1 }
        }
        return .success(position)
    }

    // MARK: - JavaScript number formatting

    /// ECMAScript Number::toString(10) for a finite double, built on Swift's shortest
    /// round-trip digits.
    static func javaScriptText(of value: Double) -> String {
        if value == 0 { return "0" }
        // Swift prints the shortest digits that round-trip, e.g. "1.5e-07" or "123.0".
        let printed = Array(value.magnitude.description.utf8)
        var mantissa = printed[...]
        var exponent = 0
        if let e = printed.firstIndex(of: UInt8(ascii: "e")) {
            mantissa = printed[..<e]
            var sign = 1
            var index = e + 1
            if index < printed.count, printed[index] == UInt8(ascii: "-") {
                sign = -1
                index += 1
            } else if index < printed.count, printed[index] == UInt8(ascii: "+") {
                index += 1
            }
            var magnitude = 0
            while index < printed.count {
                magnitude = magnitude * 10 + Int(printed[index] - UInt8(ascii: "0"))
                index += 1
            }
            exponent = sign * magnitude
        }
        // value = 0.d1d2…dk × 10^n, digits without leading or trailing zeros.
        var digits: [UInt8] = []
        var pointPosition = mantissa.count
        for (offset, byte) in mantissa.enumerated() {
            if byte == UInt8(ascii: ".") {
                pointPosition = offset
            } else {
                digits.append(byte)
            }
        }
        var n = pointPosition + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        let k = digits.count
        var out: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        let zero = UInt8(ascii: "0")
        if k <= n, n <= 21 {
            out += digits
            out += repeatElement(zero, count: n - k)
        } else if 0 < n, n <= 21 {
            out += digits[..<n]
            out.append(UInt8(ascii: "."))
            out += digits[n...]
        } else if -6 < n, n <= 0 {
            out += [zero, UInt8(ascii: ".")]
            out += repeatElement(zero, count: -n)
            out += digits
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out += digits[1...]
            }
            out.append(UInt8(ascii: "e"))
            out.append(n - 1 >= 0 ? UInt8(ascii: "+") : UInt8(ascii: "-"))
            out += Array(String((n - 1).magnitude).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
