#!/usr/bin/env node
// Records a Codex CLI thread that spawns a sub-agent, with the real binary (0.169.0, the
// install of record.mjs in ~/.cache/ase-agents) against our fake Responses server:
// the parent calls multi_agent_v1.spawn_agent (offered with model gpt-5), waits for the
// sub-agent with wait_agent and answers; the sub-agent answers its task. Then the parent
// thread is named twice through `codex app-server` (thread/name/set), which appends to
// session_index.jsonl. Both rollouts and the index go to test/fixtures/codex/subagent-home/
// (docs/codex-format.md sections 1 and 8).
//   node scripts/codex/record-subagent.mjs
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { call, lastPrompt, message, reasoning, startFake } from "./fake-responses.mjs";
import { bin, repo, rollouts, VERSION, writeConfig } from "./recorder-home.mjs";

const out = join(repo, "test/fixtures/codex/subagent-home");

const usage = { input: 1400, cached: 1024, output: 40, reasoning: 12 };
const inNamespace = (item) => ({ ...item, namespace: "multi_agent_v1" });

/** The parent spawns, waits, answers; any other thread (the sub-agent) answers its task. */
function plan(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const { text, at } = lastPrompt(input);
  if (!text.includes("SPAWN")) return { items: [reasoning("Doing the delegated task."), message(`Sub-agent result: ${text.slice(0, 60)}`)], usage };
  const outputs = input.slice(at + 1).filter((i) => i.type === "function_call_output");
  if (outputs.length === 0) return { items: [inNamespace(call("spawn_agent", { message: "CHILD TASK: count the files in the project" }))], usage };
  if (outputs.length === 1) {
    const agent = /"agent_id"\s*:\s*"([^"]+)"/.exec(JSON.stringify(outputs[0].output))?.[1] ?? /([0-9a-f]{8}-[0-9a-f-]{27})/.exec(JSON.stringify(outputs[0].output))?.[1];
    if (!agent) throw new Error(`no agent id in the spawn_agent output: ${JSON.stringify(outputs[0].output)}`);
    return { items: [inNamespace(call("wait_agent", { targets: [agent], timeout_ms: 60000 }))], usage };
  }
  return { items: [message("The sub-agent counted the files.")], usage };
}

/** Names a thread through the app-server's JSON-RPC on stdio (thread/name/set), once per name, in order. */
async function nameThread(home, threadId, names) {
  const child = spawn(bin, ["app-server"], { env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, FAKE_KEY: "x", LANG: "C.UTF-8", TZ: "UTC" }, cwd: home, stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map();
  let buf = "";
  child.stdout.on("data", (d) => {
    buf += d;
    for (let k = buf.indexOf("\n"); k >= 0; k = buf.indexOf("\n")) {
      const line = buf.slice(0, k);
      buf = buf.slice(k + 1);
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      waiting.get(m.id)?.(m);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((ok, fail) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? fail(new Error(`${method}: ${JSON.stringify(m.error)}`)) : ok(m.result)));
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
    });
  try {
    await request("initialize", { clientInfo: { name: "ase-recorder", version: "0.0.1" } });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "initialized" }) + "\n");
    for (const name of names) await request("thread/name/set", { threadId, name });
  } finally {
    child.kill();
  }
}

async function main() {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run record:codex first (it installs codex-cli ${VERSION})`);
  const root = mkdtempSync(join(tmpdir(), "ase-codex-sub-"));
  const fake = await startFake(join(root, "requests.jsonl"), plan);
  try {
    const home = join(root, "home");
    const project = join(root, "project");
    mkdirSync(home);
    mkdirSync(project);
    // gpt-5: the model whose request offers the multi_agent_v1 tools (gpt-5.5 gets none).
    writeConfig(home, fake.port, "gpt-5");
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, FAKE_KEY: "x", LANG: "C.UTF-8", TZ: "UTC" };
    const r = await new Promise((ok) => {
      const child = spawn(bin, ["exec", "--skip-git-repo-check", "Please SPAWN a sub-agent to count the files"], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
      let log = "";
      child.stdout.on("data", (d) => (log += d));
      child.stderr.on("data", (d) => (log += d));
      child.on("close", (code) => ok({ code, log }));
    });
    if (r.code !== 0) throw new Error(`codex exec exited ${r.code}:\n${r.log}`);
    const files = rollouts(home);
    if (files.length < 2) throw new Error(`expected the parent's and the sub-agent's rollouts, found ${files.length}:\n${r.log}`);
    const parent = files.find((f) => !readFileSync(f, "utf8").split("\n", 1)[0].includes('"subagent"'));
    const parentId = JSON.parse(readFileSync(parent, "utf8").split("\n", 1)[0]).payload.id;
    await nameThread(home, parentId, ["Spawned helper demo", "Spawned helper demo (renamed)"]);
    rmSync(out, { recursive: true, force: true });
    const day = join(out, "sessions/2026/11/26");
    mkdirSync(day, { recursive: true });
    for (const f of files) copyFileSync(f, join(day, basename(f)));
    // Kept as .recorded: the format contract takes every .jsonl fixture for a rollout; the demo and tests copy it back.
    copyFileSync(join(home, "session_index.jsonl"), join(out, "session_index.jsonl.recorded"));
    console.log(`recorded ${files.length} rollouts into ${day}`);
  } finally {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err.stack ?? String(err));
  process.exit(1);
});
