import Fido2Authenticator  // only to play the browser here
import Fido2WebAuthn
import Foundation

let rp = RelyingParty(
    id: "bank.example.com.br", name: "Example Bank",
    origins: ["https://bank.example.com.br"])

// The browser: navigator.credentials.create/get with the options parsed by
// PublicKeyCredential.parseCreationOptionsFromJSON/parseRequestOptionsFromJSON, answered with
// credential.toJSON(). Here a software authenticator stands in for it.
let browser = SoftwareAuthenticator(store: InMemoryCredentialStore())
func create(_ optionsJSON: String) throws -> String {
    try browser.makeCredential(
        optionsJSON: Array(optionsJSON.utf8), origin: "https://bank.example.com.br"
    ).jsonText()
}
func get(_ optionsJSON: String) throws -> String {
    try browser.getAssertion(
        optionsJSON: Array(optionsJSON.utf8), origin: "https://bank.example.com.br"
    ).jsonText()
}

// Registration. The user handle is random, never an e-mail address or a name.
let userHandle = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
let registration = try rp.beginRegistration(
    user: PublicKeyCredentialUserEntityJSON(id: userHandle, name: "alice", displayName: "Alice"),
    excludeCredentials: [])  // the user's existing records
let savedState = try JSONEncoder().encode(registration.state)  // into the session store
let registrationResponse = try create(registration.optionsJSON)  // sent to the browser
var record = try rp.finishRegistration(
    responseJSON: registrationResponse,
    state: try JSONDecoder().decode(RegistrationState.self, from: savedState))
let storedRecord = try JSONEncoder().encode(record)  // into the database

// Sign-in: allowCredentials from the user's records, or [] for a discoverable credential.
let authentication = try rp.beginAuthentication(allowCredentials: [record])
let assertionResponse = try get(authentication.optionsJSON)
let verified = try rp.finishAuthentication(
    responseJSON: assertionResponse, state: authentication.state,
    credential: try JSONDecoder().decode(CredentialRecord.self, from: storedRecord))
record = verified.updatedRecord  // the new counter and backup state: store it
print("signed in with \(verified.credentialId.count)-byte credential, counter \(record.signCount)")
