// The Fido2Crypto module. Its types live in one file each under this folder.
