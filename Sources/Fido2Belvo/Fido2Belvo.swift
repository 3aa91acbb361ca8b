// The Fido2Belvo module. Its types live in one file each under this folder.
