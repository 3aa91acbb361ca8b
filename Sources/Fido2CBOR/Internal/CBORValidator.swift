/// One pass over encoded items that checks well-formedness, the configured limits and, as asked,
/// the strict-profile rules. It allocates nothing except when unique keys are required without
/// canonical order (then it sorts each map's key ranges to find duplicates).
///
/// Depth is bounded by ``CBORDecodingOptions/effectiveDepth`` before recursing, so the recursion
/// is bounded too.
struct CBORValidator {
    let buffer: UnsafeBufferPointer<UInt8>
    let checks: CBORDecodingOptions.Checks
    let maximumDepth: Int
    let maximumItemCount: Int
    private(set) var itemCount = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>, options: CBORDecodingOptions) {
        self.buffer = buffer
        self.checks = options.checks
        self.maximumDepth = options.effectiveDepth
        self.maximumItemCount = options.maximumItemCount
    }

    /// Checks the input size limit, then validates items from offset 0: exactly one when
    /// `noTrailingBytes` is checked, else every item of the sequence. Returns the end offset of
    /// the first item.
    static func validateInput(
        _ buffer: UnsafeBufferPointer<UInt8>, options: CBORDecodingOptions
    ) throws(CBORError) -> Int {
        guard buffer.count <= options.maximumInputSize else {
            throw CBORError(
                .inputTooLarge, at: options.maximumInputSize,
                detail: "\(buffer.count) bytes, limit \(options.maximumInputSize)")
        }
        var validator = CBORValidator(buffer, options: options)
        let firstEnd = try validator.validateItem(at: 0, depth: 0)
        if options.checks.contains(.noTrailingBytes) {
            guard firstEnd == buffer.count else { throw CBORError(.trailingBytes, at: firstEnd) }
        } else {
            var offset = firstEnd
            while offset < buffer.count {
                offset = try validator.validateItem(at: offset, depth: 0)
            }
        }
        return firstEnd
    }

    /// Validates the item at `offset` (nested inside `depth` containers); returns its end offset.
    mutating func validateItem(at offset: Int, depth: Int) throws(CBORError) -> Int {
        let head = try CBORHead.decode(buffer, at: offset)
        itemCount &+= 1
        guard itemCount <= maximumItemCount else {
            throw CBORError(.tooManyItems, at: offset, detail: "limit \(maximumItemCount)")
        }
        let major = head.majorType
        if head.isIndefinite {
            return try validateIndefinite(head, at: offset, depth: depth)
        }
        if major != 7 && head.isNonShortest && checks.contains(.shortestHeads) {
            throw CBORError(.nonShortestEncoding, at: offset)
        }
        let remaining = UInt64(buffer.count &- head.contentStart)
        switch major {
        case 0, 1:
            return head.contentStart
        case 2, 3:
            guard head.argument <= remaining else {
                throw CBORError(
                    .lengthExceedsInput, at: offset,
                    detail: "declares \(head.argument) bytes, \(remaining) remain")
            }
            let end = head.contentStart &+ Int(head.argument)
            if major == 3 && checks.contains(.validUTF8)
                && !UTF8Validation.isValid(buffer, head.contentStart..<end)
            {
                throw CBORError(.invalidUTF8, at: offset)
            }
            return end
        case 4:
            guard head.argument <= remaining else {
                throw CBORError(
                    .lengthExceedsInput, at: offset,
                    detail: "declares \(head.argument) items, \(remaining) bytes remain")
            }
            try enter(depth, at: offset)
            var position = head.contentStart
            for _ in 0..<head.argument {
                position = try validateItem(at: position, depth: depth &+ 1)
            }
            return position
        case 5:
            guard head.argument <= remaining / 2 else {
                throw CBORError(
                    .lengthExceedsInput, at: offset,
                    detail: "declares \(head.argument) entries, \(remaining) bytes remain")
            }
            try enter(depth, at: offset)
            return try validateMap(
                from: head.contentStart, entries: Int(head.argument), depth: depth &+ 1)
        case 6:
            try enter(depth, at: offset)
            return try validateItem(at: head.contentStart, depth: depth &+ 1)
        default:
            if head.additionalInfo == 24 && head.argument < 32 {
                throw CBORError(.invalidSimpleValue, at: offset)
            }
            return head.contentStart
        }
    }

    /// Fails when one more level of nesting would pass the depth limit.
    @inline(__always)
    private func enter(_ depth: Int, at offset: Int) throws(CBORError) {
        guard depth < maximumDepth else {
            throw CBORError(.nestingTooDeep, at: offset, detail: "limit \(maximumDepth)")
        }
    }

    private mutating func validateIndefinite(
        _ head: CBORHead, at offset: Int, depth: Int
    )
        throws(CBORError) -> Int
    {
        let major = head.majorType
        switch major {
        case 0, 1, 6: throw CBORError(.invalidIndefiniteItem, at: offset)
        case 7: throw CBORError(.unexpectedBreak, at: offset)
        default: break
        }
        if checks.contains(.definiteLengths) {
            throw CBORError(.indefiniteLengthNotAllowed, at: offset)
        }
        try enter(depth, at: offset)
        var position = head.contentStart
        switch major {
        case 2, 3:
            while true {
                guard position < buffer.count else { throw CBORError(.truncated, at: position) }
                if buffer[position] == 0xff { return position &+ 1 }
                let chunk = try CBORHead.decode(buffer, at: position)
                guard chunk.majorType == major, !chunk.isIndefinite else {
                    throw CBORError(.invalidIndefiniteChunk, at: position)
                }
                position = try validateItem(at: position, depth: depth &+ 1)
            }
        case 4:
            while true {
                guard position < buffer.count else { throw CBORError(.truncated, at: position) }
                if buffer[position] == 0xff { return position &+ 1 }
                position = try validateItem(at: position, depth: depth &+ 1)
            }
        default:
            return try validateMap(from: position, entries: nil, depth: depth &+ 1)
        }
    }

    /// Validates map entries starting at `start`: `entries` of them, or up to a break when nil.
    private mutating func validateMap(
        from start: Int, entries: Int?, depth: Int
    )
        throws(CBORError) -> Int
    {
        let ordered = checks.contains(.canonicalKeyOrder)
        let unique = checks.contains(.uniqueKeys)
        var position = start
        var previousKey: Range<Int>? = nil
        var keysToSort: [Range<Int>] = []
        var entryIndex = 0
        while true {
            if let entries {
                if entryIndex == entries { break }
            } else {
                guard position < buffer.count else { throw CBORError(.truncated, at: position) }
                if buffer[position] == 0xff {
                    position &+= 1
                    break
                }
            }
            let keyStart = position
            position = try validateItem(at: position, depth: depth)
            let key = keyStart..<position
            if entries == nil {
                guard position < buffer.count else { throw CBORError(.truncated, at: position) }
                if buffer[position] == 0xff { throw CBORError(.unexpectedBreak, at: position) }
            }
            position = try validateItem(at: position, depth: depth)
            if ordered, let previous = previousKey {
                let order = compareKeys(previous, key)
                if order > 0 { throw CBORError(.mapKeysOutOfOrder, at: keyStart) }
                if order == 0 && unique { throw CBORError(.duplicateMapKey, at: keyStart) }
            } else if unique && !ordered {
                keysToSort.append(key)
            }
            previousKey = key
            entryIndex &+= 1
        }
        if keysToSort.count > 1 {
            try rejectDuplicates(in: &keysToSort)
        }
        return position
    }

    private func compareKeys(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        let base = UnsafeRawBufferPointer(buffer)
        return CBORKeyOrder.compare(
            UnsafeRawBufferPointer(rebasing: base[lhs]), UnsafeRawBufferPointer(rebasing: base[rhs])
        )
    }

    /// Finds byte-identical keys by sorting; reports the later occurrence of the first duplicate.
    private func rejectDuplicates(in keys: inout [Range<Int>]) throws(CBORError) {
        keys.sort { compareKeys($0, $1) < 0 }
        var duplicateAt: Int? = nil
        for index in 1..<keys.count where compareKeys(keys[index - 1], keys[index]) == 0 {
            let later = max(keys[index - 1].lowerBound, keys[index].lowerBound)
            duplicateAt = min(duplicateAt ?? later, later)
        }
        if let duplicateAt { throw CBORError(.duplicateMapKey, at: duplicateAt) }
    }
}
