import Fido2CBOR

/// Reads items back through ``CBORReader``'s typed reads (`readUnsigned`, `readInt`,
/// `readByteString`, `readArrayHeader`, …) into a ``CBORValue``, so a fuzz target can check that
/// the typed path and ``CBORReader/readValue()`` see the same item and stop at the same byte.
public enum CBORTypedWalk {
    /// Reads the next item with the typed reads, and checks that the result and where it ends
    /// agree with ``CBORReader/readValue()`` and ``CBORReader/skipItem()``. The check is made
    /// once per top-level item (structural equality covers everything nested), so the walk
    /// stays linear in the input. Returns nil when the item cannot be read as a value (a text
    /// string that is not UTF-8, in lenient mode), which `readValue` must then refuse too.
    public static func value(_ reader: inout CBORReader) -> CBORValue? {
        var skipped = reader
        do {
            try skipped.skipItem()
        } catch {
            FuzzCheck.fail("skipItem failed at \(reader.offset) on validated input: \(error)")
        }
        var generic = reader
        let expected = try? generic.readValue()
        let value = typedValue(&reader)
        FuzzCheck.require(
            (value == nil) == (expected == nil),
            "typed read gives \(String(describing: value)), readValue \(String(describing: expected))"
        )
        guard let value else {
            reader = skipped
            return nil
        }
        FuzzCheck.require(
            reader.offset == skipped.offset && generic.offset == skipped.offset,
            "items end at \(reader.offset) (typed), \(generic.offset) (readValue), \(skipped.offset) (skipItem)"
        )
        FuzzCheck.require(
            value == expected, "typed read \(value) ≠ readValue \(String(describing: expected))")
        return value
    }

    private static func typedValue(_ reader: inout CBORReader) -> CBORValue? {
        guard let type = try? reader.peekMajorType() else { return nil }
        let initial = reader.input[reader.input.startIndex + reader.offset]
        switch type {
        case .unsigned:
            var again = reader
            guard let number = try? reader.readUnsigned() else { return nil }
            let asInt = try? again.readInt()
            FuzzCheck.require(
                asInt.map { UInt64($0) == number } ?? (number > UInt64(Int64.max)),
                "readInt disagrees with readUnsigned for \(number)")
            return .unsigned(number)
        case .negative:
            if let number = try? reader.readInt() { return CBORValue(number) }
            // Below Int64.min: only readValue can hold it.
            return try? reader.readValue()
        case .byteString:
            return (try? reader.readByteString()).map { .byteString(Array($0)) }
        case .textString:
            var probe = reader
            let matchesFmt = probe.readTextString(ifEqualTo: "fmt")
            guard let text = try? reader.readTextString() else {
                // Invalid UTF-8 (lenient mode): readValue must refuse it too.
                return nil
            }
            FuzzCheck.require(
                matchesFmt == (text == "fmt") || initial & 0x1f == 31,
                "readTextString(ifEqualTo: \"fmt\") says \(matchesFmt) for \"\(text)\"")
            if matchesFmt {
                FuzzCheck.require(probe.offset == reader.offset, "fmt match ends elsewhere")
            }
            return .textString(text)
        case .array:
            guard initial & 0x1f != 31 else { return try? reader.readValue() }
            guard let count = try? reader.readArrayHeader() else { return nil }
            var elements: [CBORValue] = []
            for _ in 0..<count {
                guard let element = typedValue(&reader) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case .map:
            guard initial & 0x1f != 31 else { return try? reader.readValue() }
            guard let count = try? reader.readMapHeader() else { return nil }
            var entries: [CBORMap.Entry] = []
            for _ in 0..<count {
                guard let key = typedValue(&reader), let entry = typedValue(&reader) else {
                    return nil
                }
                entries.append(CBORMap.Entry(key: key, value: entry))
            }
            return .map(CBORMap(entries))
        case .tag:
            guard let tag = try? reader.readTag(), let content = typedValue(&reader) else {
                return nil
            }
            return .tagged(tag, content)
        case .simpleOrFloat:
            switch initial {
            case 0xf4, 0xf5: return (try? reader.readBool()).map { .boolean($0) }
            case 0xf6: return (try? reader.readNull()).map { .null }
            case 0xf9, 0xfa, 0xfb: return (try? reader.readFloat()).map { .float($0) }
            default:
                var probe = reader
                FuzzCheck.require((try? probe.readBool()) == nil, "readBool accepted \(initial)")
                return try? reader.readValue()
            }
        }
    }
}
