import { strict as assert } from "node:assert";
import { entryPreview } from "../../../src/core/formats/pi/model/preview";
import { Session } from "../../../src/core/formats/pi/pi-session";
import { fixture, needFixtures, rawEntriesByLine, REAL_SESSIONS } from "../../helpers/fixtures";
import { assistant, bash, entry, header, type Raw, toolResult, user } from "../../helpers/session-builder";
import { piSession } from "./memory";

/** The one-line previews the tree, the row view and `ase tree` show for each entry. */
describe("entry previews", () => {
  it("collapse whitespace runs to one space and drop it at both ends", () => {
    assert.equal(entryPreview(user("u1", null, "  fix\n\n\tthe \u00a0 bug \r\n")), "fix the bug");
  });

  it("cut past 100 characters to 97 and '...'", () => {
    const p = entryPreview(user("u1", null, "word ".repeat(40)));
    assert.equal(p.length, 100);
    assert.ok(p.endsWith("..."), p);
    assert.equal(p.slice(0, 97), "word ".repeat(40).slice(0, 97));
    assert.equal(entryPreview(user("u1", null, "x".repeat(100))), "x".repeat(100));
  });

  it("name an assistant's tool calls after its text, each by what it does", () => {
    const a = assistant("a1", "u1", "Let me look.", {
      toolCalls: [
        { id: "c1", name: "read", arguments: { path: "src/a.ts" } },
        { id: "c2", name: "bash", arguments: { command: "npm test" } },
        { id: "c3", name: "todo", arguments: { items: [1] } },
      ],
    });
    assert.equal(entryPreview(a), "Let me look. -> Read src/a.ts, $ npm test, todo items=1 item");
    const onlyCall = assistant("a2", "u1", "", { toolCalls: [{ id: "c1", name: "grep", arguments: { pattern: "TODO" } }] });
    assert.equal(entryPreview(onlyCall), '-> Grep "TODO"');
  });

  it("show thinking, errors and empty turns for an assistant with no text", () => {
    assert.equal(entryPreview(assistant("a1", null, "", { thinking: "Maybe   the cache" })), "(thinking) Maybe the cache");
    const failed = assistant("a2", null, "");
    (failed.message as Raw).stopReason = "error";
    (failed.message as Raw).errorMessage = "overloaded";
    assert.equal(entryPreview(failed), "(error) overloaded");
    assert.equal(entryPreview(assistant("a3", null, "")), "(empty)");
  });

  it("label tool results, bash runs and the other entry types", () => {
    assert.equal(entryPreview(toolResult("t1", null, "c1", "read", "line one\nline two")), "read: line one line two");
    assert.equal(entryPreview(toolResult("t2", null, "c1", "bash", "boom", true)), "bash (error): boom");
    assert.equal(entryPreview(bash("b1", null, "ls -la", "total 0", { excludeFromContext: true })), "$ ls -la (not sent)");
    assert.equal(entryPreview(entry("compaction", "k1", null, { summary: "s", tokensBefore: 51234 })), "compaction: 51234 tokens summarized");
    assert.equal(entryPreview(entry("branch_summary", "s1", null, { summary: "Tried   X" })), "branch summary: Tried X");
    assert.equal(entryPreview(entry("branch_summary", "s2", null, { summary: "" })), "branch (no summary)");
    assert.equal(entryPreview(entry("label", "l1", null, { targetId: "u1", label: "good" })), "label u1: good");
    assert.equal(entryPreview(entry("label", "l2", null, { targetId: "u1" })), "label u1 cleared");
    assert.equal(entryPreview(entry("model_change", "m1", null, { provider: "anthropic", modelId: "claude-x" })), "model: anthropic/claude-x");
    assert.equal(entryPreview(entry("custom_message", "c1", null, { customType: "note", content: "hello" })), "[note] hello");
    assert.equal(entryPreview(entry("something_new", "n1", null)), "(something_new)");
  });

  it("fall back to [image] for a message with only an image", () => {
    const u = user("u1", null, "");
    (u.message as Raw).content = [{ type: "image", data: "AAAA", mimeType: "image/png" }];
    assert.equal(entryPreview(u), "[image]");
  });

  it("come out of the index as the entry itself gives them, non-ASCII and broken surrogates included", () => {
    const entries: Raw[] = [
      user("u1", null, "héllo wörld 中文 😀 ".repeat(8)),
      user("u2", "u1", `cut inside a pair: ${"x".repeat(77)}😀😀😀 tail`),
      user("u3", "u2", "lone \ud800 surrogate"),
      toolResult("t1", "u3", "c1", "read", "ü".repeat(500)),
    ];
    const s = piSession([header(), ...entries]);
    assert.equal(s.metas.length, entries.length);
    for (let i = 0; i < entries.length; i++) {
      // The index stores UTF-8: a lone surrogate comes back as U+FFFD, as Buffer does.
      const expected = Buffer.from(entryPreview(entries[i]), "utf8").toString("utf8");
      assert.equal(s.metas[i].preview, expected, `entry ${i}`);
    }
    assert.ok(s.metas[2].preview.includes("\ufffd"));
  });

  it("agree between the index and the parsed entry for every entry of the real sessions", async function () {
    needFixtures(this);
    let checked = 0;
    for (const name of REAL_SESSIONS) {
      const s = await Session.load(fixture(`${name}.jsonl`));
      const raw = rawEntriesByLine(name);
      assert.equal(s.metas.length, raw.size);
      for (const m of s.metas) {
        const e = raw.get(m.line) ?? {};
        // The index stores UTF-8: a lone surrogate comes back as U+FFFD.
        assert.equal(m.preview, Buffer.from(entryPreview(e), "utf8").toString("utf8"), `${name} line ${m.line}`);
        checked++;
      }
    }
    assert.ok(checked > 500, `${checked} entries checked`);
  });
});
