import Fido2Encoding
import Fido2TestSupport

/// Loads a shared vector file with the project's own JSON reader (no Foundation needed here).
package func sharedVectorJSON(_ name: String) throws -> JSONValue {
    let bytes = [UInt8](try SharedVectors.data(name))
    return try JSONReader().read(bytes)
}

/// A required member of a vector file, or a thrown error naming it.
package struct VectorShapeError: Error, CustomStringConvertible {
    package let description: String

    /// An error saying `description`.
    package init(description: String) { self.description = description }
}

extension JSONValue {
    /// The member at a dotted path, or an error naming the path.
    package func member(_ path: String) throws -> JSONValue {
        var value = self
        for name in path.split(separator: ".") {
            guard let next = value[String(name)] else {
                throw VectorShapeError(description: "vector lacks \(path)")
            }
            value = next
        }
        return value
    }

    /// The string at a dotted path.
    package func string(_ path: String) throws -> String {
        guard let text = try member(path).stringValue else {
            throw VectorShapeError(description: "vector's \(path) is not a string")
        }
        return text
    }

    /// The hex-decoded bytes of the string at a dotted path.
    package func hexBytes(_ path: String) throws -> [UInt8] {
        guard let bytes = try? Hex.decode(try string(path)) else {
            throw VectorShapeError(description: "vector's \(path) is not hex")
        }
        return bytes
    }

    /// The array at a dotted path (or this value when the path is empty).
    package func array(_ path: String = "") throws -> [JSONValue] {
        guard let elements = (path.isEmpty ? self : try member(path)).arrayValue else {
            throw VectorShapeError(description: "vector's \(path) is not an array")
        }
        return elements
    }
}
