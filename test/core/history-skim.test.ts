import { strict as assert } from "node:assert";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { sessionTouches } from "../../src/core/history/session-touches";
import type { SessionReader } from "../../src/core/session/session-reader";
import { leadingMembers } from "../../src/core/store/line-skim";
import { formatFixtures } from "../helpers/format-fixtures";
import { assistant, entry, header, toolResult, user, writeSession, type Raw } from "../helpers/session-builder";

const ROOTS = [resolve("test", "fixtures"), resolve("..", "shared", "fixtures")].filter((d) => existsSync(d));

/** What the history reads of a session, and the index it reads it through. */
function picture(s: SessionReader): unknown {
  const cwd = s.format.info(s).cwd;
  return {
    ids: s.metas.map((m) => m.id),
    parents: [...s.tree.parent],
    problems: s.problems.map((p) => p.message),
    touches: sessionTouches(s, cwd),
  };
}

/** The same session read whole and skimmed (both on two threads where the file allows) must give the same touches and tree. */
async function sameBothWays(path: string): Promise<unknown> {
  let whole: SessionReader;
  try {
    whole = await openSession(path, { secondThread: true });
  } catch (err) {
    await assert.rejects(openSession(path, { secondThread: true, skim: true }), { message: (err as Error).message });
    return undefined;
  }
  sameCallsAsDetails(whole);
  const skimmed = await openSession(path, { secondThread: true, skim: true });
  const want = picture(whole);
  assert.deepEqual(picture(skimmed), want, path);
  return want;
}

/** A format's own toolCalls must name the calls its detail view names (the history reads either). */
function sameCallsAsDetails(s: SessionReader): void {
  const f = s.format;
  if (!f.toolCalls || !f.details) return;
  for (let i = 0; i < s.metas.length; i++) {
    const own: Array<{ name: unknown; input: unknown }> | undefined = f.toolCalls(s, i);
    if (!own) continue;
    const viewed: Array<{ name: unknown; input: unknown }> = [];
    for (const b of f.details(s, i).blocks) if (b.call) viewed.push({ name: b.call.name, input: b.call.input });
    assert.deepEqual(own, viewed, `${s.path} entry ${i}`);
  }
}

const call = (id: string, name: string, args: Raw) => ({ id, name, arguments: args });

