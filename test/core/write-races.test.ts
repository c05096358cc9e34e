import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { appendEntry } from "../../src/core/formats/pi/store/append";
import { Session } from "../../src/core/formats/pi/pi-session";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");
/** Rounds of two writers racing; ASE_RACE_ROUNDS=40 for a long run. */
const ROUNDS = Number(process.env.ASE_RACE_ROUNDS) || 6;

function run(args: string[]): Promise<{ code: number | null; err: string; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
    let err = "";
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => done({ code, err, out }));
  });
}

/**
 * Which leaf an `ase branch` moved from, by the id of the entry it wrote: its report
 * says (the line's fromId is the target, as pi writes it, so the file does not).
 */
function movedFrom(results: Array<{ out: string }>): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of results) {
    const m = /entry: (\S+) \(branch_summary, parent \S+, from (\S+)\)/.exec(r.out);
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

/** The last entry of `session()`: the leaf every writer starts from. */
const LEAF = "z0000000";

/**
 * ~4 MB: a load takes long enough that two writers started together both read the same
 * state (with a tiny file one is done before the other starts, and nothing races).
 */
function session(dir = tempDir()): string {
  const lines = [header()];
  let parent: string | null = null;
  for (let i = 1; i <= 20; i++) {
    const u = `u${String(i).padStart(7, "0")}`;
    const a = `a${String(i).padStart(7, "0")}`;
    lines.push(user(u, parent, `question ${i}`), assistant(a, u, `answer ${i} `.repeat(30)));
    parent = a;
    for (let k = 0; k < 80; k++) {
      const id = `p${String(i * 1000 + k).padStart(7, "0")}`;
      lines.push(user(id, parent, "pad ".repeat(600)));
      parent = id;
    }
  }
  lines.push(user(LEAF, parent, "the end"));
  return writeSession(lines, { dir });
}

/** The lines added after `before`: each must be one whole JSON object line. */
function addedLines(file: string, before: Buffer): Array<Record<string, unknown>> {
  const now = readFileSync(file);
  assert.ok(now.subarray(0, before.length).equals(before), "the old bytes are untouched");
  const text = now.subarray(before.length).toString("utf8");
  if (!text) return [];
  assert.ok(text.endsWith("\n"), `ends with a whole line: ${JSON.stringify(text.slice(-40))}`);
  return text.slice(0, -1).split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

const REFUSED = /^ase branch: nothing written: .*(is being written by another process|changed on disk)/;

describe("writers racing", () => {
  it(`two ase branch at once (${ROUNDS} rounds): never both from the same loaded state, nothing torn`, async function () {
    this.timeout(60_000 + ROUNDS * 10_000);
    let refused = 0;
    let sequential = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const file = session();
      const before = readFileSync(file);
      const results = await Promise.all([run(["branch", file, "--to", "a0000003"]), run(["branch", file, "--to", "a0000007"])]);
      const added = addedLines(file, before);
      const ok = results.filter((r) => r.code === 0).length;
      assert.ok(ok >= 1, `round ${round}: one wins (${results.map((r) => r.err).join(" | ")})`);
      assert.equal(added.length, ok, `round ${round}: one line per success`);
      for (const r of results) if (r.code !== 0) assert.match(r.err, REFUSED, `round ${round}`);
      const from = movedFrom(results);
      if (ok === 1) refused++;
      else {
        // Both won only one after the other: the second moved from the first's entry.
        sequential++;
        assert.equal(from.get(String(added[1].id)), added[0].id, `round ${round}: the second writer saw the first's line`);
      }
      assert.equal(from.get(String(added[0].id)), LEAF);
    }
    console.log(`      ${ROUNDS} rounds: ${refused} with one refused, ${sequential} one after the other, 0 torn or doubled`);
  });

  it("two loaded copies in one process: the second append is refused, not doubled", async () => {
    const file = session();
    const a = await Session.load(file);
    const b = await Session.load(file);
    const before = readFileSync(file);
    await appendEntry(a, { type: "label", parentId: LEAF, targetId: "u0000001", label: "first" });
    await assert.rejects(appendEntry(b, { type: "label", parentId: LEAF, targetId: "u0000001", label: "second" }), /changed on disk/);
    assert.equal(addedLines(file, before).length, 1);
  });

  it("ours against an agent appending lines all the while: every line stays whole, ours only from the state it read", async function () {
    this.timeout(120_000);
    const file = session();
    const before = readFileSync(file);
    // The agent: whole lines, as pi's appendFileSync writes them, one every 40 ms (a busy
    // agent). pi takes no lock of ours: what stands between us is our re-check of the size
    // just before the write, which leaves a window of microseconds, not the whole run.
    const agentScript = `
      const fs = require("fs");
      let parent = "z0000000";
      let i = 0;
      const end = Date.now() + Number(process.argv[2]);
      const t = setInterval(() => {
        if (Date.now() > end) return clearInterval(t);
        const id = "g" + String(i++).padStart(7, "0");
        fs.appendFileSync(process.argv[1], JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date().toISOString(), message: { role: "user", content: "agent " + i } }) + "\\n");
        parent = id;
      }, 40);`;
    const agent = spawn(process.execPath, ["-e", agentScript, file, "4000"], { stdio: "ignore" });
    const agentDone = new Promise((r) => agent.on("close", r));
    const outcomes = { written: 0, refused: 0 };
    const reports: Array<{ out: string }> = [];
    let running = true;
    void agentDone.then(() => (running = false));
    while (running) {
      const r = await run(["branch", file, "--to", "a0000005"]);
      if (r.code === 0) {
        outcomes.written++;
        reports.push(r);
      } else {
        assert.match(r.err, REFUSED);
        outcomes.refused++;
      }
    }
    await agentDone;
    const lines = addedLines(file, before);
    const ours = lines.filter((l) => l.type === "branch_summary");
    assert.equal(ours.length, outcomes.written);
    // Each of ours moved from the leaf of the file as it was when written: the line before it.
    const all = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const from = movedFrom(reports);
    for (const o of ours) {
      const k = all.findIndex((l) => l.id === o.id);
      assert.equal(from.get(String(o.id)), all[k - 1].id, "written from the state it had read");
      assert.equal(o.fromId, o.parentId, "fromId is the target, as pi writes it");
    }
    console.log(`      against the agent (${lines.length - ours.length} agent lines): ${outcomes.written} written, ${outcomes.refused} refused`);
  });
});
