"""`Url.to_dict()` is the record `rfc1738 parse --json` writes, line for line."""

import json
import subprocess

import pytest

import rfc1738
from conftest import ROOT, lines_of


def test_to_dict_equals_the_command_over_the_corpus(rfc1738_bin, corpus_files):
    for path in corpus_files:
        run = subprocess.run([rfc1738_bin, "parse", "--json"], stdin=path.open("rb"), capture_output=True, check=False)
        assert run.returncode in (0, 1), run.stderr[-500:]
        records = [json.loads(line) for line in run.stdout.splitlines()]
        lines = lines_of(path)
        assert len(records) == len(lines), path.name
        for n, (line, record) in enumerate(zip(lines, records), 1):
            # The column of an offset is the command's own; the rest is
            # the record.
            for note in [record["error"] or {}, *record["warnings"]]:
                note.pop("column", None)
            try:
                mine = rfc1738.parse(line).to_dict()
            except rfc1738.ParseError as e:
                assert record["valid"] is False, f"{path.name}:{n}"
                error = {"offset": e.offset, "kind": e.kind, "rule": e.rule, "message": e.message}
                assert error == record["error"], f"{path.name}:{n}"
                continue
            assert mine == record, f"{path.name}:{n}"


BACKEND = ROOT / "crates" / "rfc1738-py" / "build_backend"
HOOK = "import sys; sys.path.insert(0, sys.argv[1]); import rfc1738_build; print(rfc1738_build.get_requires_for_build_wheel())"


def test_a_build_without_cargo_stops_at_once_saying_what_to_install(tmp_path):
    """pip's first hook fails with the package's message, before maturin
    asks for a toolchain to download."""
    import os
    import subprocess
    import sys

    pytest.importorskip("maturin")
    env = {k: v for k, v in os.environ.items() if k != "CARGO"}
    env["PATH"] = str(tmp_path)  # no cargo there
    run = subprocess.run([sys.executable, "-c", HOOK, str(BACKEND)], env=env, cwd=BACKEND.parent, capture_output=True, text=True)
    assert run.returncode != 0
    assert "no `cargo` is on PATH" in run.stderr and "rustup.rs" in run.stderr
    # With cargo there, maturin's own hook answers.
    run = subprocess.run([sys.executable, "-c", HOOK, str(BACKEND)], cwd=BACKEND.parent, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("["), run.stderr
