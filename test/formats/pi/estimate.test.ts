import { strict as assert } from "node:assert";
import { Session } from "../../../src/core/formats/pi/pi-session";
import { estimateEntryTokens } from "../../../src/core/formats/pi/tokens/pi-estimate";
import { fixture, needFixtures, rawEntriesByLine, REAL_SESSIONS } from "../../helpers/fixtures";
import { assistant, bash, entry, header, type Raw, toolResult, user } from "../../helpers/session-builder";
import { piSession } from "./memory";

/**
 * pi's estimateTokens written out plainly from its rules (chars/4 rounded up; text,
 * thinking, and tool calls as name + serialized arguments; an image 4,800 chars except
 * in user messages; bash as command + output; summaries by their text), as the second
 * opinion for the estimate the index stores and the compaction cut point sums.
 */
function piEstimate(e: Raw): number {
  const chars = (content: unknown, images: boolean): number => {
    if (typeof content === "string") return content.length;
    let n = 0;
    for (const b of (Array.isArray(content) ? content : []) as Raw[]) {
      if (b?.type === "text") n += String(b.text).length;
      if (b?.type === "image" && images) n += 4800;
    }
    return n;
  };
  if (e.type === "compaction" || e.type === "branch_summary") return Math.ceil(String(e.summary ?? "").length / 4);
  if (e.type === "custom_message") return Math.ceil(chars(e.content, true) / 4);
  if (e.type !== "message") return 0;
  const m = e.message as Raw;
  if (m.role === "user") return Math.ceil(chars(m.content, false) / 4);
  if (m.role === "toolResult" || m.role === "custom") return Math.ceil(chars(m.content, true) / 4);
  if (m.role === "bashExecution") return Math.ceil((String(m.command).length + String(m.output).length) / 4);
  if (m.role === "assistant") {
    let n = 0;
    for (const b of m.content as Raw[]) {
      if (b.type === "text") n += String(b.text).length;
      if (b.type === "thinking") n += String(b.thinking).length;
      if (b.type === "toolCall") n += String(b.name).length + JSON.stringify(b.arguments).length;
    }
    return Math.ceil(n / 4);
  }
  return 0;
}

describe("pi's token estimate (chars/4)", () => {
  it("counts a tool call as its name plus its serialized arguments, escapes and all", () => {
    const args = { path: 'a "quoted" \\ path\n', content: "é中😀\u0001\ud800", n: 1.5e-7, flags: [true, null] };
    const a = assistant("a1", null, "", { toolCalls: [{ id: "c1", name: "write", arguments: args }] });
    assert.equal(estimateEntryTokens(a), Math.ceil(("write".length + JSON.stringify(args).length) / 4));
  });

  it("counts every kind of entry as pi does", () => {
    const u = user("u1", null, "hello there");
    (u.message as Raw).content = [{ type: "text", text: "look" }, { type: "image", data: "AAAA", mimeType: "image/png" }];
    const t = toolResult("t1", null, "c1", "read", "x".repeat(41));
    (t.message as Raw).content = [{ type: "text", text: "x".repeat(41) }, { type: "image", data: "AAAA", mimeType: "image/png" }];
    const cases: Raw[] = [
      u,
      t,
      assistant("a1", null, "answer", { thinking: "let me think" }),
      bash("b1", null, "ls", "a b c"),
      entry("compaction", "k1", null, { summary: "s".repeat(10), firstKeptEntryId: "u1", tokensBefore: 5 }),
      entry("branch_summary", "s1", null, { summary: "abc", fromId: "u1" }),
      entry("custom_message", "c1", null, { customType: "x", content: "12345", display: true }),
      entry("label", "l1", null, { targetId: "u1", label: "x" }),
    ];
    for (const c of cases) assert.equal(estimateEntryTokens(c), piEstimate(c), JSON.stringify(c).slice(0, 80));
    assert.equal(estimateEntryTokens(u), 1, "an image in a user message counts nothing (pi's quirk)");
    assert.equal(estimateEntryTokens(t), Math.ceil((41 + 4800) / 4));
  });

  it("is what the index stores for every entry of a built session", () => {
    const lines: Raw[] = [
      header(),
      user("u1", null, "write the file"),
      assistant("a1", "u1", "ok", { toolCalls: [{ id: "c1", name: "write", arguments: { path: "a.txt", content: "line\n".repeat(100) } }] }),
      toolResult("t1", "a1", "c1", "write", "done"),
      bash("b1", "t1", "cat a.txt", "line\n".repeat(3)),
    ];
    const s = piSession(lines);
    assert.deepEqual(
      s.metas.map((m) => m.estimate),
      lines.slice(1).map(piEstimate),
    );
  });

  it("counts a v2 hookMessage as the custom message pi migrates it to", () => {
    const hook = { type: "message", id: "h1", parentId: "u1", timestamp: "2026-01-01T00:00:09.000Z", message: { role: "hookMessage", customType: "note", content: "x".repeat(40), display: true, timestamp: 1 } };
    const s = piSession([header({ version: 2 }), user("u1", null, "hi"), hook]);
    assert.equal(s.metas[1].role, "custom");
    assert.equal(s.metas[1].estimate, 10);
    assert.equal(s.metas[1].preview, "[note] " + "x".repeat(40));
  });

  it("agrees with the plain rule, in the index too, for every entry of the real sessions", async function () {
    needFixtures(this);
    let calls = 0;
    for (const name of REAL_SESSIONS) {
      const s = await Session.load(fixture(`${name}.jsonl`));
      const raw = rawEntriesByLine(name);
      for (const [line, e] of raw) {
        const m = e.message as Raw | undefined;
        if (m?.role === "hookMessage") m.role = "custom"; // pi's v3 migration, as loading does
        assert.equal(estimateEntryTokens(e), piEstimate(e), `${name} line ${line}`);
        if (JSON.stringify(e).includes('"toolCall"')) calls++;
      }
      assert.equal(s.metas.length, raw.size);
      for (const m of s.metas) assert.equal(m.estimate, piEstimate(raw.get(m.line) ?? {}), `${name} line ${m.line} in the index`);
    }
    assert.ok(calls > 300, `${calls} entries with tool calls checked`);
  });
});
