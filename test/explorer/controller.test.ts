import { strict as assert } from "node:assert";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/core/formats/pi/pi-session";
import { ExplorerController, type ExplorerOptions } from "../../src/explorer/controller";
import { DISPLAY_LIMIT } from "../../src/explorer/entry-details";
import { type BarsMessage, isWebviewToHost, type Row } from "../../src/protocol";
import { assistant, entry, header, type Raw, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

const LONG = "x".repeat(DISPLAY_LIMIT + 1000);

/**
 * u1 ─┬─ a1 (reads README.md) ─ t1 ─ a2
 *     └─ u3 ─ a3 (a long answer) ─ l1 (labels a1; hidden by the default filter)
 * The default leaf is l1, the last line.
 */
function lines(cwd: string): Raw[] {
  return [
    header({ cwd }),
    user("u1", null, "please read the readme"),
    assistant("a1", "u1", "reading it", { toolCalls: [{ id: "call1", name: "read", arguments: { path: "README.md" } }] }),
    toolResult("t1", "a1", "call1", "read", "# Readme"),
    assistant("a2", "t1", "the readme is short"),
    user("u3", "u1", "try another approach"),
    assistant("a3", "u3", LONG),
    entry("label", "l1", "a3", { targetId: "a1", label: "checkpoint" }),
  ];
}

async function open(opts: Partial<ExplorerOptions> = {}, extra: Raw[] = []) {
  const cwd = tempDir();
  const file = writeSession([...lines(cwd), ...extra]);
  const session = await Session.load(file);
  const c = new ExplorerController(session, { trusted: () => true, ...opts });
  return { c, file, cwd, session };
}

const ids = (rows: Row[]) => rows.map((r) => r.id);
let rid = 0;
const req = { requestId: 0 };
const next = () => ({ requestId: ++rid });
/** Lets promise callbacks already due run (no waiting on time). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("explorer controller", () => {
  it("init: the session, its rows under the default filter and bars for the default leaf and the other branch", async () => {
    const { c, file } = await open();
    assert.equal(c.entriesTold, undefined);
    const init = c.init();
    assert.equal(init.type, "init");
    assert.equal(init.session.path, file);
    assert.equal(init.session.entryCount, 7);
    assert.equal(init.session.defaultLeafId, "l1");
    assert.equal(init.session.readOnly, false);
    assert.equal(init.filter, "default");
    assert.equal(init.rowCount, 6, "the label entry is hidden by the default filter");
    assert.deepEqual(
      init.bars.map((b) => [b.leafId, b.selected]),
      [
        ["l1", true],
        ["a2", false],
      ],
    );
    assert.equal(c.entriesTold, 7);
  });

  it("rows: a megabyte label is sent clipped with its length shown (issue 23), not whole with every page", async () => {
    const { c } = await open({}, [entry("label", "l2", "l1", { targetId: "a2", label: "L".repeat(1_000_000) })]);
    c.init();
    const rows = c.answer({ type: "rows", ...req, start: 0, count: 100 }).rows;
    const a2 = rows.find((r) => r.id === "a2");
    assert.ok(a2?.label, "a2 has its label");
    assert.ok(a2.label.length < 300, `a label of ${a2.label.length} characters sent`);
    assert.match(a2.label, /^L+…\(\+999,\d{3} chars\)$/);
  });

  it("rows: pages of the current view, the last one short, past the end empty", async () => {
    const { c } = await open();
    const all = c.answer({ type: "rows", ...req, start: 0, count: 100 });
    assert.deepEqual(ids(all.rows), ["u1", "a1", "t1", "a2", "u3", "a3"]);
    assert.equal(all.rowCount, 6);
    const u1 = all.rows[0];
    assert.equal(u1.childCount, 2);
    assert.equal(all.rows[1].label, "checkpoint");
    assert.deepEqual(
      all.rows.map((r) => r.onActivePath),
      [true, false, false, false, true, true],
    );
    const page = c.answer({ type: "rows", ...req, start: 4, count: 5 });
    assert.equal(page.start, 4);
    assert.deepEqual(ids(page.rows), ["u3", "a3"]);
    assert.deepEqual(c.answer({ type: "rows", ...req, start: 50, count: 5 }).rows, []);
  });

  it("filter: user messages only, then everything (the label entry too)", async () => {
    const { c } = await open();
    assert.deepEqual(c.answer({ type: "setFilter", ...next(), filter: "user" }), { rowCount: 2 });
    assert.deepEqual(ids(c.answer({ type: "rows", ...next(), start: 0, count: 10 }).rows), ["u1", "u3"]);
    assert.deepEqual(c.answer({ type: "setFilter", ...next(), filter: "all" }), { rowCount: 7 });
    assert.equal(c.filter, "all");
    assert.ok(ids(c.answer({ type: "rows", ...next(), start: 0, count: 10 }).rows).includes("l1"));
  });

  it("fold: a branch point hides its subtree and shows it again; the row says it is folded", async () => {
    const { c } = await open();
    assert.deepEqual(c.answer({ type: "toggleFold", ...next(), id: "u1" }), { rowCount: 1 });
    const rows = c.answer({ type: "rows", ...next(), start: 0, count: 10 }).rows;
    assert.deepEqual(ids(rows), ["u1"]);
    assert.equal(rows[0].folded, true);
    assert.deepEqual(c.answer({ type: "toggleFold", ...next(), id: "u1" }), { rowCount: 6 });
    assert.equal(c.answer({ type: "rows", ...next(), start: 0, count: 1 }).rows[0].folded, false);
  });

  it("search: row indexes by preview, label or id prefix, in the current view", async () => {
    const { c } = await open();
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "README" }), { matches: [0, 1, 2, 3] });
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "checkpoint" }), { matches: [1] });
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "u3" }), { matches: [4] });
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "" }), { matches: [] });
    c.answer({ type: "setFilter", ...next(), filter: "user" });
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "readme" }), { matches: [0] });
  });

  it("select: the newest leaf under the entry becomes active; bars and files follow its path", async () => {
    const { c, cwd } = await open();
    writeFileSync(join(cwd, "README.md"), "# Readme\n");
    const sel = c.answer({ type: "select", ...next(), id: "a1" });
    assert.equal(sel.rowIndex, 1);
    assert.equal(c.selectedLeaf, 3, "a2, the leaf under a1");
    const selected = sel.bars.find((b) => b.selected);
    assert.equal(selected?.leafId, "a2");
    assert.match(selected?.title ?? "", /^Selected branch/);
    assert.deepEqual(
      sel.files.map((f) => [f.path, f.read, f.openable]),
      [["README.md", 1, true]],
    );
    const rows = c.answer({ type: "rows", ...next(), start: 0, count: 10 }).rows;
    assert.equal(rows.find((r) => r.isActiveLeaf)?.id, "a2");
    // l1, the default leaf, is a label entry the filter hides: its parent carries the marker, as in pi's /tree.
    assert.equal(rows.find((r) => r.isDefaultLeaf)?.id, "a3");
    // The other branch has no file: nothing offered there.
    assert.deepEqual(c.answer({ type: "select", ...next(), id: "u3" }).files, []);
  });

  it("timeline: the context size at every step of the asked leaf's path; a step picked with keepLeaf keeps that branch", async () => {
    const { c, session } = await open();
    const t = c.answer({ type: "timeline", ...next(), leafId: "a2" });
    assert.equal(t.leafId, "a2");
    assert.deepEqual(t.points.map((p) => [p.entryId, p.source, p.tokens]), [["a1", "recorded", 120], ["a2", "recorded", 120]]);
    assert.ok(t.window > t.threshold && t.threshold > 0);
    assert.throws(() => c.answer({ type: "timeline", ...next(), leafId: "nope" }), /no entry with id "nope"/);
    // The panel asks through answerAsync: the same timeline, computed in slices.
    assert.deepEqual(await c.answerAsync({ type: "timeline", ...next(), leafId: "a2" }), t);
    await assert.rejects(c.answerAsync({ type: "timeline", ...next(), leafId: "nope" }), /no entry with id "nope"/);
    assert.deepEqual(await c.answerAsync({ type: "search", ...next(), query: "u3" }), { matches: [4] });
    // u1 has two branches: picked from the chart of a3's branch, a3 stays the active leaf.
    c.answer({ type: "select", ...next(), id: "u1", keepLeaf: "a3" });
    assert.equal(c.selectedLeaf, session.requireIndex("a3"));
    // Without it (or with a leaf not below the entry) the newest leaf under the entry wins.
    c.answer({ type: "select", ...next(), id: "a1", keepLeaf: "a3" });
    assert.equal(c.selectedLeaf, session.requireIndex("a2"));
    // What the host lets in: a string leaf id of sane length; keepLeaf a string when given.
    assert.equal(isWebviewToHost({ type: "timeline", requestId: 1, leafId: "a2" }), true);
    assert.equal(isWebviewToHost({ type: "timeline", requestId: 1, leafId: 7 }), false);
    assert.equal(isWebviewToHost({ type: "timeline", requestId: 1, leafId: "x".repeat(201) }), false);
    assert.equal(isWebviewToHost({ type: "select", requestId: 1, id: "u1", keepLeaf: "a3" }), true);
    assert.equal(isWebviewToHost({ type: "select", requestId: 1, id: "u1", keepLeaf: {} }), false);
  });

  it("reveal: selects the entry and shows its row, unfolding branch points above it and widening the filter only as far as needed", async () => {
    const { c, session } = await open();
    c.init();
    assert.equal(c.selectedEntry, undefined);
    // t1 sits under a1; fold u1 (its branch point) and narrow the filter to user messages.
    c.answer({ type: "toggleFold", ...next(), id: "u1" });
    c.answer({ type: "setFilter", ...next(), filter: "user" });
    const r = c.answer({ type: "reveal", ...next(), id: "t1" });
    assert.deepEqual(r.unfolded, ["u1"]);
    assert.equal(r.filter, "default", "conversation is wide enough for a tool result");
    assert.equal(r.rowCount, c.rowCount);
    const rows = c.answer({ type: "rows", ...next(), start: 0, count: 100 }).rows;
    assert.equal(rows[r.rowIndex].id, "t1");
    assert.equal(c.selectedEntry, "t1");
    assert.equal(c.selectedLeaf, session.requireIndex("a2"));
    assert.ok(r.bars.some((b) => b.selected && b.leafId === "a2"));
    assert.deepEqual(r.files.map((f) => f.path), ["README.md"]);
    // The label entry shows only under "all"; an entry already shown changes nothing.
    const l = c.answer({ type: "reveal", ...next(), id: "l1" });
    assert.equal(l.filter, "all");
    assert.equal(c.answer({ type: "rows", ...next(), start: l.rowIndex, count: 1 }).rows[0].id, "l1");
    const again = c.answer({ type: "reveal", ...next(), id: "u3" });
    assert.deepEqual([again.filter, again.unfolded], ["all", []]);
    assert.equal(c.selectedEntry, "u3");
    assert.throws(() => c.answer({ type: "reveal", ...next(), id: "nope" }), /no entry with id "nope"/);
    assert.equal(isWebviewToHost({ type: "reveal", requestId: 1, id: "u1" }), true);
    assert.equal(isWebviewToHost({ type: "reveal", requestId: 1, id: 3 }), false);
    assert.equal(isWebviewToHost({ type: "reveal", id: "u1" }), false);
  });

  it("files: only an offered path may be opened; one deleted since is missing; a workspace folder is searched too", async () => {
    const { c, cwd } = await open();
    assert.deepEqual(c.fileToOpen("README.md"), { kind: "notOffered" });
    c.answer({ type: "select", ...next(), id: "a2" });
    assert.deepEqual(c.fileToOpen("README.md"), { kind: "notOffered" }, "not openable when listed: not offered");
    writeFileSync(join(cwd, "README.md"), "# Readme\n");
    c.answer({ type: "select", ...next(), id: "a2" });
    assert.deepEqual(c.fileToOpen("README.md"), { kind: "open", path: join(cwd, "README.md") });
    assert.deepEqual(c.fileToOpen("/etc/hostname"), { kind: "notOffered" });
    rmSync(join(cwd, "README.md"));
    assert.deepEqual(c.fileToOpen("README.md"), { kind: "missing" });

    const folder = tempDir();
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "README.md"), "elsewhere\n");
    const { c: c2 } = await open({ folders: () => [folder] });
    assert.equal(c2.answer({ type: "select", ...next(), id: "a2" }).files[0].openable, true);
    assert.deepEqual(c2.fileToOpen("README.md"), { kind: "open", path: join(folder, "README.md") });
  });

  it("details: blocks, metadata and label; a long block is cut unless fullBlock asks for it", async () => {
    const { c } = await open();
    const a1 = c.answer({ type: "details", ...next(), id: "a1" });
    assert.equal(a1.id, "a1");
    assert.equal(a1.kind, "assistant");
    assert.equal(a1.typeLabel, "Tool call");
    assert.equal(a1.typeName, "assistant");
    assert.equal(a1.label, "checkpoint");
    assert.deepEqual(
      a1.blocks.map((b) => b.kind),
      ["text", "toolCall"],
    );
    assert.ok(a1.meta.some(([k, v]) => k === "parent" && v === "u1"));
    const cut = c.answer({ type: "details", ...next(), id: "a3" });
    assert.equal(cut.blocks[0].text?.length, DISPLAY_LIMIT);
    assert.equal(cut.blocks[0].fullLength, LONG.length);
    const full = c.answer({ type: "details", ...next(), id: "a3", fullBlock: 0 });
    assert.equal(full.blocks[0].text, LONG);
    assert.equal(full.blocks[0].fullLength, undefined);
  });

  it("ids from the webview: an unknown one fails clearly (file, id quoted, cut and marked) and changes nothing", async () => {
    const { c, file } = await open();
    c.answer({ type: "select", ...next(), id: "a1" });
    const before = { rows: c.answer({ type: "rows", ...next(), start: 0, count: 10 }), leaf: c.selectedLeaf };
    const hostile = `nope\u202e${"z".repeat(150)}`;
    for (const type of ["details", "select", "toggleFold"] as const) {
      assert.throws(
        () => c.answer({ type, ...next(), id: hostile }),
        (err: Error) => {
          assert.ok(err.message.startsWith(`${file}: no entry with id "nope⟨U+202E⟩zzz`), err.message);
          assert.ok(err.message.endsWith(`…"`), "the id is cut");
          assert.ok(err.message.length < file.length + 120);
          return true;
        },
        type,
      );
    }
    assert.deepEqual(c.answer({ type: "rows", ...next(), start: 0, count: 10 }), before.rows);
    assert.equal(c.selectedLeaf, before.leaf);
  });

  it("actions: allowed on a known entry; writing ones refused on a read-only session; unknown entries refused", async () => {
    let trusted = true;
    const { c, file } = await open({ trusted: () => trusted });
    for (const action of ["fork", "continue", "label", "previewContext", "compact"] as const) assert.equal(c.actionRefusal({ action, id: "a1" }), undefined, action);
    assert.match(c.actionRefusal({ action: "fork", id: "gone" }) ?? "", new RegExp(`^fork on entry "gone" of ${file}: no such entry`));
    trusted = false;
    assert.equal(c.init().session.readOnly, true, "trust is asked each time");
    for (const action of ["continue", "label", "compact"] as const) assert.match(c.actionRefusal({ action, id: "a1" }) ?? "", /the workspace is not trusted/, action);
    assert.deepEqual(Object.keys(c.init().session.unavailable).sort(), ["compact", "continue", "label"]);
    for (const action of ["fork", "previewContext"] as const) assert.equal(c.actionRefusal({ action, id: "a1" }), undefined, action);

    // A version 2 session is read-only even when trusted.
    const v2 = await Session.load(writeSession([header({ version: 2 }), user("u1", null, "hi")]));
    const old = new ExplorerController(v2, { trusted: () => true });
    assert.equal(old.init().session.readOnly, true);
    assert.match(old.actionRefusal({ action: "label", id: "u1" }) ?? "", /a version 2 session: pi writes version 3 files only/);
    assert.equal(old.actionRefusal({ action: "fork", id: "u1" }), undefined, "an old session can be forked (into a version 3 one)");
  });

  it("refresh after an append: the webview is told what was added, follows the default leaf, and nothing twice", async () => {
    const { c, file, session } = await open();
    // Before init the webview needs no message, but the rows follow.
    appendFileSync(file, `${JSON.stringify(user("u4", "l1", "one more"))}\n`);
    await session.refresh();
    assert.equal(c.sessionChanged({ followDefault: true }), undefined);
    assert.equal(c.rowCount, 7);
    c.init();
    c.answer({ type: "select", ...next(), id: "a1" });
    appendFileSync(file, `${JSON.stringify(assistant("a4", "u4", "and an answer"))}\n${JSON.stringify(user("u5", "a4", "thanks"))}\n`);
    await session.refresh();
    const msg = c.sessionChanged({ followDefault: true });
    assert.ok(msg);
    assert.equal(msg.added, 2);
    assert.equal(msg.session.entryCount, 10);
    assert.equal(msg.session.defaultLeafId, "u5");
    assert.equal(msg.rowCount, 9);
    assert.equal(c.selectedLeaf, undefined, "the default leaf is active again");
    assert.equal(msg.bars.find((b) => b.selected)?.leafId, "u5");
    assert.equal(c.answer({ type: "rows", ...next(), start: 0, count: 20 }).rows.find((r) => r.isActiveLeaf)?.id, "u5");
    // A refresh that found nothing new: no message.
    await session.refresh();
    assert.equal(c.sessionChanged({ followDefault: true }), undefined);
    // After a first look the rest always ends with a message (it ends "reading the rest").
    assert.equal(c.sessionChanged({ followDefault: false })?.added, 0);
  });

  it("restore and reload: the webview's saved filter and folds apply; a reloaded session keeps them", async () => {
    const { c, file } = await open({}, []);
    c.restore({ filter: "all", folded: ["u3", "not-an-id"] });
    assert.equal(c.rowCount, 5, "u1, a1, t1, a2 and the folded u3");
    assert.equal(c.init().filter, "all");
    // The file was rewritten: a new load of it replaces the session.
    writeSession(lines("/elsewhere").slice(0, 5), { dir: join(file, ".."), name: "session.jsonl" });
    c.setSession(await Session.load(file));
    assert.equal(c.session.metas.length, 4);
    assert.equal(c.filter, "all");
    assert.equal(c.rowCount, 4);

    const restored = new ExplorerController(c.session, { trusted: () => true }, { filter: "user", folded: [] });
    assert.equal(restored.init().rowCount, 1);
  });

  it("exact counts: run in the background, post better bars when done, count only what is new after an append, stop on dispose", async () => {
    const calls: Array<{ indices: number[] | undefined; signal: AbortSignal }> = [];
    const posted: BarsMessage[] = [];
    let finish: () => void = () => undefined;
    const { c, file, session } = await open({
      post: (m) => posted.push(m),
      countExact: (s, table, indices, signal) => {
        calls.push({ indices, signal });
        return new Promise<void>((resolve) => {
          finish = () => {
            for (const i of indices ?? table.map((_, k) => k)) table[i].measured = true;
            resolve();
          };
        });
      },
    });
    assert.equal(calls.length, 1);
    assert.equal(calls[0].indices, undefined, "all entries at first");
    c.init();
    finish();
    await settled();
    assert.equal(posted.length, 1);
    assert.equal(posted[0].type, "bars");
    appendFileSync(file, `${JSON.stringify(user("u4", "l1", "one more"))}\n`);
    await session.refresh();
    c.sessionChanged({ followDefault: true });
    assert.deepEqual(calls[1].indices, [7], "only the new entry");
    c.dispose();
    assert.equal(calls[1].signal.aborted, true);
    finish();
    await settled();
    assert.equal(posted.length, 1, "a stopped run posts nothing");
  });

  it("a failed count is logged, not posted", async () => {
    const warned: string[] = [];
    const posted: BarsMessage[] = [];
    await open({ post: (m) => posted.push(m), log: { warn: (m) => warned.push(m) }, countExact: async () => Promise.reject(new Error("tokenizer gone")) });
    await settled();
    assert.deepEqual(warned, ["exact token counts stopped: tokenizer gone"]);
    assert.deepEqual(posted, []);
  });

  // Each assistant step of lines(): 100 input + 20 output tokens of claude-sonnet-4-5, no recorded cost: $0.0006 at list price.
  const STEP = (100 * 3 + 20 * 15) / 1e6;
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

  it("cost: init carries the session's cost (every branch) and each bar its branch's", async () => {
    const { c } = await open();
    const init = c.init();
    assert.equal(init.cost.steps, 3);
    assert.equal(init.cost.pricedSteps, 3);
    assert.equal(init.cost.recordedSteps, 0);
    near(init.cost.usd, 3 * STEP, "total");
    assert.deepEqual(init.cost.unpricedModels, []);
    const bars = Object.fromEntries(init.bars.map((b) => [b.leafId, b.cost]));
    assert.deepEqual(bars.l1 && [bars.l1.steps, bars.l1.unpricedSteps], [1, 0]);
    near(bars.l1?.usd ?? -1, STEP, "l1: a3 only");
    near(bars.a2?.usd ?? -1, 2 * STEP, "a2: a1 and a2");
  });

  it("cost: an unpriced model is counted apart and named; a price from the setting prices it; an append adds to it", async () => {
    let prices = {};
    const extra = [assistant("a4", "l1", "from a local model", { model: "local-llama", usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 } })];
    const { c, file, session } = await open({ prices: () => prices }, extra);
    const init = c.init();
    near(init.cost.usd, 3 * STEP, "the local step is not in the total");
    assert.equal(init.cost.unpricedSteps, 1);
    assert.equal(init.cost.unpricedTokens, 1100);
    assert.deepEqual(init.cost.unpricedModels, ["local-llama"]);
    assert.equal(init.bars.find((b) => b.leafId === "a4")?.cost?.unpricedSteps, 1);
    prices = { "local-": { input: 1, output: 10, cacheWrite: 0, cacheRead: 0 } };
    const changed = c.costChanged();
    assert.equal(changed.type, "cost");
    assert.equal(changed.cost.unpricedSteps, 0);
    near(changed.cost.usd, 3 * STEP + (1000 + 100 * 10) / 1e6, "priced by the setting");
    near(changed.bars.find((b) => b.leafId === "a4")?.cost?.usd ?? -1, STEP + (1000 + 100 * 10) / 1e6, "a4's branch: a3 and a4");
    appendFileSync(file, `${JSON.stringify(assistant("a5", "a4", "more", { model: "claude-sonnet-4-5" }))}\n`);
    await session.refresh();
    const msg = c.sessionChanged({ followDefault: true });
    assert.equal(msg?.cost.steps, 5);
    near(msg?.cost.usd ?? -1, 4 * STEP + (1000 + 100 * 10) / 1e6, "after the append");
  });
});
