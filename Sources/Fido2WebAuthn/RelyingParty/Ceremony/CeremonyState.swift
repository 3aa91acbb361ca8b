import Fido2Crypto
@_spi(Fido2Internals) import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What both ceremony states share: the parts the finishing calls check before anything else
/// (§7.1 step 1, §7.2 step 1), and the members of their JSON forms.
protocol CeremonyState {
    /// `registration` or `authentication`: the `ceremony` member of the JSON form.
    static var ceremony: String { get }
    /// The RP ID the options named.
    var relyingPartyID: String { get }
    /// When the state stops being accepted, in milliseconds since the Unix epoch.
    var expiresAt: Int64 { get }
    /// The challenge the options sent.
    var challenge: [UInt8] { get }
}

/// The clock and the random source of the ceremonies.
enum CeremonySupport {
    /// The version of the states' JSON forms.
    static let stateVersion = 1
    /// The challenge length: WebAuthn asks for at least 16 random bytes; 32 leaves margin.
    static let challengeLength = 32
    /// The shortest challenge a state may carry (WebAuthn §13.4.3: at least 16 bytes). The
    /// begin calls never make a shorter one; a state that has one was made or changed by hand.
    static let minimumChallengeLength = 16

    /// Now, in milliseconds since the Unix epoch.
    static func currentTimeMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// A fresh challenge from the system's CSPRNG (OpenSSL's DRBG, seeded by the kernel).
    static func newChallenge(step: VerificationStep) throws(WebAuthnError) -> [UInt8] {
        do {
            return try SystemRandomSource().bytes(count: challengeLength)
        } catch {
            throw WebAuthnError(crypto: error, .randomGenerationFailed).attributed(to: step)
        }
    }

    /// The expiry of a state issued now for a ceremony of `timeout` milliseconds.
    static func expiry(timeout: UInt32) -> Int64 {
        currentTimeMilliseconds() + Int64(timeout)
    }

    /// Reads the `version` and `ceremony` members' values, checking them against `State`.
    static func checkHeader<State: CeremonyState>(
        _: State.Type, version: Int?, ceremony: String?
    ) throws(WebAuthnError) {
        guard let version else { throw missingMember("version") }
        guard version == stateVersion else {
            throw WebAuthnError(
                .invalidValue,
                "ceremony state version \(version) is not one this library reads (\(stateVersion))",
                field: "version")
        }
        guard let ceremony else { throw missingMember("ceremony") }
        guard ceremony == State.ceremony else {
            throw WebAuthnError(
                .ceremonyStateMismatch,
                "the state is of \(quotedInput(ceremony)), not of \(State.ceremony)",
                field: "ceremony")
        }
    }

    /// Writes the `version` and `ceremony` members.
    static func writeHeader<State: CeremonyState>(_: State.Type, to writer: inout JSONWriter) {
        writer.name("version")
        writer.number(stateVersion)
        writer.name("ceremony")
        writer.string(State.ceremony)
    }
}

extension ExtensionPolicy {
    /// The identifiers of ``allowOnly(_:)``, sorted, or nil for ``acceptAll``: the
    /// `allowedExtensions` member of a state.
    var allowedIdentifiers: [String]? {
        guard case .allowOnly(let allowed) = self else { return nil }
        return allowed.sorted()
    }
}

extension RelyingParty {
    /// §7.1 step 1, §7.2 step 1: the state is for one of this relying party's RP IDs, carries
    /// a challenge of at least 16 bytes and has not expired. Returns this relying party narrowed to the state's RP ID, so that the
    /// response must be scoped to the ID its options named.
    func accepting<State: CeremonyState>(
        _ state: State, step: VerificationStep
    ) throws(WebAuthnError) -> RelyingParty {
        guard identifiers.contains(state.relyingPartyID) else {
            throw WebAuthnError.failed(
                .ceremonyStateMismatch,
                "the state was issued for RP ID \(quotedInput(state.relyingPartyID)), which is not this relying party's",
                field: "state.relyingPartyID", step: step)
        }
        guard state.challenge.count >= CeremonySupport.minimumChallengeLength else {
            throw WebAuthnError.failed(
                .ceremonyStateMismatch,
                "the state's challenge is \(state.challenge.count) bytes, fewer than the \(CeremonySupport.minimumChallengeLength) a ceremony needs: it was not issued by beginRegistration or beginAuthentication",
                field: "state.challenge", step: step)
        }
        let now = CeremonySupport.currentTimeMilliseconds()
        guard now <= state.expiresAt else {
            throw WebAuthnError.failed(
                .ceremonyExpired,
                "the \(State.ceremony) state expired \(now - state.expiresAt) ms ago; begin the ceremony again",
                field: "state.expiresAt", step: step)
        }
        var narrowed = self
        narrowed.identifiers = [state.relyingPartyID]
        return narrowed
    }

    /// The RP ID the options of a ceremony name: `requested` when it is one of ours, else the
    /// first of ``identifiers``.
    func optionsRelyingPartyID(
        _ requested: String?, step: VerificationStep
    ) throws(WebAuthnError) -> String {
        if let requested {
            guard identifiers.contains(requested) else {
                throw WebAuthnError.failed(
                    .invalidRelyingPartyID,
                    "\(quotedInput(requested)) is not one of this relying party's identifiers",
                    field: "options.relyingPartyID", step: step)
            }
            return requested
        }
        guard let first = identifiers.first else {
            throw WebAuthnError.failed(
                .invalidRelyingPartyID, "the relying party has no RP ID",
                field: "identifiers", step: step)
        }
        return first
    }
}
