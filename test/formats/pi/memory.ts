import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { TextSession } from "../../../src/core/formats/pi/text-session";
import { refContext, refParse } from "../../helpers/reference-context";
import { assistant, bash, entry, header, type Raw, sessionText, toolResult } from "../../helpers/session-builder";

/**
 * pi sessions for rule tests, held in memory: the lines (objects JSON-encoded, strings as
 * they are, e.g. a damaged line) read through the same index builder as a file, so a
 * test states its session in a few lines and writes nothing. The entry factories are
 * test/helpers/session-builder.ts's.
 */
export function piSession(lines: Array<Raw | string>, opts: { trailingNewline?: boolean; path?: string } = {}): TextSession {
  return TextSession.fromText(sessionText(lines, opts), opts.path);
}

/** The context's messages as short strings: text as it is, other blocks by kind, calls by name. */
export function texts(ctx: ReturnType<typeof buildContext>): string[] {
  return ctx.parts.map((p) => {
    const c = p.llm.content;
    if (typeof c === "string") return c;
    return c.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `call:${b.name}` : b.type)).join("|");
  });
}

/** Our context must equal the naive reference (test/helpers/reference-context.ts) for every entry taken as the leaf; returns how many there are. */
export function agreesForEveryLeaf(lines: Array<Raw | string>): number {
  const s = piSession(lines);
  const ref = refParse(sessionText(lines));
  for (const m of s.metas) {
    const ours = buildContext(s, m.id);
    const theirs = refContext(ref, m.id);
    assert.deepEqual(ours.parts.map((p) => p.llm), theirs.messages, `leaf ${m.id}`);
    assert.equal(ours.thinkingLevel, theirs.thinkingLevel, `thinking at ${m.id}`);
    assert.deepEqual(ours.model, theirs.model, `model at ${m.id}`);
  }
  return s.metas.length;
}

/** A session (for the rendering and file-op tests) with a compaction, tool calls of every kind, an error, a bash run and an image. */
export function toolsSession(): TextSession {
  return piSession(
    [
      header(),
      entry("compaction", "00000000", null, { summary: "earlier work", firstKeptEntryId: "nothing", tokensBefore: 1234, details: { readFiles: ["old.md"], modifiedFiles: ["old.ts"] } }),
      { type: "message", id: "00000001", parentId: "00000000", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "fix <b>a.ts</b> & b" }, { type: "image", data: "AAAA", mimeType: "image/png" }] } },
      assistant("00000002", "00000001", "reading", { thinking: "hmm", toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }, { id: "t2", name: "edit", arguments: { path: "b.ts", oldText: "x", newText: "y" } }] }),
      toolResult("00000003", "00000002", "t1", "read", "file a"),
      toolResult("00000004", "00000003", "t2", "edit", "no match", true),
      bash("00000005", "00000004", "npm test", "ok"),
      assistant("00000006", "00000005", "", { toolCalls: [{ id: "t3", name: "write", arguments: { path: "a.ts", content: "z" } }, { id: "t4", name: "read", arguments: { path: "a.ts" } }] }),
      toolResult("00000007", "00000006", "t3", "write", "written"),
      toolResult("00000008", "00000007", "t4", "read", "z"),
      assistant("00000009", "00000008", "done"),
    ],
  );
}
