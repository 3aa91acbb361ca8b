// The Fido2CBOR module. Its types live in one file each under this folder.
