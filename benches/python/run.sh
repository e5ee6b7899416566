#!/usr/bin/env bash
# Times rfc1738's Python package beside the Python URL parsers people use,
# over the corpus, in one run. Usage: benches/python/run.sh [--rounds N]
# Uses the test environment (target/py-venv, made by scripts/test-python
# when missing) and adds the peers to it.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=target/py-venv/bin/python
[ -x "$py" ] || python3 -m venv target/py-venv
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet "./crates/rfc1738-py[arrow]" yarl can_ada rfc3986
cargo build --quiet --release -p rfc1738-bench --bin parse-bench
"$py" benches/python/bench.py --parse-bench target/release/parse-bench "$@"
