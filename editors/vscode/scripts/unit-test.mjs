// Unit tests of the parts that do not need the editor (finding agentc, running it):
// bundled with esbuild into a scratch folder and run with node's own test runner.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const unit = join(here, "test", "unit");
// Inside the package folder's test/ (ignored by git and vsce) so __dirname-relative
// paths to the repository's examples hold.
const out = mkdtempSync(join(unit, ".out-"));
try {
  const entries = readdirSync(unit).filter((n) => n.endsWith(".test.ts")).map((n) => join(unit, n));
  await esbuild.build({ entryPoints: entries, bundle: true, outdir: out, platform: "node", format: "cjs", target: "node18", logLevel: "warning" });
  const files = readdirSync(out).map((n) => join(out, n));
  const r = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
