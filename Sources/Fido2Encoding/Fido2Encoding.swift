// The Fido2Encoding module. Its types live in one file each under this folder.
