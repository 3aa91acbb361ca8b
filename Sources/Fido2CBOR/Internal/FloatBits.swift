/// Conversions between IEEE 754 binary16 bit patterns and wider floats, done on bits so they
/// behave the same on every platform (Swift's `Float16` is not available everywhere).
@usableFromInline
enum FloatBits {
    /// The binary16 bit pattern equal to `value`, or nil when `value` is not exactly
    /// representable in half precision. NaN is not handled here (the encoder writes its own).
    @usableFromInline
    static func halfBits(exactly value: Float) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: (bits >> 16) & 0x8000)
        let exponent = Int((bits >> 23) & 0xff)
        let mantissa = bits & 0x7f_ffff
        if exponent == 0xff { return mantissa == 0 ? sign | 0x7c00 : nil }
        if exponent == 0 { return mantissa == 0 ? sign : nil }
        let unbiased = exponent - 127
        if unbiased > 15 || unbiased < -24 { return nil }
        if unbiased >= -14 {
            guard mantissa & 0x1fff == 0 else { return nil }
            return sign | UInt16(unbiased + 15) << 10 | UInt16(mantissa >> 13)
        }
        // A half-precision subnormal: m * 2^-24 with the implicit bit made explicit.
        let significand = mantissa | 0x80_0000
        let shift = UInt32(-unbiased - 1)
        guard significand & ((1 << shift) - 1) == 0 else { return nil }
        return sign | UInt16(significand >> shift)
    }

    /// The value of a binary16 bit pattern.
    static func double(fromHalf bits: UInt16) -> Double {
        let sign: Double = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1f)
        let mantissa = Double(bits & 0x3ff)
        switch exponent {
        case 0: return sign * mantissa * 0x1p-24
        case 0x1f: return mantissa == 0 ? sign * .infinity : .nan
        default:
            return sign * (1 + mantissa / 1024)
                * Double(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}
