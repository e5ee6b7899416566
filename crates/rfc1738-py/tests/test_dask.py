"""A real Dask cluster (a scheduler and two worker processes on 127.0.0.1,
each started as on a cluster) checks a directory of access logs; the
answer equals `rfc1738 check --input-format clf --json`, line for line. The
recipe runs as a script, the module as a command."""

import json
import os
import subprocess
import sys
import textwrap
import time

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


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two workers, each a process of its own started from
    the command line, as on a real cluster; the address of the scheduler."""
    scheduler_file = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--scheduler-file", str(scheduler_file), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                     "--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1", *common],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )
        yield json.loads(scheduler_file.read_text())["address"]
    finally:
        # The workers first, while the scheduler still answers their
        # goodbyes (with both stopped at once, a worker waits seconds for
        # a scheduler that is gone), then the scheduler.
        for group in (procs[1:], procs[:1]):
            for p in group:
                p.terminate()
            for p in group:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()


def command_records(binary, path):
    run = subprocess.run([binary, "check", "--input-format", "clf", "--json", str(path)], capture_output=True, check=False)
    assert run.returncode in (0, 1), run.stderr[-500:]
    return [json.loads(line) for line in run.stdout.splitlines()]


def assert_equals_the_command(report, path, binary):
    records = command_records(binary, path)
    mine = report
    assert mine["lines"] == len(records)
    assert mine["valid"] == sum(r["valid"] for r in records)
    referer = ("referer", "referer_valid", "referer_scheme", "referer_error")
    theirs = [
        dict(line=r["line"], input=r["input"], **r["error"], **{k: r[k] for k in referer})
        for r in records
        if not r["valid"]
    ]
    assert mine["invalid_lines"].to_pylist() == theirs
    assert mine["invalid_lines"].column_names == ["line", "input", "offset", "kind", "rule", "message", *referer]
    assert sum(c["valid"] + c["invalid"] for c in mine["by_scheme"].values()) == len(records)
    assert mine["invalid"] > 0 and mine["valid"] > 0


def test_check_logs_on_a_cluster_of_processes_equals_the_command(tmp_path, corpus_files, rfc1738_bin, cluster):
    import rfc1738.dask

    logs = tmp_path / "logs"
    logs.mkdir()
    paths = write_logs(logs, corpus_files)
    with distributed.Client(cluster, timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
        workers = client.scheduler_info()["workers"]
        assert len(workers) == 2
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids
        report = rfc1738.dask.check_logs(logs, client=client)
        # The same files named by fsspec URLs.
        by_url = rfc1738.dask.check_logs(f"local://{logs}", client=client)
    assert sorted(report) == sorted(str(p) for p in paths)
    for path in paths:
        assert_equals_the_command(report[str(path)], path, rfc1738_bin)
    assert [r["invalid_lines"] for r in by_url.values()] == [report[str(p)]["invalid_lines"] for p in paths]
    assert all(url.startswith("file://") for url in by_url)


def test_the_recipe_runs_as_a_script(tmp_path, corpus_files):
    import rfc1738.dask

    block = []
    for line in rfc1738.dask.__doc__.split("::\n", 1)[1].splitlines():
        if line and not line.startswith("    "):
            break
        block.append(line)
    recipe = textwrap.dedent("\n".join(block))
    assert 'if __name__ == "__main__":' in recipe
    (tmp_path / "logs").mkdir()
    write_logs(tmp_path / "logs", corpus_files)
    script = tmp_path / "recipe.py"
    script.write_text(recipe)
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.count("access-") == 3


def test_the_module_runs_as_a_command(tmp_path, corpus_files):
    paths = write_logs(tmp_path, corpus_files)
    run = subprocess.run(
        [sys.executable, "-m", "rfc1738.dask", "--workers", "1", str(paths[0])],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 1, run.stderr[-2000:]
    assert run.stdout.startswith(f"{paths[0]}: ")
    assert f"{paths[0]}:" in run.stderr


def test_check_file_counts_each_line_under_its_request_urls_scheme(tmp_path):
    import rfc1738.dask

    log = tmp_path / "access.log"
    requests = ["GET /a HTTP/1.0", "GET HTTP://h/ HTTP/1.0", "GET Ftp://h/ x HTTP/1.0", "OPTIONS * HTTP/1.0"]
    requests += ["CONNECT h:443 HTTP/1.0", "GET gopher://h/1 HTTP/1.0", "GET /a b HTTP/1.0"]
    log.write_text("".join(f'1.2.3.4 - - [d] "{r}" 200 1\n' for r in requests))
    report = rfc1738.dask.check_file(str(log))
    # `OPTIONS *` under `*`, as the command's summary counts it.
    assert report["by_scheme"] == {
        "*": {"valid": 1, "invalid": 0},
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
    # The empty line 3 is numbered, not checked, as the command skips it.
    assert (report["lines"], report["valid"], report["invalid"]) == (3, 2, 1)
    assert [(b["line"], b["input"]) for b in report["invalid_lines"].to_pylist()] == [(2, bad.decode("utf-8", "replace"))]
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"\xef\xbb\xbf")
    assert rfc1738.dask.check_file(str(empty))["lines"] == 0


GOOD = b'1.2.3.4 - - [d] "GET /a HTTP/1.0" 200 1'
BAD = b'1.2.3.4 - - [d] "GET /a b HTTP/1.0" 200 1'


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n",
        b"\xef\xbb\xbf",
        b"\xef\xbb",
        b"\xef\xbb\xbf\n",
        GOOD,
        GOOD + b"\r\n" + BAD,
        BAD + b"\n\n" + GOOD + b"\r",
        b"\xef\xbb\xbf" + BAD + b"\n" + GOOD + b"\n",
        (GOOD + b"\n" + BAD + b"\r\n") * 40000,
        BAD[:-1] + b"x" * (3 << 20) + b"\n" + BAD,
    ],
)
def test_a_file_read_in_blocks_is_the_file_read_whole(tmp_path, data):
    from rfc1738 import _rfc1738

    log = tmp_path / "access.log"
    log.write_bytes(data)
    lines, counts, invalid, referers, fault = _rfc1738.clf_check_file(str(log))
    whole = _rfc1738.clf_check_log(data)
    assert (lines, counts, invalid.to_pylist(), referers, fault) == (
        whole[0],
        whole[1],
        whole[2].to_pylist(),
        whole[3],
        None,
    )
