import COpenSSL
import Fido2CBOR

/// Verifies certificate chains against caller-supplied trust anchors with OpenSSL's
/// `X509_STORE` (RFC 5280 path validation as OpenSSL implements it).
///
/// - **Anchors** are certificates the caller trusts: roots or intermediate CAs. A path ends at
///   the first certificate found among the anchors (OpenSSL's partial-chain mode), so an
///   attestation chain may be anchored at a vendor's intermediate. Anchors' validity periods
///   are checked like every other certificate's; their own signatures are not.
/// - **Time** is the caller's (`at:`, seconds since the Unix epoch) or, by default, the
///   current time.
/// - **Critical extensions.** Extensions OpenSSL processes (basicConstraints, keyUsage,
///   extKeyUsage, subjectAltName, certificatePolicies, nameConstraints, policy constraints and
///   mappings, …) are checked by OpenSSL. Any other critical extension fails the chain with
///   ``CryptoError/Code-swift.struct/unhandledCriticalExtension`` unless its identifier is in
///   `allowedCriticalExtensions`, by which the caller promises to check that extension itself
///   (for example a WebAuthn verifier that reads a vendor's attestation extension). Criticality
///   is never ignored wholesale.
/// - **Revocation** is checked only when asked for: pass `revocation:` ``RevocationCheck/leaf(_:)``
///   or ``RevocationCheck/chain(_:)`` with the CRLs of the issuers in scope, and a revoked
///   certificate fails with ``CryptoError/Code-swift.struct/certificateRevoked``, one without a
///   usable CRL with ``CryptoError/Code-swift.struct/revocationStatusUnknown`` (see
///   ``RevocationCheck`` for the rules). The default, ``RevocationCheck/none``, checks none.
///   CRLs are never fetched and OCSP is not used.
/// - **Not checked**: certificate policies (no policy check), extended key usage purposes (the
///   caller reads ``Certificate/extendedKeyUsage``), and OpenSSL's extra strict-mode rules
///   (`X509_V_FLAG_X509_STRICT`), which deployed attestation certificates break.
public struct CertificateChainVerifier: Sendable {
    let box: TrustStoreBox
    /// Whether and how revocation is checked, with the CRLs to check against.
    public let revocation: RevocationCheck

    /// A verifier trusting `trustAnchors`.
    ///
    /// - Parameters:
    ///   - trustAnchors: the roots or intermediate CAs a path may end at.
    ///   - allowedCriticalExtensions: identifiers of critical extensions OpenSSL does not
    ///     process that the caller checks itself; see the type's documentation.
    ///   - revocation: whether to check revocation, and against which CRLs (default: not).
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot build the
    ///   store.
    public init(
        trustAnchors: [Certificate], allowedCriticalExtensions: Set<ASN1ObjectIdentifier> = [],
        revocation: RevocationCheck = .none
    ) throws {
        box = try TrustStoreBox(
            anchors: trustAnchors, allowedCriticalExtensions: allowedCriticalExtensions)
        self.revocation = revocation
    }

    /// A verifier trusting the DER certificates `trustAnchorsDER`.
    ///
    /// - Throws: as ``Certificate/init(derEncoded:)`` for an anchor that does not parse;
    ///   otherwise as ``init(trustAnchors:allowedCriticalExtensions:revocation:)``.
    public init(
        trustAnchorsDER: [[UInt8]], allowedCriticalExtensions: Set<ASN1ObjectIdentifier> = [],
        revocation: RevocationCheck = .none
    ) throws {
        var anchors: [Certificate] = []
        for der in trustAnchorsDER { anchors.append(try Certificate(derEncoded: der)) }
        try self.init(
            trustAnchors: anchors, allowedCriticalExtensions: allowedCriticalExtensions,
            revocation: revocation)
    }

    /// The trust anchors.
    public var trustAnchors: [Certificate] { box.anchors }

