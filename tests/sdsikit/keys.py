# SPDX-License-Identifier: GPL-2.0-only
"""A fresh P-384 key in the encodings a key file may have, for the tests
that make sure no program writes its output over a key."""
import datetime

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID


def key_encodings():
    """{"der-private" (PKCS#8), "der-traditional", "der-public",
    "pem-public"}: the bytes of one new key in each."""
    key = ec.generate_private_key(ec.SECP384R1())
    public = key.public_key()
    return {
        "der-private": key.private_bytes(serialization.Encoding.DER,
                                         serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()),
        "der-traditional": key.private_bytes(serialization.Encoding.DER,
                                             serialization.PrivateFormat.TraditionalOpenSSL,
                                             serialization.NoEncryption()),
        "der-public": public.public_bytes(serialization.Encoding.DER,
                                          serialization.PublicFormat.SubjectPublicKeyInfo),
        "pem-public": public.public_bytes(serialization.Encoding.PEM,
                                          serialization.PublicFormat.SubjectPublicKeyInfo),
    }


def certificate(key):
    """A self-signed certificate of KEY (a P-384 private key)."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sdsi test")])
    now = datetime.datetime(2026, 1, 1)
    return (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1)
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA384()))


def protected_key_encodings():
    """The forms a guard easily misses (issue 25, finding 5): {"der-encrypted"
    and "pem-encrypted" (encrypted PKCS#8), "pkcs12-encrypted" (key and
    certificate under a password), "pkcs12" (no password), "der-ed25519",
    "der-certificate"}: the bytes of each."""
    key = ec.generate_private_key(ec.SECP384R1())
    password = serialization.BestAvailableEncryption(b"sdsi-test-passphrase")
    cert = certificate(key)
    return {
        "der-encrypted": key.private_bytes(serialization.Encoding.DER,
                                           serialization.PrivateFormat.PKCS8, password),
        "pem-encrypted": key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8, password),
        "pkcs12-encrypted": pkcs12.serialize_key_and_certificates(b"sdsi", key, cert, None,
                                                                  password),
        "pkcs12": pkcs12.serialize_key_and_certificates(b"sdsi", key, cert, None,
                                                        serialization.NoEncryption()),
        "der-ed25519": ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()),
        "der-certificate": cert.public_bytes(serialization.Encoding.DER),
    }
