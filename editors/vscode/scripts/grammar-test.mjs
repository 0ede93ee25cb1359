// Grammar tests: snapshots of every example (and the prelude) plus the hand-written cases.
//
// The examples live outside this folder and vscode-tmgrammar-snap keeps each snapshot
// beside its source, so the sources are copied into a scratch folder with their
// snapshots from test/snapshots/, compared there, and (with --update) copied back.
// A snapshot holds the source lines, so an edited example fails here until the
// snapshots are regenerated: `npm run snap:update`, then read the diff.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(here, "..", "..");
const snapshots = join(here, "test", "snapshots");
const update = process.argv.includes("--update");

function agentFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...agentFiles(path));
    else if (name.endsWith(".agent")) out.push(path);
  }
  return out;
}

// Snapshot names are repository paths with "/" spelled "__", so the folder stays flat.
const sources = [...agentFiles(join(repo, "examples")), join(repo, "stdlib", "prelude.agent")];
const snapName = (src) => relative(repo, src).split(/[\\/]/).join("__") + ".snap";

function run(bin, args) {
  const tool = join(here, "node_modules", ".bin", bin);
  const r = spawnSync(tool, args, { cwd: here, stdio: "inherit", shell: process.platform === "win32" });
  return r.status ?? 1;
}

const scratch = mkdtempSync(join(tmpdir(), "agentc-snap-"));
let failed = false;
try {
  const missing = [];
  for (const src of sources) {
    const copy = join(scratch, snapName(src).replace(/\.snap$/, ""));
    cpSync(src, copy);
    const snap = join(snapshots, snapName(src));
    if (existsSync(snap)) cpSync(snap, copy + ".snap");
    else missing.push(relative(repo, src));
  }
  if (missing.length && !update) {
    console.error(`no snapshot for ${missing.join(", ")}: run \`npm run snap:update\` and commit test/snapshots/`);
    failed = true;
  }
  const grammar = ["-g", "syntaxes/agentc.tmLanguage.json", "-s", "source.agentc"];
  const snapArgs = [...grammar, join(scratch, "*.agent")];
  if (run("vscode-tmgrammar-snap", update ? ["--updateSnapshot", ...snapArgs] : snapArgs) !== 0) failed = true;
  if (update) {
    mkdirSync(snapshots, { recursive: true });
    const wanted = new Set(sources.map(snapName));
    for (const name of readdirSync(snapshots)) if (!wanted.has(name)) rmSync(join(snapshots, name));
    for (const name of wanted) cpSync(join(scratch, name), join(snapshots, name));
  } else {
    const wanted = new Set(sources.map(snapName));
    const stale = readdirSync(snapshots).filter((name) => !wanted.has(name));
    if (stale.length) {
      console.error(`snapshots of files that are gone: ${stale.join(", ")}: run \`npm run snap:update\``);
      failed = true;
    }
  }
  // Hand-written cases: each asserts the scopes of the lines above it (`#   ^^^ scope`).
  if (run("vscode-tmgrammar-test", ["-g", "syntaxes/agentc.tmLanguage.json", "test/cases/*.agent"]) !== 0) failed = true;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
