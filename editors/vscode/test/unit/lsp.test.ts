// The contract between the extension and the language server: the extension starts
// `agentc lsp` with stdio as the transport, as vscode-languageclient does, and expects the
// LSP handshake and diagnostics for an opened document. Runs when AGENTC_TEST_LSP is set
// (the pytest wrapper sets it when this agentc has an `lsp` command).
import assert from "node:assert/strict";
import { ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";

const python = process.env.AGENTC_TEST_PYTHON;
const skip = python === undefined || process.env.AGENTC_TEST_LSP === undefined ? "agentc lsp is not available" : false;

type Message = { id?: number; method?: string; params?: any; result?: any; error?: any };

/** A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin/stdout. */
class Client {
  private buffer = Buffer.alloc(0);
  private waiters: { pick: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private seen: Message[] = [];
  private nextId = 1;

  constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on("data", (chunk: Buffer) => this.feed(chunk));
  }

  private feed(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString("ascii");
      const length = Number(/Content-Length: *(\d+)/i.exec(header)?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString("utf8");
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.dispatch(JSON.parse(body) as Message);
    }
  }

  private dispatch(m: Message): void {
    // A request from the server (configuration, registerCapability…): answer it empty.
    if (m.method !== undefined && m.id !== undefined) this.send({ id: m.id, result: null });
    const i = this.waiters.findIndex((w) => w.pick(m));
    if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
    else this.seen.push(m);
  }

  send(m: Message): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...m }), "utf8");
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  wait(pick: (m: Message) => boolean, what: string, ms = 60_000): Promise<Message> {
    const i = this.seen.findIndex(pick);
    if (i >= 0) return Promise.resolve(this.seen.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms / 1000} s${this.said()}`)), ms);
      this.waiters.push({ pick, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** What the server showed or logged, for a failure message. */
  private said(): string {
    const texts = this.seen
      .filter((m) => m.method === "window/showMessage" || m.method === "window/logMessage")
      .map((m) => String(m.params?.message));
    return texts.length ? `; the server said: ${texts.join(" | ")}` : "";
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return this.wait((m) => m.id === id && m.method === undefined, `answer to ${method}`);
  }
}

test("agentc lsp over stdio: handshake, diagnostics of an opened file, shutdown", { skip, timeout: 180_000 }, async () => {
  const dir = os.tmpdir();
  // The extension's own launch line: the resolved agentc, then `lsp` (extension.ts).
  const proc = spawn(python!, ["-m", "agentc", "lsp"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client(proc);
  try {
    const init = await client.request("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(dir).href,
      capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } } },
    });
    assert.equal(init.error, undefined, JSON.stringify(init.error));
    assert.ok(init.result.capabilities.textDocumentSync !== undefined, "the server syncs documents");
    client.send({ method: "initialized", params: {} });

    const uri = pathToFileURL(path.join(dir, "broken.agent")).href;
    const text = 'agentc 1\nagent a {\n  model "scripted"\n  prompt = "x"\n}\n';
    client.send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "agentc", version: 1, text } } });
    const diags = await client.wait(
      (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri && m.params.diagnostics.length > 0,
      "diagnostics for broken.agent",
    );
    // `prompt = "x"` is line 4 (0-based 3).
    assert.ok(diags.params.diagnostics.some((d: any) => d.range.start.line === 3), JSON.stringify(diags.params));

    const down = await client.request("shutdown", null);
    assert.equal(down.error, undefined);
    const exited = new Promise<number | null>((resolve) => {
      proc.on("exit", resolve);
      setTimeout(() => resolve(-1), 30_000).unref(); // -1: still running after `exit`
    });
    client.send({ method: "exit" });
    assert.equal(await exited, 0, stderr);
  } finally {
    if (proc.exitCode === null) proc.kill();
  }
});
