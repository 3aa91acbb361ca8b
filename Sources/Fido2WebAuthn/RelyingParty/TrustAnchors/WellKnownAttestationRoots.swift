import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The public root certificates that anchor the device attestation formats, as fido2kit ships
/// them: the Apple WebAuthn root (`apple`), Google's hardware attestation roots
/// (`android-key`), the GlobalSign roots above SafetyNet's signing certificate
/// (`android-safetynet`) and Microsoft's TPM root above Windows Hello AIK certificates (`tpm`).
///
/// A ceremony whose options ask for attestation (`direct`, `indirect`, `enterprise`) trusts
/// all of them when the relying party's ``AttestationTrustPolicy`` names no anchors;
/// otherwise only what the policy names is trusted: ``AttestationTrustPolicy/wellKnownRoots(validationTime:)``
/// builds a policy from ``all``, ``AttestationTrustPolicy/trustingWellKnownRoots(_:)`` adds
/// them to an existing one. Each carries its source and SHA-256 fingerprint, checked whenever
/// it is parsed. Roots rotate: compare these with the vendors' published lists from time to time
/// and add new ones with ``AttestationTrustPolicy/trusting(pemEncoded:for:)``.
///
/// Not shipped: the TPM vendors' endorsement-key (EK) roots, which anchor EK certificates, not
/// the AIK certificates of `tpm` statements (Windows issues those under Microsoft's root); the
/// FIDO conformance tool's test roots; the roots of `packed` and `fido-u2f` authenticators,
/// which come per model from the FIDO Metadata Service.
public enum WellKnownAttestationRoots {
    /// Apple WebAuthn Root CA (`apple`).
    ///
    /// Subject CN=Apple WebAuthn Root CA, O=Apple Inc., ST=California; P-384, self-signed;
    /// valid 2020-03-18 to 2045-03-15.
    /// Obtained through public copies that cite Apple's URL (py_webauthn, webauthn-ruby,
    /// fido2-net-lib, SimpleWebAuthn), byte-identical; the fingerprint matches the one those copies
    /// quote from Apple, the self-signature verifies, and the real Apple vectors chain to it.
    /// SHA-256 0915dd5c07a28db549d1f677bb5a75d4bfbe9561a773424327762e9e02f9bb29.
    public static let appleWebAuthnRootCA = WellKnownAttestationRoot(
        name: "Apple WebAuthn Root CA", formats: ["apple"],
        sha256Fingerprint: "0915dd5c07a28db549d1f677bb5a75d4bfbe9561a773424327762e9e02f9bb29",
        source: "https://www.apple.com/certificateauthority/Apple_WebAuthn_Root_CA.pem",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIICEjCCAZmgAwIBAgIQaB0BbHo84wIlpQGUKEdXcTAKBggqhkjOPQQDAzBLMR8w
            HQYDVQQDDBZBcHBsZSBXZWJBdXRobiBSb290IENBMRMwEQYDVQQKDApBcHBsZSBJ
            bmMuMRMwEQYDVQQIDApDYWxpZm9ybmlhMB4XDTIwMDMxODE4MjEzMloXDTQ1MDMx
            NTAwMDAwMFowSzEfMB0GA1UEAwwWQXBwbGUgV2ViQXV0aG4gUm9vdCBDQTETMBEG
            A1UECgwKQXBwbGUgSW5jLjETMBEGA1UECAwKQ2FsaWZvcm5pYTB2MBAGByqGSM49
            AgEGBSuBBAAiA2IABCJCQ2pTVhzjl4Wo6IhHtMSAzO2cv+H9DQKev3//fG59G11k
            xu9eI0/7o6V5uShBpe1u6l6mS19S1FEh6yGljnZAJ+2GNP1mi/YK2kSXIuTHjxA/
            pcoRf7XkOtO4o1qlcaNCMEAwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHQ4EFgQUJtdk
            2cV4wlpn0afeaxLQG2PxxtcwDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2cA
            MGQCMFrZ+9DsJ1PW9hfNdBywZDsWDbWFp28it1d/5w2RPkRX3Bbn/UbDTNLx7Jr3
            jAGGiQIwHFj+dJZYUJR786osByBelJYsVZd2GbHQu209b5RCmGQ21gpSAk9QZW4B
            1bWeT0vT
            -----END CERTIFICATE-----
            """)

    /// Google Hardware Attestation Root 1 (`android-key`).
    ///
    /// Subject serialNumber=f92009e853b6b045; RSA-4096, self-signed, serial e8fa196314d2fa18;
    /// valid 2016-05-26 to 2026-05-24.
    /// Obtained through py_webauthn's copy (which quotes this fingerprint from developer.android.com)
    /// and matched byte for byte by other public copies; the self-signature verifies and real
    /// Android devices' chains end at this key.
    /// SHA-256 c1984a3ef45c1e2a918551de10603c86f7051b2249c4891cae3230eabd0c97d5.
    public static let googleHardwareAttestationRoot1 = WellKnownAttestationRoot(
        name: "Google Hardware Attestation Root 1", formats: ["android-key"],
        sha256Fingerprint: "c1984a3ef45c1e2a918551de10603c86f7051b2249c4891cae3230eabd0c97d5",
        source:
            "https://developer.android.com/privacy-and-security/security-key-attestation#root_certificate",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIFYDCCA0igAwIBAgIJAOj6GWMU0voYMA0GCSqGSIb3DQEBCwUAMBsxGTAXBgNV
            BAUTEGY5MjAwOWU4NTNiNmIwNDUwHhcNMTYwNTI2MTYyODUyWhcNMjYwNTI0MTYy
            ODUyWjAbMRkwFwYDVQQFExBmOTIwMDllODUzYjZiMDQ1MIICIjANBgkqhkiG9w0B
            AQEFAAOCAg8AMIICCgKCAgEAr7bHgiuxpwHsK7Qui8xUFmOr75gvMsd/dTEDDJdS
            Sxtf6An7xyqpRR90PL2abxM1dEqlXnf2tqw1Ne4Xwl5jlRfdnJLmN0pTy/4lj4/7
            tv0Sk3iiKkypnEUtR6WfMgH0QZfKHM1+di+y9TFRtv6y//0rb+T+W8a9nsNL/ggj
            nar86461qO0rOs2cXjp3kOG1FEJ5MVmFmBGtnrKpa73XpXyTqRxB/M0n1n/W9nGq
            C4FSYa04T6N5RIZGBN2z2MT5IKGbFlbC8UrW0DxW7AYImQQcHtGl/m00QLVWutHQ
            oVJYnFPlXTcHYvASLu+RhhsbDmxMgJJ0mcDpvsC4PjvB+TxywElgS70vE0XmLD+O
            JtvsBslHZvPBKCOdT0MS+tgSOIfga+z1Z1g7+DVagf7quvmag8jfPioyKvxnK/Eg
            sTUVi2ghzq8wm27ud/mIM7AY2qEORR8Go3TVB4HzWQgpZrt3i5MIlCaY504LzSRi
            igHCzAPlHws+W0rB5N+er5/2pJKnfBSDiCiFAVtCLOZ7gLiMm0jhO2B6tUXHI/+M
            RPjy02i59lINMRRev56GKtcd9qO/0kUJWdZTdA2XoS82ixPvZtXQpUpuL12ab+9E
            aDK8Z4RHJYYfCT3Q5vNAXaiWQ+8PTWm2QgBR/bkwSWc+NpUFgNPN9PvQi8WEg5Um
            AGMCAwEAAaOBpjCBozAdBgNVHQ4EFgQUNmHhAHyIBQlRi0RsR/8aTMnqTxIwHwYD
            VR0jBBgwFoAUNmHhAHyIBQlRi0RsR/8aTMnqTxIwDwYDVR0TAQH/BAUwAwEB/zAO
            BgNVHQ8BAf8EBAMCAYYwQAYDVR0fBDkwNzA1oDOgMYYvaHR0cHM6Ly9hbmRyb2lk
            Lmdvb2dsZWFwaXMuY29tL2F0dGVzdGF0aW9uL2NybC8wDQYJKoZIhvcNAQELBQAD
            ggIBACDIw41L3KlXG0aMiS//cqrG+EShHUGo8HNsw30W1kJtjn6UBwRM6jnmiwfB
            Pb8VA91chb2vssAtX2zbTvqBJ9+LBPGCdw/E53Rbf86qhxKaiAHOjpvAy5Y3m00m
            qC0w/Zwvju1twb4vhLaJ5NkUJYsUS7rmJKHHBnETLi8GFqiEsqTWpG/6ibYCv7rY
            DBJDcR9W62BW9jfIoBQcxUCUJouMPH25lLNcDc1ssqvC2v7iUgI9LeoM1sNovqPm
            QUiG9rHli1vXxzCyaMTjwftkJLkf6724DFhuKug2jITV0QkXvaJWF4nUaHOTNA4u
            JU9WDvZLI1j83A+/xnAJUucIv/zGJ1AMH2boHqF8CY16LpsYgBt6tKxxWH00XcyD
            CdW2KlBCeqbQPcsFmWyWugxdcekhYsAWyoSf818NUsZdBWBaR/OukXrNLfkQ79Iy
            ZohZbvabO/X+MVT3rriAoKc8oE2Uws6DF+60PV7/WIPjNvXySdqspImSN78mflxD
            qwLqRBYkA3I75qppLGG9rp7UCdRjxMl8ZDBld+7yvHVgt1cVzJx9xnyGCC23Uaic
            MDSXYrB4I4WHXPGjxhZuCuPBLTdOLU8YRvMYdEvYebWHMpvwGCF6bAx3JBpIeOQ1
            wDB5y0USicV3YgYGmi+NZfhA4URSh77Yd6uuJOJENRaNVTzk
            -----END CERTIFICATE-----
            """)

