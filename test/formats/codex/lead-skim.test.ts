import { strict as assert } from "node:assert";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodexIndexHooks } from "../../../src/core/formats/codex/index-hooks";
import { codexFromLead } from "../../../src/core/formats/codex/line-lead";
import { IndexBuilder } from "../../../src/core/store/index-builder";
import { scanInto } from "../../../src/core/store/index-range";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { record } from "../../helpers/index-picture";
import { tempDir } from "../../helpers/session-builder";
import { recorded } from "./helpers";

const T = "2026-11-26T05:00:01.000Z";
const line = (o: Record<string, unknown>) => JSON.stringify(o);
const meta = line({ timestamp: T, ordinal: 0, type: "session_meta", payload: { id: "01a2166c-0000-7000-8000-0000000000cc", cwd: "/work/p", cli_version: "0.169.0" } });
const ev = (ordinal: number, payload: Record<string, unknown>) => line({ ordinal, timestamp: T, type: "event_msg", payload });

/**
 * Lines a byte look could take for ones the index reads by name alone, and ones it could
 * take the other way: each must index as a full parse indexes it.
 */
const HOSTILE = [
  // The marker in a string: a user's prompt quoting a world_state line (its quotes escaped).
  line({ ordinal: 1, timestamp: T, type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: '{"ordinal":9,"type":"world_state","payload":{"type":"item_completed"}}' }] } }),
  // The first "type" of the line is the payload's, the line's own comes after it.
  `{"ordinal":2,"timestamp":"${T}","payload":{"type":"world_state"},"type":"response_item"}`,
  // Escaped quotes before the type, and a type written with an escape.
  `{"ordinal":3,"timestamp":"2026-11-26T05:00:01\\"Z","type":"world_state","payload":{"full":true,"state":{"a":{}}}}`,
  `{"ordinal":4,"timestamp":"${T}","type":"world\\u005fstate","payload":{"full":false,"state":{}}}`,
  `{"ordinal":5,"timestamp":"${T}","type":"event\\u005fmsg","payload":{"type":"task_started","turn_id":"t9","model_context_window":128000}}`,
  `{"ordinal":6,"timestamp":"${T}","type":"response\\u005fitem","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"escaped type"}]}}`,
  // An event the index reads, and one it does not that carries a window (only task_started and token_count record one).
  ev(7, { type: "token_count", info: { total_token_usage: { input_tokens: 5 }, last_token_usage: { input_tokens: 5 }, model_context_window: 200000 } }),
  ev(8, { type: "item_completed", info: { model_context_window: 99999 }, item: { type: "Reasoning" } }),
  // No ordinal (its id is a hash of the whole line), an ordinal that is no index, the timestamp after the bulk.
  line({ timestamp: T, type: "world_state", payload: { full: true, state: { x: [1] } } }),
  line({ ordinal: "10", timestamp: T, type: "world_state", payload: { full: true } }),
  `{"ordinal":11,"type":"world_state","payload":{"full":true,"state":{"x":[1]}},"timestamp":"${T}"}`,
  // The payload's type after an object member; a type with no payload; an unknown type.
  `{"ordinal":12,"timestamp":"${T}","type":"event_msg","payload":{"info":{"a":1},"type":"thread_settings_applied"}}`,
  line({ ordinal: 13, timestamp: T, type: "world_state" }),
  line({ ordinal: 14, timestamp: T, type: "hologram", payload: { beam: [1, 2] } }),
  // Cut mid-line (a line after it), nested too deep: reported as a full read reports them.
  `{"ordinal":15,"timestamp":"${T}","type":"world_state","payload":{"full":true,"state":{"a":[1,`,
  `{"ordinal":16,"timestamp":"${T}","type":"event_msg","payload":{"type":"item_completed","item":${"[".repeat(600)}${"]".repeat(600)}}}`,
  // Two objects on one line.
  `{"ordinal":17,"timestamp":"${T}","type":"world_state","payload":{}}{"ordinal":18}`,
  ev(19, { type: "item_completed", item: { type: "AgentMessage" } }),
  // Not JSON past its lead (a doubled comma): a problem, as a full parse makes it.
  `{"ordinal":20,"timestamp":"${T}","type":"world_state","payload":{"full":true,,"state":{}}}`,
  // The line's type given twice: JSON.parse keeps the last one.
  `{"ordinal":21,"timestamp":"${T}","type":"world_state","payload":{"full":true},"type":"response_item"}`,
  // The payload's type given twice, plainly and escaped: JSON.parse keeps the last one (an event the index reads).
  `{"ordinal":22,"timestamp":"${T}","type":"event_msg","payload":{"type":"item_completed","type":"token_count","info":{"total_token_usage":{"input_tokens":9},"last_token_usage":{"input_tokens":9},"model_context_window":300000}}}`,
  `{"ordinal":23,"timestamp":"${T}","type":"event_msg","payload":{"type":"thread_settings_applied","t\\u0079pe":"task_started","turn_id":"t23","model_context_window":64000}}`,
];