describe("history read skimming the lines it does not need", () => {
  it("every recorded fixture of every format gives the same touches, ids, tree and problems skimmed as read whole", async function () {
    this.timeout(600_000);
    let files = 0;
    for (const root of ROOTS) {
      for (const format of readdirSync(root)) {
        for (const path of formatFixtures(root, format)) {
          await sameBothWays(path);
          files++;
        }
      }
    }
    assert.ok(files >= 30, `only ${files} fixture files found`);
  });

  it("hostile pi lines: markers inside other lines' strings, escaped roles, members out of order, torn lines, lines cut inside their lead", async () => {
    const lines: Array<Raw | string> = [
      header({ cwd: "/w" }),
      user("u1", null, "Fix the parser"),
      assistant("a1", "u1", "", { toolCalls: [call("c1", "edit", { path: "src/p.ts", oldText: "a", newText: "b" })] }),
      // A tool result that quotes a tool call and a user message in its text: still only a result.
      toolResult("r1", "a1", "c1", "edit", '{"type":"toolCall","name":"write","arguments":{"path":"x"}} {"role":"user"} "toolCall"'),
      // A user message whose role is written escaped: a prompt, found only by parsing it.
      '{"type":"message","id":"u2","parentId":"r1","timestamp":"2026-02-01T00:00:00.000Z","message":{"role":"\\u0075ser","content":[{"type":"text","text":"Now the lexer"}]}}',
      // An assistant whose role comes after its content, with escaped quotes in its path.
      '{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-02-01T00:00:01.000Z","message":{"content":[{"type":"toolCall","id":"c2","name":"write","arguments":{"path":"src/\\"lexer\\".ts","content":"x"}}],"role":"assistant"}}',
      // A result whose id and parent come after its content: parsed whole.
      '{"type":"message","message":{"role":"toolResult","toolCallId":"c2","toolName":"write","content":[{"type":"text","text":"ok"}]},"id":"r2","parentId":"a2"}',
      // Space around every member, the role split across escapes in the key.
      ' { "type" : "message" , "id" : "u3" , "parentId" : "r2" , "message" : { "r\\u006fle" : "user" , "content" : [ { "type" : "text" , "text" : "And the \\"reader\\"" } ] } } ',
      assistant("a3", "u3", "", { toolCalls: [call("c3", "read", { path: "/abs/reader.ts" })] }),
      // A result cut inside its text (it does not end its object), then a child of it: no parent for a full read.
      '{"type":"message","id":"r3","parentId":"a3","message":{"role":"toolResult","content":[{"type":"text","text":"cut',
      assistant("a4", "r3", "", { toolCalls: [call("c4", "read", { path: "orphan.ts" })] }),
      // A result cut inside its lead: parsed whole, reported; so is the child's way to a prompt.
      '{"type":"message","id":"r4","parentId":"a3","message":{"ro',
      assistant("a5", "r4", "", { toolCalls: [call("c5", "edit", { path: "deep.ts", oldText: "1", newText: "2" })] }),
      entry("label", "l1", "a5", { targetId: "a1", label: "toolCall" }),
      toolResult("r5", "a5", "c5", "edit", "fine"),
      // A torn last line (no newline) that a full read reports.
      '{"type":"message","id":"r6","parentId":"r5","message":{"role":"toolResult","content":[]}',
    ];
    const path = writeSession(lines, { trailingNewline: false });
    const got = (await sameBothWays(path)) as { touches: Array<{ entryId: string; prompt?: string; absolutePath: string }> };
    assert.deepEqual(
      got.touches.map((t) => [t.entryId, t.absolutePath, t.prompt ?? ""]),
      [
        ["a1", "/w/src/p.ts", "Fix the parser"],
        ["a2", '/w/src/"lexer".ts', "Now the lexer"],
        ["a3", "/abs/reader.ts", 'And the "reader"'],
        ["a4", "/w/orphan.ts", ""],
        ["a5", "/w/deep.ts", ""],
      ],
    );
  });

  it("a line not valid JSON after its lead: a full read reports it, the history's skim (which does not check the rest of a line) indexes it as its lead says; the same touches", async () => {
    // Each line's lead (type, id, parent, role) is fine; what follows is not JSON.parse's JSON.
    const bad = [
      '{"type":"message","id":"r1","parentId":"a1","message":{"role":"toolResult","content":[{"a":1,,}]}}',
      '{"type":"message","id":"r2","parentId":"r1","message":{"role":"toolResult","content":[tru]}}',
      '{"type":"message","id":"r3","parentId":"r2","message":{"role":"toolResult","content":[01]}}',
      '{"type":"message","id":"r4","parentId":"r3","message":{"role":"toolResult","content":["bad \\x escape"]}}',
      '{"type":"message","id":"r5","parentId":"r4","message":{"role":"toolResult","content":["raw\ttab"]}}',
      '{"type":"message","id":"r6","parentId":"r5","message":{"role":"toolResult","content":[1 2]}}',
      '{"type":"message","id":"r7","parentId":"r6","message":{"role":"toolResult","content":{"a" 1}}}',
      '{"type":"message","id":"r8","parentId":"r7","message":{"role":"toolResult","content":[]}} trailing',
      '{"type":"message","id":"r9","parentId":"r8","message":{"role":"toolResult","content":[-]}}',
      '{"type":"message","id":"r10","parentId":"r9","message":{"role":"toolResult","content":[1.]}}',
      '{"type":"message","id":"r11","parentId":"r10","message":{"role":"toolResult","content":[{"a":1,}]}}',
      '{"type":"message","id":"r12","parentId":"r11","message":{"role":"toolResult","content":[1,]}}',
    ];
    // And lines that look odd but are JSON: skimmed, the same entries as read whole.
    const good = [
      '{"type":"message","id":"g1","parentId":"a1","message":{"role":"toolResult","content":[-0.5e+3,1E2,true,false,null,"\\u00e9\\n\\"\\\\\\/",{},[],{"a":[{}]}]}}',
      ' {"type":"message","id":"g2","parentId":"g1","message":{"role":"toolResult","content":[ 1 , "x" ] } } ',
    ];
    const head = [header({ cwd: "/w" }), user("u1", null, "Go"), assistant("a1", "u1", "", { toolCalls: [call("c1", "read", { path: "a.ts" })] })];
    const got = (await sameBothWays(writeSession([...head, ...good]))) as { ids: string[]; problems: string[] };
    assert.deepEqual(got.ids, ["u1", "a1", "g1", "g2"]);
    // Until 2026-11-26 the skim checked every line it skipped as JSON, to report a bad one as a
    // full read does; that check cost as much as a listing's scan of the bytes and the history
    // shows no line problems, so it went (SkimHooks says what a damaged line then does).
    const path = writeSession([...head, ...bad, ...good]);
    const whole = await openSession(path);
    assert.equal(whole.problems.length, bad.length, whole.problems.map((p) => p.message).join("\n"));
    assert.deepEqual(whole.metas.map((m) => m.id), ["u1", "a1", "g1", "g2"]);
    const skimmed = await openSession(path, { skim: true });
    // Parsed whole, and reported: the line whose lead is bad ({"a" 1}) and the one with bytes after its object.
    const lineOf = (id: string) => 4 + bad.findIndex((l) => l.includes(`"id":"${id}"`));
    assert.deepEqual(skimmed.problems.filter((p) => p.kind === "parse-error").map((p) => p.line), [lineOf("r7"), lineOf("r8")]);
    assert.deepEqual(skimmed.metas.map((m) => m.id), ["u1", "a1", "r1", "r2", "r3", "r4", "r5", "r6", "r9", "r10", "r11", "r12", "g1", "g2"]);
    assert.deepEqual(sessionTouches(skimmed, "/w"), sessionTouches(whole, "/w"));
  });

  it("assistant lines without a file tool's name are skimmed; an escaped or quoted name still finds its call", async () => {
    const path = writeSession([
      header({ cwd: "/w" }),
      user("u1", null, "Look around"),
      // Only a bash call and text: skimmed (no file tool named).
      assistant("a1", "u1", "listing", { toolCalls: [call("c1", "bash", { command: "ls" })] }),
      toolResult("r1", "a1", "c1", "bash", "a.ts"),
      // The tool's name written with an escape: a file operation all the same.
      '{"type":"message","id":"a2","parentId":"r1","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"\\u0065dit","arguments":{"path":"e.ts","oldText":"1","newText":"2"}}]}}',
      toolResult("r2", "a2", "c2", "edit", "ok"),
      // A bash call whose command names "read" in (escaped) quotes: no file operation either way.
      assistant("a3", "r2", "", { toolCalls: [call("c3", "bash", { command: 'echo "read"' })] }),
      toolResult("r3", "a3", "c3", "bash", "read"),
      // A write call with spaces around its name.
      '{"type":"message","id":"a4","parentId":"r3","message":{"role":"assistant","content":[{"type":"toolCall","id":"c4","name" : "write","arguments":{"path":"w.ts","content":"x"}}]}}',
      // A thinking-only line cut inside its text: reported as a whole read reports it.
      '{"type":"message","id":"a5","parentId":"a4","message":{"role":"assistant","content":[{"type":"thinking","thinking":"h',

      assistant("a6", "a4", "done"),
    ]);
    const got = (await sameBothWays(path)) as { ids: string[]; problems: string[]; touches: Array<{ entryId: string; operation: string; absolutePath: string; prompt?: string }> };
    assert.deepEqual(
      got.touches.map((t) => [t.entryId, t.operation, t.absolutePath, t.prompt]),
      [
        ["a2", "edit", "/w/e.ts", "Look around"],
        ["a4", "write", "/w/w.ts", "Look around"],
      ],
    );
    assert.equal(got.problems.length, 1);
    assert.deepEqual(got.ids, ["u1", "a1", "r1", "a2", "r2", "a3", "r3", "a4", "a6"]);
    // Skimmed, the bash-only line's calls were never read (a whole read counts one).
    const skimmed = await openSession(path, { skim: true });
    assert.deepEqual([1, 3].map((i) => skimmed.metas[i].toolCalls ?? 0), [0, 1]);
  });

  it("a line damaged after its lead (cut after a block, too deep) is indexed as its lead says: a full read's touches, but for the prompt of a touch below it in its turn", async () => {
    const path = writeSession([
      header({ cwd: "/w" }),
      user("u1", null, "Fix the reader"),
      assistant("a1", "u1", "", { toolCalls: [call("c1", "read", { path: "r.ts" })] }),
      // Cut after a whole block (it ends in a brace), then more lines.
      '{"type":"message","id":"r1","parentId":"a1","message":{"role":"toolResult","content":[{"type":"text","text":"cut"}',
      assistant("a2", "r1", "", { toolCalls: [call("c2", "edit", { path: "r.ts", oldText: "1", newText: "2" })] }),
      // Deeper than a full read takes.
      `{"type":"message","id":"r2","parentId":"a2","message":{"role":"toolResult","content":${"[".repeat(600)}${"]".repeat(600)}}}`,
      assistant("a3", "r2", "", { toolCalls: [call("c3", "write", { path: "w.ts", content: "x" })] }),
    ]);
    const whole = await openSession(path);
    const skimmed = await openSession(path, { skim: true });
    assert.deepEqual(whole.problems.map((p) => p.kind).sort(), ["parse-error", "parse-error", "unknown-parent", "unknown-parent"]);
    assert.deepEqual(skimmed.problems, []);
    const want = sessionTouches(whole, "/w");
    const got = sessionTouches(skimmed, "/w");
    // A full read starts a new path at each damaged line's child: no prompt above it there.
    assert.deepEqual(
      want.map((t) => [t.entryId, t.prompt ?? ""]),
      [
        ["a1", "Fix the reader"],
        ["a2", ""],
        ["a3", ""],
      ],
    );
    assert.deepEqual(
      got.map((t) => [t.entryId, t.prompt ?? ""]),
      [
        ["a1", "Fix the reader"],
        ["a2", "Fix the reader"],
        ["a3", "Fix the reader"],
      ],
    );
    assert.deepEqual(
      got.map(({ prompt: _p, ...t }) => t),
      want.map(({ prompt: _p, ...t }) => t),
    );
  });

  it("a version 1 session (ids from line numbers) skimmed gives the same entries", async () => {
    const v1 = (role: string, text: string) => ({ type: "message", timestamp: "2025-01-01T00:00:00.000Z", message: { role, content: [{ type: "text", text }] } });
    const path = writeSession([
      { type: "session", id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/v1" },
      v1("user", "Read it"),
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } }] } },
      "not json at all",
      v1("toolResult", "text"),
      { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "d", name: "edit", arguments: { path: "a.ts", oldText: "x", newText: "y" } }] } },
    ]);
    const got = (await sameBothWays(path)) as { touches: unknown[] };
    assert.equal(got.touches.length, 2);
  });

  it("the lead of a line is what JSON.parse reads of it, cut before its first array", () => {
    const lead = (s: string) => leadingMembers(Buffer.from(s), 0, Buffer.byteLength(s));
    assert.deepEqual(lead('{"type":"message","id":"a","parentId":null,"message":{"role":"toolResult","n":1,"content":[1]}}'), { type: "message", id: "a", parentId: null, message: { role: "toolResult", n: 1 } });
    assert.deepEqual(lead('{"t\\u0079pe":"m\\"x","message":{"role":"\\u0075ser","content":[]}}'), { type: 'm"x', message: { role: "user" } });
    assert.deepEqual(lead('{"message":{},"id":"a"}'), undefined);
    assert.equal(lead('{"id":"a","x":1}'), undefined, "an object without nested values is parsed whole");
    assert.equal(lead('{"id":"a",,"x":[1]}'), undefined);
    assert.equal(lead('{"id":tru,"x":[1]}'), undefined);
    assert.equal(lead('["id"]'), undefined);
  });
});
