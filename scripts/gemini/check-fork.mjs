// A fork written by us, resumed by the real Gemini CLI: for each case, the pinned CLI
// records a session against our fake API (scenarios.mjs), `ase fork` writes a fork at the
// first answer that follows a tool call's result, and `gemini --resume latest` (the fork
// is the newest session) must send exactly what `ase context --format native` says for
// the fork, the regenerated <session_context> included (same home, same day).
//   node scripts/gemini/check-fork.mjs      (needs dist/cli.js: node esbuild.mjs)
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeApi } from "./fake-api.mjs";
import { ensureGemini, mainRequests, makeHome, runner } from "./record.mjs";
import { SCENARIOS } from "./scenarios.mjs";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");
const ase = (...args) => execFileSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
const CASES = ["tools", "parallel-and-errors"];

async function check(bin, scenario) {
  const { home, project } = makeHome();
  const log = join(home, "requests.jsonl");
  let script = scenario.script;
  const api = await startFakeApi({ log, script: (...a) => script(...a) });
  try {
    const run = runner(bin, home, project, api.port);
    await scenario.drive({ run, home, project });
    const [session] = JSON.parse(ase("list", "--dir", `gemini-cli=${home}`, "--json")).projects.flatMap((p) => p.sessions);
    const rows = JSON.parse(ase("tree", session.path, "--json")).entries.filter((e) => e.onActivePath);
    const at = rows.findIndex((e, k) => e.kind === "assistant" && rows.slice(0, k).some((r) => r.kind === "tool-result"));
    if (at < 0) throw new Error(`${scenario.name}: no answer after a tool result to fork at`);
    const forkPath = ase("fork", session.path, "--at", rows[at].id).trim();
    const ours = JSON.parse(ase("context", forkPath, "--format", "native")).messages.map(({ parts, role }) => ({ parts, role }));
    const probe = `ASE-PROBE fork ${scenario.name}`;
    const seen = mainRequests(log).length;
    script = (prompt, after, body) => (prompt.includes("ASE-PROBE") ? { parts: [{ text: "probe answered" }] } : scenario.script(prompt, after, body));
    await run(["--resume", "latest", "-p", probe]);
    const sent = mainRequests(log).slice(seen).find((r) => JSON.stringify(r.body.contents).includes(probe));
    if (!sent) throw new Error(`${scenario.name}: no main request carried the probe`);
    const contents = sent.body.contents;
    contents.at(-1).parts.pop();
    if (!contents.at(-1).parts.length) contents.pop();
    const equal = JSON.stringify(contents) === JSON.stringify(ours);
    console.log(`${scenario.name}: fork at ${rows[at].id} (${at + 1} of ${rows.length} rows): ${equal ? "Gemini sent exactly our context" : "DIFFERENT"} (${contents.length} contents)`);
    if (!equal) console.log(`  gemini: ${JSON.stringify(contents).slice(0, 3000)}\n  ours:   ${JSON.stringify(ours).slice(0, 3000)}`);
    return equal;
  } finally {
    await api.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const bin = ensureGemini();
let ok = true;
for (const name of CASES) ok = (await check(bin, SCENARIOS.find((s) => s.name === name))) && ok;
process.exit(ok ? 0 : 1);
