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
            guard firstEnd == buffer.count else { throw Self.failure(.trailingBytes, at: firstEnd) }
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
        guard offset < buffer.count else { throw Self.failure(.truncated, at: offset) }
        itemCount &+= 1
        guard itemCount <= maximumItemCount else {
            throw Self.tooManyItems(at: offset, limit: maximumItemCount)
        }
        let initial = buffer[offset]
        let major = initial &>> 5
        let argument: UInt64
        let contentStart: Int
        if initial & 0x1f < 24 {
            // The common case: the argument is in the initial byte.
            argument = UInt64(initial & 0x1f)
            contentStart = offset &+ 1
        } else {
            let head = try CBORHead.decode(buffer, at: offset)
            if head.isIndefinite {
                return try validateIndefinite(head, at: offset, depth: depth)
            }
            if major != 7 && head.isNonShortest && checks.contains(.shortestHeads) {
                throw Self.failure(.nonShortestEncoding, at: offset)
            }
            if major == 7 && head.additionalInfo == 24 && head.argument < 32 {
                throw Self.failure(.invalidSimpleValue, at: offset)
            }
            argument = head.argument
            contentStart = head.contentStart
        }
        switch major {
        case 0, 1, 7:
            return contentStart
        case 2, 3:
            let remaining = UInt64(buffer.count &- contentStart)
            guard argument <= remaining else {
                throw Self.lengthExceedsInput(at: offset, argument, "bytes", remaining)
            }
            let end = contentStart &+ Int(argument)
            if major == 3 && checks.contains(.validUTF8)
                && !UTF8Validation.isValid(buffer, contentStart..<end)
            {
                throw Self.failure(.invalidUTF8, at: offset)
            }
            return end
        case 4:
            let remaining = UInt64(buffer.count &- contentStart)
            guard argument <= remaining else {
                throw Self.lengthExceedsInput(at: offset, argument, "items", remaining)
            }
            try enter(depth, at: offset)
            var position = contentStart
            for _ in 0..<Int(argument) {
                position = try validateItem(at: position, depth: depth &+ 1)
            }
            return position
        case 5:
            let remaining = UInt64(buffer.count &- contentStart)
            guard argument <= remaining / 2 else {
                throw Self.lengthExceedsInput(at: offset, argument, "entries", remaining)
            }
            try enter(depth, at: offset)
            return try validateMap(from: contentStart, entries: Int(argument), depth: depth &+ 1)
        default:
            try enter(depth, at: offset)
            return try validateItem(at: contentStart, depth: depth &+ 1)
        }
    }

    /// Fails when one more level of nesting would pass the depth limit.
    @inline(__always)
    private func enter(_ depth: Int, at offset: Int) throws(CBORError) {
        guard depth < maximumDepth else {
            throw Self.nestingTooDeep(at: offset, limit: maximumDepth)
        }
    }

    private mutating func validateIndefinite(
        _ head: CBORHead, at offset: Int, depth: Int
    )
        throws(CBORError) -> Int
    {
        let major = head.majorType
        switch major {
        case 0, 1, 6: throw Self.failure(.invalidIndefiniteItem, at: offset)
        case 7: throw Self.failure(.unexpectedBreak, at: offset)
        default: break
        }
        if checks.contains(.definiteLengths) {
            throw Self.failure(.indefiniteLengthNotAllowed, at: offset)
        }
        try enter(depth, at: offset)
        var position = head.contentStart
        switch major {
        case 2, 3:
            while true {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
                if buffer[position] == 0xff { return position &+ 1 }
                let chunk = try CBORHead.decode(buffer, at: position)
                guard chunk.majorType == major, !chunk.isIndefinite else {
                    throw Self.failure(.invalidIndefiniteChunk, at: position)
                }
                position = try validateItem(at: position, depth: depth &+ 1)
            }
        case 4:
            while true {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
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
        if unique && !ordered {
            return try validateMapFindingDuplicates(from: start, entries: entries, depth: depth)
        }
        var position = start
        var previousStart = -1
        var previousEnd = -1
        var remaining = entries ?? -1
        while true {
            if remaining >= 0 {
                if remaining == 0 { break }
                remaining &-= 1
            } else {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
                if buffer[position] == 0xff { return position &+ 1 }
            }
            let keyStart = position
            position = try validateItem(at: position, depth: depth)
            if entries == nil {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
                if buffer[position] == 0xff { throw Self.failure(.unexpectedBreak, at: position) }
            }
            if ordered && previousStart >= 0 {
                let order = compareKeys(previousStart..<previousEnd, keyStart..<position)
                if order > 0 { throw Self.failure(.mapKeysOutOfOrder, at: keyStart) }
                if order == 0 && unique { throw Self.failure(.duplicateMapKey, at: keyStart) }
            }
            previousStart = keyStart
            previousEnd = position
            position = try validateItem(at: position, depth: depth)
        }
        return position
    }

    /// ``validateMap(from:entries:depth:)`` for unique keys in any order: the key ranges are
    /// collected and sorted, so duplicates are found in O(n log n).
    private mutating func validateMapFindingDuplicates(
        from start: Int, entries: Int?, depth: Int
    )
        throws(CBORError) -> Int
    {
        var position = start
        var keys: [Range<Int>] = []
        var remaining = entries ?? -1
        while true {
            if remaining >= 0 {
                if remaining == 0 { break }
                remaining &-= 1
            } else {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
                if buffer[position] == 0xff {
                    position &+= 1
                    break
                }
            }
            let keyStart = position
            position = try validateItem(at: position, depth: depth)
            keys.append(keyStart..<position)
            if entries == nil {
                guard position < buffer.count else { throw Self.failure(.truncated, at: position) }
                if buffer[position] == 0xff { throw Self.failure(.unexpectedBreak, at: position) }
            }
            position = try validateItem(at: position, depth: depth)
        }
        if keys.count > 1 { try rejectDuplicates(in: &keys) }
        return position
    }

    /// CTAP2 canonical order of two encoded keys in the input (as ``CBORKeyOrder`` defines it),
    /// compared in place.
    @inline(__always)
    private func compareKeys(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        let leftMajor = buffer[lhs.lowerBound] &>> 5
        let rightMajor = buffer[rhs.lowerBound] &>> 5
        if leftMajor != rightMajor { return leftMajor < rightMajor ? -1 : 1 }
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        var left = lhs.lowerBound
        var right = rhs.lowerBound
        while left < lhs.upperBound {
            let a = buffer[left]
            let b = buffer[right]
            if a != b { return a < b ? -1 : 1 }
            left &+= 1
            right &+= 1
        }
        return 0
    }

    /// Finds byte-identical keys by sorting; reports the later occurrence of the first duplicate.
    private func rejectDuplicates(in keys: inout [Range<Int>]) throws(CBORError) {
        keys.sort { compareKeys($0, $1) < 0 }
        var duplicateAt: Int? = nil
        for index in 1..<keys.count where compareKeys(keys[index - 1], keys[index]) == 0 {
            let later = max(keys[index - 1].lowerBound, keys[index].lowerBound)
            duplicateAt = min(duplicateAt ?? later, later)
        }
        if let duplicateAt { throw Self.failure(.duplicateMapKey, at: duplicateAt) }
    }

    // Errors are built out of line so the hot path keeps a small stack frame.

    @inline(never)
    static func failure(_ code: CBORError.Code, at offset: Int) -> CBORError {
        CBORError(code, at: offset)
    }

    @inline(never)
    static func tooManyItems(at offset: Int, limit: Int) -> CBORError {
        CBORError(.tooManyItems, at: offset, detail: "limit \(limit)")
    }

    @inline(never)
    static func nestingTooDeep(at offset: Int, limit: Int) -> CBORError {
        CBORError(.nestingTooDeep, at: offset, detail: "limit \(limit)")
    }

    @inline(never)
    static func lengthExceedsInput(
        at offset: Int, _ declared: UInt64, _ unit: StaticString, _ remaining: UInt64
    ) -> CBORError {
        CBORError(
            .lengthExceedsInput, at: offset,
            detail: "declares \(declared) \(unit), \(remaining) bytes remain")
    }
}
