import { strict as assert } from "node:assert";
import { statSync, writeFileSync } from "node:fs";
import { openSession } from "../../src/core/formats/registry";
import { lineLeads } from "../../src/core/formats/pi/line-leads";
import { piFormat } from "../../src/core/formats/pi/format";
import { CUT_BYTES } from "../../src/core/formats/pi/file-ops-read";
import { placer, SessionBytes, SHORT_TEXT_BYTES, withTexts } from "../../src/core/history/edit-texts";
import { readSessionTouches } from "../../src/core/history/read-touches";
import { sessionTouches, TEXT_CAP } from "../../src/core/history/session-touches";
import { writeHostileSession } from "../helpers/hostile-session";
import { assistant, entry, header, toolResult, user, writeSession, type Raw } from "../helpers/session-builder";

const call = (id: string, name: string, args: Raw) => ({ id, name, arguments: args });

/** Whether pi's own quick read (SessionFormat.fileOps) takes the file, rather than leave it to a whole load. */
async function quickReadTakes(path: string): Promise<boolean> {
  return (await piFormat.fileOps?.(path, () => undefined)) !== undefined;
}

/** The history's read of a session against a full read: touches (texts read back) and the session's name. */
async function sameAsFullRead(path: string): Promise<number> {
  const whole = await openSession(path);
  const cwd = whole.format.info(whole).cwd;
  const want = sessionTouches(whole, cwd).map((t) => ({ ...t, sessionPath: path }));
  const read = await readSessionTouches(path, cwd);
  const got = withTexts(read.touches.map((t) => ({ ...t, sessionPath: path })));
  assert.deepEqual(got, want, path);
  assert.equal(read.name, whole.format.info(whole).name, `${path}: the session's name`);
  return want.length;
}

/** A turn: a prompt, an assistant's edit and write, their results. */
function turn(k: number, parent: string | null): Raw[] {
  return [
    user(`u${k}`, parent, `Prompt ${k}: change the file`),
    assistant(`a${k}`, `u${k}`, "", { toolCalls: [call(`c${k}`, "edit", { path: `src/f${k}.ts`, oldText: `old ${k}\n`, newText: `new "${k}"\n` }), call(`w${k}`, "write", { path: "out.txt", content: `line ${k}` })] }),
    toolResult(`r${k}`, `a${k}`, `c${k}`, "edit", "ok"),
  ];
}

