import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { readPiFileOps } from "../../src/core/formats/pi/file-ops-read";
import { openSession } from "../../src/core/formats/registry";
import { withTexts } from "../../src/core/history/edit-texts";
import { readSessionTouches } from "../../src/core/history/read-touches";
import { sessionTouches } from "../../src/core/history/session-touches";
import { formatFixtures } from "../helpers/format-fixtures";
import { buildHistoryWorld } from "../helpers/history-world";
import { writeHostileSession } from "../helpers/hostile-session";
import { assistant, bash, entry, header, toolResult, user, writeSession, type Raw } from "../helpers/session-builder";

const ROOTS = [resolve("test", "fixtures"), resolve("..", "shared", "fixtures")].filter((d) => existsSync(d));

const call = (id: string, name: string, args: Raw) => ({ id, name, arguments: args });

/**
 * The history's read of a session (skimmed, edits' texts as places, read back) against the
 * touches of a full read: ids, operations, paths, times, prompts and edit texts, in order.
 */
async function sameTouches(path: string): Promise<number> {
  const whole = await openSession(path);
  const cwd = whole.format.info(whole).cwd;
  const want = sessionTouches(whole, cwd).map((t) => ({ ...t, sessionPath: path }));
  const got = withTexts((await readSessionTouches(path, cwd)).touches.map((t) => ({ ...t, sessionPath: path })));
  assert.deepEqual(got, want, path);
  return want.length;
}

