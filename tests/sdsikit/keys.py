# SPDX-License-Identifier: GPL-2.0-only
"""A fresh P-384 key in the encodings a key file may have, for the tests
that make sure no program writes its output over a key."""
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


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
