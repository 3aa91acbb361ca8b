@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Rules of the `android-safetynet` verifier (WebAuthn §8.5) that a relying party may tune or
/// relax; the defaults are strict. Set them on ``AttestationTrustPolicy/androidSafetyNet``.
public struct AndroidSafetyNetAttestationOptions: Sendable, Hashable {
    /// How far the payload's `timestampMs` may lie from the validation time (the policy's
    /// ``AttestationTrustPolicy/validationTime`` or now), before or after it, in milliseconds.
    /// 60 000 (one minute) by default: SafetyNet answers within seconds of the request, so an
    /// older response is a replay or a stale recording.
    public var timestampToleranceMilliseconds: Int64
    /// Skips the `timestampMs` check entirely. Only for re-checking recorded responses whose
    /// timestamp is not near the pinned validation time; a live relying party should keep the
    /// check and widen ``timestampToleranceMilliseconds`` instead.
    public var skipsTimestampCheck: Bool
    /// Accepts a payload whose `ctsProfileMatch` is false as long as `basicIntegrity` is true
    /// (a device that passes basic integrity but not the compatibility profile, such as an
    /// unlocked or uncertified one). Off by default: `ctsProfileMatch` must be true.
    public var acceptsCTSProfileMismatch: Bool

    /// Options with a one-minute window and each relaxation off unless given.
    public init(
        timestampToleranceMilliseconds: Int64 = 60_000, skipsTimestampCheck: Bool = false,
        acceptsCTSProfileMismatch: Bool = false
    ) {
        self.timestampToleranceMilliseconds = timestampToleranceMilliseconds
        self.skipsTimestampCheck = skipsTimestampCheck
        self.acceptsCTSProfileMismatch = acceptsCTSProfileMismatch
    }
}
