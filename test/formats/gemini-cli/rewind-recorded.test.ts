import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { sessionContents } from "../../../src/core/formats/gemini-cli/session-contents";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { treeRows } from "../../../src/core/formats/tree-rows";

/** Recorded by driving the real 0.61.0's interactive /rewind (scripts/gemini/scenarios.mjs "rewind"). */
const DIR = join(process.cwd(), "test", "fixtures", "gemini-cli", "rewind");
const CHATS = join(DIR, ".gemini", "tmp", "project", "chats");

type Content = { role: string; parts: Array<Record<string, unknown>> };

function open(): GeminiSession {
  const [name] = readdirSync(CHATS).filter((n) => /^session-.*\.jsonl$/.test(n));
  return GeminiSession.open(join(CHATS, name));
}

/** The message whose first text part is `text`. */
function at(s: GeminiSession, text: string): number {
  const i = s.metas.findIndex((_, k) => JSON.stringify(s.replayed.nodes.find((n) => n.key === s.metas[k].id)?.message.content ?? "").includes(text));
  assert.ok(i >= 0, `no message holds ${JSON.stringify(text)}`);
  return i;
}

describe("Gemini CLI: a /rewind recorded with the real 0.61.0 in its interactive UI", () => {
  it("the rewound turn is an abandoned branch beside the turn typed after it; nothing is lost or duplicated", () => {
    const s = open();
    assert.deepEqual(s.problems, []);
    const first = at(s, "Noted: first turn");
    const dropped = at(s, "second turn: say beta");
    const after = at(s, "third turn after the rewind");
    assert.equal(s.tree.parent[dropped], first);
    assert.equal(s.tree.parent[after], first);
    assert.equal(s.metas.length, 7, "context, two kept, two dropped, two after");
    const rows = treeRows(s, { all: true });
    const row = (i: number) => rows.find((r) => r.index === i);
    assert.equal(row(dropped)?.onActivePath, false);
    assert.equal(row(at(s, "Noted: second turn"))?.isLeaf, true);
    assert.equal(row(after)?.onActivePath, true);
    assert.equal(s.metas[geminiFormat.defaultLeaf(s)].id, s.metas[at(s, "Noted: third turn")].id);
  });

  it("what the live process sent after the rewind is our context at the kept turn, less the session context it left out", () => {
    const s = open();
    const sent = (JSON.parse(readFileSync(join(DIR, "sent-after-rewind.json"), "utf8")) as { messages: Content[] }).messages;
    // The last part of what was sent is the prompt typed after the rewind.
    const prompt = sent.at(-1)!.parts.pop();
    assert.match(String(prompt?.text), /^third turn after the rewind/);
    if (!sent.at(-1)!.parts.length) sent.pop();
    const ours = sessionContents(s.replayed, s.metas[at(s, "Noted: first turn")].id)
      .map(({ parts, role }) => ({ parts: parts.filter((p) => !String(p.text ?? "").startsWith("<session_context>")), role }))
      .filter((c) => c.parts.length);
    assert.equal(JSON.stringify(ours), JSON.stringify(sent));
  });
});