    /// Google Hardware Attestation Root 2 (`android-key`).
    ///
    /// Subject serialNumber=f92009e853b6b045 (the same key as root 1, re-issued); RSA-4096,
    /// self-signed, serial d50ff25ba3f2d6b3; valid 2019-11-22 to 2034-11-18.
    /// Provenance as root 1 (fingerprint quoted from developer.android.com by py_webauthn).
    /// SHA-256 1ef1a04b8ba58ab94589ac498c8982a783f24ea7307e0159a0c3a73b377d87cc.
    public static let googleHardwareAttestationRoot2 = WellKnownAttestationRoot(
        name: "Google Hardware Attestation Root 2", formats: ["android-key"],
        sha256Fingerprint: "1ef1a04b8ba58ab94589ac498c8982a783f24ea7307e0159a0c3a73b377d87cc",
        source:
            "https://developer.android.com/privacy-and-security/security-key-attestation#root_certificate",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIFHDCCAwSgAwIBAgIJANUP8luj8tazMA0GCSqGSIb3DQEBCwUAMBsxGTAXBgNV
            BAUTEGY5MjAwOWU4NTNiNmIwNDUwHhcNMTkxMTIyMjAzNzU4WhcNMzQxMTE4MjAz
            NzU4WjAbMRkwFwYDVQQFExBmOTIwMDllODUzYjZiMDQ1MIICIjANBgkqhkiG9w0B
            AQEFAAOCAg8AMIICCgKCAgEAr7bHgiuxpwHsK7Qui8xUFmOr75gvMsd/dTEDDJdS
            Sxtf6An7xyqpRR90PL2abxM1dEqlXnf2tqw1Ne4Xwl5jlRfdnJLmN0pTy/4lj4/7
            tv0Sk3iiKkypnEUtR6WfMgH0QZfKHM1+di+y9TFRtv6y//0rb+T+W8a9nsNL/ggj
            nar86461qO0rOs2cXjp3kOG1FEJ5MVmFmBGtnrKpa73XpXyTqRxB/M0n1n/W9nGq
            C4FSYa04T6N5RIZGBN2z2MT5IKGbFlbC8UrW0DxW7AYImQQcHtGl/m00QLVWutHQ
            oVJYnFPlXTcHYvASLu+RhhsbDmxMgJJ0mcDpvsC4PjvB+TxywElgS70vE0XmLD+O
            JtvsBslHZvPBKCOdT0MS+tgSOIfga+z1Z1g7+DVagf7quvmag8jfPioyKvxnK/Eg
            sTUVi2ghzq8wm27ud/mIM7AY2qEORR8Go3TVB4HzWQgpZrt3i5MIlCaY504LzSRi
            igHCzAPlHws+W0rB5N+er5/2pJKnfBSDiCiFAVtCLOZ7gLiMm0jhO2B6tUXHI/+M
            RPjy02i59lINMRRev56GKtcd9qO/0kUJWdZTdA2XoS82ixPvZtXQpUpuL12ab+9E
            aDK8Z4RHJYYfCT3Q5vNAXaiWQ+8PTWm2QgBR/bkwSWc+NpUFgNPN9PvQi8WEg5Um
            AGMCAwEAAaNjMGEwHQYDVR0OBBYEFDZh4QB8iAUJUYtEbEf/GkzJ6k8SMB8GA1Ud
            IwQYMBaAFDZh4QB8iAUJUYtEbEf/GkzJ6k8SMA8GA1UdEwEB/wQFMAMBAf8wDgYD
            VR0PAQH/BAQDAgIEMA0GCSqGSIb3DQEBCwUAA4ICAQBOMaBc8oumXb2voc7XCWnu
            XKhBBK3e2KMGz39t7lA3XXRe2ZLLAkLM5y3J7tURkf5a1SutfdOyXAmeE6SRo83U
            h6WszodmMkxK5GM4JGrnt4pBisu5igXEydaW7qq2CdC6DOGjG+mEkN8/TA6p3cno
            L/sPyz6evdjLlSeJ8rFBH6xWyIZCbrcpYEJzXaUOEaxxXxgYz5/cTiVKN2M1G2ok
            QBUIYSY6bjEL4aUN5cfo7ogP3UvliEo3Eo0YgwuzR2v0KR6C1cZqZJSTnghIC/vA
            D32KdNQ+c3N+vl2OTsUVMC1GiWkngNx1OO1+kXW+YTnnTUOtOIswUP/Vqd5SYgAI
            mMAfY8U9/iIgkQj6T2W6FsScy94IN9fFhE1UtzmLoBIuUFsVXJMTz+Jucth+IqoW
            Fua9v1R93/k98p41pjtFX+H8DslVgfP097vju4KDlqN64xV1grw3ZLl4CiOe/A91
            oeLm2UHOq6wn3esB4r2EIQKb6jTVGu5sYCcdWpXr0AUVqcABPdgL+H7qJguBw09o
            jm6xNIrw2OocrDKsudk/okr/AwqEyPKw9WnMlQgLIKw1rODG2NvU9oR3GVGdMkUB
            ZutL8VuFkERQGt6vQ2OCw0sV47VMkuYbacK/xyZFiRcrPJPb41zgbQj9XAEyLKCH
            ex0SdDrx+tWUDqG8At2JHA==
            -----END CERTIFICATE-----
            """)

    /// Google Key Attestation CA1 (`android-key`).
    ///
    /// Subject CN=Key Attestation CA1, OU=Android, O=Google LLC, C=US; P-384, self-signed,
    /// serial 84a9d0297b0eb58ae7ff0e80de760605; valid 2025-07-17 to 2035-07-15: the root Google
    /// moves Android key attestation to from 2026.
    /// Obtained through several independent public copies that agree byte for byte (one of them
    /// quotes this fingerprint); the self-signature verifies. No vector here chains to it yet, and
    /// no Google page quoting its fingerprint was reachable: check it against Google's list.
    /// SHA-256 6d9db4ce6c5c0b293166d08986e05774a8776ceb525d9e4329520de12ba4bcc0.
    public static let googleKeyAttestationCA1 = WellKnownAttestationRoot(
        name: "Google Key Attestation CA1", formats: ["android-key"],
        sha256Fingerprint: "6d9db4ce6c5c0b293166d08986e05774a8776ceb525d9e4329520de12ba4bcc0",
        source: "https://android.googleapis.com/attestation/root",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIICIjCCAaigAwIBAgIRAISp0Cl7DrWK5/8OgN52BgUwCgYIKoZIzj0EAwMwUjEc
            MBoGA1UEAwwTS2V5IEF0dGVzdGF0aW9uIENBMTEQMA4GA1UECwwHQW5kcm9pZDET
            MBEGA1UECgwKR29vZ2xlIExMQzELMAkGA1UEBhMCVVMwHhcNMjUwNzE3MjIzMjE4
            WhcNMzUwNzE1MjIzMjE4WjBSMRwwGgYDVQQDDBNLZXkgQXR0ZXN0YXRpb24gQ0Ex
            MRAwDgYDVQQLDAdBbmRyb2lkMRMwEQYDVQQKDApHb29nbGUgTExDMQswCQYDVQQG
            EwJVUzB2MBAGByqGSM49AgEGBSuBBAAiA2IABCPaI3FO3z5bBQo8cuiEas4HjqCt
            G/mLFfRT0MsIssPBEEU5Cfbt6sH5yOAxqEi5QagpU1yX4HwnGb7OtBYpDTB57uH5
            Eczm34A5FNijV3s0/f0UPl7zbJcTx6xwqMIRq6NCMEAwDwYDVR0TAQH/BAUwAwEB
            /zAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFFIyuyz7RkOb3NaBqQ5lZuA0QepA
            MAoGCCqGSM49BAMDA2gAMGUCMETfjPO/HwqReR2CS7p0ZWoD/LHs6hDi422opifH
            EUaYLxwGlT9SLdjkVpz0UUOR5wIxAIoGyxGKRHVTpqpGRFiJtQEOOTp/+s1GcxeY
            uR2zh/80lQyu9vAFCj6E4AXc+osmRg==
            -----END CERTIFICATE-----
            """)

