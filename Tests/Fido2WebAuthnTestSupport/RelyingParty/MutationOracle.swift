import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// Which step must reject a single-bit change of a signed region: computed from what the bit
/// means, independently of the verifier (client data is read with the generic `JSONReader`,
/// not the scanner the verifier uses).
package struct MutationOracle {
    /// The steps of one ceremony that a mutation can trip.
    package struct Steps {
        package let clientData: String
        package let type: String
        package let challenge: String
        package let origin: String
        package let crossOrigin: String
        package let topOrigin: String
        /// The signature step that catches everything else (§7.1 step 22 for the attestation
        /// signature, §7.2 step 21 for the assertion signature).
        package let signature: String

        package static let registration = Steps(
            clientData: "§7.1 step 6", type: "§7.1 step 7", challenge: "§7.1 step 8",
            origin: "§7.1 step 9", crossOrigin: "§7.1 step 10", topOrigin: "§7.1 step 11",
            signature: "§7.1 step 22")
        package static let authentication = Steps(
            clientData: "§7.2 step 9", type: "§7.2 step 10", challenge: "§7.2 step 11",
            origin: "§7.2 step 12", crossOrigin: "§7.2 step 13", topOrigin: "§7.2 step 14",
            signature: "§7.2 step 21")
    }

    package let steps: Steps
    package let type: String
    package let challenge: [UInt8]
    package let origins: [String]
    package let allowsCrossOrigin: Bool
    package let topOrigins: [String]

    /// An oracle for one ceremony's expectations.
    package init(
        steps: Steps, type: String, challenge: [UInt8], origins: [String],
        allowsCrossOrigin: Bool, topOrigins: [String]
    ) {
        self.steps = steps
        self.type = type
        self.challenge = challenge
        self.origins = origins
        self.allowsCrossOrigin = allowsCrossOrigin
        self.topOrigins = topOrigins
    }

    /// The step that must reject `clientDataJSON` (one bit changed).
    package func step(forClientData clientDataJSON: [UInt8]) -> String {
        guard let value = try? JSONReader().read(clientDataJSON), value.objectValue != nil,
            let type = value["type"]?.stringValue,
            let challengeText = value["challenge"]?.stringValue,
            let challenge = try? Base64URL.decode(challengeText),
            let origin = value["origin"]?.stringValue
        else { return steps.clientData }
        var crossOrigin = false
        if let member = value["crossOrigin"] {
            guard let flag = member.boolValue else { return steps.clientData }
            crossOrigin = flag
        }
        var topOrigin: String?
        if let member = value["topOrigin"] {
            guard let text = member.stringValue else { return steps.clientData }
            topOrigin = text
        }
        if let tokenBinding = value["tokenBinding"], tokenBinding.objectValue != nil {
            guard let status = tokenBinding["status"]?.stringValue,
                status == "present" || status == "supported"
            else { return steps.clientData }
        }
        guard type.utf8.elementsEqual(self.type.utf8) else { return steps.type }
        guard challenge == self.challenge else { return steps.challenge }
        guard origins.contains(where: { $0.utf8.elementsEqual(origin.utf8) }) else {
            return steps.origin
        }
        guard !crossOrigin || allowsCrossOrigin else { return steps.crossOrigin }
        if let topOrigin,
            !allowsCrossOrigin
                || !topOrigins.contains(where: { $0.utf8.elementsEqual(topOrigin.utf8) })
        {
            return steps.topOrigin
        }
        return steps.signature
    }
}

/// Flips every bit of `region` (indices of `bytes`) in turn, runs `verify` on the result and
/// collects the mutations whose error step is not among the oracle's.
package struct BitFlipRun {
    package private(set) var checked = 0
    package private(set) var mismatches: [String] = []

    /// A run with nothing checked yet.
    package init() {}

    package mutating func flipEveryBit(
        of bytes: [UInt8], in region: Range<Int>, label: String,
        expected: (_ mutated: [UInt8], _ index: Int, _ bit: Int) -> Set<String>,
        verify: (_ mutated: [UInt8]) throws -> Void
    ) {
        var mutated = bytes
        for index in region {
            for bit in 0..<8 {
                mutated[index] ^= 1 << bit
                let allowed = expected(mutated, index, bit)
                checked += 1
                do {
                    try verify(mutated)
                    mismatches.append("\(label)[\(index - region.lowerBound)] bit \(bit): verified")
                } catch let error as WebAuthnError {
                    if !allowed.contains(error.step?.description ?? "no step") {
                        mismatches.append(
                            "\(label)[\(index - region.lowerBound)] bit \(bit): \(error.code) at \(error.step?.description ?? "no step"), expected \(allowed.sorted())"
                        )
                    }
                } catch {
                    Issue.record("expected a WebAuthnError, got \(error)")
                }
                mutated[index] ^= 1 << bit
            }
        }
    }

    /// Records the first mismatches, if any, as one issue.
    package func report(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(checked > 0, "\(name): nothing was mutated", sourceLocation: sourceLocation)
        #expect(
            mismatches.isEmpty,
            "\(name): \(mismatches.count) of \(checked) mutations: \(mismatches.prefix(8).joined(separator: "; "))",
            sourceLocation: sourceLocation)
    }
}
