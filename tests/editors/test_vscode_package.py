"""`npm run package` builds the .vsix offline, and the archive holds what VS Code loads:
the manifest, the compiled extension with the language client bundled in (the package is
built with --no-dependencies), the grammar, the snippets and the language configuration."""

from __future__ import annotations

import json
import zipfile

from vscode_kit import Npm


def test_the_vsix_holds_the_extension(npm: Npm, tmp_path):
    vsix = tmp_path / "agentc.vsix"
    done = npm("run", "--silent", "package", "--", "--out", str(vsix))
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
        js = z.read("extension/out/extension.js").decode("utf-8")
    for rel in (
        "out/extension.js",
        "syntaxes/agentc.tmLanguage.json",
        "snippets/agentc.json",
        "language-configuration.json",
    ):
        assert f"extension/{rel}" in names
    # Every file the manifest points at is in the archive.
    contributes = manifest["contributes"]
    pointed = [manifest["main"]]
    pointed += [g["path"] for g in contributes["grammars"]]
    pointed += [s["path"] for s in contributes["snippets"]]
    pointed += [lang["configuration"] for lang in contributes["languages"]]
    for rel in pointed:
        assert "extension/" + rel.removeprefix("./") in names, rel
    # Sources, tests and node_modules stay out; the client library is inside the bundle.
    assert not [n for n in names if n.startswith(("extension/src/", "extension/test/"))]
    assert not [n for n in names if "node_modules" in n]
    assert 'require("vscode-languageclient' not in js
    assert "agentc language server" in js
