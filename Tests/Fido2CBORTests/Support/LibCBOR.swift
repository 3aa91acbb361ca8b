import CLibCBOR
import Fido2CBOR

#if canImport(Glibc)
import Glibc
#endif

/// A bridge to libcbor, the differential oracle: it decodes bytes into ``CBORValue`` the way
/// libcbor sees them, and encodes ``CBORValue`` with libcbor's own serializer.
///
/// libcbor 0.8 (Debian 12) rejects three kinds of item that RFC 8949 calls well-formed: simple
/// values 0-19 (`e0`-`f3`), every two-byte simple value (`f8 xx`), and tags 6-20 in their
/// one-byte form (`c6`-`d4`). ``canRepresent(_:)`` names them so the differential tests leave
/// exactly those out and compare everything else.
enum LibCBOR {
    /// Whether libcbor 0.8 can decode every part of `value` (see the type's note).
    static func canRepresent(_ value: CBORValue) -> Bool {
        switch value {
        case .simple: return false
        case .tagged(let tag, let content): return !(6...20).contains(tag) && canRepresent(content)
        case .array(let elements): return elements.allSatisfy(canRepresent)
        case .map(let map):
            return map.entries.allSatisfy { canRepresent($0.key) && canRepresent($0.value) }
        default: return true
        }
    }

    /// libcbor's reading of `bytes`, or nil when libcbor reports an error or leftover bytes.
    static func decode(_ bytes: [UInt8]) -> CBORValue? {
        var result = cbor_load_result()
        let loaded = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard loaded != nil else { return nil }
        var item = loaded
        defer { cbor_decref(&item) }
        guard let item, result.error.code == CBOR_ERR_NONE, result.read == bytes.count else {
            return nil
        }
        return value(of: item)
    }

    /// Whether libcbor accepts `bytes` as exactly one well-formed item.
    static func accepts(_ bytes: [UInt8]) -> Bool {
        var result = cbor_load_result()
        let loaded = bytes.withUnsafeBufferPointer { cbor_load($0.baseAddress, $0.count, &result) }
        guard loaded != nil else { return false }
        var item = loaded
        cbor_decref(&item)
        return result.error.code == CBOR_ERR_NONE && result.read == bytes.count
    }