    /// GlobalSign Root CA (`android-safetynet`).
    ///
    /// Subject CN=GlobalSign Root CA, OU=Root CA, O=GlobalSign nv-sa, C=BE; RSA-2048, self-signed,
    /// serial 040000000001154b5ac394; valid 1998-09-01 to 2028-01-28. It cross-signs GTS Root R1,
    /// which issues the attest.android.com certificates of SafetyNet responses since 2020.
    /// Taken from the Mozilla root store (Debian ca-certificates) and matched against the copy in
    /// py_webauthn, which quotes the same fingerprint from pki.goog.
    /// SHA-256 ebd41040e4bb3ec742c9e381d31ef2a41a48b6685c96e7cef3c1df6cd4331c99.
    public static let globalSignRootCA = WellKnownAttestationRoot(
        name: "GlobalSign Root CA", formats: ["android-safetynet"],
        sha256Fingerprint: "ebd41040e4bb3ec742c9e381d31ef2a41a48b6685c96e7cef3c1df6cd4331c99",
        source: "https://pki.goog/roots.pem (also in the Mozilla root store)",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIDdTCCAl2gAwIBAgILBAAAAAABFUtaw5QwDQYJKoZIhvcNAQEFBQAwVzELMAkG
            A1UEBhMCQkUxGTAXBgNVBAoTEEdsb2JhbFNpZ24gbnYtc2ExEDAOBgNVBAsTB1Jv
            b3QgQ0ExGzAZBgNVBAMTEkdsb2JhbFNpZ24gUm9vdCBDQTAeFw05ODA5MDExMjAw
            MDBaFw0yODAxMjgxMjAwMDBaMFcxCzAJBgNVBAYTAkJFMRkwFwYDVQQKExBHbG9i
            YWxTaWduIG52LXNhMRAwDgYDVQQLEwdSb290IENBMRswGQYDVQQDExJHbG9iYWxT
            aWduIFJvb3QgQ0EwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDaDuaZ
            jc6j40+Kfvvxi4Mla+pIH/EqsLmVEQS98GPR4mdmzxzdzxtIK+6NiY6arymAZavp
            xy0Sy6scTHAHoT0KMM0VjU/43dSMUBUc71DuxC73/OlS8pF94G3VNTCOXkNz8kHp
            1Wrjsok6Vjk4bwY8iGlbKk3Fp1S4bInMm/k8yuX9ifUSPJJ4ltbcdG6TRGHRjcdG
            snUOhugZitVtbNV4FpWi6cgKOOvyJBNPc1STE4U6G7weNLWLBYy5d4ux2x8gkasJ
            U26Qzns3dLlwR5EiUWMWea6xrkEmCMgZK9FGqkjWZCrXgzT/LCrBbBlDSgeF59N8
            9iFo7+ryUp9/k5DPAgMBAAGjQjBAMA4GA1UdDwEB/wQEAwIBBjAPBgNVHRMBAf8E
            BTADAQH/MB0GA1UdDgQWBBRge2YaRQ2XyolQL30EzTSo//z9SzANBgkqhkiG9w0B
            AQUFAAOCAQEA1nPnfE920I2/7LqivjTFKDK1fPxsnCwrvQmeU79rXqoRSLblCKOz
            yj1hTdNGCbM+w6DjY1Ub8rrvrTnhQ7k4o+YviiY776BQVvnGCv04zcQLcFGUl5gE
            38NflNUVyRRBnMRddWQVDf9VMOyGj/8N7yy5Y0b2qvzfvGn9LhJIZJrglfCm7ymP
            AbEVtQwdpf5pLGkkeB6zpxxxYu7KyJesF12KwvhHhm4qxFYxldBniYUr+WymXUad
            DKqC5JlR3XC321Y9YeRq4VzW9v493kHMB65jUr9TU/Qr6cf9tveCX4XSQRjbgbME
            HMUfpIBvFSDJ3gyICh3WZlXi/EjJKSZp4A==
            -----END CERTIFICATE-----
            """)

    /// GlobalSign Root CA - R2 (`android-safetynet`).
    ///
    /// Subject CN=GlobalSign, O=GlobalSign, OU=GlobalSign Root CA - R2; RSA-2048, self-signed,
    /// serial 0203e4f461ec99d9d57966ca7a; valid 2006-12-15 to 2021-12-15 (expired: it anchors
    /// only SafetyNet responses judged at a validation time before then, such as recorded ones).
    /// Obtained through py_webauthn's copy, which quotes this fingerprint from pki.goog; the
    /// self-signature verifies and 2019 SafetyNet chains end at it.
    /// SHA-256 69e2d06c30f366166165e91d68d1cee5cc47584a80227e76666086c0107241eb.
    public static let globalSignRootCAR2 = WellKnownAttestationRoot(
        name: "GlobalSign Root CA - R2", formats: ["android-safetynet"],
        sha256Fingerprint: "69e2d06c30f366166165e91d68d1cee5cc47584a80227e76666086c0107241eb",
        source: "https://pki.goog/repo/certs/gsr2.pem",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIDvDCCAqSgAwIBAgINAgPk9GHsmdnVeWbKejANBgkqhkiG9w0BAQUFADBMMSAw
            HgYDVQQLExdHbG9iYWxTaWduIFJvb3QgQ0EgLSBSMjETMBEGA1UEChMKR2xvYmFs
            U2lnbjETMBEGA1UEAxMKR2xvYmFsU2lnbjAeFw0wNjEyMTUwODAwMDBaFw0yMTEy
            MTUwODAwMDBaMEwxIDAeBgNVBAsTF0dsb2JhbFNpZ24gUm9vdCBDQSAtIFIyMRMw
            EQYDVQQKEwpHbG9iYWxTaWduMRMwEQYDVQQDEwpHbG9iYWxTaWduMIIBIjANBgkq
            hkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAps8kDr4ubyiZRULEqz4hVJsL03+EcPoS
            s8u/h1/Gf4bTsjBc1v2t8Xvc5fhglgmSEPXQU977e35ziKxSiHtKpspJpl6op4xa
            Ebx6guu+jOmzrJYlB5dKmSoHL7Qed7+KD7UCfBuWuMW5Oiy81hK561l94tAGhl9e
            SWq1OV6INOy8eAwImIRsqM1LtKB9DHlN8LgtyyHK1WxbfeGgKYSh+dOUScskYpEg
            vN0L1dnM+eonCitzkcadG6zIy+jgoPQvkItN+7A2G/YZeoXgbfJhE4hcn+CTClGX
            ilrOr6vV96oJqmC93Nlf33KpYBNeAAHJSvo/pOoHAyECjoLKA8KbjwIDAQABo4Gc
            MIGZMA4GA1UdDwEB/wQEAwIBhjAPBgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBSb
            4gdXZxwewGoG3lm0mi3f3BmGLjAfBgNVHSMEGDAWgBSb4gdXZxwewGoG3lm0mi3f
            3BmGLjA2BgNVHR8ELzAtMCugKaAnhiVodHRwOi8vY3JsLmdsb2JhbHNpZ24ubmV0
            L3Jvb3QtcjIuY3JsMA0GCSqGSIb3DQEBBQUAA4IBAQANeX81Z1YqDIs4EaLjG0qP
            OxIzaJI/y4kiRj3a+y3KOx74clIkLuMgi/9/5iv/n+1LyhGU9g7174slbzJOPbSp
            p1eT19ST2mYbdgTLx/hm3tTLoHIY/w4ZbnQYwfnPwAG4RefnEFYPQJmpD+Wh8BJw
            Bgtm2drTale/T6NBwmwnEFunfaMfMX3g6IBrx7VKnxIkJh/3p190WveLKgl9n7i5
            SWce/4woPimEn9WfEQWRvp6wKhaCKFjuCMuulEZusoOUJ4LfJnXxcuQTgIrSnwI7
            KfSSjsd42w3lX1fbgJp7vPmLM6OBRvAXuYRKTFqMAWbb7OaGIEE+cbxY6PDepnva
            -----END CERTIFICATE-----
            """)

