// One build script for every bundle: CLI, extension host, webview, tests and benchmarks.
// Flags: --production (minify, no sourcemaps), --watch, --tests, --bench.
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const args = new Set(process.argv.slice(2));
const production = args.has("--production");
const watch = args.has("--watch");

const common = {
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
  target: "es2022",
};

// The index worker (a second thread for large sessions) is bundled first and its text
// defined into every Node bundle, so it runs from the CLI, the extension, tests and
// benchmarks alike with no file to locate at run time. In --watch mode a change to
// the worker's own code needs a restart.
const indexWorker = await esbuild.build({
  ...common,
  sourcemap: false,
  platform: "node",
  format: "cjs",
  entryPoints: ["src/core/formats/index-worker.ts"],
  write: false,
});

// The tokenizer tables and the Anthropic SDK are 4.5 of the 5 MB a single bundle would
// hold, and only exact counts and summaries use them: they get bundles of their own,
// required on first use (src/core/lazy/lazy-bundles.ts), so start-up parses neither.
const LAZY = [
  { source: "src/core/lazy/tokenizer-bundle.ts", outfile: "dist/tokenizer.js" },
  { source: "src/core/lazy/anthropic-bundle.ts", outfile: "dist/anthropic-sdk.js" },
  // `ase mcp` alone needs the MCP SDK (+ zod, ajv): the server and its SDK are one bundle of
  // their own, so no other command (nor the extension, which only names the command) parses them.
  // It holds core code too, so it requires the two above beside it, as dist/cli.js does.
  { source: "src/mcp/mcp-bundle.ts", outfile: "dist/mcp.js", holdsCore: true },
  { source: "src/core/lazy/export-page-bundle.ts", outfile: "dist/export-page.js" },
  // sql.js with its WebAssembly inlined: read only when an OpenCode database is opened.
  { source: "src/core/lazy/sqlite-bundle.ts", outfile: "dist/sqlite.js" },
  // The per-file history's second thread, started from its file (it holds every format).
  { source: "src/core/history/history-worker-bundle.ts", outfile: "dist/history-worker.js", holdsCore: true },
];

/**
 * Turns lazy-bundles.ts's `require("./tokenizer-bundle")` into a require of the built
 * file. The shipped bundles sit beside it in dist/ and name it relatively (the .vsix is
 * installed anywhere); tests and benchmarks, built elsewhere, name dist/ absolutely.
 */
function lazyBundles(beside) {
  return {
    name: "lazy-bundles",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/(.*\/)?(tokenizer|anthropic|mcp|export-page|sqlite|history-worker)-bundle$/ }, (args) => {
        // require.resolve too: the history's thread is started from its file's name.
        if (args.kind !== "require-call" && args.kind !== "require-resolve") return undefined;
        const lazy = LAZY.find((l) => resolve(l.source) === resolve(args.resolveDir, `${args.path}.ts`));
        if (!lazy) return undefined;
        return { path: beside ? `./${lazy.outfile.slice("dist/".length)}` : resolve(lazy.outfile), external: true };
      });
    },
  };
}

// The search thread (a user's regex runs there, stopped at a deadline), bundled the same
// way; the lazy bundles stay out (a search never counts tokens or summarizes).
const searchWorker = await esbuild.build({
  ...common,
  sourcemap: false,
  platform: "node",
  format: "cjs",
  entryPoints: ["src/core/search/search-worker.ts"],
  // Minified: its text rides in every bundle, read at every start.
  minify: true,
  write: false,
  plugins: [lazyBundles(false)],
});

// The thread that decompresses a Codex .jsonl.zst while the loading thread indexes it:
// fzstd and little else, so it starts fast and holds little.
const zstWorker = await esbuild.build({
  ...common,
  sourcemap: false,
  platform: "node",
  format: "cjs",
  entryPoints: ["src/core/formats/codex/zst-worker.ts"],
  minify: true,
  write: false,
});

const node = {
  ...common,
  platform: "node",
  format: "cjs",
  external: ["vscode"],
  define: { ASE_INDEX_WORKER_SOURCE: JSON.stringify(indexWorker.outputFiles[0].text), ASE_SEARCH_WORKER_SOURCE: JSON.stringify(searchWorker.outputFiles[0].text), ASE_ZST_WORKER_SOURCE: JSON.stringify(zstWorker.outputFiles[0].text) },
  plugins: [lazyBundles(false)],
};
const shipped = { ...node, plugins: [lazyBundles(true)] };

