// Bundles the extension and vscode-languageclient into out/extension.js, so the .vsix
// needs no node_modules (`vsce package --no-dependencies`). `vscode` is the editor's own.
import * as esbuild from "esbuild";

const options = {
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "out/extension.js",
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node18",
  sourcemap: false,
  minify: true,
  logLevel: "info",
};

if (process.argv.includes("--watch")) {
  const ctx = await esbuild.context({ ...options, sourcemap: true });
  await ctx.watch();
} else {
  await esbuild.build(options);
}