    /// Converts a libcbor item into a ``CBORValue``.
    static func value(of item: UnsafeMutablePointer<cbor_item_t>) -> CBORValue? {
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT: return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT: return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            return .byteString(stringBytes(item, isText: false))
        case CBOR_TYPE_STRING:
            return String(validating: stringBytes(item, isText: true), as: UTF8.self).map {
                .textString($0)
            }
        case CBOR_TYPE_ARRAY:
            guard let handle = cbor_array_handle(item) else { return .array([]) }
            var elements: [CBORValue] = []
            for index in 0..<cbor_array_size(item) {
                guard let element = handle[index], let converted = value(of: element) else {
                    return nil
                }
                elements.append(converted)
            }
            return .array(elements)
        case CBOR_TYPE_MAP:
            guard let handle = cbor_map_handle(item) else { return .map(CBORMap()) }
            var entries: [CBORMap.Entry] = []
            for index in 0..<cbor_map_size(item) {
                guard let key = handle[index].key.flatMap(value(of:)),
                    let entryValue = handle[index].value.flatMap(value(of:))
                else { return nil }
                entries.append(CBORMap.Entry(key: key, value: entryValue))
            }
            return .map(CBORMap(entries))
        case CBOR_TYPE_TAG:
            var content = cbor_tag_item(item)
            defer { if content != nil { cbor_decref(&content) } }
            return content.flatMap(value(of:)).map { .tagged(cbor_tag_value(item), $0) }
        case CBOR_TYPE_FLOAT_CTRL:
            if cbor_float_get_width(item) != CBOR_FLOAT_0 {
                return .float(cbor_float_get_float(item))
            }
            let control = cbor_ctrl_value(item)
            switch control {
            case 20: return .boolean(false)
            case 21: return .boolean(true)
            case 22: return .null
            case 23: return .undefined
            default: return CBORSimpleValue(control).map { .simple($0) }
            }
        default:
            return nil
        }
    }

    private static func stringBytes(
        _ item: UnsafeMutablePointer<cbor_item_t>, isText: Bool
    )
        -> [UInt8]
    {
        let definite = isText ? cbor_string_is_definite(item) : cbor_bytestring_is_definite(item)
        if definite {
            let length = isText ? cbor_string_length(item) : cbor_bytestring_length(item)
            guard let handle = isText ? cbor_string_handle(item) : cbor_bytestring_handle(item)
            else { return [] }
            return Array(UnsafeBufferPointer(start: handle, count: length))
        }
        let count = isText ? cbor_string_chunk_count(item) : cbor_bytestring_chunk_count(item)
        guard
            let chunks = isText
                ? cbor_string_chunks_handle(item) : cbor_bytestring_chunks_handle(item)
        else { return [] }
        var joined: [UInt8] = []
        for index in 0..<count {
            if let chunk = chunks[index] { joined += stringBytes(chunk, isText: isText) }
        }
        return joined
    }

    /// libcbor's encoding of `value`, keeping map entries in the order given. `widths` picks the
    /// integer head width for each integer in turn (0 = shortest, 1/2/3/4 = 1/2/4/8 bytes where
    /// the value fits), so libcbor can produce non-shortest heads on purpose.
    static func encode(_ value: CBORValue, widths: [UInt8] = []) -> [UInt8]? {
        var widths = widths[...]
        var built = build(value, widths: &widths)
        defer { if built != nil { cbor_decref(&built) } }
        guard let item = built else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var capacity = 0
        let length = cbor_serialize_alloc(item, &buffer, &capacity)
        defer { free(buffer) }
        guard length > 0, let buffer else { return nil }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }

    private static func build(
        _ value: CBORValue, widths: inout ArraySlice<UInt8>
    )
        -> UnsafeMutablePointer<cbor_item_t>?
    {
        switch value {
        case .unsigned(let number): return integer(number, negative: false, widths: &widths)
        case .negative(let number): return integer(number, negative: true, widths: &widths)
        case .byteString(let bytes):
            return bytes.withUnsafeBufferPointer { cbor_build_bytestring($0.baseAddress, $0.count) }
        case .textString(let text):
            var text = text
            return text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) {
                    cbor_build_stringn($0.baseAddress, $0.count)
                }
            }
        case .array(let elements):
            guard let array = cbor_new_definite_array(elements.count) else { return nil }
            for element in elements {
                guard let built = build(element, widths: &widths),
                    cbor_array_push(array, cbor_move(built))
                else { return nil }
            }
            return array
        case .map(let map):
            guard let built = cbor_new_definite_map(map.count) else { return nil }
            for entry in map.entries {
                guard let key = build(entry.key, widths: &widths),
                    let entryValue = build(entry.value, widths: &widths),
                    cbor_map_add(
                        built, cbor_pair(key: cbor_move(key), value: cbor_move(entryValue)))
                else { return nil }
            }
            return built
        case .tagged(let tag, let content):
            guard let built = build(content, widths: &widths) else { return nil }
            return cbor_build_tag(tag, cbor_move(built))
        case .simple(let simple): return cbor_build_ctrl(simple.rawValue)
        case .boolean(let flag): return cbor_build_bool(flag)
        case .null: return cbor_new_null()
        case .undefined: return cbor_new_undef()
        case .float(let number): return cbor_build_float8(number)
        }
    }

    private static func integer(
        _ number: UInt64, negative: Bool, widths: inout ArraySlice<UInt8>
    )
        -> UnsafeMutablePointer<cbor_item_t>?
    {
        let choice = widths.popFirst().map { $0 % 5 } ?? 0
        let width: Int
        switch choice {
        case 1 where number <= 0xff: width = 1
        case 2 where number <= 0xffff: width = 2
        case 3 where number <= 0xffff_ffff: width = 4
        case 4: width = 8
        default:
            width = number <= 0xff ? 1 : number <= 0xffff ? 2 : number <= 0xffff_ffff ? 4 : 8
        }
        switch (width, negative) {
        case (1, false): return cbor_build_uint8(UInt8(number))
        case (1, true): return cbor_build_negint8(UInt8(number))
        case (2, false): return cbor_build_uint16(UInt16(number))
        case (2, true): return cbor_build_negint16(UInt16(number))
        case (4, false): return cbor_build_uint32(UInt32(number))
        case (4, true): return cbor_build_negint32(UInt32(number))
        case (_, false): return cbor_build_uint64(number)
        case (_, true): return cbor_build_negint64(number)
        }
    }
}
