// Which `.agent` files are agentc's. Salesforce Agent Script uses the `.agent` extension
// too, so the language is not claimed by extension: a file whose first line is the
// version line `agentc N` is agentc's (package.json's `firstLine` says the same to VS Code,
// but VS Code consults it only when no extension claims `.agent`), and so is a `.agent`
// file that opened as plain text. A `files.associations` entry for `.agent` files is the
// person's own choice and is left alone.
import * as vscode from "vscode";

/** The same pattern as `firstLine` in package.json (a test keeps the two equal). */
export const FIRST_LINE = /^\uFEFF?agentc[ \t]+\d+[ \t]*(?:#.*)?$/;

export const LANGUAGE_ID = "agentc";

function associatesAgentFiles(): boolean {
  const assoc = vscode.workspace.getConfiguration("files").get<Record<string, string>>("associations") ?? {};
  return Object.keys(assoc).some((pattern) => pattern.endsWith(".agent"));
}

export function shouldClaim(doc: vscode.TextDocument): boolean {
  if (doc.languageId === LANGUAGE_ID || !doc.uri.path.endsWith(".agent")) return false;
  if (!vscode.workspace.getConfiguration("agentc").get<boolean>("detectByFirstLine", true)) return false;
  if (associatesAgentFiles()) return false;
  const first = doc.lineCount > 0 ? doc.lineAt(0).text : "";
  return FIRST_LINE.test(first) || doc.languageId === "plaintext";
}

export async function claim(doc: vscode.TextDocument): Promise<void> {
  if (shouldClaim(doc)) await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
}
