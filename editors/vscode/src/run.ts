// Runs the agentc program once and collects what it printed. Kept apart from the editor
// API so it can be tested with plain node.
import { execFile } from "node:child_process";
import { AgentcCommand } from "./resolve";

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `agentc ARGS…` in the file's folder; a program that cannot start is
 * a Run with code 127, one that runs past 2 minutes is stopped (code 124). */
export function runAgentc(cmd: AgentcCommand, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd.command,
      [...cmd.args, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ code: 0, stdout, stderr });
        if (error.killed) return resolve({ code: 124, stdout, stderr: `${stderr}agentc did not finish within 2 minutes and was stopped` });
        const code = typeof error.code === "number" ? error.code : 127;
        resolve({ code, stdout, stderr: stderr || error.message });
      },
    );
  });
}