function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, suffix) : p.endsWith(suffix) ? [p] : [];
  });
}

/**
 * The exported HTML page (src/core/export/html.ts): the webview's own code over a static
 * data source (webview/export-page.ts), minified for the browser, and one stylesheet (the
 * explorer's, then the codicons' with their font as a data: URL, as the page may load
 * nothing). Both are defined into dist/export-page.js, a lazy bundle. In --watch mode a
 * change to the webview needs a restart for the page to follow.
 */
async function exportPageAssets() {
  const page = await esbuild.build({ ...common, sourcemap: false, minify: true, platform: "browser", format: "iife", entryPoints: ["webview/export-page.ts"], write: false });
  const font = readFileSync("node_modules/@vscode/codicons/dist/codicon.ttf").toString("base64");
  const codicons = readFileSync("node_modules/@vscode/codicons/dist/codicon.css", "utf8").replace(/url\("\.\/codicon\.ttf[^"]*"\)/, `url("data:font/ttf;base64,${font}")`);
  return { script: page.outputFiles[0].text, css: `${codicons}\n${readFileSync("media/explorer.css", "utf8")}` };
}
const exportPage = existsSync("webview/export-page.ts") ? await exportPageAssets() : { script: "", css: "" };

const builds = [
  { ...shipped, entryPoints: ["src/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  ...LAZY.map((l) => {
    const base = l.holdsCore ? shipped : { ...node, plugins: [] };
    return { ...base, entryPoints: [l.source], outfile: l.outfile, define: { ...base.define, ASE_EXPORT_PAGE: JSON.stringify(exportPage) } };
  }),
];
if (existsSync("src/extension/extension.ts")) {
  builds.push({ ...shipped, entryPoints: ["src/extension/extension.ts"], outfile: "dist/extension.js" });
}
if (existsSync("webview/main.ts")) {
  builds.push({ ...common, platform: "browser", format: "iife", entryPoints: ["webview/main.ts"], outfile: "dist/webview/main.js" });
}
if (args.has("--tests")) {
  rmSync("out/test", { recursive: true, force: true });
  // pi (a devDependency, the oracle of test/oracle) is an ES module loaded at run time.
  // Every test bundle holds the registry: sessions built by hand find their format (test/helpers/formats-registered.ts).
  builds.push({ ...node, entryPoints: files("test", ".test.ts"), outdir: "out/test", outbase: "test", external: ["vscode", "mocha", "@mariozechner/pi-coding-agent"], sourcemap: "inline", inject: ["test/helpers/formats-registered.ts"] });
}
if (args.has("--webview-tests")) {
  // A webview test host backed by the real core, loaded by test/webview/harness.mjs (realCore).
  builds.push({ ...node, entryPoints: ["test/webview/real-host.ts"], outfile: "out/test-webview/real-host.js" });
}
if (args.has("--ext-tests")) {
  // Runs inside the VS Code extension host: `vscode` and mocha come from there / node_modules.
  builds.push({ ...node, entryPoints: ["test/extension/index.ts"], outfile: "out/test-ext/index.js", external: ["vscode", "mocha"], sourcemap: "inline" });
}
if (args.has("--bench")) {
  // playwright-core (the HTML export's page in Chromium) is required from node_modules, as it finds its own files there.
  builds.push({ ...node, entryPoints: ["bench/bench.ts"], outfile: "dist-bench/bench.js", external: ["vscode", "playwright-core"] });
  // Loads are measured in their own small bundle, so the tokenizer tables the main bench
  // bundle carries do not count in their peak RSS.
  builds.push({ ...node, entryPoints: ["bench/load-child.ts"], outfile: "dist-bench/load-child.js" });
  // An HTML export in a process of its own: its peak RSS against the session's size.
  builds.push({ ...node, entryPoints: ["bench/export-child.ts"], outfile: "dist-bench/export-child.js" });
}

/** Stylesheets and the codicon font go next to the webview bundle: one local resource root. */
function copyWebviewAssets() {
  mkdirSync("dist/webview", { recursive: true });
  const assets = [
    ["media/explorer.css", "dist/webview/explorer.css"],
    ["node_modules/@vscode/codicons/dist/codicon.css", "dist/webview/codicon.css"],
    ["node_modules/@vscode/codicons/dist/codicon.ttf", "dist/webview/codicon.ttf"],
  ];
  for (const [from, to] of assets) if (existsSync(from)) copyFileSync(from, to);
}
copyWebviewAssets();

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log("watching for changes...");
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