/** The index of a file, with every line parsed whole (`lead` false) or the lead hooks on. */
async function index(path: string, lead: boolean) {
  const hooks = new CodexIndexHooks();
  if (!lead) Object.defineProperty(hooks, "fromLead", { value: undefined });
  const b = new IndexBuilder(path, hooks);
  await scanInto(path, b, { fromOffset: 0, toOffset: statSync(path).size });
  return { records: b.metas.map(record), problems: b.problems, turnOf: [...hooks.turnOf], responseOf: [...hooks.responseOf], windows: hooks.windows };
}

function file(text: string): string {
  const path = join(tempDir(), "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000cc.jsonl");
  writeFileSync(path, text);
  return path;
}

describe("Codex lines the index keeps by name alone, indexed from their first members (their bulk unparsed)", () => {
  it("hostile lines (the marker in a string, escaped quotes and names, torn and deep lines) index as a full parse indexes them", async () => {
    const torn = `{"ordinal":24,"timestamp":"${T}","type":"world_state","payload":{"full":tr`;
    const path = file(`${[meta, ...HOSTILE].join("\n")}\n${torn}`);
    const skimmed = await index(path, true);
    assert.deepEqual(skimmed, await index(path, false));
    // What the lines were read as, so the comparison above compares something.
    const problems = JSON.stringify(skimmed.problems);
    assert.equal(skimmed.records.length, HOSTILE.length - 4, `every line but the cut, the deep, the doubled and the doubled-comma one is an entry: ${problems}`);
    // The last two: the payload's last type read (token_count, task_started record a window; the first types do not).
    assert.deepEqual(skimmed.windows, [[4, 128000], [6, 200000], [16, 300000], [17, 64000]]);
    assert.deepEqual(
      skimmed.problems.map((p) => [p.line, p.kind]),
      [[16, "parse-error"], [17, "parse-error"], [18, "parse-error"], [20, "parse-error"], [HOSTILE.length + 2, "torn-line"]],
    );
  });

  it("reads a line's first members only when they are written exactly as Codex writes them", () => {
    const read = (l: string) => codexFromLead.read(Buffer.from(l), 0, Buffer.byteLength(l));
    assert.deepEqual(read(ev(1, { type: "item_completed", item: {} })), { ordinal: 1, timestamp: T, type: "event_msg", payload: { type: "item_completed" } });
    assert.deepEqual(read(line({ ordinal: 0, timestamp: T, type: "world_state", payload: {} })), { ordinal: 0, timestamp: T, type: "world_state" });
    assert.equal(read(ev(1, { type: "token_count" })), undefined, "an event the index reads");
    for (const [k, l] of HOSTILE.slice(0, 6).entries()) assert.equal(read(l), undefined, `hostile line ${k}`);
    assert.equal(read(`{"ordinal":01,"timestamp":"${T}","type":"world_state"}`), undefined, "a leading zero");
    assert.equal(read(`{"ordinal":1.5,"timestamp":"${T}","type":"world_state"}`), undefined);
    assert.equal(read(`{"ordinal":1, "timestamp":"${T}","type":"world_state"}`), undefined, "a space");
    assert.equal(read(`{"ordinal":1,"timestamp":"${T}","type":"world_state"x}`), undefined);
    assert.equal(read(`{"ordinal":1,"timestamp":"${T}","type":"event_msg","payload":{"type":"item_completed"x}}`), undefined);
  });

  it("recorded and generated rollouts index as a full parse indexes them, a third of their lines from the lead", async () => {
    const { main, compact, fork } = recorded();
    const gen = join(tempDir(), "gen.jsonl");
    generateCodexRollout({ sources: [main, compact], targetBytes: 2 * 2 ** 20, out: gen });
    for (const f of [main, compact, fork, gen]) assert.deepEqual(await index(f, true), await index(f, false), f);
    const text = readFileSync(gen, "utf8").split("\n").filter(Boolean);
    const byLead = text.filter((l) => codexFromLead.read(Buffer.from(l), 0, Buffer.byteLength(l))).length;
    assert.ok(byLead > text.length / 5, `${byLead} of ${text.length} lines`);
  });
});
