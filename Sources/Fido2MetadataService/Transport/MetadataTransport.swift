import Foundation

/// What downloads a metadata BLOB for ``MetadataService``: one HTTP GET per call.
///
/// ``URLSessionMetadataTransport`` is the default; tests and servers with their own HTTP
/// client pass their own.
public protocol MetadataTransport: Sendable {
    /// Fetches `url` and returns the body of a 200 answer.
    ///
    /// - Throws: ``MetadataServiceError`` with ``MetadataServiceError/Code/network`` when no
    ///   answer arrived, ``MetadataServiceError/Code/httpStatus`` for another status,
    ///   ``MetadataServiceError/Code/responseTooLarge`` for a body over `maximumBytes` (the
    ///   transport stops reading there), ``MetadataServiceError/Code/cancelled``; the service
    ///   reports any other error as a network error.
    func fetch(_ url: URL, maximumBytes: Int, timeout: Duration) async throws -> [UInt8]
}
