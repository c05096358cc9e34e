import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { FakeAnthropic } from "../compaction/fake-anthropic";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

/**
 * Start-up stays light: the tokenizer tables and the Anthropic SDK are bundles of their
 * own (dist/tokenizer.js, dist/anthropic-sdk.js) that the CLI and the extension require
 * on first use. These tests fail when someone imports either eagerly again.
 */
const DIST = resolve("dist");
const LAZY = { tokenizer: join(DIST, "tokenizer.js"), sdk: join(DIST, "anthropic-sdk.js") };
/**
 * The main bundles are ~1 MB with six formats (development build: 0.96 MB CLI, 1.06 MB
 * extension); the tokenizer is 3.4 MB and the SDK 1.3 MB, so either one bundled in again
 * passes 1.5 MB at once (the marks below name which).
 */
const MAIN_BUNDLE_MAX = 1.5 * 1024 * 1024;
/** In the o200k encoder's text-splitting pattern (gpt-tokenizer), nowhere else. */
const TOKENIZER_MARK = "\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}";
/** Request headers only the SDK sends. */
const SDK_MARK = "x-stainless-";

/** A --require hook that writes the modules the process loaded (require.cache) to a file at exit. */
function hookFile(dir: string): string {
  const hook = join(dir, "loaded-modules-hook.js");
  writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(process.env.ASE_LOADED_LIST, JSON.stringify(Object.keys(require.cache))));\n`);
  return hook;
}

interface Run {
  code: number;
  out: string;
  err: string;
  loaded: string[];
}

/** Runs dist/cli.js in a child (asynchronously: a fake server may live in this process). */
async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const dir = tempDir();
  const list = join(dir, "loaded.json");
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: dir, ASE_LOADED_LIST: list, ...env };
  let code = 0;
  let out = "";
  let err = "";
  try {
    const r = await promisify(execFile)(process.execPath, ["--require", hookFile(dir), join(DIST, "cli.js"), ...args], { env: fullEnv, maxBuffer: 64 << 20 });
    out = r.stdout;
    err = r.stderr;
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    code = typeof x.code === "number" ? x.code : 1;
    out = x.stdout ?? "";
    err = x.stderr ?? "";
  }
  return { code, out, err, loaded: JSON.parse(readFileSync(list, "utf8")) as string[] };
}

function tinySession(): string {
  return writeSession([header(), user("00000001", null, "which files are there?"), assistant("00000002", "00000001", "src/cli/main.ts and src/extension/extension.ts")]);
}

describe("start-up: no tokenizer tables and no Anthropic SDK until they are used", () => {
  it("dist/cli.js and dist/extension.js hold neither the o200k tokenizer nor the SDK; the lazy bundles do", () => {
    for (const name of ["cli.js", "extension.js"]) {
      const file = join(DIST, name);
      const size = statSync(file).size;
      assert.ok(size < MAIN_BUNDLE_MAX, `${file} is ${(size / 1024).toFixed(0)} KB, over ${MAIN_BUNDLE_MAX / 1024} KB: did the tokenizer or the SDK get bundled in again?`);
      const text = readFileSync(file, "utf8");
      assert.ok(!text.includes(TOKENIZER_MARK), `${file} contains gpt-tokenizer's o200k code: import it through src/core/lazy/lazy-bundles.ts`);
      assert.ok(!text.includes(SDK_MARK), `${file} contains @anthropic-ai/sdk: import it through src/core/lazy/lazy-bundles.ts`);
      assert.match(text, /require\("\.\/tokenizer\.js"\)/, `${file} does not require its sibling tokenizer bundle`);
      assert.match(text, /require\("\.\/anthropic-sdk\.js"\)/, `${file} does not require its sibling SDK bundle`);
    }
    // The marks are real: they are found where the libraries went.
    assert.ok(readFileSync(LAZY.tokenizer, "utf8").includes(TOKENIZER_MARK), "dist/tokenizer.js lacks the o200k pattern");
    assert.ok(readFileSync(LAZY.sdk, "utf8").includes(SDK_MARK), "dist/anthropic-sdk.js lacks the SDK's headers");
  });

  it("ase --help, context, tree and tokens (estimates) load neither bundle", async () => {
    const file = tinySession();
    for (const args of [["--help"], ["context", file], ["context", file, "--format", "anthropic"], ["tree", file], ["tokens", file]]) {
      const r = await runCli(args);
      assert.equal(r.code, 0, `ase ${args.join(" ")}: ${r.err}`);
      assert.ok(r.loaded.includes(join(DIST, "cli.js")), `the hook saw ${JSON.stringify(r.loaded)}`);
      assert.ok(!r.loaded.includes(LAZY.tokenizer), `ase ${args.join(" ")} loaded dist/tokenizer.js`);
      assert.ok(!r.loaded.includes(LAZY.sdk), `ase ${args.join(" ")} loaded dist/anthropic-sdk.js`);
    }
  });

  it("ase tokens --exact loads the tokenizer only; --anthropic-count loads the SDK only", async () => {
    const file = tinySession();
    const exact = await runCli(["tokens", file, "--exact", "--json"]);
    assert.equal(exact.code, 0, exact.err);
    assert.equal(JSON.parse(exact.out).tokenizer, "o200k_base");
    assert.ok(exact.loaded.includes(LAZY.tokenizer), "--exact counted without dist/tokenizer.js?");
    assert.ok(!exact.loaded.includes(LAZY.sdk));

    const fake = await FakeAnthropic.start([], { apiKey: "k", countTokens: () => 4242 });
    try {
      const api = await runCli(["tokens", file, "--anthropic-count", "--json"], { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url });
      assert.equal(api.code, 0, api.err);
      assert.equal(JSON.parse(api.out).anthropicCount.inputTokens, 4242);
      assert.ok(api.loaded.includes(LAZY.sdk), "--anthropic-count asked the API without dist/anthropic-sdk.js?");
      assert.ok(!api.loaded.includes(LAZY.tokenizer));
    } finally {
      await fake.close();
    }
  });
});
