"""The layering is a contract, not a convention: import-linter checks it (contracts in .importlinter).

Front doors (cogs, commands) above the rulesets above the engine; the engine imports no ruleset,
no front door, no Discord and no Pillow; rulesets import no other ruleset.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    exe = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_every_installed_ruleset_registers():
    import rulesets
    from engine.rulesets import REGISTRY

    rulesets.load_all()
    assert {m.rsplit(".", 1)[1] for m in rulesets.INSTALLED} <= set(REGISTRY)
