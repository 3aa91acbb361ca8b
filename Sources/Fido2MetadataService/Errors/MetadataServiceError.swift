/// Every failure of the metadata service's fetches and cache: a code and a reason. A BLOB that
/// fails verification is reported with the relying party's `WebAuthnError` instead
/// (``MetadataServiceEvent/verificationFailed(_:serving:)``).
public struct MetadataServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Code: String, Sendable, Hashable {
        /// No HTTP answer arrived (connection refused, time-out, TLS failure).
        case network
        /// The server answered with a status other than 200.
        case httpStatus
        /// The body is larger than the limit (`maximumSize` of ``MetadataService/Configuration/verification``).
        case responseTooLarge
        /// The fetch was cancelled.
        case cancelled
        /// The cache directory or file could not be read or written.
        case cache
    }

    /// What failed.
    public let code: Code
    /// Why, for a log line.
    public let reason: String
    /// The HTTP status, for ``Code/httpStatus``.
    public let httpStatus: Int?

    /// An error with `code`, `reason` and, for an HTTP answer, its status.
    public init(_ code: Code, _ reason: String, httpStatus: Int? = nil) {
        self.code = code
        self.reason = reason
        self.httpStatus = httpStatus
    }

    /// `code: reason`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
