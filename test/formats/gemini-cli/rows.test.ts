import { strict as assert } from "node:assert";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { treeRows } from "../../../src/core/formats/tree-rows";

const FIX = join(process.cwd(), "test", "fixtures", "gemini-cli");

/** The recorded session file of a case with the most lines (the one resumed, not its stub). */
function recorded(name: string): GeminiSession {
  const chats = join(FIX, name, ".gemini", "tmp", "project", "chats");
  const files = readdirSync(chats).filter((n) => /^session-/.test(n)).map((n) => GeminiSession.open(join(chats, n)));
  return files.sort((a, b) => b.metas.length - a.metas.length)[0];
}

const labels = (s: GeminiSession) => s.metas.map((_, i) => geminiFormat.describe(s, i));

describe("Gemini CLI rows and details on the recorded sessions", () => {
  it("tools: calls summarized by the neutral summarizer, results as tool results, the session context marked", () => {
    const s = recorded("tools");
    const d = labels(s);
    assert.equal(d[0].kind, "injected");
    assert.match(geminiFormat.details!(s, 0).meta.map(([k, v]) => `${k}: ${v}`).join("\n"), /note: Gemini CLI writes this turn again at every start/);
    const call = d.findIndex((x) => x.kind === "tool-call");
    assert.ok(call > 0);
    assert.match(s.metas[call].preview, /^-> /);
    assert.ok(d.some((x) => x.kind === "tool-result"));
  });

  it("parallel and failing calls: a row for several calls says how many, a failed call is marked", () => {
    const d = labels(recorded("parallel-and-errors"));
    assert.ok(d.some((x) => /^\d+ tool calls$/.test(x.label)), d.map((x) => x.label).join(", "));
    assert.ok(d.some((x) => x.isError));
  });

  it("compression: the state snapshot is a compaction boundary on a new branch; what it replaced stays in the tree", () => {
    const s = recorded("compression");
    const i = labels(s).findIndex((x) => x.kind === "boundary");
    assert.ok(i >= 0);
    const replaced = geminiFormat.compactionParent!(s, i);
    assert.ok(replaced >= 0 && replaced !== s.tree.parent[i], "names the end of the list it summarized");
    const rows = treeRows(s, { all: true });
    assert.ok(rows.some((r) => r.index === replaced && !r.onActivePath), "the replaced messages are an abandoned branch");
  });

  it("sub-agent: the invoke_agent call links its transcript chats/<parent>/<agentId>.jsonl, which opens as a session", () => {
    const s = recorded("subagent");
    const i = s.metas.findIndex((_, k) => (geminiFormat.details!(s, k).subagents ?? []).length > 0);
    assert.ok(i >= 0, "a row links the sub-agent");
    const [ref] = geminiFormat.details!(s, i).subagents!;
    assert.equal(ref.agentType, "generalist");
    assert.match(ref.description ?? "", /notes\.txt/);
    assert.ok(ref.path && existsSync(ref.path));
    const sub = GeminiSession.open(ref.path);
    assert.ok(sub.metas.length > 0);
    assert.deepEqual(sub.problems, []);
    // The explorer nests the sub-agent's rows under its call through the format's sub-agent hooks.
    assert.deepEqual(geminiFormat.subagents?.startedBy(s, i).map((r) => [r.agentId, r.path]), [[ref.agentId, ref.path]]);
    assert.equal(s.metas.filter((_, k) => (geminiFormat.subagents?.startedBy(s, k) ?? []).length > 0).length, 1, "only the invoke_agent call started one");
    assert.equal(geminiFormat.subagents?.inlineRoots(s).size, 0, "Gemini writes no sub-agent lines inline");
  });
});
