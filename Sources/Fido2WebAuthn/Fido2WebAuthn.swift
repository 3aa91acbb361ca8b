// The Fido2WebAuthn module. Its types live in one file each under this folder.
