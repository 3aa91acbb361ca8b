import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire

@testable import Fido2Belvo

/// A device in a temporary directory store with one credential enrolled from the guide's
/// registration options.
struct EnrolledDevice {
    let temporary: TemporaryStore
    let device: BelvoDevice
    let attestation: AttestationResponse

    init(
        configuration: AuthenticatorConfiguration = BelvoDevice.iOSPlatformConfiguration,
        origin: String? = nil
    ) throws {
        temporary = try TemporaryStore()
        device = BelvoDevice(store: temporary.store, origin: origin, configuration: configuration)
        attestation = try device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
    }

    /// The guide's payment `fido_options`, allowing the enrolled credential.
    var fidoOptions: String { BelvoGuideSamples.fidoOptions(allowing: attestation.encodedId) }
}
