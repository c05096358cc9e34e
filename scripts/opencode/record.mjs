#!/usr/bin/env node
// Records OpenCode fixtures with the real, pinned build against our fake chat-completions
// server (../shared/docs/opencode-format.md section 7), one throw-away home per scenario
// (scenarios.mjs), and the golden of every session: the messages OpenCode sends when that
// session is continued, minus the leading system message(s) and the probe prompt.
//   node scripts/opencode/record.mjs [--only name,name] [--out dir] [--keep]
// Writes <out>/<scenario>/{data/opencode/..., goldens/<sessionId>.native.json, requests.jsonl}
// and <out>/manifest.json, then lists what changed against the fixtures that were there.
// The builds are installed into ~/.cache/ase-agents (never a dependency of the package).
import { execFileSync } from "node:child_process";
import { cpSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureAgent } from "../agents/install.mjs";
import { startFakeChat } from "./fake-chat.mjs";
import { OpenCodeHome } from "./opencode-home.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { compareRecordings } from "./compare.mjs";
import { probeContext, trimmedLog } from "./requests.mjs";
import { sessionFacts, legacySessions } from "./facts.mjs";

export const VERSION = "1.18.33";
/** The last release before the SQLite store (1.2): it writes the storage/ JSON tree. */
export const LEGACY_VERSION = "1.1.65";
/** A 1.2 build: it migrates a storage/ tree into opencode.db (1.18.33 no longer does). */
export const MIGRATE_VERSION = "1.2.27";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(ROOT, "test", "fixtures", "opencode");
/** A fixed scratch root, so paths inside the goldens are the same in every recording. */
export const SCRATCH = join(tmpdir(), "ase-opencode-rec");

const install = (version) => ensureAgent({ name: "opencode", pkg: "opencode-ai", version, bin: "opencode" });

/** Copies the store a reader sees: the database (or storage/ tree) without snapshot/ and log/. */
function copyStore(oc, scenario, to) {
  mkdirSync(to, { recursive: true });
  if (scenario.legacy) {
    cpSync(join(oc.data, "storage"), join(to, "storage"), { recursive: true });
    return;
  }
  const db = join(oc.data, "opencode.db");
  if (scenario.wal) {
    // As a live OpenCode leaves it: the main file plus its WAL, no checkpoint (no -shm).
    copyFileSync(db, join(to, "opencode.db"));
    copyFileSync(`${db}-wal`, join(to, "opencode.db-wal"));
    return;
  }
  execFileSync("sqlite3", [db, "pragma wal_checkpoint(TRUNCATE);"], { stdio: "ignore" });
  copyFileSync(db, join(to, "opencode.db"));
  // VACUUM keeps every row and shrinks the file; closing the CLI leaves no -wal/-shm behind.
  execFileSync("sqlite3", [join(to, "opencode.db"), "vacuum; pragma wal_checkpoint(TRUNCATE);"], { stdio: "ignore" });
  for (const f of ["opencode.db-wal", "opencode.db-shm"]) rmSync(join(to, f), { force: true });
}

