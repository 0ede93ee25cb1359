"""`agentc run` tells pydantic "no plugins" itself only when no installed distribution
declares one (`agentc/runner/plugin_scan.py`); a plugin on the path is found and used.

Each run is a real `agentc run` process (`main()` as the console script calls it) with the
caches in the test's folder; a pydantic plugin is a real distribution folder on PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import json, sys
from agentc.cli import main
sys.argv = ["agentc", *sys.argv[1:]]
code = main()
loader = sys.modules.get("pydantic.plugin._loader")
report = {"code": code, "metadata": "importlib.metadata" in sys.modules,
          "stand_in": bool(loader and "stand-in" in (loader.__doc__ or ""))}
print(json.dumps(report), file=sys.stderr)
"""

PLUGIN = """
from pathlib import Path

class Plugin:
    def new_schema_validator(self, schema, schema_type, schema_type_path, schema_kind,
                             config, plugin_settings):
        Path(__file__).with_name("used.txt").write_text("used")
        return None, None, None

plugin = Plugin()
"""


def run(cwd: Path, site: Path | None = None) -> dict[str, Any]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cwd / "cache")}
    for name in ("AGENTC_NO_IR_CACHE", "PYDANTIC_DISABLE_PLUGINS", "PYTHONPATH"):
        env.pop(name, None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    done = subprocess.run(
        [sys.executable, "-c", REPORT, "run", "calculator.agent", "--input", "add"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and "The answer is 5." in done.stdout, done.stderr
    return report


def calculator(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "calculator.agent", tmp_path)
    shutil.copy(ROOT / "examples" / "tools.py", tmp_path)


def install_plugin(site: Path) -> None:
    (site / "fakeplug.py").write_text(PLUGIN)
    info = site / "fakeplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[pydantic]\nfake = fakeplug:plugin\n")


def aged(folder: Path) -> None:
    """An mtime well in the past, as an installed site-packages folder has."""
    past = time.time() - 3600
    os.utime(folder, (past, past))


def test_without_plugins_a_run_validates_messages_but_reads_no_package_metadata(
    tmp_path: Path,
) -> None:
    calculator(tmp_path)
    for _ in range(2):  # the first run lists the folders, the second reads the memo
        report = run(tmp_path)
        assert report["stand_in"] and not report["metadata"]
    assert (tmp_path / "cache" / "agentc" / "pydantic-plugins.json").is_file()


def test_a_plugin_on_the_path_is_loaded_and_used_by_pydantic(tmp_path: Path) -> None:
    calculator(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    install_plugin(site)
    report = run(tmp_path, site)
    assert not report["stand_in"] and report["metadata"]
    assert (site / "used.txt").read_text() == "used"  # pydantic called the plugin


def test_a_plugin_installed_after_a_run_remembered_none_is_found(tmp_path: Path) -> None:
    calculator(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    aged(site)
    assert run(tmp_path, site)["stand_in"]  # remembered: no plugin in `site`
    memo = json.loads((tmp_path / "cache" / "agentc" / "pydantic-plugins.json").read_text())
    assert memo[str(site)][1] is False
    install_plugin(site)  # a new dist-info folder: `site`'s mtime moves
    report = run(tmp_path, site)
    assert not report["stand_in"] and (site / "used.txt").read_text() == "used"
