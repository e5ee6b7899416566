"""How the test servers' logs write the bytes a client sent.

CR, LF, TAB and backslash are written as \\r \\n \\t \\\\, any other
non-printable byte as \\xHH, printable ASCII as itself: one line per record,
whatever the bytes were. Shared by wire-relay.py and nntp-server.py, whose
logs the access tests read (crates/rfc1738-access/tests/servers.rs).
"""


def escape(data: bytes) -> str:
    out = []
    for b in data:
        if b == 0x0D:
            out.append("\\r")
        elif b == 0x0A:
            out.append("\\n")
        elif b == 0x09:
            out.append("\\t")
        elif b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append("\\x%02X" % b)
    return "".join(out)
