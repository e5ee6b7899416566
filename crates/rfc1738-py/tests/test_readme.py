"""The Python examples of the README and of docs/PYTHON.md run as written
(scripts/test-python also runs the README's in a fresh environment with
only the `arrow` extra)."""

import re

import pytest

from conftest import ROOT

def blocks(page, section):
    text = (ROOT / page).read_text()
    text = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"```python\n(.*?)```", text, re.S)
    assert found, f"{page}: the {section} section has no Python example"
    return found


@pytest.mark.parametrize(
    "page, section",
    [("README.md", "Python"), ("docs/PYTHON.md", "Python"), ("docs/PYTHON.md", "SQL engines and Dask")],
)
def test_the_documented_examples_run(page, section):
    for n, block in enumerate(blocks(page, section)):
        exec(compile(block, f"{page} ({section}, example {n + 1})", "exec"), {})
