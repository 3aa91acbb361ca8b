import Testing

@testable import Fido2Belvo

/// The bank's redirect back to the app becomes the complete-redirection body, and a redirect
/// that carries no usable answer is a typed error.
@Suite struct CallbackURLTests {
    @Test func queryParametersBecomeTheRequest() throws {
        let request = try BelvoCompleteRedirectionRequest(
            callbackURL:
                "https://merchant.example/cb?state=st%2B1&code=abc+def&id_token=eyJ.x.y&extra=1")
        #expect(request.state == "st+1")
        #expect(request.code == "abc+def")
        #expect(request.idToken == "eyJ.x.y")
        #expect(
            request
                == (try BelvoCompleteRedirectionRequest(
                    state: "st+1", code: "abc+def", idToken: "eyJ.x.y")))
    }

    @Test func fragmentParametersAreReadWhenTheQueryHasNone() throws {
        let request = try BelvoCompleteRedirectionRequest(
            callbackURL: "https://merchant.example/cb?utm=x#code=c1&state=s1&id_token=t1")
        #expect(request.code == "c1")
        #expect(request.state == "s1")
        #expect(request.idToken == "t1")
    }

    @Test func errorRedirectIsACallbackError() {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(
                callbackURL:
                    "https://merchant.example/cb?error=access_denied&error_description=User%20cancelled&state=s"
            )
        }
        #expect(error?.code == .callbackError)
        #expect(error?.kind == .invalidParameters)
        #expect(error?.field == "error")
        #expect(error?.reason.contains("access_denied") == true)
        #expect(error?.reason.contains("User cancelled") == true)
    }

    @Test func errorInTheFragmentIsACallbackError() {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(
                callbackURL: "https://merchant.example/cb#error=server_error")
        }
        #expect(error?.code == .callbackError)
        #expect(error?.reason.contains("server_error") == true)
    }

    @Test(arguments: [
        ("https://m.example/cb?state=s&id_token=t", "code"),
        ("https://m.example/cb?code=c&id_token=t", "state"),
        ("https://m.example/cb?state=s&code=c", "id_token"),
        ("https://m.example/cb?state=s&code=&id_token=t", "code"),
        ("https://m.example/cb", "state"),
    ])
    func missingParameterIsNamed(url: String, parameter: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(callbackURL: url)
        }
        #expect(error?.code == .missingCallbackParameter)
        #expect(error?.field == parameter)
        #expect(error?.reason.contains(parameter) == true)
    }

    @Test func repeatedParameterIsAmbiguous() {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(
                callbackURL: "https://m.example/cb?state=s&code=c1&code=c2&id_token=t")
        }
        #expect(error?.code == .malformedCallbackURL)
        #expect(error?.field == "code")
    }

    @Test(arguments: [
        "https://m.example/cb?state=%zz&code=c&id_token=t",
        "https://m.example/cb?state=s&code=c&id_token=t%2",
        "https://m.example/cb?state=s&code=c&id_token=%FF",
        "https://m.example/cb?state=a b&code=c&id_token=t",
        "https://m.example/cb#code=%zz&state=s&id_token=t",
        "http://[::1",
    ])
    func unparsableURLIsMalformed(url: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(callbackURL: url)
        }
        #expect(error?.code == .malformedCallbackURL)
    }

    @Test(arguments: [("", "c", "t", "state"), ("s", "", "t", "code"), ("s", "c", "", "id_token")])
    func emptyDirectValueIsNamed(state: String, code: String, idToken: String, parameter: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCompleteRedirectionRequest(state: state, code: code, idToken: idToken)
        }
        #expect(error?.code == .missingCallbackParameter)
        #expect(error?.field == parameter)
    }
}
