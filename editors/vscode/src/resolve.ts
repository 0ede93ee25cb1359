// Where the agentc program is: the one place that decides what the extension runs.
//
// `agentc.path` may name a program (`/opt/agentc/bin/agentc`), a bare name looked up in
// the workspace's virtual environment and then on PATH, or a command with arguments
// (`uv run agentc`). The default, `agentc`, falls back to `python3 -m agentc` (or
// `python -m agentc`) when no `agentc` program is found, for installs without scripts on PATH.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A program and the arguments that come before agentc's own subcommand. */
export interface AgentcCommand {
  readonly command: string;
  readonly args: readonly string[];
}

export interface Lookup {
  /** The workspace folders, searched for `.venv` and `venv` only when the workspace is trusted. */
  readonly folders: readonly string[];
  readonly trusted: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
}

const isWindows = (lookup: Lookup) => lookup.platform === "win32";

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function executableNames(name: string, lookup: Lookup): string[] {
  if (!isWindows(lookup) || path.extname(name)) return [name];
  const exts = (lookup.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter(Boolean);
  return [name, ...exts.map((ext) => name + ext.toLowerCase())];
}

/** `name` in the workspace's virtual environments (trusted workspaces only), then on PATH. */
export function findProgram(name: string, lookup: Lookup): string | undefined {
  const dirs: string[] = [];
  if (lookup.trusted) {
    const bin = isWindows(lookup) ? "Scripts" : "bin";
    for (const folder of lookup.folders) {
      dirs.push(path.join(folder, ".venv", bin), path.join(folder, "venv", bin));
    }
  }
  const envPath = lookup.env.PATH ?? lookup.env.Path ?? "";
  dirs.push(...envPath.split(path.delimiter).filter(Boolean));
  for (const dir of dirs) {
    for (const candidate of executableNames(name, lookup)) {
      const full = path.join(dir, candidate);
      if (isFile(full)) return full;
    }
  }
  return undefined;
}

function expand(setting: string, lookup: Lookup): string {
  let s = setting.trim();
  if (s.startsWith("~/") || s === "~") s = path.join(os.homedir(), s.slice(1));
  const folder = lookup.folders[0];
  if (folder !== undefined) s = s.split("${workspaceFolder}").join(folder);
  return s;
}

/** What to run for `agentc.path = setting`, or undefined when nothing fits. */
export function resolveAgentc(setting: string, lookup: Lookup): AgentcCommand | undefined {
  const s = expand(setting || "agentc", lookup);
  // A whole absolute path first, so a path with spaces in it is not split into arguments.
  if (path.isAbsolute(s) && isFile(s)) return { command: s, args: [] };
  const [first, ...rest] = s.split(/\s+/);
  if (first === undefined || first === "") return undefined;
  if (first.includes("/") || first.includes("\\")) {
    // A path: a relative one is read from the first workspace folder, and only in a
    // trusted workspace (an untrusted folder must not choose the program that runs).
    if (path.isAbsolute(first)) return { command: first, args: rest };
    const folder = lookup.folders[0];
    if (!lookup.trusted || folder === undefined) return undefined;
    return { command: path.join(folder, first), args: rest };
  }
  const found = findProgram(first, lookup);
  if (found !== undefined) return { command: found, args: rest };
  if (first === "agentc" && rest.length === 0) {
    for (const python of ["python3", "python"]) {
      const py = findProgram(python, lookup);
      if (py !== undefined) return { command: py, args: ["-m", "agentc"] };
    }
  }
  return undefined;
}

/** The command as a person would type it, for messages. */
export function describe(cmd: AgentcCommand): string {
  const quote = (a: string) => (/\s/.test(a) ? JSON.stringify(a) : a);
  return [cmd.command, ...cmd.args].map(quote).join(" ");
}
