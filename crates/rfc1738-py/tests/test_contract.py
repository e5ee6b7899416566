"""`Url.to_dict()` is the record `rfc1738 parse --json` writes, line for line."""

import json
import subprocess

import rfc1738
from conftest import lines_of


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
