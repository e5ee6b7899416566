"""A real Dask cluster (a scheduler and two worker processes on 127.0.0.1)
checks a directory of access logs; the answer equals `rfc1738 check
--format clf --json`, line for line."""

import json
import subprocess

import pytest

from conftest import lines_of

distributed = pytest.importorskip("distributed")


def write_logs(directory, corpus_files):
    """Three Common Log Format files whose requests are corpus URLs."""
    urls = []
    for path in corpus_files:
        urls.extend(line.decode("utf-8", "replace") for line in lines_of(path)[::40])
    paths = []
    for k in range(3):
        part = urls[k::3]
        lines = [
            f'10.0.0.{n % 250} - - [10/Oct/2000:13:55:36 -0700] "GET {u} HTTP/1.0" 200 {n}' for n, u in enumerate(part)
        ]
        lines += ["not a log line", '10.0.0.1 - - [d] "-" 408 0', '10.0.0.1 - - [d] "GET /~joe/ HTTP/1.0" 200 1']
        path = directory / f"access-{k}.log"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def test_check_logs_on_a_cluster_equals_the_command(tmp_path, corpus_files, rfc1738_bin):
    import rfc1738.dask

    paths = write_logs(tmp_path, corpus_files)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        report = rfc1738.dask.check_logs(tmp_path, client=client)
    assert sorted(report) == sorted(str(p) for p in paths)
    for path in paths:
        run = subprocess.run(
            [rfc1738_bin, "check", "--format", "clf", "--json", str(path)], capture_output=True, check=False
        )
        records = [json.loads(line) for line in run.stdout.splitlines()]
        mine = report[str(path)]
        assert mine["lines"] == len(records)
        assert mine["valid"] == sum(r["valid"] for r in records)
        theirs = [dict(line=r["line"], input=r["input"], **r["error"]) for r in records if not r["valid"]]
        assert mine["invalid_lines"] == theirs
        assert sum(c["valid"] + c["invalid"] for c in mine["by_scheme"].values()) == len(records)
        assert mine["invalid"] > 0 and mine["valid"] > 0


def test_check_file_counts_each_line_under_its_request_urls_scheme(tmp_path):
    import rfc1738.dask

    log = tmp_path / "access.log"
    requests = ["GET /a HTTP/1.0", "GET HTTP://h/ HTTP/1.0", "GET Ftp://h/ x HTTP/1.0", "OPTIONS * HTTP/1.0"]
    requests += ["CONNECT h:443 HTTP/1.0", "GET gopher://h/1 HTTP/1.0", "GET /a b HTTP/1.0"]
    log.write_text("".join(f'1.2.3.4 - - [d] "{r}" 200 1\n' for r in requests))
    report = rfc1738.dask.check_file(str(log))
    assert report["by_scheme"] == {
        "(no scheme)": {"valid": 1, "invalid": 0},
        "ftp": {"valid": 0, "invalid": 1},
        "gopher": {"valid": 1, "invalid": 0},
        "http": {"valid": 3, "invalid": 1},
    }


def test_check_file_reads_lines_as_the_command_does(tmp_path):
    import rfc1738.dask

    log = tmp_path / "access.log"
    good, bad = b'1.2.3.4 - - [d] "GET /a HTTP/1.0" 200 1', b'1.2.3.4 - - [d] "GET /a\xffb HTTP/1.0" 200 1'
    log.write_bytes(b"\xef\xbb\xbf" + good + b"\r\n" + bad + b"\n\n" + good)
    report = rfc1738.dask.check_file(str(log))
    assert (report["lines"], report["valid"], report["invalid"]) == (4, 2, 2)
    assert [(b["line"], b["input"]) for b in report["invalid_lines"]] == [(2, bad.decode("utf-8", "replace")), (3, "")]
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"\xef\xbb\xbf")
    assert rfc1738.dask.check_file(str(empty))["lines"] == 0
