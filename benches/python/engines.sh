#!/usr/bin/env bash
# Times the SQL functions in DuckDB, DataFusion and Polars, and the Dask
# recipe, beside what an analyst would otherwise write, over ten million
# URLs, in one run. Usage: benches/python/engines.sh [--rows N]
set -euo pipefail
cd "$(dirname "$0")/../.."
py=target/py-venv/bin/python
[ -x "$py" ] || python3 -m venv target/py-venv
"$py" -m pip install --quiet --upgrade pip
"$py" -m pip install --quiet "./crates/rfc1738-py[duckdb,datafusion,polars,dask]"
cargo build --quiet --release -p rfc1738-cli
"$py" benches/python/engines.py --binary target/release/rfc1738 "$@"
