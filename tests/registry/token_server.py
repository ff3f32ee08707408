"""The token service of a registry in `auth: token` mode, for the tests.

Usage: token_server.py DIR ISSUER USER PASSWORD EXPIRES_IN
Writes DIR/token.crt (the signing certificate, the registry's rootcertbundle),
then serves GET /token on 127.0.0.1 and writes its port to DIR/token.port.
The user with the password gets the actions asked for; anonymous requests get
pull only on repositories whose name starts with "public/"; a wrong password
gets 401. Each token issued is logged to DIR/tokens.log as "USER SCOPE".
"""
import base64
import datetime
import http.server
import json
import os
import sys
import time
import urllib.parse
import uuid

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

out, issuer, user, password, expires_in = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])

key = ec.generate_private_key(ec.SECP256R1())
now = datetime.datetime.now(datetime.timezone.utc)
subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "imgaudit test token signer")])
cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256()))
with open(os.path.join(out, "token.crt"), "wb") as f:
    f.write(cert.public_bytes(serialization.Encoding.PEM))
x5c = base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        if url.path != "/token":
            return self.answer(404, {})
        query = urllib.parse.parse_qs(url.query)
        who = ""
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Basic "):
            u, _, p = base64.b64decode(auth[6:]).decode().partition(":")
            if (u, p) != (user, password):
                return self.answer(401, {"details": "wrong user name or password"})
            who = u
        access = []
        for scope in query.get("scope", []):
            kind, name, actions = scope.split(":")
            wanted = actions.split(",")
            granted = wanted if who else [a for a in wanted if a == "pull" and name.startswith("public/")]
            access.append({"type": kind, "name": name, "actions": granted})
        t = int(time.time())
        claims = {"iss": issuer, "sub": who, "aud": query.get("service", [""])[0], "exp": t + expires_in,
                  "nbf": t - 10, "iat": t, "jti": str(uuid.uuid4()), "access": access}
        token = jwt.encode(claims, key_pem, algorithm="ES256", headers={"x5c": [x5c]})
        with open(os.path.join(out, "tokens.log"), "a") as log:
            log.write(f"{who or '-'} {' '.join(query.get('scope', []))}\n")
        # Half the clients read "token", the other half "access_token": the anonymous answer uses the second.
        self.answer(200, {"token" if who else "access_token": token, "expires_in": expires_in,
                          "issued_at": datetime.datetime.now(datetime.timezone.utc).isoformat()})


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(out, "token.port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(out, "token.port.tmp"), os.path.join(out, "token.port"))
server.serve_forever()
