extension WebAuthnError {
    /// The same error attributed to `step`, unless it already names one (a format verifier's
    /// trust path error names its own).
    package func attributed(to step: VerificationStep) -> WebAuthnError {
        guard self.step == nil else { return self }
        return WebAuthnError(code, reason, field: field, step: step, offset: offset)
    }

    /// The same error as a ceremony step: a format verifier's own section (`§8.3`) moves into
    /// the reason (`§8.3: …`) and the step becomes `step`; an error already naming a ceremony
    /// step (`§7.1 step 24`, a trust path) or none at all is attributed as ``attributed(to:)``.
    package func attributedToCeremony(step: VerificationStep) -> WebAuthnError {
        guard let own = self.step, !own.isCeremonyStep else { return attributed(to: step) }
        return WebAuthnError(code, "\(own): \(reason)", field: field, step: step, offset: offset)
    }

    /// A relying-party failure of `step`.
    package static func failed(
        _ code: Code, _ reason: String, field: String? = nil, step: VerificationStep
    ) -> WebAuthnError {
        WebAuthnError(code, reason, field: field, step: step)
    }
}

/// Runs `body`, attributing any error it throws without a step to `step`. The body calls this
/// module's API, which throws ``WebAuthnError`` only.
package func atStep<Result>(
    _ step: VerificationStep, _ body: () throws -> Result
) throws(WebAuthnError) -> Result {
    do {
        return try body()
    } catch {
        throw WebAuthnError(wrapping: error).attributed(to: step)
    }
}

/// `text` as it goes into an error reason: in quotes, control characters escaped (`\n`,
/// `\u{7f}`), cut after 100 characters. Client data is attacker-controlled; a reason stays one
/// line whatever it holds.
package func quotedInput(_ text: String) -> String {
    var quoted = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        guard index < 100 else {
            quoted += "…"
            break
        }
        if scalar.properties.generalCategory == .control || scalar == "\"" || scalar == "\\"
            || scalar == "\u{2028}" || scalar == "\u{2029}"
        {
            quoted += scalar.escaped(asASCII: true)
        } else {
            quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "\""
}
