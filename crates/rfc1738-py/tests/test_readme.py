"""The README's Python example runs as written."""

import re

from conftest import ROOT


def test_the_readme_example_runs():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Python", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the README has no Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})
