#!/usr/bin/env bash
# Set up (first time) and run Hexpost. With no DISCORD_TOKEN it opens the offline local table.
#   bash run.sh                 # Discord, or the local table when no token is set
#   bash run.sh --local --script examples/creation.txt
# The setup installs the project (pyproject.toml) into .venv/; afterwards `.venv/bin/hexpost` is the same command.
set -euo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install -qq -e .
  touch .venv/.installed
fi
exec .venv/bin/python bot.py "$@"
