"""agentc installed as a user gets it: a wheel built from this checkout, in a fresh venv.

Offline and without build isolation: the wheel is built by the running environment's
setuptools (`pip wheel --no-build-isolation --no-index`). Where that setuptools is older
than pyproject's `[build-system]` asks (a venv made by Python 3.11 ships setuptools 65),
the same installed layout is assembled from pyproject's `[tool.setuptools]` tables instead
(packages, package-dir, package-data: exactly what setuptools reads), so the copy under test
is a regular install either way, never the editable checkout. The venv sees the running
environment's dependencies through a `.pth` line, which does not run that environment's
editable-install hook.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*")


@dataclass(frozen=True)
class Installed:
    python: Path  # the venv's interpreter
    site: Path  # its site-packages, where `agentc/` was installed
    how: str  # "wheel" or "layout"

    def run(self, *args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
        )


def setuptools_builds_this() -> bool:
    """Whether the running setuptools meets pyproject's `[build-system] requires`."""
    need = _pyproject()["build-system"]["requires"]
    wanted = next((r for r in need if r.startswith("setuptools")), "setuptools")
    floor = re.search(r">=\s*([\d.]+)", wanted)
    try:
        have = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    return floor is None or _numbers(have) >= _numbers(floor.group(1))


def install(where: Path) -> Installed:
    """A fresh venv in `where` with agentc installed from this checkout's sources."""
    source = where / "src"
    copy_sources(source)
    python = make_venv(where / "venv")
    site = Path(_ask(python, "import sysconfig; print(sysconfig.get_paths()['purelib'])"))
    if setuptools_builds_this():
        _pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(where / "dist"), str(source))
        wheel = next((where / "dist").glob("agentc-*.whl"))
        _pip("--python", str(python), "install", "--no-deps", str(wheel))
        how = "wheel"
    else:
        assemble_layout(source, site)
        how = "layout"
    # Only now: the dependencies' folder also holds the checkout's editable agentc metadata,
    # which pip must not see while it installs.
    (site / "_outer_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return Installed(python, site, how)


def copy_sources(dest: Path) -> None:
    """pyproject, README and every folder pyproject maps into the package."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    folders = {"agentc", *_setuptools()["package-dir"].values()}
    for folder in sorted(folders):
        shutil.copytree(ROOT / folder, dest / folder, ignore=SKIP)


def make_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    return where / "bin" / "python"


def assemble_layout(source: Path, site: Path) -> None:
    """What installing the wheel lays down: each listed package's modules, then its data."""
    table = _setuptools()
    for package in table["packages"]:
        folder = source / _package_folder(package, table["package-dir"])
        target = site.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for file in sorted(folder.glob("*.py")):
            shutil.copy2(file, target / file.name)
        for pattern in table.get("package-data", {}).get(package, []):
            for file in sorted(folder.glob(pattern)):
                (target / file.relative_to(folder)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, target / file.relative_to(folder))
    dist = site / f"agentc-{_pyproject()['project']['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: agentc\nVersion: {_pyproject()['project']['version']}\n"
    )


def clean_env() -> dict[str, str]:
    """This process's environment without what would point Python or agentc elsewhere."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "AGENTC_"))}


def _package_folder(package: str, mapping: dict[str, str]) -> str:
    """setuptools' package-dir rule: the longest mapped prefix, then the rest as folders."""
    parts = package.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in mapping:
            return "/".join([mapping[prefix], *parts[n:]])
    return "/".join(parts)


def _pip(*args: str) -> None:
    """The running environment's pip, offline: nothing is downloaded."""
    command = [sys.executable, "-m", "pip", "-q", *args, "--no-index"]
    subprocess.run(command, check=True, capture_output=True, timeout=300, env=clean_env())


def _ask(python: Path, code: str) -> str:
    done = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, check=True, env=clean_env()
    )
    return done.stdout.strip()


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _setuptools() -> dict:
    return _pyproject()["tool"]["setuptools"]


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version)[:3])


def as_json(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
