// A consumer of fido2kit written only against the ceremony contract (issue 19): a relying
// party with begin/finish calls, Codable states and records, and the software authenticator as
// the browser. Every check prints one line; the program exits 1 if any fails.
//
// Usage: ConsumerContract [--transcript FILE]
//   --transcript FILE also writes the options and responses of a few ceremonies (ES256, EdDSA,
//   RS256; allowCredentials and discoverable) as JSON, for Tests/Peers/ceremony.py to verify
//   with independent relying parties.
import Fido2Authenticator
import Fido2WebAuthn
import Foundation

let origin = "https://bank.example.com.br"
let rp = RelyingParty(
    id: "bank.example.com.br", name: "Example Bank", origins: [origin])

nonisolated(unsafe) var failures = 0
func check(_ condition: @autoclosure () throws -> Bool, _ what: String) {
    do {
        if try condition() {
            print("ok    \(what)")
            return
        }
        print("FAIL  \(what)")
    } catch {
        print("FAIL  \(what): \(error)")
    }
    failures += 1
}

/// Whether `body` throws an AuthenticatorError with `code` (the software authenticator's
/// refusals have an error type of their own).
func authenticatorRefuses(_ code: AuthenticatorError.Code, _ body: () throws -> Void) -> Bool {
    do {
        try body()
        print("      (no error)")
        return false
    } catch let error as AuthenticatorError {
        if error.code != code { print("      (\(error))") }
        return error.code == code
    } catch {
        print("      (not an AuthenticatorError: \(error))")
        return false
    }
}

/// Whether `body` throws a WebAuthnError with `code`.
func refuses(_ code: WebAuthnError.Code, _ body: () throws -> Void) -> Bool {
    do {
        try body()
        print("      (no error)")
        return false
    } catch let error as WebAuthnError {
        if error.code != code { print("      (\(error))") }
        return error.code == code
    } catch {
        print("      (not a WebAuthnError: \(error))")
        return false
    }
}

func browser(_ configuration: AuthenticatorConfiguration = .init()) -> SoftwareAuthenticator {
    SoftwareAuthenticator(configuration: configuration, store: InMemoryCredentialStore())
}

func create(
    _ authenticator: SoftwareAuthenticator, _ optionsJSON: String, origin: String = origin
) throws -> String {
    try authenticator.makeCredential(optionsJSON: Array(optionsJSON.utf8), origin: origin)
        .jsonText()
}

func get(
    _ authenticator: SoftwareAuthenticator, _ optionsJSON: String, origin: String = origin
) throws -> String {
    try authenticator.getAssertion(optionsJSON: Array(optionsJSON.utf8), origin: origin)
        .jsonText()
}

func user(_ name: String) -> PublicKeyCredentialUserEntityJSON {
    PublicKeyCredentialUserEntityJSON(
        id: (0..<16).map { _ in UInt8.random(in: .min ... .max) }, name: name,
        displayName: name.capitalized)
}

func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
}