    /// GlobalSign Root CA - R3: the FIDO Metadata Service (MDS3) BLOB root, not an attestation
    /// root (it is not in ``all`` and anchors no statement format).
    ///
    /// Subject CN=GlobalSign, O=GlobalSign, OU=GlobalSign Root CA - R3; RSA-2048, self-signed,
    /// serial 04000000000121585308a2; valid 2009-03-18 to 2029-03-18. The FIDO Alliance names
    /// it as the root of the BLOB's signing chain (mds.fidoalliance.org, MDS3 §3.3); obtained
    /// through webauthn4j's copy, whose fingerprint is the one GlobalSign publishes for R3, and
    /// the production BLOB no. 31's chain verifies to it. ``MetadataBLOB`` trusts it by default.
    /// SHA-256 cbb522d7b7f127ad6a0113865bdf1cd4102e7d0759af635a7cf4720dc963c53b.
    public static let globalSignRootCAR3 = WellKnownAttestationRoot(
        name: "GlobalSign Root CA - R3", formats: [],
        sha256Fingerprint: "cbb522d7b7f127ad6a0113865bdf1cd4102e7d0759af635a7cf4720dc963c53b",
        source: "https://secure.globalsign.com/cacert/root-r3.crt",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIDXzCCAkegAwIBAgILBAAAAAABIVhTCKIwDQYJKoZIhvcNAQELBQAwTDEgMB4G
            A1UECxMXR2xvYmFsU2lnbiBSb290IENBIC0gUjMxEzARBgNVBAoTCkdsb2JhbFNp
            Z24xEzARBgNVBAMTCkdsb2JhbFNpZ24wHhcNMDkwMzE4MTAwMDAwWhcNMjkwMzE4
            MTAwMDAwWjBMMSAwHgYDVQQLExdHbG9iYWxTaWduIFJvb3QgQ0EgLSBSMzETMBEG
            A1UEChMKR2xvYmFsU2lnbjETMBEGA1UEAxMKR2xvYmFsU2lnbjCCASIwDQYJKoZI
            hvcNAQEBBQADggEPADCCAQoCggEBAMwldpB5BngiFvXAg7aEyiie/QV2EcWtiHL8
            RgJDx7KKnQRfJMsuS+FggkbhUqsMgUdwbN1k0ev1LKMPgj0MK66X17YUhhB5uzsT
            gHeMCOFJ0mpiLx9e+pZo34knlTifBtc+ycsmWQ1z3rDI6SYOgxXG71uL0gRgykmm
            KPZpO/bLyCiR5Z2KYVc3rHQU3HTgOu5yLy6c+9C7v/U9AOEGM+iCK65TpjoWc4zd
            QQ4gOsC0p6Hpsk+QLjJg6VfLuQSSaGjlOCZgdbKfd/+RFO+uIEn8rUAVSNECMWEZ
            XriX7613t2Saer9fwRPvm2L7DWzgVGkWqQPabumDk3F2xmmFghcCAwEAAaNCMEAw
            DgYDVR0PAQH/BAQDAgEGMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFI/wS3+o
            LkUkrk1Q+mOai97i3Ru8MA0GCSqGSIb3DQEBCwUAA4IBAQBLQNvAUKr+yAzv95ZU
            RUm7lgAJQayzE4aGKAczymvmdLm6AC2upArT9fHxD4q/c2dKg8dEe3jgr25sbwMp
            jjM5RcOO5LlXbKr8EpbsU8Yt5CRsuZRj+9xTaGdWPoO4zzUhw8lo/s7awlOqzJCK
            6fBdRoyV3XpYKBovHd7NADdBj+1EbddTKJd+82cEHhXXipa0095MJ6RMG3NzdvQX
            mcIfeg7jLQitChws/zyrVQ4PkX4268NXSb7hLi18YIvDQVETI53O9zJrlAGomecs
            Mx86OyXShkDOOyyGeMlhLxS67ttVb9+E7gUJTb0o2HLO02JQZR7rkpeDMdmztcpH
            WD9f
            -----END CERTIFICATE-----
            """)

    /// Microsoft TPM Root Certificate Authority 2014 (`tpm`).
    ///
    /// Subject CN=Microsoft TPM Root Certificate Authority 2014, O=Microsoft Corporation,
    /// L=Redmond, ST=Washington, C=US; RSA-4096, self-signed, serial 5db6304e0cbf27bf49b8c869501e5dcb;
    /// valid 2014-12-10 to 2039-12-10. It issues the CAs that issue Windows Hello AIK certificates.
    /// Obtained through a public copy that cites Microsoft's URL (Teleport); the fingerprint matches
    /// the one two other public projects pin, the self-signature verifies, and Windows Hello TPM
    /// vectors chain to it.
    /// SHA-256 870c7a35ceab3d59979f2c6a524042d404cb71518004350925fb2ced79a999da.
    public static let microsoftTPMRootCA2014 = WellKnownAttestationRoot(
        name: "Microsoft TPM Root Certificate Authority 2014", formats: ["tpm"],
        sha256Fingerprint: "870c7a35ceab3d59979f2c6a524042d404cb71518004350925fb2ced79a999da",
        source:
            "https://www.microsoft.com/pkiops/certs/Microsoft%20TPM%20Root%20Certificate%20Authority%202014.crt",
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIF9TCCA92gAwIBAgIQXbYwTgy/J79JuMhpUB5dyzANBgkqhkiG9w0BAQsFADCB
            jDELMAkGA1UEBhMCVVMxEzARBgNVBAgTCldhc2hpbmd0b24xEDAOBgNVBAcTB1Jl
            ZG1vbmQxHjAcBgNVBAoTFU1pY3Jvc29mdCBDb3Jwb3JhdGlvbjE2MDQGA1UEAxMt
            TWljcm9zb2Z0IFRQTSBSb290IENlcnRpZmljYXRlIEF1dGhvcml0eSAyMDE0MB4X
            DTE0MTIxMDIxMzExOVoXDTM5MTIxMDIxMzkyOFowgYwxCzAJBgNVBAYTAlVTMRMw
            EQYDVQQIEwpXYXNoaW5ndG9uMRAwDgYDVQQHEwdSZWRtb25kMR4wHAYDVQQKExVN
            aWNyb3NvZnQgQ29ycG9yYXRpb24xNjA0BgNVBAMTLU1pY3Jvc29mdCBUUE0gUm9v
            dCBDZXJ0aWZpY2F0ZSBBdXRob3JpdHkgMjAxNDCCAiIwDQYJKoZIhvcNAQEBBQAD
            ggIPADCCAgoCggIBAJ+n+bnKt/JHIRC/oI/xgkgsYdPzP0gpvduDA2GbRtth+L4W
            UyoZKGBw7uz5bjjP8Aql4YExyjR3EZQ4LqnZChMpoCofbeDR4MjCE1TGwWghGpS0
            mM3GtWD9XiME4rE2K0VW3pdN0CLzkYbvZbs2wQTFfE62yNQiDjyHFWAZ4BQH4eWa
            8wrDMUxIAneUCpU6zCwM+l6Qh4ohX063BHzXlTSTc1fDsiPaKuMMjWjK9vp5UHFP
            a+dMAWr6OljQZPFIg3aZ4cUfzS9y+n77Hs1NXPBn6E4Db679z4DThIXyoKeZTv1a
            aWOWl/exsDLGt2mTMTyykVV8uD1eRjYriFpmoRDwJKAEMOfaURarzp7hka9TOElG
            yD2gOV4Fscr2MxAYCywLmOLzA4VDSYLuKAhPSp7yawET30AvY1HRfMwBxetSqWP2
            +yZRNYJlHpor5QTuRDgzR+Zej+aWx6rWNYx43kLthozeVJ3QCsD5iEI/OZlmWn5W
            Yf7O8LB/1A7scrYv44FD8ck3Z+hxXpkklAsjJMsHZa9mBqh+VR1AicX4uZG8m16x
            65ZU2uUpBa3rn8CTNmw17ZHOiuSWJtS9+PrZVA8ljgf4QgA1g6NPOEiLG2fn8Gm+
            r5Ak+9tqv72KDd2FPBJ7Xx4stYj/WjNPtEUhW4rcLK3ktLfcy6ea7Rocw5y5AgMB
            AAGjUTBPMAsGA1UdDwQEAwIBhjAPBgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBR6
            jArOL0hiF+KU0a5VwVLscXSkVjAQBgkrBgEEAYI3FQEEAwIBADANBgkqhkiG9w0B
            AQsFAAOCAgEAW4ioo1+J9VWC0UntSBXcXRm1ePTVamtsxVy/GpP4EmJd3Ub53JzN
            BfYdgfUL51CppS3ZY6BoagB+DqoA2GbSL+7sFGHBl5ka6FNelrwsH6VVw4xV/8kl
            IjmqOyfatPYsz0sUdZev+reeiGpKVoXrK6BDnUU27/mgPtem5YKWvHB/soofUrLK
            zZV3WfGdx9zBr8V0xW6vO3CKaqkqU9y6EsQw34n7eJCbEVVQ8VdFd9iV1pmXwaBA
            fBwkviPTKEP9Cm+zbFIOLr3V3CL9hJj+gkTUuXWlJJ6wVXEG5i4rIbLAV59UrW4L
            onP+seqvWMJYUFxu/niF0R3fSGM+NU11DtBVkhRZt1u0kFhZqjDz1dWyfT/N7Hke
            3WsDqUFsBi+8SEw90rWx2aUkLvKo83oU4Mx4na+2I3l9F2a2VNGk4K7l3a00g51m
            iPiq0Da0jqw30PaLluTMTGY5+RnZVh50JD6nk+Ea3wRkU8aiYFnpIxfKBZ72whmY
            Ya/egj9IKeqpR0vuLebbU0fJBf880K1jWD3Z5SFyJXo057Mv0OPw5mttytE585ZI
            y5JsaRXlsOoWGRXE3kUT/MKR1UoAgR54c8Bsh+9Dq2wqIK9mRn15zvBDeyHG6+cz
            urLopziOUeWokxZN1syrEdKlhFoPYavm6t+PzIcpdxZwHA+V3jLJPfI=
            -----END CERTIFICATE-----
            """)

