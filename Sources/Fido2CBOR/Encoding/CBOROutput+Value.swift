extension CBOROutput {
    /// Writes `value` deterministically: preferred serialization, definite lengths, and every
    /// map's entries sorted into CTAP2 canonical key order (RFC 8949 §4.2.1 for integer and
    /// string keys). A map that holds the same key twice is written with both entries.
    public mutating func writeValue(_ value: CBORValue) {
        switch value {
        case .unsigned(let number): writeUnsigned(number)
        case .negative(let number): writeNegative(number)
        case .byteString(let content): writeByteString(content)
        case .textString(let text): writeTextString(text)
        case .array(let elements):
            writeArrayHeader(count: elements.count)
            for element in elements { writeValue(element) }
        case .map(let map): writeCanonicalMap(map)
        case .tagged(let tag, let content):
            writeTag(tag)
            writeValue(content)
        case .simple(let simple): writeSimple(simple)
        case .boolean(let flag): writeBool(flag)
        case .null: writeNull()
        case .undefined: writeUndefined()
        case .float(let number): writeFloat(number)
        }
    }

    /// Writes `map` with its entries sorted into CTAP2 canonical key order.
    ///
    /// Each entry is encoded once into a scratch buffer, then copied out in key order; when the
    /// entries are already in order the sort does no work.
    public mutating func writeCanonicalMap(_ map: CBORMap) {
        writeMapHeader(count: map.count)
        guard map.count > 1 else {
            for entry in map.entries {
                writeValue(entry.key)
                writeValue(entry.value)
            }
            return
        }
        var scratch = CBORWriter()
        var spans: [(key: Range<Int>, entryEnd: Int)] = []
        spans.reserveCapacity(map.count)
        for entry in map.entries {
            let start = scratch.bytes.count
            scratch.writeValue(entry.key)
            let keyEnd = scratch.bytes.count
            scratch.writeValue(entry.value)
            spans.append((start..<keyEnd, scratch.bytes.count))
        }
        scratch.bytes.withUnsafeBytes { encoded in
            let order = spans.indices.sorted { left, right in
                let comparison = CBORKeyOrder.compare(
                    UnsafeRawBufferPointer(rebasing: encoded[spans[left].key]),
                    UnsafeRawBufferPointer(rebasing: encoded[spans[right].key]))
                return comparison < 0 || (comparison == 0 && left < right)
            }
            for index in order {
                let span = spans[index]
                writeRawBytes(
                    UnsafeRawBufferPointer(rebasing: encoded[span.key.lowerBound..<span.entryEnd]))
            }
        }
    }
}

extension CBORValue {
    /// The deterministic encoding of the value (see ``CBOROutput/writeValue(_:)``).
    public func encoded() -> [UInt8] {
        var writer = CBORWriter()
        writer.writeValue(self)
        return writer.bytes
    }
}
