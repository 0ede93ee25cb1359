"""Helpers the tests share: builders of `.agent` files and IR pieces, the scripted-model and
provider kits, golden-file comparison. `tests/` is on the import path (its conftest.py sits
there), so a test imports them as `from support.mwkit import agent, ask`."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
EXAMPLES = ROOT / "examples"