export async function recordScenario(bins, scenario, outDir) {
  const dir = join(SCRATCH, scenario.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "requests.jsonl");
  let probing = false;
  let project = "";
  const fake = await startFakeChat({
    log,
    script: (ctx) => {
      if (ctx.kind !== "agent") return undefined;
      if (probing && ctx.prompt.includes("ASE-PROBE")) return { text: "probe answered" };
      return scenario.script({ ...ctx, project });
    },
  });
  try {
    const oc = new OpenCodeHome(dir, bins.current, fake.port, { limit: scenario.limit });
    project = oc.project;
    await scenario.drive({ oc, legacyBin: bins.legacy });
    const out = join(outDir, scenario.name);
    rmSync(out, { recursive: true, force: true });
    copyStore(oc, scenario, join(out, "data", "opencode"));
    const sessions = scenario.legacy ? legacySessions(join(out, "data", "opencode", "storage")) : sessionFacts(join(out, "data", "opencode"), scenario);
    // The goldens: continue each session once more with a probe, in the recording's home.
    if (scenario.beforeGoldens) await scenario.beforeGoldens({ oc, migrateBin: bins.migrate });
    probing = true;
    mkdirSync(join(out, "goldens"), { recursive: true });
    for (const [k, s] of sessions.entries()) {
      const probe = `ASE-PROBE-${scenario.name}-${k + 1}`;
      const seen = readFileSync(log, "utf8").split("\n").filter(Boolean).length;
      await oc.run(["run", "--session", s.id, probe]);
      const messages = probeContext(log, seen, probe);
      writeFileSync(join(out, "goldens", `${s.id}.native.json`), JSON.stringify({ messages }, null, 1) + "\n");
      s.goldenMessages = messages.length;
    }
    writeFileSync(join(out, "requests.jsonl"), trimmedLog(log));
    return { name: scenario.name, about: scenario.about, recordedWith: scenario.legacy ? `opencode-ai ${LEGACY_VERSION}; goldens: migrated by ${MIGRATE_VERSION}, continued by ${VERSION}` : `opencode-ai ${VERSION}`, handMade: false, sessions };
  } finally {
    await fake.close();
  }
}

/** Records the scenarios named (all by default) into `outDir`, with its manifest.json. */
export async function recordAll(outDir, only) {
  const bins = { current: install(VERSION) };
  const names = only ? only.split(",") : undefined;
  const chosen = SCENARIOS.filter((s) => !names || names.includes(s.name));
  if (!chosen.length) throw new Error(`no scenario named ${only}: ${SCENARIOS.map((s) => s.name).join(", ")}`);
  if (chosen.some((s) => s.legacy)) {
    bins.legacy = install(LEGACY_VERSION);
    bins.migrate = install(MIGRATE_VERSION);
  }
  mkdirSync(outDir, { recursive: true });
  const manifestFile = join(outDir, "manifest.json");
  const manifest = existsSync(manifestFile) && only ? JSON.parse(readFileSync(manifestFile, "utf8")) : { opencode: VERSION, legacyOpencode: LEGACY_VERSION, migratingOpencode: MIGRATE_VERSION, scenarios: {} };
  for (const s of chosen) {
    const t = Date.now();
    const r = await recordScenario(bins, s, outDir);
    const { name, ...entry } = r;
    manifest.scenarios[name] = entry;
    console.log(`recorded ${name}: ${r.sessions.length} session(s), goldens of ${r.sessions.map((x) => x.goldenMessages).join(", ")} messages (${((Date.now() - t) / 1000).toFixed(0)} s, ${sizeOf(join(outDir, name))} KB)`);
  }
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 1) + "\n");
  return manifest;
}

function sizeOf(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return Math.ceil(st.size / 1024);
  return readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e)), 0);
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
  const outDir = resolve(args.includes("--out") ? args[args.indexOf("--out") + 1] : FIXTURES);
  const fresh = join(SCRATCH, "out");
  rmSync(fresh, { recursive: true, force: true });
  if (only && existsSync(join(outDir, "manifest.json"))) {
    mkdirSync(fresh, { recursive: true });
    copyFileSync(join(outDir, "manifest.json"), join(fresh, "manifest.json"));
  }
  await recordAll(fresh, only);
  if (existsSync(join(outDir, "manifest.json"))) {
    const changes = compareRecordings(outDir, fresh, only);
    console.log(changes.length ? `what this recording changes:\n  ${changes.join("\n  ")}` : "the recording matches the previous fixtures (ids and times normalized)");
  }
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(fresh)) {
    rmSync(join(outDir, name), { recursive: true, force: true });
    cpSync(join(fresh, name), join(outDir, name), { recursive: true });
  }
  if (!args.includes("--keep")) rmSync(SCRATCH, { recursive: true, force: true });
  console.log(`fixtures in ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err.stack ?? String(err));
    process.exit(1);
  });
}
