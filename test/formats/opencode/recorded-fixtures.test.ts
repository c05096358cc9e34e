import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The layout the OpenCode reader's golden test relies on, as scripts/opencode/record.mjs
 * (npm run record:opencode) writes it with the real opencode 1.18.33: one data dir per
 * scenario, a golden per session, and a manifest whose facts match them.
 */
const DIR = join(process.cwd(), "test", "fixtures", "opencode");

interface SessionFacts {
  id: string;
  title: string;
  parentId: string | null;
  messages: number;
  compaction: boolean;
  summaryMessage: boolean;
  revert: { messageID: string } | null;
  toolErrors: number;
  goldenMessages: number;
  messagesWithoutWal?: number;
}
interface Manifest {
  opencode: string;
  scenarios: Record<string, { about: string; recordedWith: string; handMade: boolean; sessions: SessionFacts[] }>;
}
interface WireMessage {
  role: string;
  content?: unknown;
  reasoning_content?: string;
  tool_calls?: unknown[];
}

const manifest = (): Manifest => JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as Manifest;
const golden = (scenario: string, id: string): WireMessage[] =>
  (JSON.parse(readFileSync(join(DIR, scenario, "goldens", `${id}.native.json`), "utf8")) as { messages: WireMessage[] }).messages;
const dataDir = (scenario: string) => join(DIR, scenario, "data", "opencode");

function sizeOf(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e)), 0) : st.size;
}

describe("OpenCode fixtures recorded with the real build (layout and manifest)", () => {
  it("records every scenario issue 29 asks for, with opencode 1.18.33", () => {
    const m = manifest();
    assert.equal(m.opencode, "1.18.33");
    assert.deepEqual(Object.keys(m.scenarios).sort(), ["compaction", "legacy", "revert", "subagent", "text", "tools", "wal"]);
    const readme = readFileSync(join(DIR, "README.md"), "utf8");
    for (const name of Object.keys(m.scenarios)) assert.match(readme, new RegExp(`\\b${name}\\b`), `README.md does not describe ${name}`);
  });

  it("each scenario's store is small, without snapshot/ or log/, checkpointed unless it is the WAL case", () => {
    for (const name of Object.keys(manifest().scenarios)) {
      const data = dataDir(name);
      const files = readdirSync(data).sort();
      assert.ok(!files.includes("snapshot") && !files.includes("log"), `${name}: ${files.join(", ")}`);
      assert.ok(sizeOf(join(DIR, name)) < 1024 * 1024, `${name} is ${sizeOf(join(DIR, name))} bytes`);
      if (name === "legacy") {
        assert.deepEqual(files, ["storage"]);
        continue;
      }
      assert.deepEqual(files, name === "wal" ? ["opencode.db", "opencode.db-wal"] : ["opencode.db"], name);
      assert.equal(readFileSync(join(data, "opencode.db")).subarray(0, 16).toString("latin1"), "SQLite format 3\0", `${name}: not an SQLite file`);
      assert.ok(statSync(join(data, "opencode.db")).size <= 400 * 1024, `${name}: opencode.db is over 400 KB`);
    }
    const wal = readFileSync(join(dataDir("wal"), "opencode.db-wal"));
    assert.ok([0x377f0682, 0x377f0683].includes(wal.readUInt32BE(0)), "opencode.db-wal does not start with SQLite's WAL magic");
  });

  it("every session has a golden: the messages sent on a continue, no system prompt, no probe", () => {
    for (const [name, s] of Object.entries(manifest().scenarios)) {
      assert.ok(s.sessions.length > 0, `${name}: no sessions`);
      for (const f of s.sessions) {
        const messages = golden(name, f.id);
        assert.equal(messages.length, f.goldenMessages, `${name}/${f.id}`);
        assert.ok(messages.length > 0 && messages.every((m) => m.role !== "system"), `${name}/${f.id}: empty or has a system message`);
        assert.doesNotMatch(JSON.stringify(messages), /ASE-PROBE/, `${name}/${f.id}: the probe prompt was kept`);
      }
    }
  });

  it("the manifest's facts show what each scenario is for", () => {
    const m = manifest().scenarios;
    const [text] = m.text.sessions;
    assert.ok(golden("text", text.id).filter((x) => x.role === "assistant" && x.reasoning_content).length >= 2, "text: no reasoning sent back");
    const [tools] = m.tools.sessions;
    assert.ok(tools.toolErrors >= 1, "tools: no failing call");
    assert.ok(golden("tools", tools.id).some((x) => (x.tool_calls?.length ?? 0) >= 3), "tools: no parallel calls");
    const [compacted] = m.compaction.sessions;
    assert.ok(compacted.compaction && compacted.summaryMessage, "compaction: no compaction part or summary");
    assert.equal(golden("compaction", compacted.id)[0].content, "What did we do so far?");
    const [parent, child] = m.subagent.sessions;
    assert.equal(parent.parentId, null);
    assert.equal(child.parentId, parent.id);
    assert.match(JSON.stringify(golden("subagent", parent.id)), new RegExp(`<task id=\\\\"${child.id}\\\\"`));
    const [reverted] = m.revert.sessions;
    assert.ok(reverted.revert?.messageID.startsWith("msg_"), "revert: no pending revert");
    assert.ok(reverted.goldenMessages < reverted.messages, "revert: the golden keeps the reverted messages");
    const [legacy] = m.legacy.sessions;
    assert.ok(existsSync(join(dataDir("legacy"), "storage", "message", legacy.id)), "legacy: no message folder for the session");
    const [wal] = m.wal.sessions;
    assert.ok(wal.messagesWithoutWal !== undefined && wal.messagesWithoutWal < wal.messages, "wal: no message only in the WAL");
  });
});
