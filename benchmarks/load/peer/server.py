#!/usr/bin/env python3
"""The load's peer: the example passkey server's four ceremony endpoints on aiohttp and
py_webauthn, kept in SQLite (WAL), served by two worker processes on one port (SO_REUSEPORT),
the way a small Python deployment would be set up.

  POST /registration/options   {"username"} → creation options (a sign-up)
  POST /registration/verify    RegistrationResponseJSON → {"verified": true, ...}
  POST /authentication/options {"username"} → request options with the user's credentials
  POST /authentication/verify  AuthenticationResponseJSON → {"verified": true, ...}

The ceremony's challenge is kept in the database under the session cookie and taken out by one
`DELETE ... RETURNING` (single use); the counter is updated by the credential's ID. It is a
measuring peer, not an example: no rate limit, no decoys, no account page.

Usage: server.py PORT DATABASE [--workers N] (needs webauthn==3.0.1, aiohttp==3.14.5:
benchmarks/load/run.sh makes the venv).
"""

import argparse
import base64
import json
import os
import secrets
import socket
import sqlite3
import time

from aiohttp import web
from webauthn import (generate_authentication_options, generate_registration_options,
                      options_to_json, verify_authentication_response,
                      verify_registration_response)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.structs import (AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor,
                                      ResidentKeyRequirement, UserVerificationRequirement)

RP_ID = "localhost"
SCHEMA = """
CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL,
    user_handle BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS credentials (id BLOB PRIMARY KEY, user_id INTEGER NOT NULL,
    public_key BLOB NOT NULL, sign_count INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS credentials_user ON credentials (user_id);
CREATE TABLE IF NOT EXISTS ceremonies (session TEXT NOT NULL, kind TEXT NOT NULL,
    challenge BLOB NOT NULL, username TEXT, user_handle BLOB, PRIMARY KEY (session, kind));
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, user_id INTEGER);
"""


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Store:
    def __init__(self, path):
        self.db = sqlite3.connect(path, timeout=5, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # SQLite's default synchronous (FULL), as GRDB opens the example's file: a commit is on
        # disk before its 200, in both.

    def session(self, request, response):
        cookie = request.cookies.get("passkey_session")
        if cookie and self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (cookie,)).fetchone():
            return cookie
        cookie = secrets.token_urlsafe(32)
        self.db.execute("INSERT INTO sessions (id) VALUES (?)", (cookie,))
        response.set_cookie("passkey_session", cookie, httponly=True, samesite="Strict")
        return cookie

    def put_ceremony(self, session, kind, challenge, username=None, user_handle=None):
        self.db.execute("INSERT OR REPLACE INTO ceremonies VALUES (?, ?, ?, ?, ?)",
                        (session, kind, challenge, username, user_handle))

    def take_ceremony(self, session, kind):
        return self.db.execute("DELETE FROM ceremonies WHERE session = ? AND kind = ? "
                               "RETURNING challenge, username, user_handle",
                               (session, kind)).fetchone()

    def sign_in(self, request, response, user_id):
        old = request.cookies.get("passkey_session")
        cookie = secrets.token_urlsafe(32)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if old:
                self.db.execute("DELETE FROM sessions WHERE id = ?", (old,))
            self.db.execute("INSERT INTO sessions (id, user_id) VALUES (?, ?)", (cookie, user_id))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        response.set_cookie("passkey_session", cookie, httponly=True, samesite="Strict")


def refused(message, status=400):
    return web.json_response({"error": message}, status=status)


