"""One log, three readers: `rfc1738 check --input-format clf --json`, the Python
reader (`arrow_clf_check`, one struct per line) and the Dask recipe's
`check_file` give the same record for the same line. The lines are those
of the command's own day test (crates/rfc1738-cli/tests/day.rs): IPv6
clients, CONNECT lines, proxy requests, garbage lines and lenient-only
targets."""

import datetime
import json
import subprocess

import pyarrow as pa

import rfc1738
from rfc1738 import _rfc1738

DATE = "[10/Oct/2000:13:55:36 -0700]"
# The errors of a log line that has no request URL (the rest: not a log line).
NO_REQUEST = ("clf-no-request-line", "clf-no-target", "clf-not-a-request", "clf-no-request-field")
UA = '"-" "Mozilla/5.0 (X11; Linux x86_64)"'
FIELDS = ("client", "ident", "user", "time", "time_iso", "method", "target", "protocol", "user_agent")


def line(i, r):
    v4 = f"10.{r % 256}.{(r >> 8) % 256}.{(r >> 16) % 256}"
    v6 = f"2001:db8::{r % 0xFFFF:x}"
    kind = i % 10
    if kind in (0, 1):
        return f'{v4} - - {DATE} "GET /p/{r}?q={r % 97} HTTP/1.1" 200 {r % 5000} {UA}'
    if kind == 2:
        return f'{v6} - - {DATE} "GET /img/{r}.png HTTP/1.1" 304 - "http://ref.dom/" "ua"'
    if kind == 3:
        return f'{v6} - - {DATE} "CONNECT h{r % 50}.dom:443 HTTP/1.1" 200 0 {UA}'
    if kind == 4:
        return f'{v4} - - {DATE} "GET http://proxy.dom/{r} HTTP/1.0" 200 12'
    if kind == 5:
        return f'{v4} - - {DATE} "GET /~user{r % 10}/ HTTP/1.1" 200 99 {UA}'
    if kind == 6:
        return f'{v6} - john {DATE} "GET /a b HTTP/1.1" 400 0'
    if kind == 7:
        return ['"GET / HTTP/1.1"', f"garbage line {r}", f'{v4} - - {DATE} "GET /x HTTP/1.1"'][r % 3]
    if kind == 8:
        return f'{v4} - - {DATE} "-" 408 0'
    return f'fe80::{r % 4096:x} - - {DATE} "OPTIONS * HTTP/1.1" 200 0'


def day(n=2000):
    state, mask = 0x2545F4914F6CDD1D, (1 << 64) - 1
    out = []
    for i in range(n):
        state ^= (state << 13) & mask
        state ^= state >> 7
        state ^= (state << 17) & mask
        out.append(line(i, state % 1_000_000_007))
    return out


def test_the_command_the_python_reader_and_the_dask_recipe_agree(tmp_path, rfc1738_bin):
    import rfc1738.dask

    lines = day()
    path = tmp_path / "access.log"
    path.write_text("\n".join(lines) + "\n")
    run = subprocess.run([rfc1738_bin, "check", "--input-format", "clf", "--json", str(path)], capture_output=True)
    assert run.returncode == 1, run.stderr
    records = [json.loads(x) for x in run.stdout.splitlines()]
    assert len(records) == len(lines)

    mine = _rfc1738.arrow_clf_check(pa.array(lines)).to_pylist()
    for n, (command, python) in enumerate(zip(records, mine), 1):
        error = command["error"] or {}
        referer_error = command["referer_error"] or {}
        want = {
            "valid": command["valid"],
            "url": command["target"],
            "scheme": command["scheme"],
            "row": command["scheme"] or ("(no request)" if error.get("kind") in NO_REQUEST else "(not clf)"),
            "error_offset": error.get("offset"),
            "error_kind": error.get("kind"),
            "error_rule": error.get("rule"),
            "error_message": error.get("message"),
            "referer": command["referer"],
            "referer_valid": command["referer_valid"],
            "referer_scheme": command["referer_scheme"],
            **{f"referer_error_{k}": referer_error.get(k) for k in ("offset", "kind", "rule", "message")},
            # Every field of the line, as the command's record has it.
            **{k: command[k] for k in FIELDS},
            "timestamp": command["time_iso"] and datetime.datetime.fromisoformat(command["time_iso"]),
            "status": command["status"],
            "bytes": command["bytes"],
        }
        assert python == want, f"line {n}: {lines[n - 1]}"
    # The scheme is the request URL's, never the client's address; `*`
    # for `OPTIONS *`, in the command's records as in Python's.
    assert {r["scheme"] for r in records} == {"http", "*", "(no request)", "(not clf)"}
    # A line that is not a log line is never a valid request.
    assert not any(r["valid"] for r in records[7::10])

    report = rfc1738.dask.check_file(str(path))
    referer = ("referer", "referer_valid", "referer_scheme", "referer_error")
    theirs = [
        dict(line=r["line"], input=r["input"], **r["error"], **{k: r[k] for k in referer})
        for r in records
        if not r["valid"]
    ]
    assert report["invalid_lines"].to_pylist() == theirs
    assert report["valid"] == sum(r["valid"] for r in records)
