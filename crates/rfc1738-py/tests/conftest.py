"""Shared paths for the tests: the repository, the corpus, the command."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
# Beside the checkout, or beside the directory of worktrees it is one of.
CORPUS = next(
    (p for p in (ROOT.parent / "shared" / "corpus", ROOT.parent.parent / "shared" / "corpus") if p.is_dir()),
    ROOT.parent / "shared" / "corpus",
)


@pytest.fixture(scope="session")
def rfc1738_bin():
    """The `rfc1738` command of this checkout, built if needed."""
    path = os.environ.get("RFC1738_BIN")
    if path:
        return path
    subprocess.run(["cargo", "build", "--quiet", "-p", "rfc1738-cli"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "rfc1738")


@pytest.fixture(scope="session")
def corpus_files():
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    files = sorted(p for p in CORPUS.iterdir() if p.suffix in (".txt", ".csv") and p.name != "SOURCES.md")
    assert files, "the corpus directory holds no URL list"
    return files


def lines_of(path):
    """The lines as the command reads them: a BOM first dropped, `\\r\\n` ends."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]