describe("per-file history: pi's own quick read of a file", () => {
  it("takes pi's usual files (versions 1 to 3, blank lines, CRLF, a header again, a name) and answers as a full read", async () => {
    // Version 3, CRLF line ends, blank lines, the header again, a name set twice (the last wins) and a blank one.
    const v3 = [header({ cwd: "/w" }), ...turn(1, null), "", entry("session_info", "n1", "r1", { name: "  First  " }), ...turn(2, "n1"), header({ cwd: "/w" }), entry("session_info", "n2", "r2", { name: "Second" }), entry("session_info", "n3", "n2", { name: "   " }), ...turn(3, "n3")];
    const crlf = writeSession(v3.map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\r"));
    // Version 1: no ids, each entry's parent the one before; ids are line numbers.
    const v1 = [
      { type: "session", id: "s1", timestamp: "2025-11-20T23:33:00.000Z", cwd: "/w" },
      { type: "message", timestamp: "2025-11-20T23:33:01.550Z", message: { role: "user", content: [{ type: "text", text: "Fix it" }] } },
      "",
      { type: "message", timestamp: "2025-11-20T23:33:02.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } }, { type: "toolCall", id: "c2", name: "edit", arguments: { path: "a.ts", oldText: "x", newText: "y" } }] } },
      { type: "thinking_level_change", timestamp: "2025-11-20T23:33:03.000Z", thinkingLevel: "high" },
      { type: "message", timestamp: "2025-11-20T23:33:04.000Z", message: { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "x" }] } },
      { type: "message", timestamp: "2025-11-20T23:33:05.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "c3", name: "write", arguments: { path: "b.ts", content: "z" } }] } },
    ];
    // Version 2: a hookMessage (v3's custom) between the prompt and the call.
    const v2 = [header({ version: 2, cwd: "/w" }), user("u1", null, "Go"), { type: "message", id: "h1", parentId: "u1", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "hookMessage", customType: "x", content: "hook" } }, assistant("a1", "h1", "", { toolCalls: [call("c1", "write", { path: "c.ts", content: "c" })] })];
    for (const path of [crlf, writeSession(v1), writeSession(v2)]) {
      assert.ok(await quickReadTakes(path), `${path} left to a whole load`);
      assert.ok((await sameAsFullRead(path)) >= 1, path);
    }
    assert.equal((await readSessionTouches(crlf, "/w")).name, "Second");
  });

  it("leads it does not read by bytes (spaces, escapes, numbers, a lead past 4 KB, a message that is no object) are read as the load reads them", async () => {
    const long = "x".repeat(5000);
    const lines: Array<Raw | string> = [
      header({ cwd: "/w" }),
      user("u1", null, "Start"),
      // Spaces in the lead, an escaped key, a number before the content: the lead read exactly, and skimmed.
      '{ "type" : "message", "id" : "r0", "parentId" : "u1", "message" : { "role" : "toolResult", "content" : [] } }',
      '{"type":"message","\\u0069d":"r1","parentId":"r0","message":{"role":"toolResult","content":[]}}',
      '{"type":"message","id":"r2","parentId":"r1","n":1,"message":{"role":"toolResult","content":[]}}',
      // A lead longer than the skim looks at: parsed whole.
      `{"type":"message","id":"r3","parentId":"r2","note":"${long}","message":{"role":"toolResult","content":[]}}`,
      // A message that is a string, one without a role, a line that is an array, an entry without an id.
      '{"type":"message","id":"m1","parentId":"r3","message":"text"}',
      '{"type":"message","id":"m2","parentId":"m1","message":{"content":[]}}',
      "[1,2,3]",
      '{"type":"message","id":"","parentId":"m2","message":{"role":"user","content":"lost"}}',
      assistant("a1", "m2", "", { toolCalls: [call("c1", "edit", { path: "e.ts", oldText: "1", newText: "2" })] }),
      // A prompt whose 100-character preview cuts a surrogate pair in two.
      user("u2", "a1", `${"p".repeat(99)}\u{1F600} and more`),
      assistant("a2", "u2", "", { toolCalls: [call("c2", "write", { path: "s.ts", content: "s" })] }),
      // A self parent and an unknown parent: roots, prompts found on no path.
      assistant("a3", "a3", "", { toolCalls: [call("c3", "read", { path: "r.ts" })] }),
      assistant("a4", "gone", "", { toolCalls: [call("c4", "read", { path: "r.ts" })] }),
    ];
    const path = writeSession(lines);
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 4);
    const got = (await readSessionTouches(path, "/w")).touches;
    assert.equal(got.find((t) => t.entryId === "a1")?.prompt, "Start");
    assert.equal(got.find((t) => t.entryId === "a3")?.prompt, undefined);
  });

  it("pi's exact lead layout, read by comparing bytes, then read on as any lead: a role said twice, a time not plain, a parent of another shape", async () => {
    const at = (id: string, parent: string, rest: string) => `{"type":"message","id":"${id}","parentId":"${parent}","timestamp":"2026-03-01T00:00:00.000Z","message":{"role":${rest}}}`;
    const edit = (id: string) => `"content":[{"type":"toolCall","id":"${id}","name":"edit","arguments":{"path":"${id}.ts","oldText":"a","newText":"b"}}]`;
    const lines: Array<Raw | string> = [
      header({ cwd: "/w" }),
      at("0000000a", "0000000a", `"user","content":"First"`),
      // The role said again before the content: the last one counts (an assistant here, parsed, not skimmed).
      at("0000000b", "0000000a", `"toolResult","role":"assistant",${edit("0000000b")}`),
      at("0000000c", "0000000b", `"assistant","role":"toolResult","content":[]`),
      // Skimmed results in the plain layout between a prompt and a call: the call's prompt is found through them.
      at("00000012", "0000000c", `"toolResult","content":[]`),
      at("00000013", "00000012", `"assistant",${edit("00000013")}`),
      // A time with an escape or a character past ASCII: not pi's plain layout, read as any lead.
      `{"type":"message","id":"0000000d","parentId":"00000013","timestamp":"2026-03-01T00:00:00\u002e000Z","message":{"role":"user","content":"Second"}}`,
      `{"type":"message","id":"0000000e","parentId":"0000000d","timestamp":"2026-03-01T00:00:00.000Zé","message":{"role":"assistant",${edit("0000000e")}}}`,
      // A parent of another shape, and a parent in capitals.
      at("0000000f", "u-1", `"assistant",${edit("0000000f")}`),
      at("00000010", "0000000E", `"assistant",${edit("00000010")}`),
      at("00000011", "0000000e", `"toolResult","content":[]`),
    ];
    const path = writeSession(lines);
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 4);
    const prompts = new Map((await readSessionTouches(path, "/w")).touches.map((t) => [t.entryId, t.prompt]));
    assert.equal(prompts.get("0000000b"), "First");
    assert.equal(prompts.get("00000013"), "First");
    assert.equal(prompts.get("0000000e"), "Second");
    assert.equal(prompts.get("0000000f"), undefined);
  });

  it("leaves to a whole load what the load reports or reads otherwise, with the same answer: duplicate ids, a parent named before its entry, bad JSON, too deep, no header", async () => {
    const deep = `{"type":"message","id":"d1","parentId":"u1","message":{"role":"assistant","content":[{"type":"toolCall","name":"edit","arguments":{"path":"d.ts","x":${"[".repeat(600)}${"]".repeat(600)}}}]}}`;
    const cases: Record<string, Array<Raw | string>> = {
      "duplicate id": [header({ cwd: "/w" }), ...turn(1, null), user("u1", "r1", "Again"), assistant("a9", "u1", "", { toolCalls: [call("c9", "write", { path: "d.ts", content: "d" })] })],
      "parent named before its entry": [header({ cwd: "/w" }), assistant("a0", "u5", "", { toolCalls: [call("c0", "read", { path: "f.ts" })] }), user("u5", null, "Later prompt")],
      "bad JSON in a line parsed whole": [header({ cwd: "/w" }), ...turn(1, null), '{"type":"message","id":"u2","parentId":"r1","message":{"role":"user","content":[oops]}}', ...turn(3, "r1")],
      "too deep": [header({ cwd: "/w" }), user("u1", null, "Deep"), deep, ...turn(2, "u1")],
      "no header first": [user("u0", null, "No header"), header({ cwd: "/w" }), ...turn(1, "u0")],
    };
    for (const [what, lines] of Object.entries(cases)) {
      const path = writeSession(lines);
      assert.equal(await quickReadTakes(path), false, `${what}: taken by the quick read`);
      if (what === "no header first") await assert.rejects(readSessionTouches(path, "/w"), /not a pi session file|first line is not a session header/);
      else await sameAsFullRead(path);
    }
  });

  it("pi's own ids (8 hex digits, kept as numbers): the tree, a duplicate and a parent named early as with any id; ids that differ in case are two", async () => {
    const hexTurn = (u: string, a: string, r: string, parent: string | null, file: string): Raw[] => [
      user(u, parent, `Prompt for ${file}`),
      assistant(a, u, "", { toolCalls: [call(`c${a}`, "edit", { path: file, oldText: "o", newText: "n" })] }),
      toolResult(r, a, `c${a}`, "edit", "ok"),
    ];
    // A branch back to the first prompt's result, ids at both ends of the range, and "ABCDEF12" beside "abcdef12".
    const tree = [
      header({ cwd: "/w" }),
      ...hexTurn("00000000", "0000000a", "ffffffff", null, "one.ts"),
      ...hexTurn("abcdef12", "12345678", "9abcdef0", "ffffffff", "two.ts"),
      ...hexTurn("ABCDEF12", "0badcafe", "deadbeef", "ffffffff", "three.ts"),
      assistant("c0ffee00", "ABCDEF12", "", { toolCalls: [call("cx", "write", { path: "four.ts", content: "x" })] }),
    ];
    const path = writeSession(tree);
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 4);
    const prompts = new Map((await readSessionTouches(path, "/w")).touches.map((t) => [t.absolutePath, t.prompt]));
    assert.equal(prompts.get("/w/four.ts"), "Prompt for three.ts");
    assert.equal(prompts.get("/w/two.ts"), "Prompt for two.ts");
    const cases: Record<string, Array<Raw | string>> = {
      "duplicate hex id": [...tree, user("abcdef12", "c0ffee00", "Again")],
      "hex parent named before its entry": [header({ cwd: "/w" }), assistant("0000000a", "0000000b", "", { toolCalls: [call("c0", "read", { path: "f.ts" })] }), user("0000000b", null, "Later")],
    };
    for (const [what, lines] of Object.entries(cases)) {
      const p = writeSession(lines);
      assert.equal(await quickReadTakes(p), false, `${what}: taken by the quick read`);
      await sameAsFullRead(p);
    }
  });

  it("a line skimmed by its lead and damaged after it: read as the history's load reads it (the lead is all either looks at)", async () => {
    const path = writeSession([
      header({ cwd: "/w" }),
      user("u1", null, "Start"),
      '{"type":"message","id":"r1","parentId":"u1","message":{"role":"toolResult","content":[oops]}}',
      assistant("a1", "r1", "", { toolCalls: [call("c1", "edit", { path: "e.ts", oldText: "1", newText: "2" })] }),
    ]);
    assert.ok(await quickReadTakes(path));
    const load = await openSession(path, { skim: true });
    const want = sessionTouches(load, "/w").map((t) => ({ ...t, sessionPath: path }));
    const got = withTexts((await readSessionTouches(path, "/w")).touches.map((t) => ({ ...t, sessionPath: path })));
    assert.deepEqual(got, want);
    assert.equal(got[0].prompt, "Start");
  });

  it("a last line without a newline: taken when it parses, left to the load when torn", async () => {
    const whole = [header({ cwd: "/w" }), ...turn(1, null), JSON.stringify(assistant("a2", "r1", "", { toolCalls: [call("c2", "write", { path: "t.ts", content: "t" })] }))];
    const ok = writeSession(whole, { trailingNewline: false });
    assert.ok(await quickReadTakes(ok));
    assert.ok((await sameAsFullRead(ok)) >= 3);
    const torn = writeSession([...whole.slice(0, -1), '{"type":"message","id":"a2","parentId":"r1","message":{"role":"assistant","content":[{"type":"toolCall","name":"write","arguments":{"path":"t.ts"'], { trailingNewline: false });
    assert.equal(await quickReadTakes(torn), false);
    await sameAsFullRead(torn);
  });

  it("the hostile session and a line longer than the read's buffer", async () => {
    const hostile = writeHostileSession().file;
    await sameAsFullRead(hostile);
    const big = "y".repeat(9 * 2 ** 20);
    const path = writeSession([header({ cwd: "/w" }), user("u1", null, "Big"), assistant("a1", "u1", big, { toolCalls: [call("c1", "write", { path: "big.ts", content: big })] }), ...turn(2, "a1")]);
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 3);
  });

  it("long texts are taken from their place in the line, not parsed: the cap counts their characters, not their bytes", async () => {
    const cap = TEXT_CAP;
    const texts = {
      // Over the cap: left out.
      over: "o".repeat(cap + 1),
      // At the cap in characters, twice that in bytes (two-byte characters, one-character escapes): kept.
      accents: "\u00e9".repeat(cap),
      escapes: "\n".repeat(cap),
      // A character past the BMP is two of JavaScript's: 2 x (cap / 2) characters, 4 x (cap / 2) bytes.
      astral: "\u{1f600}".repeat(cap / 2),
      // Long enough to be cut, with quotes and backslashes.
      quoted: 'say "hi" \\ '.repeat(50),
    };
    const calls = Object.entries(texts).map(([k, t]) => call(`c${k}`, "write", { path: `${k}.txt`, content: t }));
    const edit = call("ce", "edit", { path: "e.ts", edits: [{ oldText: texts.quoted, newText: texts.accents }, { oldText: "x", newText: texts.over }] });
    const path = writeSession([header({ cwd: "/w" }), user("u1", null, "Texts"), assistant("a1", "u1", texts.quoted, { thinking: texts.escapes, toolCalls: [...calls, edit] })]);
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 6);
    const touches = (await readSessionTouches(path, "/w")).touches;
    const byFile = new Map(touches.map((t) => [t.absolutePath, t]));
    assert.equal(byFile.get("/w/over.txt")?.newAt, undefined);
    assert.equal(byFile.get("/w/over.txt")?.newText, undefined);
    for (const k of ["accents", "escapes", "astral", "quoted"]) assert.ok(byFile.get(`/w/${k}.txt`)?.newAt, `${k}: placed`);
    const edits = touches.filter((t) => t.absolutePath === "/w/e.ts");
    assert.deepEqual(
      withTexts(edits.map((t) => ({ ...t, sessionPath: path }))).map((t) => [t.oldText, t.newText]),
      [
        [texts.quoted, texts.accents],
        ["x", undefined],
      ],
    );
  });

  it("short texts are kept as they are, long ones as their places, alike in the quick read and a whole load's", async () => {
    assert.ok(SHORT_TEXT_BYTES <= CUT_BYTES, "a text the quick read leaves in its line is never short");
    const texts = {
      // JSON strings a byte under SHORT_TEXT_BYTES and at it: kept, then placed.
      under: "u".repeat(SHORT_TEXT_BYTES - 3),
      at: "a".repeat(SHORT_TEXT_BYTES - 2),
      // Short, with what JSON escapes or writes in more bytes than one: kept when their JSON string is short.
      quote: 'say "hi"',
      accents: "\u00e9".repeat(10),
      accentsLong: "\u00e9".repeat(40),
      tab: "\t".repeat(40),
    };
    const calls = Object.entries(texts).map(([k, t]) => call(`c${k}`, "write", { path: `${k}.txt`, content: t }));
    const path = writeSession([header({ cwd: "/w" }), user("u1", null, "Texts"), assistant("a1", "u1", "", { toolCalls: calls })]);
    assert.ok(await quickReadTakes(path));
    const quick = (await readSessionTouches(path, "/w")).touches;
    const session = await openSession(path);
    const bytes = new SessionBytes(path);
    try {
      assert.deepEqual(quick, sessionTouches(session, "/w", placer(session.metas, bytes)), "the quick read keeps and places the texts a whole load does");
    } finally {
      bytes.close();
    }
    const kept = Object.fromEntries(quick.map((t) => [t.absolutePath.slice(3, -4), t.newText !== undefined ? "kept" : t.newAt ? "placed" : "none"]));
    assert.deepEqual(kept, { under: "kept", at: "placed", quote: "kept", accents: "kept", accentsLong: "placed", tab: "placed" });
  });

  it("a file read a chunk at a time: lines of every length across the chunks' ends, longer than the room kept for them, one longer than a chunk", async () => {
    const lines: Raw[] = [header({ cwd: "/w" })];
    let parent: string | null = null;
    // Results from a few bytes to 300 KB (the room before a chunk is 64 KB, a chunk 1 MB), one of 2.5 MB.
    const sizes = [10, 70_000, 300_000, 5, 65_530, 1_000, 2_500_000, 200_000, 64_000, 130_000];
    for (let k = 0; lines.length < 400; k++) {
      const turnLines = turn(k, parent);
      const size = sizes[k % sizes.length];
      turnLines[2] = toolResult(`r${k}`, `a${k}`, `c${k}`, "edit", `${k} `.padEnd(size, "x"));
      lines.push(...turnLines);
      parent = `r${k}`;
    }
    const path = writeSession(lines);
    assert.ok(statSync(path).size > 8 * 2 ** 20, "larger than one synchronous read");
    assert.ok(await quickReadTakes(path));
    assert.ok((await sameAsFullRead(path)) >= 250);
  });

  it("pi's own ids: lines found and leads read by the WebAssembly scan (line-leads.ts), in a small file, a chunked one and two reads at once, answer as a full read", async () => {
    const leads = lineLeads();
    assert.ok(leads, "WebAssembly SIMD is not available on this Node");
    let scans = 0;
    const scan = leads.scan.bind(leads);
    leads.scan = (buf, lo, hi) => (scans++, scan(buf, lo, hi));
    try {
      const hex = (k: number) => k.toString(16).padStart(8, "0");
      const session = (turns: number, size: (k: number) => number): string => {
        const lines: Raw[] = [header({ cwd: "/w" })];
        let parent: string | null = null;
        for (let k = 0; k < turns; k++) {
          const [u, a, r] = [hex(3 * k + 1), hex(3 * k + 2), hex(3 * k + 3)];
          lines.push(user(u, parent, `Prompt ${k}`));
          const edit = call(`c${k}`, k % 4 ? "edit" : "bash", k % 4 ? { path: `src/f${k % 7}.ts`, oldText: `old ${k}`, newText: `new ${k}` } : { command: "ls" });
          lines.push(assistant(a, u, k % 3 ? "" : "thinking it over", { toolCalls: [edit] }));
          lines.push(toolResult(r, a, `c${k}`, edit.name, `${k} `.padEnd(size(k), "x")));
          parent = r;
        }
        return writeSession(lines);
      };
      const small = session(300, (k) => 10 + (k % 50) * 37);
      const large = session(200, (k) => [10, 70_000, 65_530, 1_000, 130_000, 5][k % 6]);
      assert.ok(statSync(small).size < 2 ** 20 && statSync(large).size > 4 * 2 ** 20);
      assert.ok((await sameAsFullRead(small)) >= 200);
      const afterSmall = scans;
      assert.ok(afterSmall > 0, "the small file's lines were scanned");
      assert.ok((await sameAsFullRead(large)) >= 140);
      assert.ok(scans > afterSmall + 4, "the chunked file's lines were scanned");
      const [smallScans, largeScans] = [afterSmall, scans - afterSmall];
      // Three reads at once: they take turns with the module's area, each scanned there as it is alone.
      const before = scans;
      const [a, b, c] = await Promise.all([readSessionTouches(large, "/w"), readSessionTouches(large, "/w"), readSessionTouches(small, "/w")]);
      assert.equal(scans - before, 2 * largeScans + smallScans, "every read scanned in the area");
      assert.deepEqual(b.touches, a.touches);
      assert.deepEqual(c.touches, (await readSessionTouches(small, "/w")).touches);
      assert.ok(a.touches.length >= 140);
    } finally {
      delete (leads as { scan?: unknown }).scan;
    }
  });

  it("prompts with pi's own lead (the WebAssembly scan reads it) and a rest that escapes, goes past ASCII or changes what the lead said: as a full read", async () => {
    const hex = (k: number) => k.toString(16).padStart(8, "0");
    const lead = (k: number, parent: number) => `{"type":"message","id":"${hex(k)}","parentId":"${hex(parent)}","timestamp":"2026-01-01T00:00:0${k % 10}.000Z","message":{"role":"user","content":[`;
    // The rests of prompts' lines: plain, escaped and past ASCII, then rests that change the lead or are no JSON.
    const rests = [
      '{"type":"text","text":"Prompt one"}],"timestamp":1}}',
      '{"type":"text","text":"line\\none \\"quoted\\" caf\u00e9 \\ud83d\\ude00 é 😀"}],"timestamp":2}}',
      '{"type":"text","text":"  "},{"type":"image","data":"x"},{"type":"text","text":"second block"}]}}',
      '{"type":"text","text":"lone \\ud800 half"}],"timestamp":3}}',
      '{"type":"text","text":"role again"}],"role":"assistant"}}',
      '{"type":"text","text":"the message again"}]},"message":{"role":"user","content":[{"type":"text","text":"other"}]}}',
      '{"type":"text","text":"a member after"}]},"parentId":"00000001"}',
      '{"type":"text","text":"says \\"message\\" and message"}]}}',
      '{"type":"text","text":"the word"},{"type":"text","text":"message"}]}}',
      '{"type":"text","text":"type again"}]},"type":"custom"}',
    ];
    const lines: string[] = [JSON.stringify(header({ cwd: "/w" }))];
    let k = 1;
    for (const rest of rests) {
      const u = k++;
      lines.push(`${lead(u, u - 1 || u)}${rest}`);
      const a = k++;
      lines.push(JSON.stringify(assistant(hex(a), hex(u), "", { toolCalls: [call(`c${a}`, "edit", { path: `f${a}.ts`, oldText: "a", newText: "b" })] })));
      const r = k++;
      lines.push(JSON.stringify(toolResult(hex(r), hex(a), `c${a}`, "edit", "ok")));
    }
    const path = writeSession(lines);
    assert.ok(await quickReadTakes(path));
    const touches = (await readSessionTouches(path, "/w")).touches;
    assert.ok(touches.some((t) => t.prompt === "Prompt one") && touches.some((t) => t.prompt?.includes("café 😀")), JSON.stringify(touches.map((t) => t.prompt)));
    assert.equal(await sameAsFullRead(path), rests.length);
    // A rest that is no JSON: the load reports the line, and the read leaves the file to it.
    const bad = writeSession([...lines.slice(0, 4), `${lead(k, 3)}{"type":"text","text":"cut"}],}}`, ...lines.slice(4)]);
    assert.equal(await quickReadTakes(bad), false);
  });

  it("a file that is not pi's is never taken", async () => {
    const path = writeSession([{ type: "user", uuid: "x", parentUuid: null, message: { role: "user", content: "hi" } }]);
    assert.equal(await quickReadTakes(path), false);
    writeFileSync(path, "");
    assert.equal(await quickReadTakes(path), false);
  });
});