describe("per-file history: its read gives the touches a full read gives", () => {
  it("every pi fixture (shared and the project's own) and the hostile session", async function () {
    this.timeout(600_000);
    const files = [...ROOTS.flatMap((r) => formatFixtures(r, "pi")), writeHostileSession().file];
    assert.ok(files.length >= 4, files.join(", "));
    let touches = 0;
    for (const f of files) touches += await sameTouches(f);
    assert.ok(touches >= 100, `only ${touches} touches`);
  });

  /** A text long enough to be cut out of its line before a parse (file-ops-read.ts's CUT_BYTES). */
  const LONG = "x".repeat(80);

  it("hostile lines: file tool names inside other strings, escaped quotes and names, markers split by escapes, a torn last line", async () => {
    const lines: Array<Raw | string> = [
      header({ cwd: "/w" }),
      user("u1", null, 'Prompt with "read" and "edit" in quotes \\u0065dit'),
      // A result quoting calls of every file tool: no file operation.
      toolResult("r0", "u1", "c0", "bash", '{"type":"toolCall","name":"write","arguments":{"path":"x","content":"y"}} "read" "edit"'),
      // Text that names the tools in quotes, and a bash call whose command does: no file operation.
      assistant("a1", "r0", 'I will "read" then "edit"', { toolCalls: [call("c1", "bash", { command: 'grep "write" -r .' })] }),
      toolResult("r1", "a1", "c1", "bash", 'src/a.ts: "write"'),
      // A tool name escaped, a path with escaped quotes and a backslash, texts with quotes and escapes.
      '{"type":"message","id":"a2","parentId":"r1","timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"\\u0065dit","arguments":{"path":"src/\\"q\\"\\\\b.ts","oldText":"say \\"hi\\"\\n","newText":"say \\u0022bye\\u0022\\n"}}]}}',
      toolResult("r2", "a2", "c2", "edit", "ok"),
      // The role escaped: an assistant all the same, with a write.
      '{"type":"message","id":"a3","parentId":"r2","timestamp":"2026-03-01T00:00:01.000Z","message":{"role":"\\u0061ssistant","content":[{"type":"toolCall","id":"c3","name":"write","arguments":{"path":"w.ts","content":"\\u00e9t\\u00e9 \\ud83d\\ude00"}}]}}',
      toolResult("r3", "a3", "c3", "write", "ok"),
      bash("b1", "r3", 'cat "read"', "read\nedit"),
      user("u2", "b1", "Next"),
      assistant("a4", "u2", "", { toolCalls: [call("c4", "read", { path: "/abs/r.ts" }), call("c5", "edit", { path: "r.ts", edits: [{ oldText: "1", newText: "2" }] })] }),
      toolResult("r4", "a4", "c4", "read", "text"),
      entry("session_info", "n1", "r4", { name: "A name" }),
      assistant("a5", "n1", "", { toolCalls: [call("c6", "write", { path: "late.ts", content: "z" })] }),
      // The message given twice: JSON.parse keeps the last, which calls nothing.
      `{"type":"message","id":"a6","parentId":"a5","message":{"role":"assistant","content":[{"type":"toolCall","id":"c7","name":"write","arguments":{"path":"gone.ts","content":"${LONG}"}}]},"message":{"role":"assistant","content":[]}}`,
      // The content given twice (the last is read); a long text holding the escape of a cut's mark, and a short one spelling the second cut's mark.
      `{"type":"message","id":"a7","parentId":"a6","message":{"role":"assistant","content":[{"type":"toolCall","id":"c8","name":"write","arguments":{"path":"first.ts","content":"x"}}],"content":[{"type":"thinking","thinking":"${LONG}"},{"type":"toolCall","id":"c9","name":"edit","arguments":{"path":"second.ts","oldText":"\\\\u0000${LONG}","newText":"\\u00001"}}]}}`,
      // Blocks' types: a text (no call), a call's type escaped, a type given twice (the last is read); a path past ASCII, with a short text that spells the mark of the line's second cut.
      `{"type":"message","id":"a8","parentId":"a7","message":{"role":"assistant","content":[{"type":"text","text":"${LONG}"},{"type":"toolC\\u0061ll","id":"c10","name":"read","arguments":{"path":"escaped-type.ts"}},{"type":"thinking","type":"toolCall","id":"c11","name":"read","arguments":{"path":"typed-twice.ts"}},{"type":"toolCall","type":"text","id":"c12","name":"read","arguments":{"path":"not-a-call.ts"}},{"type":"toolCall","id":"c13","name":"edit","arguments":{"path":"naïve-é.ts","oldText":"“${LONG}”","newText":"\\u00001"}}]}}`,
      // The lead says an assistant's message, and a member given again after it says otherwise
      // (JSON.parse keeps the last): the type, the role; then a parent given twice in pi's layout.
      `{"type":"message","id":"a9","parentId":"a8","timestamp":"2026-03-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c14","name":"write","arguments":{"path":"typed-custom.ts","content":"${LONG}"}}]},"type":"custom"}`,
      `{"type":"message","id":"aa","parentId":"a9","timestamp":"2026-03-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c15","name":"write","arguments":{"path":"role-user.ts","content":"x"}}],"role":"user"}}`,
      `{"type":"message","id":"ab","parentId":"a9","parentId":"aa","timestamp":"2026-03-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c16","name":"write","arguments":{"path":"parent-twice.ts","content":"${LONG}"}}]}}`,
    ];
    // A torn last line (no newline), a result an agent killed mid-write leaves: the history's
    // own read leaves such a file to a whole load, so the lines are read without it as well.
    const torn = '{"type":"message","id":"r5","parentId":"a8","message":{"role":"toolResult","content":[{"type":"text","text":"cu';
    const whole = writeSession(lines);
    assert.ok(await readPiFileOps(whole, () => undefined), "the history's own read takes the lines");
    assert.ok((await sameTouches(whole)) >= 5);
    const path = writeSession([...lines, torn], { trailingNewline: false });
    assert.equal(await readPiFileOps(path, () => undefined), undefined, "a torn last line is left to the whole load");
    assert.ok((await sameTouches(path)) >= 5);
    assert.deepEqual((await readSessionTouches(path, "/w")).touches, (await readSessionTouches(whole, "/w")).touches, "the same touches either way");
    const got = (await readSessionTouches(whole, "/w")).touches;
    assert.deepEqual(
      got.map((t) => [t.entryId, t.operation, t.absolutePath]),
      [
        ["a2", "edit", '/w/src/"q"\\b.ts'],
        ["a3", "write", "/w/w.ts"],
        ["a4", "read", "/abs/r.ts"],
        ["a4", "edit", "/w/r.ts"],
        ["a5", "write", "/w/late.ts"],
        ["a7", "edit", "/w/second.ts"],
        ["a8", "read", "/w/escaped-type.ts"],
        ["a8", "read", "/w/typed-twice.ts"],
        ["a8", "edit", "/w/naïve-é.ts"],
        ["ab", "write", "/w/parent-twice.ts"],
      ],
    );
    const [second, naive] = withTexts(got.filter((t) => t.entryId === "a7" || t.absolutePath.endsWith("é.ts")).map((t) => ({ ...t, sessionPath: whole })));
    assert.deepEqual([second?.oldText, second?.newText], [`\\u0000${LONG}`, "\u00001"], "a long text that spells a mark's escape, and a short one that is a mark's very text");
    // The same in a line the walk reads (json-walk.ts): the short text is not taken for the second cut (the long old text).
    assert.deepEqual([naive?.oldText, naive?.newText], [`“${LONG}”`, "\u00001"]);
  });

  it("the listing's format is asked first, and a file of another format is read as detection says all the same", async () => {
    const world = buildHistoryWorld();
    for (const file of [world.piFile, world.ccFile, world.codexFile]) {
      const detected = await readSessionTouches(file, world.main);
      assert.ok(detected.touches.length > 0, file);
      for (const formatId of ["pi", "claude-code", "codex", "gemini-cli"]) assert.deepEqual(await readSessionTouches(file, world.main, { formatId }), detected, `${file} listed as ${formatId}`);
    }
  });
});
