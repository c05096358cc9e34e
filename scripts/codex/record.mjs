#!/usr/bin/env node
// Records Codex CLI fixtures with the real binary (docs/codex-format.md, "Recording"):
// installs @openai/codex@0.169.0 into a cache folder (never a dependency of this package),
// drives it against our fake Responses server (fake-responses.mjs) in a throw-away
// CODEX_HOME, and writes the rollouts plus goldens (the `input` Codex sent on resume) under
// test/fixtures/codex/. Then checks every golden against `ase context --format native`.
//   node scripts/codex/record.mjs            record, then check
//   node scripts/codex/record.mjs --check    check the committed goldens, and our fork of the
//                                            committed main rollout resumed by the binary
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { startFake } from "./fake-responses.mjs";
import { checkGoldens } from "./check-goldens.mjs";
import { bin, install, repo, rollouts, VERSION, writeConfig } from "./recorder-home.mjs";

const out = join(repo, "test/fixtures/codex");

/** A rollout's lines, parsed. */
const linesOf = (file) => readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

const idOf = (file) => linesOf(file)[0].payload.id;

class Recorder {
  constructor(root, fake) {
    this.root = root;
    this.fake = fake;
  }

  home(name) {
    const home = join(this.root, name);
    mkdirSync(home, { recursive: true });
    writeConfig(home, this.fake.port);
    return home;
  }

