"""The README's Python examples run as written: the Python section's, and
the SQL engines' (scripts/test-python also runs the first in a fresh
environment with only the `arrow` extra)."""

import re

import pytest

from conftest import ROOT

README = (ROOT / "README.md").read_text()


def blocks(section):
    text = README.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"```python\n(.*?)```", text, re.S)
    assert found, f"the README's {section} section has no Python example"
    return found


@pytest.mark.parametrize("section", ["Python", "SQL engines and Dask"])
def test_the_readme_examples_run(section):
    for n, block in enumerate(blocks(section)):
        exec(compile(block, f"README.md ({section}, example {n + 1})", "exec"), {})