def make_app(store, origins):
    routes = web.RouteTableDef()

    @routes.post("/registration/options")
    async def registration_options(request):
        body = await request.json()
        username = str(body.get("username", ""))
        if not username or store.db.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone():
            return refused("this username is not available")
        user_handle = secrets.token_bytes(32)
        options = generate_registration_options(
            rp_id=RP_ID, rp_name="peer", user_name=username, user_id=user_handle,
            # What the example offers, in its order: ES256 first, so both verify ES256.
            supported_pub_key_algs=[COSEAlgorithmIdentifier.ECDSA_SHA_256,
                                    COSEAlgorithmIdentifier.EDDSA,
                                    COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.PREFERRED))
        response = web.Response(text=options_to_json(options), content_type="application/json")
        session = store.session(request, response)
        store.put_ceremony(session, "registration", options.challenge, username, user_handle)
        return response

    @routes.post("/registration/verify")
    async def registration_verify(request):
        text = await request.text()
        session = request.cookies.get("passkey_session", "")
        ceremony = store.take_ceremony(session, "registration")
        if ceremony is None:
            return refused("no registration in progress")
        challenge, username, user_handle = ceremony
        try:
            verified = verify_registration_response(
                credential=text, expected_challenge=challenge, expected_rp_id=RP_ID,
                expected_origin=origins)
        except Exception as error:  # py_webauthn's refusals
            return refused(str(error))
        try:
            store.db.execute("BEGIN IMMEDIATE")
            cursor = store.db.execute("INSERT INTO users (username, user_handle) VALUES (?, ?)",
                                      (username, user_handle))
            user_id = cursor.lastrowid
            store.db.execute("INSERT INTO credentials VALUES (?, ?, ?, ?)",
                             (verified.credential_id, user_id, verified.credential_public_key,
                              verified.sign_count))
            store.db.execute("COMMIT")
        except sqlite3.IntegrityError:
            store.db.execute("ROLLBACK")
            return refused("this username or credential is taken")
        response = web.json_response({"verified": True, "credentialId": b64url(verified.credential_id),
                                      "username": username})
        store.sign_in(request, response, user_id)
        return response

    @routes.post("/authentication/options")
    async def authentication_options(request):
        body = await request.json()
        username = str(body.get("username", ""))
        rows = store.db.execute("SELECT c.id FROM credentials c JOIN users u ON u.id = c.user_id "
                                "WHERE u.username = ?", (username,)).fetchall()
        options = generate_authentication_options(
            rp_id=RP_ID, allow_credentials=[PublicKeyCredentialDescriptor(id=row[0]) for row in rows],
            user_verification=UserVerificationRequirement.PREFERRED)
        response = web.Response(text=options_to_json(options), content_type="application/json")
        session = store.session(request, response)
        store.put_ceremony(session, "authentication", options.challenge)
        return response

    @routes.post("/authentication/verify")
    async def authentication_verify(request):
        text = await request.text()
        session = request.cookies.get("passkey_session", "")
        ceremony = store.take_ceremony(session, "authentication")
        if ceremony is None:
            return refused("no sign-in in progress")
        try:
            raw_id = base64.urlsafe_b64decode(json.loads(text)["rawId"] + "==")
        except (ValueError, KeyError, TypeError):
            return refused("no rawId")
        row = store.db.execute("SELECT c.public_key, c.sign_count, c.user_id, u.username FROM credentials c "
                               "JOIN users u ON u.id = c.user_id WHERE c.id = ?", (raw_id,)).fetchone()
        if row is None:
            return refused("unknown credential")
        public_key, sign_count, user_id, username = row
        try:
            verified = verify_authentication_response(
                credential=text, expected_challenge=ceremony[0], expected_rp_id=RP_ID,
                expected_origin=origins, credential_public_key=public_key,
                credential_current_sign_count=sign_count)
        except Exception as error:  # py_webauthn's refusals
            return refused(str(error))
        store.db.execute("UPDATE credentials SET sign_count = ? WHERE id = ? AND sign_count = ?",
                         (verified.new_sign_count, raw_id, sign_count))
        response = web.json_response({"verified": True, "username": username,
                                      "signCount": verified.new_sign_count})
        store.sign_in(request, response, user_id)
        return response

    app = web.Application()
    app.add_routes(routes)
    return app


def serve(sock, path, origins):
    store = Store(path)
    web.run_app(make_app(store, origins), sock=sock, print=None, access_log=None,
                handle_signals=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("database")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--origin", action="append")
    arguments = parser.parse_args()
    origins = arguments.origin or [f"http://localhost:{arguments.port}"]
    setup = sqlite3.connect(arguments.database)
    setup.execute("PRAGMA journal_mode=WAL")
    setup.executescript(SCHEMA)
    setup.close()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", arguments.port))
    sock.listen(1024)
    sock.set_inheritable(True)
    children = []
    for _ in range(arguments.workers - 1):
        pid = os.fork()
        if pid == 0:
            serve(sock, arguments.database, origins)
            os._exit(0)
        children.append(pid)
    print(f"peer: listening on 127.0.0.1:{arguments.port}, {arguments.workers} workers", flush=True)
    try:
        serve(sock, arguments.database, origins)
    finally:
        for pid in children:
            try:
                os.kill(pid, 15)
                os.waitpid(pid, 0)
            except OSError:
                pass


if __name__ == "__main__":
    main()