  /** Runs codex; `interruptOn(body)` sends SIGINT once a request it accepts arrives. */
  run(home, args, { interruptOn } = {}) {
    const project = join(this.root, "project");
    mkdirSync(project, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, FAKE_KEY: "x", LANG: "C.UTF-8", TZ: "UTC" };
    return new Promise((ok) => {
      const child = spawn(bin, ["exec", "--skip-git-repo-check", ...args], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
      let log = "";
      child.stdout.on("data", (d) => (log += d));
      child.stderr.on("data", (d) => (log += d));
      if (interruptOn) {
        this.fake.onRequest((body) => {
          if (interruptOn(body)) setTimeout(() => child.kill("SIGINT"), 300);
        });
      }
      child.on("close", (code, signal) => ok({ code, signal, log }));
    });
  }

  async must(home, args, opts) {
    const r = await this.run(home, args, opts);
    if (r.code !== 0) throw new Error(`codex ${args.join(" ")} exited ${r.code}:\n${r.log}`);
    return r;
  }
}

const lastUserText = (body) => {
  const input = body.input ?? [];
  const m = [...input].reverse().find((i) => i.type === "message" && i.role === "user");
  return (m?.content ?? []).map((c) => c.text ?? "").join("");
};

async function record(root, fake) {
  const rec = new Recorder(root, fake);
  const home = rec.home("home");
  // Main thread: text, tools (several per response, failing, unknown, apply_patch), reasoning,
  // a failed turn, an interrupted turn, and a turn after them.
  await rec.must(home, ["Say hello"]);
  const main = rollouts(home)[0];
  const mainId = idOf(main);
  await rec.must(home, ["resume", mainId, "Please run TOOLS: echo, a failing ls, an unknown tool, then a patch"]);
  const failed = await rec.run(home, ["resume", mainId, "This turn will FAIL mid-stream"]);
  if (failed.code === 0) throw new Error("the FAIL turn was expected to fail");
  await rec.run(home, ["resume", mainId, "HANG until interrupted"], { interruptOn: (b) => lastUserText(b).includes("HANG") });
  await rec.must(home, ["resume", mainId, "After the interruption, say hello again"]);
  // Auto-compaction: a big usage, then the next turn compacts first.
  const compactFlags = ["-c", "model_auto_compact_token_limit=5000"];
  await rec.must(home, [...compactFlags, "Give a BIG answer"]);
  const compact = rollouts(home).find((f) => f !== main);
  const compactId = idOf(compact);
  await rec.must(home, [...compactFlags, "resume", compactId, "Now a small follow-up"]);
  // A fork of the main thread.
  await rec.must(home, ["fork", mainId, "A question asked on the fork"]);
  const fork = rollouts(home).find((f) => f !== main && f !== compact);
  return { home, main, compact, fork, rec };
}

/**
 * The history Codex sends when it resumes `file`: a fresh home holding only config.toml and
 * the rollouts given, a resume with a marker prompt, that request's input minus the
 * request-time base instructions (first), the marker and what the resume itself appended.
 */
async function golden(rec, name, files, target) {
  const home = rec.home(`golden-${name}`);
  const day = join(home, "sessions/2026/01/01");
  mkdirSync(day, { recursive: true });
  for (const f of files) copyFileSync(f, join(day, basename(f)));
  const copy = join(day, basename(target));
  const plain = copy.replace(/\.zst$/, "");
  const before = existsSync(plain) && !copy.endsWith(".zst") ? linesOf(plain).length : undefined;
  const MARK = `GOLDEN-MARKER-${name}`;
  let sent;
  rec.fake.onRequest((body) => {
    if (!sent && lastUserText(body).includes(MARK)) sent = body;
  });
  const id = basename(target).match(/([0-9a-f-]{36})\.jsonl/)[1];
  await rec.must(home, ["resume", id, MARK]);
  if (!sent) throw new Error(`${name}: no request carried the marker`);
  const input = sent.input;
  const mark = input.findIndex((i) => i.type === "message" && JSON.stringify(i.content).includes(MARK));
  if (input[0]?.role !== "developer") throw new Error(`${name}: the first item sent is not the base-instructions message`);
  const lines = linesOf(plain);
  const appended = lines.slice(before ?? lines.findIndex((l) => JSON.stringify(l).includes(MARK)) - countBefore(lines, MARK));
  const markLine = appended.findIndex((l) => JSON.stringify(l).includes(MARK));
  const extra = appended.slice(0, markLine).filter((l) => l.type === "response_item").length;
  return { input: input.slice(1, mark - extra), resumeAdded: extra, baseInstructions: input[0] };
}

/** For a .zst copy: how many lines the resume appended before the marker (from turn_context on). */
function countBefore(lines, mark) {
  const at = lines.findIndex((l) => JSON.stringify(l).includes(mark));
  let k = at;
  while (k > 0 && !(lines[k - 1].type === "event_msg" && lines[k - 1].payload?.type === "task_complete")) k--;
  return at - k;
}

/**
 * A fork written by us (`ase fork`) at the answer that ends the tools turn, resumed by the
 * real binary: it must send the history our reader gives for the fork.
 */
async function checkOurFork(rec, mainFile) {
  const cli = join(repo, "dist/cli.js");
  if (!existsSync(cli)) throw new Error(`${cli} is not built: run node esbuild.mjs first`);
  const work = join(rec.root, "our-fork");
  const day = join(work, "sessions/2026/01/01");
  mkdirSync(day, { recursive: true });
  const copy = join(day, basename(mainFile));
  copyFileSync(mainFile, copy);
  const at = linesOf(copy).find((l) => l.type === "response_item" && l.payload.role === "assistant" && JSON.stringify(l.payload.content).includes("Done:"));
  const forked = spawnSync(process.execPath, [cli, "fork", copy, "--at", `o${at.ordinal}`], { encoding: "utf8" });
  if (forked.status !== 0) throw new Error(`ase fork failed: ${forked.stderr}`);
  const fork = forked.stdout.trim().split("\n").pop();
  const ours = JSON.parse(spawnSync(process.execPath, [cli, "context", fork, "--format", "native"], { encoding: "utf8", maxBuffer: 1 << 28 }).stdout).messages;
  const g = await golden(rec, "our-fork", [copy, fork], fork);
  if (JSON.stringify(g.input) !== JSON.stringify(ours)) throw new Error(`our fork: codex resumed it with ${g.input.length} items, our reader gives ${ours.length}`);
  console.log(`our fork (ase fork at o${at.ordinal}) resumed by codex-cli ${VERSION}: the same ${ours.length} items`);
}

async function main() {
  const checkOnly = process.argv.includes("--check");
  if (!checkOnly) {
    install();
    const root = mkdtempSync(join(tmpdir(), "ase-codex-rec-"));
    const fake = await startFake(join(root, "requests.jsonl"));
    try {
      const { main: mainFile, compact, fork, rec } = await record(root, fake);
      rmSync(out, { recursive: true, force: true });
      const day = join(out, "home/sessions/2026/11/26");
      mkdirSync(day, { recursive: true });
      const goldens = join(out, "goldens");
      mkdirSync(goldens, { recursive: true });
      const zstDir = join(out, "zst-home/sessions/2026/11/26");
      mkdirSync(zstDir, { recursive: true });
      const named = { main: mainFile, compact, fork };
      for (const [name, f] of Object.entries(named)) copyFileSync(f, join(day, basename(f)));
      const zst = join(zstDir, `${basename(mainFile)}.zst`);
      const z = spawnSync("zstd", ["-3", "-q", "-f", mainFile, "-o", zst]);
      if (z.status !== 0) throw new Error(`zstd failed: ${z.stderr}`);
      const cases = [
        ["main", [mainFile], mainFile],
        ["compact", [compact], compact],
        ["fork", [mainFile, fork], fork],
        ["main-zst", [zst], zst],
      ];
      for (const [name, files, target] of cases) {
        const g = await golden(rec, name, files, target);
        const file = relative(out, name === "main-zst" ? zst : join(day, basename(target)));
        writeFileSync(join(goldens, `${name}.json`), JSON.stringify({ rollout: file, resumeAdded: g.resumeAdded, input: g.input }, null, 2) + "\n");
        console.log(`golden ${name}: ${g.input.length} items (${file})`);
      }
      await checkOurFork(rec, join(day, basename(mainFile)));
    } finally {
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    }
    spawnSync(process.execPath, [join(repo, "scripts/codex/old-format.mjs")], { stdio: "inherit" });
  }
  if (checkOnly) {
    // The committed rollouts: our fork of the main thread, resumed by the real binary.
    install();
    const root = mkdtempSync(join(tmpdir(), "ase-codex-check-"));
    const fake = await startFake(join(root, "requests.jsonl"));
    try {
      const day = join(out, "home/sessions/2026/11/26");
      const main = readdirSync(day).map((n) => join(day, n)).find((f) => readFileSync(f, "utf8").includes("Please run TOOLS") && !linesOf(f)[0].payload.history_base);
      await checkOurFork(new Recorder(root, fake), main);
    } finally {
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    }
  }
  const failures = checkGoldens(repo, out);
  if (failures.length) {
    for (const f of failures) console.error(f);
    process.exit(1);
  }
  console.log("every golden matches `ase context --format native`");
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(1);
});
