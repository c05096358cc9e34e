import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { replay } from "../../../src/core/formats/gemini-cli/replay";
import { sessionContents } from "../../../src/core/formats/gemini-cli/session-contents";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { treeRows } from "../../../src/core/formats/tree-rows";
import { tempDir } from "../../helpers/session-builder";
import { contextMsg, geminiMsg, lines, meta, type Rec, toolCall, userMsg } from "./helpers";

const ROOT = "/p";

function open(records: Array<Rec | string>): { s: GeminiSession; path: string; bytes: string } {
  const path = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
  const bytes = lines(records);
  writeFileSync(path, bytes);
  return { s: GeminiSession.open(path), path, bytes };
}

/** Every message a resume at the leaf sends (coalesced contents name all of theirs). */
const ids = (s: GeminiSession, leaf: number) => sessionContents(s.replayed, s.metas[leaf].id).flatMap((c) => c.sources);
const pos = (s: GeminiSession, id: string) => s.tree.indexOf(id) ?? -1;

describe("Gemini CLI replay on hand-built sessions (the rules of docs/gemini-cli-format.md section 2)", () => {
  it("a repeated id replaces the message in place; $set merges into the metadata", () => {
    const call = toolCall("read_file", 0, { file_path: "a.txt" }, "file text");
    const { s } = open([meta(ROOT), userMsg("u1", "read a.txt"), geminiMsg("g1", ""), geminiMsg("g1", "", { toolCalls: [call] }), userMsg("u2", "thanks"), { $set: { summary: "Reading a file" } }]);
    assert.deepEqual(s.metas.map((m) => m.id), ["u1", "g1", "u2"]);
    assert.equal(s.tree.parent[pos(s, "u2")], pos(s, "g1"));
    assert.equal(geminiFormat.describe(s, pos(s, "g1")).kind, "tool-call");
    assert.equal(geminiFormat.info(s).name, "Reading a file");
    assert.deepEqual(s.problems, []);
  });

  it("a $set.messages checkpoint replaces the list: a resume's rewrite stays one path, a different list starts a branch", () => {
    const { s } = open([
      meta(ROOT),
      { $set: { messages: [contextMsg()] } },
      userMsg("u1", "one"),
      geminiMsg("g1", "reply one"),
      // A resume writes the same history again: same path.
      { $set: { messages: [contextMsg(), userMsg("u1", "one"), geminiMsg("g1", "reply one")] } },
      // A reset to a shorter, different list: the rest is a new branch from the context.
      { $set: { messages: [contextMsg(), userMsg("u9", "other start")] } },
    ]);
    assert.equal(s.tree.parent[pos(s, "g1")], pos(s, "u1"));
    assert.equal(s.tree.parent[pos(s, "u9")], pos(s, "d04923d38bb0f6017037e74183378ef4"));
    assert.equal(geminiFormat.defaultLeaf(s), pos(s, "u9"));
    assert.deepEqual(ids(s, pos(s, "g1")), ["d04923d38bb0f6017037e74183378ef4", "u1", "g1"]);
  });

  it("$rewindTo keeps the dropped messages as an abandoned branch; resume goes on from what is left (the shape of the recorded rewind fixture)", () => {
    const { s } = open([
      meta(ROOT),
      { $set: { messages: [contextMsg()] } },
      userMsg("u1", "one"),
      geminiMsg("g1", "reply one"),
      userMsg("u2", "a prompt to take back"),
      geminiMsg("g2", "reply two"),
      { $rewindTo: "u2" },
      // The real 0.61.0 checkpoints what is left without the session context.
      { $set: { messages: [userMsg("u1", "one"), geminiMsg("g1", "reply one")] } },
      userMsg("u3", "a better prompt"),
      geminiMsg("g3", "reply three"),
    ]);
    const leaf = geminiFormat.defaultLeaf(s);
    assert.equal(s.metas[leaf].id, "g3");
    // The abandoned prompt is still in the tree, a sibling branch of the new one.
    assert.equal(s.tree.parent[pos(s, "u2")], pos(s, "g1"));
    assert.equal(s.tree.parent[pos(s, "u3")], pos(s, "g1"));
    const rows = treeRows(s, { all: true });
    const row = (id: string) => rows.find((r) => r.index === pos(s, id));
    assert.equal(row("u2")?.onActivePath, false);
    assert.equal(row("g2")?.isLeaf, true);
    assert.equal(row("u3")?.onActivePath, true);
    assert.deepEqual(ids(s, leaf), ["d04923d38bb0f6017037e74183378ef4", "u1", "g1", "u3", "g3"]);
    assert.deepEqual(ids(s, pos(s, "g2")), ["d04923d38bb0f6017037e74183378ef4", "u1", "g1", "u2", "g2"]);
    // u1 and g1 are one message each, not a second copy on a new branch.
    assert.equal(s.tree.parent[pos(s, "u1")], pos(s, "d04923d38bb0f6017037e74183378ef4"));
    assert.equal(s.metas.filter((m) => m.id.startsWith("u1")).length, 1);
  });

  it("$rewindTo an unknown id drops everything (as Gemini does): the old messages stay, as a branch of their own", () => {
    const { s } = open([meta(ROOT), userMsg("u1", "one"), geminiMsg("g1", "reply"), { $rewindTo: "no-such-id" }, userMsg("u2", "after")]);
    assert.equal(s.tree.parent[pos(s, "u2")], -1);
    assert.equal(s.metas[geminiFormat.defaultLeaf(s)].id, "u2");
    assert.deepEqual(ids(s, geminiFormat.defaultLeaf(s)), ["u2"]);
    assert.ok(pos(s, "g1") >= 0, "the dropped messages are still shown");
    assert.deepEqual(s.problems.map((p) => p.line), [4]);
    assert.match(s.problems[0].message, /^line 4: \$rewindTo names "no-such-id", no message of the list: Gemini CLI drops every message \(kept here as a branch\)/);
  });

  it("info, warning and error lines are shown, never sent; a failed tool call is marked", () => {
    const bad = toolCall("run_shell_command", 1, { command: "false" }, "exit 1", "error");
    const { s } = open([meta(ROOT), userMsg("u1", "go"), { id: "i1", type: "info", content: "Switched model" }, geminiMsg("g1", "", { toolCalls: [bad] }), { id: "e1", type: "error", content: "quota" }]);
    const d = geminiFormat.describe(s, pos(s, "i1"));
    assert.equal(d.label, "Info (shown, never sent)");
    assert.equal(geminiFormat.describe(s, pos(s, "e1")).isError, true);
    assert.equal(geminiFormat.describe(s, pos(s, "g1")).isError, true);
    assert.deepEqual(ids(s, pos(s, "e1")).filter((id) => id === "i1" || id === "e1"), []);
    const preview = s.metas[pos(s, "g1")].preview;
    assert.match(preview, /false/);
  });
});