    /// Every root above, in the order listed.
    public static let all: [WellKnownAttestationRoot] = [
        appleWebAuthnRootCA, googleHardwareAttestationRoot1, googleHardwareAttestationRoot2,
        googleKeyAttestationCA1, globalSignRootCA, globalSignRootCAR2, microsoftTPMRootCA2014,
    ]

    /// ``all``, parsed once, by format: the anchors a ceremony that asks for attestation uses
    /// when the relying party configures none.
    /// Every shipped root, parsed once (empty if one no longer parses, as
    /// ``anchorsByFormat`` then fails): how a verified path's anchor is told to be one of them.
    static let shippedCertificates: [Certificate] = {
        guard case .success(let anchors) = anchorsByFormat else { return [] }
        var roots: [Certificate] = []
        for root in anchors.values.joined()
        where !roots.contains(where: { $0.derEncoded == root.derEncoded }) {
            roots.append(root)
        }
        return roots
    }()

    static let anchorsByFormat: Result<[String: [Certificate]], CryptoError> = {
        var anchors: [String: [Certificate]] = [:]
        for root in all {
            do {
                let certificate = try root.certificate()
                for format in root.formats { anchors[format, default: []].append(certificate) }
            } catch let error as CryptoError {
                return .failure(error)
            } catch {
                return .failure(CryptoError(.invalidCertificate, "\(root.name): \(error)"))
            }
        }
        return .success(anchors)
    }()
}
