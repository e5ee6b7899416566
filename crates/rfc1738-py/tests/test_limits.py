"""What one hostile input may cost: a lenient reading of a URL with a
megabyte of deviations, and the error of a URL of ten megabytes, stay
within a few megabytes beyond the input itself."""

import json
import subprocess
import sys
import textwrap

import pytest

# Peak memory of a child process, before and after the work, from
# /proc/self/status (Linux only).
CHILD = textwrap.dedent(
    """
    import json, sys, rfc1738

    def peak_kib():
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])

    text = "http://h.dom/" + sys.argv[1] * (int(sys.argv[2]) << 20)
    before = peak_kib()
    result = {}
    try:
        url = rfc1738.parse(text, lenient=sys.argv[3] == "lenient")
        result["warnings"] = url.warnings
        result["grew_kib"] = peak_kib() - before
        # Its normal form: three bytes per space.
        result["normal"] = len(str(url.normalize()))
    except rfc1738.ParseError as e:
        result["message"] = len(str(e))
        result["offset"] = e.offset
        result["grew_kib"] = peak_kib() - before
    print(json.dumps(result))
    """
)


def run_child(char, megabytes, mode):
    child = subprocess.run(
        [sys.executable, "-c", CHILD, char, str(megabytes), mode],
        capture_output=True,
        text=True,
    )
    assert child.returncode == 0, child.stderr
    return json.loads(child.stdout)


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")


def test_a_megabyte_of_spaces_read_leniently_is_one_warning_and_a_few_megabytes():
    got = run_child(" ", 1, "lenient")
    assert got["warnings"] == [
        {
            "offset": 13,
            "len": 1 << 20,
            "kind": "unsafe-char",
            "security": False,
            "message": 'unsafe character " " should be encoded as %20 (§2.2)',
        }
    ]
    assert got["normal"] == 13 + 3 * (1 << 20)
    # The URL is kept once (in Rust), its warnings are one small object.
    assert got["grew_kib"] < 4 * 1024, got


def test_many_different_deviations_are_capped():
    # Spaces between letters cannot be coalesced: the cap holds instead,
    # 64 warnings and one that says how many more there were.
    got = run_child(" a", 1, "lenient")
    assert len(got["warnings"]) == 65
    assert [w["kind"] for w in got["warnings"][-2:]] == ["unsafe-char", "more"]
    assert got["grew_kib"] < 6 * 1024, got


def test_the_error_of_a_ten_megabyte_url_has_a_short_message():
    got = run_child("\x01", 10, "strict")
    assert got["offset"] == 13
    assert got["message"] < 1000, got
    # At most one copy of the input (the text read as UTF-8), no more.
    assert got["grew_kib"] < 16 * 1024, got