describe("Gemini CLI bad input: shown and named, never fatal, nothing written", () => {
  it("junk lines, a JSON array, a checkpoint with a broken message, an unknown record kind and a bad $rewindTo are line problems naming file, line and what was expected", () => {
    const { s, path, bytes } = open([
      meta(ROOT),
      "{torn",
      "[1,2]",
      userMsg("u1", "one"),
      { $set: { messages: [userMsg("u1", "one"), { content: "no id" }, geminiMsg("g1", "kept")] } },
      { somethingNew: true },
      { $rewindTo: 5 },
      { id: "x1", type: "tool_group", content: "a kind this reader does not know" },
    ]);
    const p = s.problems.map((x) => `${x.line}: ${x.message}`);
    assert.equal(p.length, 5, p.join("\n"));
    // The reader names the file once above its problems (the contract: "line N: ..."), each names its line and what was expected.
    assert.match(p[0], /^2: line 2: not JSON \(expected one Gemini CLI record per line/);
    assert.match(p[1], /^3: .*a JSON array, expected a record object/);
    assert.match(p[2], /^5: .*message 1 of the \$set\.messages checkpoint has no string id/);
    assert.match(p[3], /^6: .*a record of a kind this reader does not know \(keys somethingNew\)/);
    assert.match(p[4], /^7: .*\$rewindTo is not a message id/);
    // What parsed is kept: the checkpoint's good messages and the message of an unknown type (shown as "other").
    assert.deepEqual(s.metas.map((m) => m.id), ["u1", "g1", "x1"]);
    assert.equal(geminiFormat.describe(s, pos(s, "x1")).kind, "other");
    assert.equal(readFileSync(path, "utf8"), bytes, "the file is never written");
  });

  it("bytes replay exactly as text: multi-byte characters, CRLF line ends, a junk line and a missing final newline keep their lines", () => {
    const text = lines([meta(ROOT), userMsg("u1", "└── ünïcödé ✦ 日本語"), "{not json", geminiMsg("g1", "réponse ✦")]).replace(/\n/g, "\r\n") + lines([userMsg("u2", "last, no newline")]).trimEnd();
    const fromText = replay(text, "x.jsonl");
    const fromBytes = replay(Buffer.from(text, "utf8"), "x.jsonl");
    assert.deepEqual(fromBytes, fromText);
    assert.deepEqual(fromBytes.problems.map((p) => p.line), [3]);
    assert.equal((fromBytes.nodes[0].message.content as Array<{ text: string }>)[0].text, "└── ünïcödé ✦ 日本語");
    assert.deepEqual(fromBytes.current, ["u1", "g1", "u2"]);
  });

  it("a file with no session in it at all opens empty with its problems, not a throw", () => {
    const { s } = open(["nonsense", "{}"]);
    assert.equal(s.metas.length, 0);
    assert.equal(s.problems.length, 2);
    assert.equal(geminiFormat.defaultLeaf(s), -1);
  });
});
