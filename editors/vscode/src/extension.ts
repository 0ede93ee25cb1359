// The agentc extension: starts `agentc lsp` for agentc documents and registers the
// commands. Highlighting (the TextMate grammar), snippets and bracket rules are declared in
// package.json and work without the language server.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import * as commands from "./commands";
import { claim, LANGUAGE_ID } from "./detect";
import { AgentcCommand, describe, resolveAgentc } from "./resolve";

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;

function agentc(): AgentcCommand | undefined {
  const setting = vscode.workspace.getConfiguration("agentc").get<string>("path", "agentc");
  return resolveAgentc(setting, {
    folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    trusted: vscode.workspace.isTrusted,
    env: process.env,
    platform: process.platform,
  });
}

async function startClient(output: vscode.OutputChannel): Promise<void> {
  const cmd = agentc();
  if (cmd === undefined) {
    commands.notFound();
    return;
  }
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const serverOptions: ServerOptions = {
    command: cmd.command,
    // No `transport`: with TransportKind.stdio the client would append `--stdio`; without
    // it, it still talks over stdin/stdout and runs exactly `agentc lsp`.
    args: [...cmd.args, "lsp"],
    options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: "1", NO_COLOR: "1" } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: LANGUAGE_ID },
      { scheme: "untitled", language: LANGUAGE_ID },
    ],
    // A `use`d Python file or another .agent file changing can change this file's diagnostics.
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{agent,py}") },
    outputChannel: output,
  };
  output.appendLine(`starting the language server: ${describe(cmd)} lsp`);
  const c = new LanguageClient("agentc", "agentc language server", serverOptions, clientOptions);
  try {
    await c.start();
    client = c;
  } catch (err) {
    const open = "Open settings";
    const choice = await vscode.window.showErrorMessage(
      `The agentc language server did not start (${describe(cmd)} lsp): ${String(err)}. Highlighting, snippets and the commands still work.`,
      open,
    );
    if (choice === open) void vscode.commands.executeCommand("workbench.action.openSettings", "agentc.path");
  }
}

function ensureClient(output: vscode.OutputChannel): Promise<void> {
  if (client !== undefined) return Promise.resolve();
  starting ??= startClient(output).finally(() => {
    starting = undefined;
  });
  return starting;
}

async function restart(output: vscode.OutputChannel): Promise<void> {
  const old = client;
  client = undefined;
  if (old !== undefined) await old.stop();
  await ensureClient(output);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("agentc");
  const serverOutput = vscode.window.createOutputChannel("agentc language server");
  const ctx: commands.Context = { output, agentc, storage: context.globalStorageUri };
  const opened = (doc: vscode.TextDocument) => {
    if (doc.languageId === LANGUAGE_ID) void ensureClient(serverOutput);
    else void claim(doc);
  };
  context.subscriptions.push(
    output,
    serverOutput,
    vscode.commands.registerCommand("agentc.showGraph", (uri?: vscode.Uri) => commands.showGraph(ctx, uri)),
    vscode.commands.registerCommand("agentc.explain", (uri?: vscode.Uri) => commands.explain(ctx, uri)),
    vscode.commands.registerCommand("agentc.restartServer", () => restart(serverOutput)),
    vscode.workspace.onDidOpenTextDocument(opened),
    vscode.workspace.onDidSaveTextDocument((doc) => commands.redrawOnSave(ctx, doc)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("agentc.path") && client !== undefined) void restart(serverOutput);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client !== undefined) void restart(serverOutput);
    }),
  );
  vscode.workspace.textDocuments.forEach(opened);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
