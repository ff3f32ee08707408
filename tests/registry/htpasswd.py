"""Prints an htpasswd line with a bcrypt hash, as `htpasswd -nbB -C 4 USER PASSWORD` does (cost 4: the registry checks it on every request)."""
import sys
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import crypt

user, password = sys.argv[1], sys.argv[2]
print(f"{user}:{crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16))}")
