"""The SQL example runs as the README says, on a log of its own making."""

import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("duckdb")


def test_the_access_log_example_runs(tmp_path):
    log = tmp_path / "access.log"
    log.write_text(
        '10.0.0.1 - - [d] "GET http://host.dom/my file.html HTTP/1.0" 200 1\n'
        '10.0.0.2 - - [d] "GET ftp://me:secret@h.dom/x HTTP/1.0" 200 1\n'
        '10.0.0.3 - - [d] "GET gopher://mail.dom:25/7x%09HELO%0D%0A HTTP/1.0" 200 1\n'
        '10.0.0.4 - - [d] "GET /index.html HTTP/1.0" 200 1\n'
    )
    script = ROOT / "crates" / "rfc1738-py" / "examples" / "access_log_sql.py"
    run = subprocess.run([sys.executable, str(script), str(log)], capture_output=True, text=True, check=True)
    assert "4 lines of" in run.stdout
    assert "unsafe" in run.stdout and "hpath" in run.stdout
    assert "mail.dom" in run.stdout and "foreign-port" in run.stdout
    assert "h.dom" in run.stdout and "password" in run.stdout
