/// Builds ``CBORValue`` trees from input that ``CBORValidator`` has already accepted, so it only
/// has to follow heads; it still checks every bound it relies on and never traps on bad input.
struct CBORValueBuilder {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset: Int

    mutating func value() throws(CBORError) -> CBORValue {
        let start = offset
        let head = try CBORHead.decode(buffer, at: offset)
        offset = head.contentStart
        switch head.majorType {
        case 0: return .unsigned(head.argument)
        case 1: return .negative(head.argument)
        case 2: return .byteString(try stringBytes(head, at: start))
        case 3:
            let utf8 = try stringBytes(head, at: start)
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw CBORError(.invalidUTF8, at: start)
            }
            return .textString(text)
        case 4:
            var elements: [CBORValue] = []
            if head.isIndefinite {
                while try !atBreak() { elements.append(try value()) }
                offset &+= 1
            } else {
                try checkCount(head.argument, perItem: 1, at: start)
                elements.reserveCapacity(Int(head.argument))
                for _ in 0..<head.argument { elements.append(try value()) }
            }
            return .array(elements)
        case 5:
            var entries: [CBORMap.Entry] = []
            if head.isIndefinite {
                while try !atBreak() {
                    let key = try value()
                    entries.append(CBORMap.Entry(key: key, value: try value()))
                }
                offset &+= 1
            } else {
                try checkCount(head.argument, perItem: 2, at: start)
                entries.reserveCapacity(Int(head.argument))
                for _ in 0..<head.argument {
                    let key = try value()
                    entries.append(CBORMap.Entry(key: key, value: try value()))
                }
            }
            return .map(CBORMap(entries))
        case 6:
            return .tagged(head.argument, try value())
        default:
            switch head.additionalInfo {
            case 20: return .boolean(false)
            case 21: return .boolean(true)
            case 22: return .null
            case 23: return .undefined
            case 25, 26, 27: return .float(CBORReader.floatValue(head))
            default:
                guard let simple = CBORSimpleValue(UInt8(truncatingIfNeeded: head.argument)) else {
                    throw CBORError(.invalidSimpleValue, at: start)
                }
                return .simple(simple)
            }
        }
    }

    private func atBreak() throws(CBORError) -> Bool {
        guard offset < buffer.count else { throw CBORError(.truncated, at: offset) }
        return buffer[offset] == 0xff
    }

    private func checkCount(_ count: UInt64, perItem: UInt64, at start: Int) throws(CBORError) {
        guard count <= UInt64(buffer.count &- offset) / perItem else {
            throw CBORError(.lengthExceedsInput, at: start)
        }
    }

    /// The content of a definite string, or the joined chunks of an indefinite one.
    private mutating func stringBytes(_ head: CBORHead, at start: Int) throws(CBORError) -> [UInt8]
    {
        if !head.isIndefinite {
            guard head.argument <= UInt64(buffer.count &- offset) else {
                throw CBORError(.lengthExceedsInput, at: start)
            }
            let end = offset &+ Int(head.argument)
            defer { offset = end }
            return Array(buffer[offset..<end])
        }
        var joined: [UInt8] = []
        while try !atBreak() {
            let chunkStart = offset
            let chunk = try CBORHead.decode(buffer, at: offset)
            guard chunk.majorType == head.majorType, !chunk.isIndefinite,
                chunk.argument <= UInt64(buffer.count &- chunk.contentStart)
            else { throw CBORError(.invalidIndefiniteChunk, at: chunkStart) }
            let end = chunk.contentStart &+ Int(chunk.argument)
            // Each chunk of a text string is a text string: a code point may not be split
            // across chunks (RFC 8949 §3.2.3), so each must be UTF-8 on its own.
            if head.majorType == 3 && !UTF8Validation.isValid(buffer, chunk.contentStart..<end) {
                throw CBORError(.invalidUTF8, at: chunkStart)
            }
            joined.append(contentsOf: buffer[chunk.contentStart..<end])
            offset = end
        }
        offset &+= 1
        return joined
    }
}
