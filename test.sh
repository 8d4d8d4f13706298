#!/usr/bin/env bash
# Set up (first time) and run every test.  Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed-dev ] || [ pyproject.toml -nt .venv/.installed-dev ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install -qq -e '.[test]'
  touch .venv/.installed-dev .venv/.installed
fi
exec .venv/bin/python -m pytest "$@"
