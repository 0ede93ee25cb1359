// "agentc: Show graph" and "agentc: Explain": each runs the agentc program on the file as
// saved on disk (a `use "./tools.py"` is read relative to it) and shows what it printed.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { LANGUAGE_ID } from "./detect";
import { AgentcCommand, describe } from "./resolve";
import { Run, runAgentc } from "./run";

export interface Context {
  readonly output: vscode.OutputChannel;
  readonly agentc: () => AgentcCommand | undefined;
  readonly storage: vscode.Uri;
}

function agentDocument(uri?: vscode.Uri): vscode.TextDocument | undefined {
  if (uri !== undefined) return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const doc = vscode.window.activeTextEditor?.document;
  return doc !== undefined && (doc.languageId === LANGUAGE_ID || doc.uri.path.endsWith(".agent")) ? doc : undefined;
}

async function target(ctx: Context, uri?: vscode.Uri): Promise<{ file: string; cmd: AgentcCommand } | undefined> {
  const doc = agentDocument(uri);
  const file = doc?.uri.scheme === "file" ? doc.uri.fsPath : uri?.scheme === "file" ? uri.fsPath : undefined;
  if (file === undefined) {
    void vscode.window.showWarningMessage("agentc: open a saved .agent file first (the command reads it from disk).");
    return undefined;
  }
  const cmd = ctx.agentc();
  if (cmd === undefined) {
    notFound();
    return undefined;
  }
  if (doc?.isDirty) {
    void vscode.window.showInformationMessage("agentc: showing the file as last saved; save it to include your edits.");
  }
  return { file, cmd };
}

export function notFound(): void {
  const open = "Open settings";
  void vscode.window
    .showErrorMessage(
      "agentc was not found: install it in this folder's Python environment (a .venv here), or set agentc.path to the agentc program.",
      open,
    )
    .then((choice) => {
      if (choice === open) void vscode.commands.executeCommand("workbench.action.openSettings", "agentc.path");
    });
}

/** Puts a failed run in the output panel and says so in one line. */
function failed(ctx: Context, what: string, cmd: AgentcCommand, args: readonly string[], run: Run): void {
  ctx.output.appendLine(`$ ${describe(cmd)} ${args.join(" ")}`);
  ctx.output.appendLine(run.stderr.trimEnd());
  const first = run.stderr.split("\n").find((line) => line.trim() !== "") ?? `exit status ${run.code}`;
  const show = "Show output";
  void vscode.window.showErrorMessage(`agentc ${what} failed: ${first}`, show).then((choice) => {
    if (choice === show) ctx.output.show(true);
  });
}

const panels = new Map<string, vscode.WebviewPanel>();

function graphHtml(webview: vscode.Webview, svg: string, file: string): string {
  // The SVG is shown as an image, so nothing in it runs; the page itself runs no script.
  const data = Buffer.from(svg, "utf8").toString("base64");
  const csp = `default-src 'none'; img-src ${webview.cspSource} data:; style-src 'unsafe-inline';`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${path.basename(file)}</title>
<style>body { margin: 0; padding: 1em; background: #fff; } img { max-width: 100%; height: auto; }</style>
</head><body><img alt="the graph of ${path.basename(file)}" src="data:image/svg+xml;base64,${data}"></body></html>`;
}

export async function showGraph(ctx: Context, uri?: vscode.Uri): Promise<void> {
  const t = await target(ctx, uri);
  if (t === undefined) return;
  await drawGraph(ctx, t.file, t.cmd);
}

async function drawGraph(ctx: Context, file: string, cmd: AgentcCommand): Promise<void> {
  const args = ["graph", file, "--format", "svg", "-o", "-"];
  const run = await runAgentc(cmd, args, path.dirname(file));
  if (run.code !== 0) return failed(ctx, "graph", cmd, args, run);
  let panel = panels.get(file);
  if (panel === undefined) {
    panel = vscode.window.createWebviewPanel("agentc.graph", `Graph: ${path.basename(file)}`, vscode.ViewColumn.Beside, {
      enableScripts: false,
    });
    panels.set(file, panel);
    panel.onDidDispose(() => panels.delete(file));
  }
  panel.webview.html = graphHtml(panel.webview, run.stdout, file);
  panel.reveal(undefined, true);
}

/** Redraws an open graph when its file is saved. */
export async function redrawOnSave(ctx: Context, doc: vscode.TextDocument): Promise<void> {
  if (doc.uri.scheme !== "file" || !panels.has(doc.uri.fsPath)) return;
  const cmd = ctx.agentc();
  if (cmd !== undefined) await drawGraph(ctx, doc.uri.fsPath, cmd);
}

export async function explain(ctx: Context, uri?: vscode.Uri): Promise<void> {
  const t = await target(ctx, uri);
  if (t === undefined) return;
  const args = ["explain", t.file, "--format", "markdown"];
  const run = await runAgentc(t.cmd, args, path.dirname(t.file));
  if (run.code !== 0) return failed(ctx, "explain", t.cmd, args, run);
  // A file in the extension's storage, not an untitled editor: closing the preview then
  // leaves nothing behind asking to be saved.
  const dir = vscode.Uri.joinPath(ctx.storage, "explain");
  await fs.mkdir(dir.fsPath, { recursive: true });
  const md = vscode.Uri.joinPath(dir, `${path.basename(t.file, ".agent")}.md`);
  await fs.writeFile(md.fsPath, run.stdout, "utf8");
  try {
    await vscode.commands.executeCommand("markdown.showPreviewToSide", md);
  } catch {
    // The built-in Markdown extension is disabled: show the text itself.
    await vscode.window.showTextDocument(md, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
}
