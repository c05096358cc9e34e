// Records Gemini CLI fixtures with the real, pinned Gemini CLI against our fake API
// (docs/gemini-cli-format.md section 9), and the golden of each: the `contents` the CLI
// sends when it resumes the stored session, minus the probe prompt.
//   node scripts/gemini/record.mjs [--only name] [--out test/fixtures/gemini-cli]
// The CLI is installed into a cache folder (never a dependency of the package).
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureAgent } from "../agents/install.mjs";
import { startFakeApi } from "./fake-api.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { startInteractive } from "./tty.mjs";

export const GEMINI_VERSION = "0.61.0";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Installs the pinned CLI into the cache folder once (scripts/agents/install.mjs). */
export const ensureGemini = () => ensureAgent({ name: "gemini", pkg: "@google/gemini-cli", version: GEMINI_VERSION, bin: "gemini", ignoreScripts: true });

/** A throw-away home with a project folder, settings for API-key auth and no telemetry. */
export function makeHome() {
  const home = mkdtempSync(join(tmpdir(), "ase-gemini-"));
  const project = join(home, "project");
  mkdirSync(project);
  writeFileSync(join(project, "notes.txt"), "alpha\nbeta\n");
  mkdirSync(join(home, ".gemini"));
  const settings = { security: { auth: { selectedType: "gemini-api-key" } }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true }, privacy: { usageStatisticsEnabled: false } };
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
  return { home, project };
}

function agentEnv(home, port) {
  return { ...process.env, HOME: home, GEMINI_CLI_HOME: home, GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`, GEMINI_API_KEY: "fake-key", GEMINI_CLI_TRUST_WORKSPACE: "true", NO_COLOR: "1" };
}

/** Starts the CLI in its interactive UI (inside tmux) for a scenario that needs it. */
export function interactiveRunner(bin, home, project, port) {
  return (args) => startInteractive(bin, [...args, "--approval-mode", "yolo"], { cwd: project, env: agentEnv(home, port) });
}

export function runner(bin, home, project, port) {
  const env = agentEnv(home, port);
  return (args) =>
    new Promise((done, fail) => {
      const child = execFile(bin, [...args, "--approval-mode", "yolo"], { cwd: project, env, encoding: "utf8", timeout: 240_000 }, (err, out, errOut) =>
        err ? fail(new Error(`gemini ${args.join(" ")} failed (${err.code}): ${String(errOut).slice(-800)}`)) : done(out),
      );
      child.stdin.end();
    });
}

/** The main requests of a log, in order. */
export function mainRequests(log) {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.kind === "main");
}

/** The store a reader sees: .gemini without settings and the /restore history repo. */
function copyStore(home, to) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  cpSync(join(home, ".gemini"), join(to, ".gemini"), { recursive: true, filter: (src) => !/[\\/]\.gemini[\\/](settings\.json|history)(?:$|[\\/])/.test(src) });
}

export async function recordScenario(bin, scenario, outDir) {
  const { home, project } = makeHome();
  const log = join(home, "requests.jsonl");
  let script = scenario.script;
  const api = await startFakeApi({ log, script: (...a) => script(...a) });
  try {
    const run = runner(bin, home, project, api.port);
    const interactive = interactiveRunner(bin, home, project, api.port);
    // A scenario may return extra files (name -> JSON) to keep next to its golden.
    const extra = (await scenario.drive({ run, interactive, home, project, requests: () => mainRequests(log) })) ?? {};
    const dir = join(outDir, scenario.name);
    if (scenario.after) scenario.after({ home });
    copyStore(home, dir);
    // The golden: resume once more with a probe and keep what was sent before it.
    const probe = `ASE-PROBE ${scenario.name}`;
    const seen = mainRequests(log).length;
    script = (prompt, after, body) => (prompt.includes("ASE-PROBE") ? { parts: [{ text: "probe answered" }] } : scenario.script(prompt, after, body));
    await run(["--resume", scenario.resume ?? "latest", "-p", probe]);
    const sent = mainRequests(log).slice(seen).find((r) => JSON.stringify(r.body.contents).includes(probe));
    if (!sent) throw new Error(`${scenario.name}: no main request carried the probe`);
    const contents = sent.body.contents;
    const last = contents.at(-1);
    const probePart = last.parts.at(-1);
    if (last.role !== "user" || probePart.text !== probe) throw new Error(`${scenario.name}: the probe is not the last part`);
    last.parts.pop();
    if (!last.parts.length) contents.pop();
    for (const [name, value] of Object.entries(extra)) writeFileSync(join(dir, name), JSON.stringify(value, null, 1) + "\n");
    writeFileSync(join(dir, "golden.context.json"), JSON.stringify({ messages: contents }, null, 1) + "\n");
    writeFileSync(join(dir, "recorded-with.json"), JSON.stringify({ geminiCli: GEMINI_VERSION, project, home }, null, 1) + "\n");
    return { name: scenario.name, dir, messages: contents.length };
  } finally {
    await api.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
  const out = resolve(args.includes("--out") ? args[args.indexOf("--out") + 1] : join(ROOT, "test", "fixtures", "gemini-cli"));
  const bin = ensureGemini();
  for (const s of SCENARIOS.filter((x) => !only || x.name === only)) {
    const t = Date.now();
    const r = await recordScenario(bin, s, out);
    console.log(`recorded ${r.name}: ${r.messages} contents in the golden (${((Date.now() - t) / 1000).toFixed(0)} s) -> ${r.dir}`);
  }
  console.log(`sessions in ${out}: ${readdirSync(out).join(", ")}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
