import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { TextSession } from "../../../src/core/formats/pi/text-session";
import { refContext, refParse } from "../../helpers/reference-context";
import { type Raw, sessionText } from "../../helpers/session-builder";

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