    /// Verifies `leaf` through `intermediates` (in any order; unused ones are ignored) to a
    /// trust anchor at `unixSeconds` (default: now), and returns the path from the leaf to the
    /// anchor, both included.
    ///
    /// - Throws: a ``CryptoError`` whose ``CryptoError/depth`` says which certificate failed
    ///   (0 is the leaf), whose ``CryptoError/openSSLErrors`` holds OpenSSL's verify error
    ///   text (then OpenSSL's queued errors and a note for any certificate OpenSSL found
    ///   malformed), and whose code is ``CryptoError/Code-swift.struct/certificateExpired``,
    ///   ``CryptoError/Code-swift.struct/certificateNotYetValid``,
    ///   ``CryptoError/Code-swift.struct/untrustedCertificate`` (no path to an anchor),
    ///   ``CryptoError/Code-swift.struct/certificateSignatureInvalid``,
    ///   ``CryptoError/Code-swift.struct/certificateConstraintViolation`` (an issuer that is
    ///   not a CA or may not sign certificates, a path length exceeded),
    ///   ``CryptoError/Code-swift.struct/unhandledCriticalExtension``,
    ///   ``CryptoError/Code-swift.struct/certificateRevoked`` and
    ///   ``CryptoError/Code-swift.struct/revocationStatusUnknown`` (only with a
    ///   ``revocation`` check; see ``RevocationCheck``) or
    ///   ``CryptoError/Code-swift.struct/certificateChainInvalid`` (any other reason).
    public func verify(
        _ leaf: Certificate, intermediates: [Certificate] = [], at unixSeconds: Int64? = nil
    ) throws -> [Certificate] {
        guard let untrusted = OPENSSL_sk_new_null() else {
            throw CryptoError.openSSL("stack allocation")
        }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates
        where OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.box.pointer)) <= 0 {
            throw CryptoError.openSSL("stack push failed")
        }
        // The context borrows this stack (set0 does not take it): it outlives the context.
        let lists = revocation.revocationLists
        guard let crls = OPENSSL_sk_new_null() else {
            throw CryptoError.openSSL("stack allocation")
        }
        defer { OPENSSL_sk_free(crls) }
        for list in lists where OPENSSL_sk_push(crls, UnsafeRawPointer(list.box.pointer)) <= 0 {
            throw CryptoError.openSSL("stack push failed")
        }
        guard let context = X509_STORE_CTX_new() else {
            throw CryptoError.openSSL("X509_STORE_CTX_new")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, box.store, leaf.box.pointer, untrusted) == 1 else {
            throw CryptoError.openSSL("X509_STORE_CTX_init failed")
        }
        if let unixSeconds { X509_STORE_CTX_set_time(context, 0, time_t(unixSeconds)) }
        switch revocation {
        case .none:
            break
        case .leaf:
            X509_STORE_CTX_set0_crls(context, crls)
            X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_CRL_CHECK))
        case .chain:
            X509_STORE_CTX_set0_crls(context, crls)
            X509_STORE_CTX_set_flags(
                context, UInt(X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL))
        }
        let unmanaged = Unmanaged.passUnretained(box)
        X509_STORE_CTX_set_ex_data(context, 0, unmanaged.toOpaque())
        X509_STORE_CTX_set_verify_cb(context, Self.callback)

        let result = withExtendedLifetime((leaf, intermediates, box, lists)) {
            X509_verify_cert(context)
        }
        guard result == 1 else {
            throw Self.error(context, candidates: [leaf] + intermediates + box.anchors)
        }
        OpenSSLErrorQueue.clear()
        return try chain(context, leaf: leaf, intermediates: intermediates)
    }

    /// Verifies an `x5c`-style chain: the leaf first, then the certificates that help build
    /// the path. See ``verify(_:intermediates:at:)``.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for an empty chain;
    ///   otherwise as ``verify(_:intermediates:at:)``.
    public func verify(
        chain: [Certificate], at unixSeconds: Int64? = nil
    ) throws
        -> [Certificate]
    {
        guard let leaf = chain.first else {
            throw CryptoError(.invalidArgument, "empty certificate chain")
        }
        return try verify(leaf, intermediates: Array(chain.dropFirst()), at: unixSeconds)
    }

    // MARK: OpenSSL plumbing

    /// Overrides `X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION` when every such extension of the
    /// certificate at hand is one the caller allows, and any revocation verdict on the trust
    /// anchor that ends the path, which is out of scope (see ``RevocationCheck``); leaves every
    /// other verdict alone.
    private static let callback: @convention(c) (Int32, OpaquePointer?) -> Int32 = {
        ok, context in
        guard ok == 0, let context,
            let data = X509_STORE_CTX_get_ex_data(context, 0),
            let current = X509_STORE_CTX_get_current_cert(context)
        else { return ok }
        let box = Unmanaged<TrustStoreBox>.fromOpaque(data).takeUnretainedValue()
        let code = X509_STORE_CTX_get_error(context)
        if code == X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION {
            return box.allowsUnhandledCriticalExtensions(of: current) ? 1 : 0
        }
        let verdict = kind(of: code)
        if verdict == .revocationStatusUnknown || verdict == .certificateRevoked,
            box.isAnchor(current),
            let chain = X509_STORE_CTX_get0_chain(context),
            X509_STORE_CTX_get_error_depth(context) == OPENSSL_sk_num(chain) - 1
        {
            return 1
        }
        return ok
    }

    /// The verified path as ``Certificate`` values, reusing the caller's where the pointers
    /// match.
    private func chain(
        _ context: OpaquePointer, leaf: Certificate, intermediates: [Certificate]
    ) throws(CryptoError) -> [Certificate] {
        guard let stack = X509_STORE_CTX_get0_chain(context) else {
            throw CryptoError.openSSL("verified chain is missing")
        }
        let known = [leaf] + intermediates + box.anchors
        var path: [Certificate] = []
        for index in 0..<max(0, OPENSSL_sk_num(stack)) {
            guard let raw = OPENSSL_sk_value(stack, index) else {
                throw CryptoError.openSSL("verified chain has a hole")
            }
            let pointer = OpaquePointer(raw)
            if let certificate = known.first(where: { $0.box.pointer == pointer }) {
                path.append(certificate)
            } else {
                path.append(Certificate(box: try CertificateBox.copy(of: pointer)))
            }
        }
        return path
    }

    private static func error(
        _ context: OpaquePointer, candidates: [Certificate]
    ) -> CryptoError {
        let code = X509_STORE_CTX_get_error(context)
        let depth = Int(X509_STORE_CTX_get_error_depth(context))
        let text =
            X509_verify_cert_error_string(Int(code)).map { String(cString: $0) }
            ?? "error \(code)"
        var notes = OpenSSLErrorQueue.drain()
        // OpenSSL will not link a certificate whose extensions it found malformed (it reports
        // only "unable to get issuer"); say which one it was.
        for certificate in candidates
        where X509_get_extension_flags(certificate.box.pointer) & UInt32(EXFLAG_INVALID) != 0 {
            notes.append(
                "OpenSSL marks the certificate issued by \(certificate.issuer) (serial "
                    + "\(CBORDiagnostic.hex(certificate.serialNumber))) invalid certificate: "
                    + "a malformed or inconsistent extension")
        }
        var subject = ""
        if let current = X509_STORE_CTX_get_current_cert(context),
            let certificate = try? CertificateBox.copy(of: current)
        {
            subject = " (\(certificate.parsed.subject))"
        }
        OpenSSLErrorQueue.clear()
        return CryptoError(
            kind(of: code), "certificate at depth \(depth)\(subject): \(text)",
            openSSLErrors: [text] + notes, depth: depth)
    }

    private static func kind(of code: Int32) -> CryptoError.Code {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return .certificateExpired
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return .certificateNotYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED,
            X509_V_ERR_CERT_REJECTED, X509_V_ERR_CERT_CHAIN_TOO_LONG:
            return .untrustedCertificate
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
            X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            return .certificateSignatureInvalid
        case X509_V_ERR_INVALID_CA, X509_V_ERR_PATH_LENGTH_EXCEEDED,
            X509_V_ERR_KEYUSAGE_NO_CERTSIGN, X509_V_ERR_INVALID_NON_CA,
            X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED:
            return .certificateConstraintViolation
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
            return .unhandledCriticalExtension
        case X509_V_ERR_CERT_REVOKED:
            return .certificateRevoked
        // Every way a CRL can fail to vouch for a certificate: the status is unknown.
        case X509_V_ERR_UNABLE_TO_GET_CRL, X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER,
            X509_V_ERR_CRL_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE,
            X509_V_ERR_CRL_HAS_EXPIRED, X509_V_ERR_CRL_NOT_YET_VALID,
            X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD, X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD,
            X509_V_ERR_KEYUSAGE_NO_CRL_SIGN, X509_V_ERR_DIFFERENT_CRL_SCOPE,
            X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION, X509_V_ERR_CRL_PATH_VALIDATION_ERROR:
            return .revocationStatusUnknown
        default:
            return .certificateChainInvalid
        }
    }
}
