"""The review never fails on a setting the checker lets through as written: a free-form
value (inside a list of maps, say) that is not the number a sentence expects is shown as
written. Found by the grammar fuzzer (`trigger: "sk-not-a-key"` in context_editing)."""

from __future__ import annotations

import json
from pathlib import Path

from agentc.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_a_text_where_a_number_is_expected_is_shown_not_raised(tmp_path, capsys):
    source = (ROOT / "examples" / "context_editing.agent").read_text()
    start = source.index("trigger:")
    end = source.index(",", start)
    (tmp_path / "ce.agent").write_text(source[:start] + 'trigger: "lots"' + source[end:])
    (tmp_path / "tools.py").write_text((ROOT / "examples" / "tools.py").read_text())
    assert main(["explain", str(tmp_path / "ce.agent")]) == 0
    assert "passes lots tokens" in capsys.readouterr().out
    assert main(["explain", str(tmp_path / "ce.agent"), "--format", "json"]) == 0
    json.loads(capsys.readouterr().out)
