// Which program the extension runs, over real folders and files.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { Lookup, resolveAgentc } from "../../src/resolve";

function tree(): { root: string; workspace: string; bin: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentc-resolve-"));
  const workspace = path.join(root, "project");
  const bin = path.join(root, "bin");
  fs.mkdirSync(workspace);
  fs.mkdirSync(bin);
  return { root, workspace, bin };
}

function program(p: string): string {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, "#!/bin/sh\n", { mode: 0o755 });
  return p;
}

function lookup(t: { workspace: string; bin: string }, trusted = true): Lookup {
  return { folders: [t.workspace], trusted, env: { PATH: t.bin }, platform: "linux" };
}

test("the workspace's .venv comes before PATH", () => {
  const t = tree();
  const venv = program(path.join(t.workspace, ".venv", "bin", "agentc"));
  program(path.join(t.bin, "agentc"));
  assert.deepEqual(resolveAgentc("agentc", lookup(t)), { command: venv, args: [] });
});

test("an untrusted workspace's .venv is not used", () => {
  const t = tree();
  program(path.join(t.workspace, ".venv", "bin", "agentc"));
  const onPath = program(path.join(t.bin, "agentc"));
  assert.deepEqual(resolveAgentc("agentc", lookup(t, false)), { command: onPath, args: [] });
});

test("without an agentc program, python3 -m agentc", () => {
  const t = tree();
  const python = program(path.join(t.bin, "python3"));
  assert.deepEqual(resolveAgentc("agentc", lookup(t)), { command: python, args: ["-m", "agentc"] });
});

test("python when there is no python3", () => {
  const t = tree();
  const python = program(path.join(t.bin, "python"));
  assert.deepEqual(resolveAgentc("", lookup(t)), { command: python, args: ["-m", "agentc"] });
});

test("nothing found is undefined", () => {
  assert.equal(resolveAgentc("agentc", lookup(tree())), undefined);
});

test("a command with arguments", () => {
  const t = tree();
  const uv = program(path.join(t.bin, "uv"));
  assert.deepEqual(resolveAgentc("uv run agentc", lookup(t)), { command: uv, args: ["run", "agentc"] });
});

test("an absolute path with a space in it is one program", () => {
  const t = tree();
  const p = program(path.join(t.root, "Program Files", "agentc"));
  assert.deepEqual(resolveAgentc(p, lookup(t)), { command: p, args: [] });
});

test("a relative path is read from the workspace, and only when it is trusted", () => {
  const t = tree();
  const p = program(path.join(t.workspace, "tools", "agentc"));
  assert.deepEqual(resolveAgentc("./tools/agentc", lookup(t)), { command: p, args: [] });
  assert.equal(resolveAgentc("./tools/agentc", lookup(t, false)), undefined);
});

test("${workspaceFolder} is the first workspace folder", () => {
  const t = tree();
  const p = program(path.join(t.workspace, "env", "agentc"));
  assert.deepEqual(resolveAgentc("${workspaceFolder}/env/agentc", lookup(t)), { command: p, args: [] });
});

test("a name other than agentc has no python fallback", () => {
  const t = tree();
  program(path.join(t.bin, "python3"));
  assert.equal(resolveAgentc("agentc-dev", lookup(t)), undefined);
});
