// The commands' runs of the real agentc program. AGENTC_TEST_PYTHON names a Python that
// has agentc installed (the pytest wrapper sets it); without it these tests are skipped.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { AgentcCommand } from "../../src/resolve";
import { runAgentc } from "../../src/run";

const python = process.env.AGENTC_TEST_PYTHON;
const skip = python === undefined ? "AGENTC_TEST_PYTHON is not set" : false;
const agentc: AgentcCommand = { command: python ?? "python3", args: ["-m", "agentc"] };
// The bundle runs from test/unit/.out-*/, five folders below the repository.
const examples = path.resolve(__dirname, "..", "..", "..", "..", "..", "examples");

test("graph --format svg prints the SVG", { skip, timeout: 180_000 }, async () => {
  const file = path.join(examples, "calculator.agent");
  const run = await runAgentc(agentc, ["graph", file, "--format", "svg", "-o", "-"], examples);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /<svg[\s>]/);
});

test("explain --format markdown prints the decision map", { skip, timeout: 180_000 }, async () => {
  const file = path.join(examples, "calculator.agent");
  const run = await runAgentc(agentc, ["explain", file, "--format", "markdown"], examples);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^# Decision map of agent `calculator`/);
});

test("a file with a mistake fails with the located message", { skip, timeout: 180_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agentc-run-"));
  const file = path.join(dir, "broken.agent");
  fs.writeFileSync(file, 'agentc 1\nagent a {\n  model "scripted"\n  prompt = "x"\n}\n');
  const run = await runAgentc(agentc, ["graph", file, "--format", "svg", "-o", "-"], dir);
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /broken\.agent:4:/);
});

test("a program that does not exist is code 127", async () => {
  const run = await runAgentc({ command: "/nonexistent/agentc", args: [] }, ["--version"], os.tmpdir());
  assert.equal(run.code, 127);
  assert.match(run.stderr, /ENOENT/);
});