do {
    let phone = browser()
    let alice = user("alice")

    // Registration, with the state and the record through Codable.
    let registration = try rp.beginRegistration(user: alice, excludeCredentials: [])
    let registrationState = try roundTrip(registration.state)
    check(registrationState == registration.state, "the registration state survives Codable")
    let record = try roundTrip(
        try rp.finishRegistration(
            responseJSON: try create(phone, registration.optionsJSON), state: registrationState))
    check(record.userHandle == alice.id, "registration: the record carries the user handle")
    check(try roundTrip(record) == record, "the credential record survives Codable")

    // Different challenges for each begin.
    let challenges =
        try (0..<20).map { _ in
            try rp.beginRegistration(user: alice).state.challenge
        } + (0..<20).map { _ in try rp.beginAuthentication().state.challenge }
    check(
        Set(challenges).count == challenges.count && challenges.allSatisfy { $0.count >= 32 },
        "every begin has its own challenge of at least 32 bytes")

    // Sign-in with allowCredentials.
    let authentication = try rp.beginAuthentication(allowCredentials: [record])
    let authenticationState = try roundTrip(authentication.state)
    check(authenticationState == authentication.state, "the authentication state survives Codable")
    let assertion = try get(phone, authentication.optionsJSON)
    let verified = try rp.finishAuthentication(
        responseJSON: assertion, state: authenticationState, credential: record)
    check(
        verified.updatedRecord.signCount == 1 && verified.updatedRecord.id == record.id,
        "sign-in with allowCredentials; the updated record has the new counter")

    // A counter going backwards: the same assertion against the updated record.
    check(
        refuses(.signCountRegressed) {
            _ = try rp.finishAuthentication(
                responseJSON: assertion, state: authenticationState,
                credential: verified.updatedRecord)
        }, "a counter going backwards is refused")

    // Discoverable sign-in: the response names the user.
    let discoverable = try rp.beginAuthentication(allowCredentials: [])
    let discoverableAssertion = try get(phone, discoverable.optionsJSON)
    let reference = try rp.credentialReference(responseJSON: discoverableAssertion)
    check(
        reference.credentialId == record.id && reference.userHandle == alice.id,
        "discoverable: the response's credential ID and user handle are read before verifying")
    let signedIn = try rp.finishAuthentication(
        responseJSON: discoverableAssertion, state: discoverable.state,
        credential: verified.updatedRecord)
    check(signedIn.userHandle == alice.id, "sign-in with a discoverable credential")

    // excludeCredentials honoured: the authenticator holding the credential refuses to make
    // another.
    let again = try rp.beginRegistration(user: alice, excludeCredentials: [record])
    check(
        again.options.excludeCredentials.map(\.id) == [record.id],
        "excludeCredentials lists the user's credentials")
    check(
        authenticatorRefuses(.credentialExcluded) { _ = try create(phone, again.optionsJSON) },
        "excludeCredentials is honoured")

    // A wrong state: another ceremony's.
    let first = try rp.beginRegistration(user: alice)
    let second = try rp.beginRegistration(user: alice)
    let answer = try create(browser(), first.optionsJSON)
    check(
        refuses(.challengeMismatch) {
            _ = try rp.finishRegistration(responseJSON: answer, state: second.state)
        }, "a wrong state is refused")

    // Another origin.
    let elsewhere = try create(
        browser(), first.optionsJSON, origin: "https://evil.bank.example.com.br")
    check(
        refuses(.originNotAllowed) {
            _ = try rp.finishRegistration(responseJSON: elsewhere, state: first.state)
        }, "another origin is refused")
    let otherOrigin = try rp.beginAuthentication(allowCredentials: [record])
    let elsewhereAssertion = try get(
        phone, otherOrigin.optionsJSON, origin: "https://evil.bank.example.com.br")
    check(
        refuses(.originNotAllowed) {
            _ = try rp.finishAuthentication(
                responseJSON: elsewhereAssertion, state: otherOrigin.state,
                credential: signedIn.updatedRecord)
        }, "an assertion from another origin is refused")

    // Transcript for the independent relying parties.
    let arguments = CommandLine.arguments
    if let flag = arguments.firstIndex(of: "--transcript"), flag + 1 < arguments.count {
        var ceremonies: [[String: String]] = []
        for algorithm in [COSEAlgorithm.es256, .edDSA, .rs256] {
            var configuration = AuthenticatorConfiguration()
            configuration.supportedAlgorithms = [algorithm]
            let authenticator = browser(configuration)
            let registration = try rp.beginRegistration(user: user("peer"))
            let registrationResponse = try create(authenticator, registration.optionsJSON)
            let record = try rp.finishRegistration(
                responseJSON: registrationResponse, state: registration.state)
            let allow = try rp.beginAuthentication(allowCredentials: [record])
            let allowResponse = try get(authenticator, allow.optionsJSON)
            let updated = try rp.finishAuthentication(
                responseJSON: allowResponse, state: allow.state, credential: record
            ).updatedRecord
            let discoverable = try rp.beginAuthentication()
            let discoverableResponse = try get(authenticator, discoverable.optionsJSON)
            _ = try rp.finishAuthentication(
                responseJSON: discoverableResponse, state: discoverable.state,
                credential: updated)
            ceremonies.append([
                "algorithm": "\(algorithm)", "origin": origin,
                "registration_options": registration.optionsJSON,
                "registration_response": registrationResponse,
                "authentication_options": allow.optionsJSON,
                "authentication_response": allowResponse,
                "discoverable_options": discoverable.optionsJSON,
                "discoverable_response": discoverableResponse,
                "stored_sign_count": "\(record.signCount)",
                "discoverable_stored_sign_count": "\(updated.signCount)",
            ])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(ceremonies).write(to: URL(fileURLWithPath: arguments[flag + 1]))
        print("wrote \(ceremonies.count) ceremonies to \(arguments[flag + 1])")
    }
} catch {
    print("FAIL  unexpected error: \(error)")
    failures += 1
}

if failures > 0 {
    print("\(failures) check(s) failed")
    exit(1)
}
print("every check passed")
