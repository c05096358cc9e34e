import { strict as assert } from "node:assert";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { detectFormat, formatOf, openSession, readFirstLines } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import type { EntryAction, Row } from "../../src/protocol";
import { FakeAnthropic } from "../compaction/fake-anthropic";
import { header, user, writeSession } from "../helpers/session-builder";
import { longSeed000 } from "./long-seed000";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * The two formats beside pi (seed-000 and the "clawdcode" store of seed 002) in the real
 * extension host: sessions view, explorer, bars, preview, fork, compaction, refusals.
 * Every file is a copy in a temp dir or the runner's throwaway CLAWDCODE_DIR; the repo's
 * fixtures (test/fixtures/<format>/) are only read.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const agentDir = process.env.PI_CODING_AGENT_DIR as string;
const clawdDir = process.env.CLAWDCODE_DIR as string;
const FAKE_SUMMARY = "## Goal\nSummary written by the fake server for the clawdcode suite.";

let sharedNotRun = 0;

/**
 * The seed fixtures in ../shared beside the extension (never copied into the project):
 * a test that needs them is NOT RUN (and said so) when they are missing, a failure under CI.
 */
function needShared(ctx: Mocha.Context, shared: string, ...paths: string[]): void {
  if (paths.every((p) => existsSync(join(shared, p)))) return;
  if (process.env.CI) throw new Error(`seed fixtures missing under ${shared} (CI must have ../shared)`);
  sharedNotRun++;
  ctx.skip();
}

/** The store folder of a cwd: only "/" becomes "-" (claude-code-format.md 15.2). */
const storeFolder = (cwd: string) => join(clawdDir, "projects", cwd.replace(/\//g, "-"));

/** What a webview would post, sent straight to the panel's message handler. */
const post = (panel: ExplorerPanel, m: unknown) => (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage(m);

/** The messages of the default leaf's context, as the format builds them. */
function defaultContext(s: SessionReader): unknown[] {
  const f = formatOf(s);
  return f.context(s, f.defaultLeaf(s)).messages.map((m) => m.message);
}

interface FormatCase {
  format: string;
  agent: string;
  /** A fresh copy of the format's fixture, for this test alone. */
  copy(name: string): string;
  toolCall: string;
  toolResult: string;
  /** A tool result that failed. */
  failedResult: string;
  /** What the details of the tool call show (its name and input). */
  callShows: RegExp[];
  /** What the details of the failed result show. */
  errorShows: RegExp;
  /** An entry mid-path to fork at. */
  forkAt: string;
  unavailable: EntryAction[];
}

describe("The seed-000 and clawdcode formats in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let fixtures: string;
  let work: string;
  let fake: FakeAnthropic;
  const opened: string[] = [];

  const SEED: FormatCase = {
    format: "seed-000",
    agent: "Seed 000",
    copy: (name) => {
      const to = join(work, `${name}.jsonl`);
      copyFileSync(join(fixtures, "seed-000", "branchy.jsonl"), to);
      return to;
    },
    toolCall: "c1",
    toolResult: "r1",
    failedResult: "r2",
    callShows: [/^Grep "lex\(" in test\/$/m, /lex\(/],
    errorShows: /Error: npm exited with code 1/,
    forkAt: "r3",
    unavailable: ["label", "continue", "compact"],
  };
  const CLAWD_ID = (n: number) => `33333333-0000-4000-8000-${String(n).padStart(12, "0")}`;
  const CLAWD: FormatCase = {
    format: "clawdcode",
    agent: "ClawdCode",
    copy: (name) => {
      // In the store, under the fixture's cwd (/home/ana/app), named like a session id.
      const dir = storeFolder("/home/ana/app");
      mkdirSync(dir, { recursive: true });
      const to = join(dir, `c1a0ffff-${name.replace(/\W/g, "").slice(0, 4).padEnd(4, "0")}-4000-8000-${Date.now().toString(16).padStart(12, "0").slice(-12)}.jsonl`);
      copyFileSync(join(fixtures, "clawdcode", "branches-compaction.jsonl"), to);
      return to;
    },
    toolCall: CLAWD_ID(2),
    toolResult: CLAWD_ID(8),
    failedResult: CLAWD_ID(3),
    callShows: [/^\$ npm run build$/m, /npm run build/],
    errorShows: /exit 2: cannot find module \.\/config/,
    forkAt: CLAWD_ID(7),
    unavailable: ["label", "continue"],
  };

  const open = (file: string): Promise<ExplorerPanel> => openPanel(api, file, opened);

  const allRows = (panel: ExplorerPanel): Promise<Row[]> => panelRows(panel, "all");

  before(async () => {
    assert.ok(agentDir, "PI_CODING_AGENT_DIR must be set by the runner");
    assert.ok(clawdDir, "CLAWDCODE_DIR must be set by the runner (test/extension/run.mjs)");
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    fixtures = join(ext.extensionPath, "test", "fixtures");
    work = mkdtempSync(join(tmpdir(), "ase-formats-"));
    // The clawdcode store: the repo's small store (two sessions and junk to skip), copied.
    cpSync(join(fixtures, "clawdcode", "store", "projects"), join(clawdDir, "projects"), { recursive: true });
    // A pi session beside them, in pi's own store.
    const piDir = join(agentDir, "sessions", projectDirName("/home/ana/pi-side"));
    mkdirSync(piDir, { recursive: true });
    writeSession([header({ cwd: "/home/ana/pi-side" }), user("00000001", null, "a pi session beside the others")], { dir: piDir, name: "2026-02-01T00-00-00-000Z_pi-side.jsonl" });
    fake = await FakeAnthropic.start([], { apiKey: "test-key", fallback: { kind: "message", text: FAKE_SUMMARY } });
    const cfg = vscode.workspace.getConfiguration("agentSessions");
    await cfg.update("anthropicBaseUrl", fake.url, vscode.ConfigurationTarget.Global);
    await cfg.update("summaryModel", "claude-test-model", vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("agentSessions.setApiKey", "test-key");
  });

  after(async () => {
    for (const f of opened) {
      const panel = api?.panelFor(f);
      if (panel) panel.panel.dispose();
    }
    await fake?.close();
    if (sharedNotRun) console.log(`\n  NOTE: ${sharedNotRun} formats test(s) NOT RUN: ../shared/fixtures (seed-000, seed-002) not found beside the extension\n`);
  });

  it("the sessions view lists the clawdcode store beside pi's sessions: project from the lines, agent named, fork and compact offered, not label", async () => {
    await api.sessionsView.refresh();
    const projects = await api.sessionsView.getChildren();
    const cwds = projects.map((p) => (p.kind === "project" ? p.group.cwd : ""));
    // The folder "-home-ana-my-app" would read back as /home/ana/my/app: the cwd comes from the lines.
    for (const cwd of ["/home/ana/my-app", "/srv/api", "/home/ana/pi-side"]) assert.ok(cwds.includes(cwd), `no project ${cwd} in: ${cwds.join(", ")}`);
    assert.ok(!cwds.includes("/home/ana/my/app"));
    const sessionsOf = async (cwd: string) => {
      const node = projects.find((p) => p.kind === "project" && p.group.cwd === cwd);
      return api.sessionsView.getChildren(node);
    };
    const mine = await sessionsOf("/home/ana/my-app");
    // Only the one real session: the junk files beside it (*.bad.jsonl, README.txt) are skipped.
    assert.equal(mine.length, 1, `sessions: ${mine.map((n) => (n.kind === "session" ? n.session.path : "")).join(", ")}`);
    const item = api.sessionsView.getTreeItem(mine[0]);
    assert.match(String(item.description), /^ClawdCode · .* · 4 entries · /);
    assert.equal(item.contextValue, "session.fork.compact");
    assert.equal(item.command?.command, "agentSessions.openSession");
    const [pi] = await sessionsOf("/home/ana/pi-side");
    const piItem = api.sessionsView.getTreeItem(pi);
    assert.match(String(piItem.description), /^pi · /);
    assert.equal(piItem.contextValue, "session.fork.compact.label");
    // A session that starts with a compact boundary: its title is the first real user message, not the summary.
    const [api2] = await sessionsOf("/srv/api");
    assert.ok(api2.kind === "session" && !/^\[Summary\]/.test(String(api.sessionsView.getTreeItem(api2).label)));
  });

  it("a new clawdcode session appears in the view by itself", async () => {
    const file = CLAWD.copy("appear");
    await until("the new session in the view", async () => {
      const projects = await api.sessionsView.getChildren();
      const node = projects.find((p) => p.kind === "project" && p.group.cwd === "/home/ana/app");
      if (!node) return false;
      return (await api.sessionsView.getChildren(node)).some((n) => n.kind === "session" && n.session.path === file);
    }, 5_000);
  });

  for (const fc of [SEED, CLAWD]) {
    describe(`${fc.format}`, () => {
      it("the explorer shows rows in the neutral kinds, details of a tool call and its result, recorded bars and the session info", async () => {
        const file = fc.copy("explore");
        const panel = await open(file);
        await until("the webview to request rows", () => panel.stats.rowsServed > 0, 30_000);
        const rows = await allRows(panel);
        assert.equal(rows.length, panel.session?.metas.length, "every entry has a row under the 'all' filter");
        const kinds = new Set(rows.map((r) => r.kind));
        for (const k of ["user", "assistant", "tool-call", "tool-result"]) assert.ok(kinds.has(k as Row["kind"]), `no ${k} row: ${[...kinds].join(", ")}`);
        const byId = new Map(rows.map((r) => [r.id, r]));
        assert.equal(byId.get(fc.toolCall)?.kind, "tool-call");
        assert.equal(byId.get(fc.toolCall)?.typeLabel, "Tool call");
        assert.equal(byId.get(fc.toolCall)?.typeName, fc.format === "seed-000" ? "tool_call" : "tool_use");
        assert.equal(byId.get(fc.failedResult)?.isError, true, "the failed tool result is marked");
        assert.ok(!byId.get(fc.toolResult)?.isError);

        // The pane shows a tool call as a toolCall block (titled by its tool) and a failed result as an error block.
        const call = await panel.answer({ type: "details", requestId: 0, id: fc.toolCall });
        assert.equal(call.kind, "tool-call");
        assert.equal(call.id, fc.toolCall);
        assert.deepEqual(call.blocks.map((b) => b.kind), ["toolCall"]);
        const callText = call.blocks.map((b) => `${b.title ?? ""}\n${b.text ?? ""}`).join("\n");
        for (const re of fc.callShows) assert.match(callText, re);
        const result = await panel.answer({ type: "details", requestId: 0, id: fc.failedResult });
        assert.equal(result.kind, "tool-result");
        assert.equal(result.typeLabel, "Tool result");
        assert.equal(result.typeName, "tool_result");
        assert.deepEqual(result.blocks.map((b) => [b.kind, b.isError]), [["toolResult", true]]);
        assert.match(result.blocks.map((b) => b.text ?? "").join("\n"), fc.errorShows);
        assert.ok(result.line > 0);

        const info = panel.sessionInfo();
        assert.ok(info);
        assert.equal(info.agent, fc.agent);
        assert.equal(info.format, fc.format);
        assert.equal(info.version, undefined, "no pi version");
        // "read-only": nothing writes to this very file (a fork writes a new one): seed-000 only.
        assert.equal(info.readOnly, fc.format === "seed-000");
        assert.deepEqual(Object.keys(info.unavailable).sort(), [...fc.unavailable].sort());
        for (const a of fc.unavailable) assert.ok((info.unavailable[a] ?? "").length > 10, `${a}: no reason given`);
        const s = panel.session as SessionReader;
        const def = formatOf(s).defaultLeaf(s);
        assert.equal(info.defaultLeafId, s.metas[def].id);

        const sel = await panel.answer({ type: "select", requestId: 0, id: s.metas[def].id });
        assert.ok(sel.rowIndex >= 0);
        assert.ok(sel.bars.length > 0);
        const bar = sel.bars.find((b) => b.leafId === s.metas[def].id);
        assert.ok(bar, `no bar for the default leaf: ${JSON.stringify(sel.bars)}`);
        assert.ok(bar.total > 0);
        assert.equal(bar.source, "recorded", "the leaf's line holds usage");
        assert.ok(Object.values(bar.byKind).some((n) => (n ?? 0) > 0));
        assert.equal(panel.stats.errors, 0);
      });

      it("Preview Context renders the context natively, as an Anthropic request and as XML", async () => {
        const file = fc.copy("preview");
        const requests = fake.requests.length;
        const s = await openSession(file);
        const expected = defaultContext(s);
        for (const fmt of ["pi", "anthropic", "xml"] as const) {
          const res = (await vscode.commands.executeCommand("agentSessions.previewContext", vscode.Uri.file(file), undefined, fmt, "none")) as { uri: vscode.Uri; request: Record<string, unknown> };
          const doc = await until(`the ${fmt} preview`, () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === res.uri.toString()));
          const text = doc.getText();
          // The session by its title, the path at the end.
          assert.ok(text.startsWith(`// Context ${fc.agent} sends for leaf ${s.metas[formatOf(s).defaultLeaf(s)].id} of '`) && text.split("\n")[0].endsWith(` (${file})`), text.slice(0, 200));
          assert.match(text, new RegExp(`// Format: ${fmt === "pi" ? "native" : fmt}\\.`));
          if (fmt === "pi") {
            assert.deepEqual(res.request.messages, expected);
            // seed-000's messages are checked against the golden written from the rules apart from src/.
            if (fc.format === "seed-000") {
              const golden = JSON.parse(readFileSync(join(fixtures, "seed-000", "branchy.golden.json"), "utf8")) as { defaultLeaf: string; leaves: Record<string, { messages: unknown[] }> };
              assert.deepEqual(res.request.messages, golden.leaves[golden.defaultLeaf].messages);
            }
          }
          else if (fmt === "anthropic") {
            const msgs = res.request.messages as Array<{ role: string }>;
            assert.ok(msgs.length > 0 && msgs.every((m) => m.role === "user" || m.role === "assistant"));
          } else {
            assert.ok(JSON.stringify(res.request).includes("<"), "an XML rendering");
          }
        }
        assert.equal(fake.requests.length, requests, "a preview asks nothing of the API");
      });

      it("Fork writes a new file of the same format whose context is the source's at that entry; the source is untouched", async () => {
        const file = fc.copy("fork");
        const before = readFileSync(file);
        const forked = (await vscode.commands.executeCommand("agentSessions.forkSession", vscode.Uri.file(file), fc.forkAt)) as string;
        assert.equal(typeof forked, "string");
        assert.notEqual(forked, file);
        assert.ok(readFileSync(file).equals(before), "the source changed");
        assert.equal(detectFormat(readFirstLines(forked)).id, fc.format);
        const a = await openSession(forked);
        const b = await openSession(file);
        assert.equal(a.formatId, fc.format);
        const fb = formatOf(b);
        assert.deepEqual(defaultContext(a), fb.context(b, b.requireIndex(fc.forkAt)).messages.map((m) => m.message));
        assert.equal(a.metas[formatOf(a).defaultLeaf(a)].id, fc.forkAt);
      });

      it("an action the format does not offer, sent from the webview, is refused with its reason; nothing is written", async () => {
        const file = fc.copy("refuse");
        const requests = fake.requests.length;
        const panel = await open(file);
        const before = readFileSync(file);
        const editors = vscode.workspace.textDocuments.length;
        const id = (panel.session as SessionReader).metas[0].id;
        const unavailable = panel.sessionInfo()?.unavailable ?? {};
        for (const action of fc.unavailable) {
          const notices = panel.stats.lastNotice;
          // Label would wait in an input box if it ran: refused, the message is handled at once.
          await post(panel, { type: "action", action, id });
          assert.notEqual(panel.stats.lastNotice, notices, `${action}: no notice`);
          assert.equal(panel.stats.lastNotice, `${action} on entry "${id}" of ${file}: ${unavailable[action]}`);
        }
        assert.ok(readFileSync(file).equals(before), "the session file changed");
        assert.equal(vscode.workspace.textDocuments.length, editors, "an editor was opened");
        assert.equal(fake.requests.length, requests, "a refused action asked the API");
      });
    });
  }

  it("seed-000: Preview Context with truncate and smart says which messages the agent keeps (a dry run: no request)", async () => {
    const file = join(work, "long.jsonl");
    const requests = fake.requests.length;
    const { ids } = longSeed000(file);
    assert.equal(ids.length, 72);
    const s = await openSession(file);
    const all = defaultContext(s);
    const preview = async (strategy: string) => {
      const res = (await vscode.commands.executeCommand("agentSessions.previewContext", vscode.Uri.file(file), undefined, "pi", strategy)) as { uri: vscode.Uri; request: { messages: Array<{ role: string; content: unknown }> } };
      const doc = await until(`the ${strategy} preview`, () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === res.uri.toString()));
      return { text: doc.getText(), messages: res.request.messages };
    };
    const truncate = await preview("truncate");
    assert.match(truncate.text, /\/\/ Strategy: truncate \(dry run: nothing called\)\. keeps 50, summarizes 0, drops 22 of 72 messages\./);
    assert.match(truncate.text, /\/\/ Kept: #23-#72 \(s023\.\.s072\)\./);
    assert.deepEqual(truncate.messages, all.slice(22));

    const smart = await preview("smart");
    // Kept: the six tool calls and their results (tool_use in their JSON) and the four long answers.
    const m = /\/\/ Strategy: smart \(dry run: nothing called\)\. keeps (\d+), summarizes (\d+), drops 0 of 72 messages\./.exec(smart.text);
    assert.ok(m, smart.text.slice(0, 800));
    assert.equal(Number(m[1]), 12 + 4);
    assert.equal(Number(m[2]), 72 - 16);
    assert.match(smart.text, /\/\/ Kept: #2-#3 \(s002\.\.s003\), .*\(tool-use 12, long 4\)\./);
    assert.equal(smart.messages.length, 1 + 16);
    assert.equal(smart.messages[0].role, "user");
    assert.match(String(smart.messages[0].content), /^\[Conversation summary\]\n\(the agent's summary of 56 messages/);
    assert.match(smart.text, /placeholder/);
    assert.equal(fake.requests.length, requests, "a dry run asked the API");
  });

  it("clawdcode: Compact (fake Anthropic) appends boundary, summary and kept lines; the explorer shows the boundary and the context starts with the summary", async () => {
    const dir = storeFolder("/home/ana/my-app");
    const file = join(dir, "c1a0cccc-0000-4000-8000-00000000c0c0.jsonl");
    copyFileSync(join(fixtures, "clawdcode", "store", "projects", "-home-ana-my-app", "c1a00001-0000-4000-8000-000000000001.jsonl"), file);
    const panel = await open(file);
    const lastBefore = (panel.session as SessionReader).metas.at(-1)?.id;
    assert.ok(!(await allRows(panel)).some((r) => r.kind === "boundary"));
    const before = readFileSync(file);
    const requests = fake.requests.length;

    // The dry run says what would happen and writes nothing.
    const dry = (await vscode.commands.executeCommand("agentSessions.compactSession", vscode.Uri.file(file), { dryRun: true })) as { lines: string[]; nothingToDo: boolean };
    assert.equal(dry.nothingToDo, false);
    assert.match(dry.lines.join("\n"), /summarize: 3 message\(s\); keep the last 1/);
    assert.ok(readFileSync(file).equals(before));
    assert.equal(fake.requests.length, requests, "the dry run asked the API");

    const out = (await vscode.commands.executeCommand("agentSessions.compactSession", vscode.Uri.file(file), { strategy: "summarize" })) as { lines: string[]; fallbackReason?: string };
    assert.equal(out.fallbackReason, undefined, `fell back: ${out.fallbackReason}`);
    assert.equal(fake.requests.length, requests + 1);
    assert.equal(fake.requests[requests].body.model, "claude-test-model");
    const after = readFileSync(file);
    assert.ok(after.subarray(0, before.length).equals(before), "old bytes untouched");
    const added = after.subarray(before.length).toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(added.length, 3, "boundary, summary, one kept message");
    const [boundary, summary, kept] = added;
    assert.equal(boundary.type, "system");
    assert.equal(boundary.subtype, "compact_boundary");
    assert.equal(boundary.parentUuid, lastBefore);
    assert.equal(summary.isCompactSummary, true);
    assert.equal(summary.parentUuid, boundary.uuid);
    assert.equal((summary.message as { content: string }).content, FAKE_SUMMARY);
    assert.equal(kept.parentUuid, summary.uuid);
    assert.equal(kept.type, "assistant");
    assert.match(out.lines.join("\n"), new RegExp(`boundary: ${boundary.uuid}`));

    await until("the explorer to show the boundary", () => panel.session?.metas.some((m) => m.id === boundary.uuid));
    await until("the webview to be told of the new lines", () => panel.entriesShown === 4 + 3);
    const rows = await allRows(panel);
    assert.equal(rows.find((r) => r.id === boundary.uuid)?.kind, "boundary");
    assert.equal(rows.find((r) => r.id === summary.uuid)?.kind, "summary");
    const s = panel.session as SessionReader;
    const f = formatOf(s);
    const ctx = f.context(s, f.defaultLeaf(s));
    assert.equal(ctx.leafId, kept.uuid);
    assert.equal(ctx.messages[0].entryId, summary.uuid);
    assert.deepEqual(ctx.messages[0].message, { role: "user", content: FAKE_SUMMARY });
    assert.equal(ctx.messages.length, 2);
    assert.equal(panel.stats.errors, 0);
  });

  it("clawdcode: Fork Latest from the sessions view's menu forks at the format's default leaf, and the fork is listed", async () => {
    const file = CLAWD.copy("latest");
    const before = readFileSync(file);
    const node = await until("the session in the view", async () => {
      await api.sessionsView.refresh();
      const projects = await api.sessionsView.getChildren();
      const project = projects.find((p) => p.kind === "project" && p.group.cwd === "/home/ana/app");
      return project && (await api.sessionsView.getChildren(project)).find((n) => n.kind === "session" && n.session.path === file);
    });
    const forked = (await vscode.commands.executeCommand("agentSessions.forkLatest", node)) as string | undefined;
    assert.equal(typeof forked, "string", "Fork Latest failed (see the log)");
    assert.ok(readFileSync(file).equals(before), "the source changed");
    const src = await openSession(file);
    const fork = await openSession(forked as string);
    assert.equal(fork.formatId, "clawdcode");
    const srcLeaf = src.metas[formatOf(src).defaultLeaf(src)].id;
    assert.equal(fork.metas[formatOf(fork).defaultLeaf(fork)].id, srcLeaf, "forked at another leaf than the one the agent continues from");
    assert.deepEqual(defaultContext(fork), defaultContext(src));
    await until("the fork in the view", async () => {
      const projects = await api.sessionsView.getChildren();
      const project = projects.find((p) => p.kind === "project" && p.group.cwd === "/home/ana/app");
      return project && (await api.sessionsView.getChildren(project)).some((n) => n.kind === "session" && n.session.path === forked);
    }, 5_000);
  });

  it("the shared seed fixtures (../shared): each native preview in the host equals its golden; the seed-002 store is listed", async function () {
    // ../shared beside the project (the extension runs from the project folder).
    const shared = join(fixtures, "..", "..", "..", "shared", "fixtures");
    const seed = ["branches", "long-strategies"];
    const store = ["5e5a0002-aaaa-4aaa-8aaa-000000000001.jsonl", "5e5a0002-bbbb-4bbb-8bbb-000000000002.jsonl"];
    needShared(this, shared, ...seed.flatMap((n) => [`seed-000/${n}.jsonl`, `seed-000/${n}.golden.json`]), "seed-002/branches.golden.json", "seed-002/compaction-orphan.golden.json", ...store.map((f) => `seed-002/-home-dev-demo/${f}`));
    const cases: Array<{ file: string; golden: string }> = [];
    for (const n of seed) {
      const to = join(work, `shared-${n}.jsonl`);
      copyFileSync(join(shared, "seed-000", `${n}.jsonl`), to);
      cases.push({ file: to, golden: join(shared, "seed-000", `${n}.golden.json`) });
    }
    mkdirSync(storeFolder("/home/dev/demo"), { recursive: true });
    for (const g of ["branches", "compaction-orphan"]) {
      const golden = join(shared, "seed-002", `${g}.golden.json`);
      const rel = (JSON.parse(readFileSync(golden, "utf8")) as { file: string }).file;
      const to = join(clawdDir, "projects", rel);
      copyFileSync(join(shared, "seed-002", rel), to);
      cases.push({ file: to, golden });
    }
    for (const c of cases) {
      const golden = JSON.parse(readFileSync(c.golden, "utf8")) as { defaultLeaf: string; context: { messages: unknown[] } };
      const res = (await vscode.commands.executeCommand("agentSessions.previewContext", vscode.Uri.file(c.file), undefined, "pi", "none")) as { request: { messages: unknown[] } };
      assert.deepEqual(res.request.messages, golden.context.messages, c.file);
      const panel = await open(c.file);
      assert.equal(panel.sessionInfo()?.defaultLeafId, golden.defaultLeaf, c.file);
      assert.deepEqual(panel.session?.problems.map((p) => p.message), [], c.file);
    }
    await api.sessionsView.refresh();
    const projects = await api.sessionsView.getChildren();
    const demo = projects.find((p) => p.kind === "project" && p.group.cwd === "/home/dev/demo");
    assert.ok(demo, "the seed-002 store's project is not listed");
    assert.equal((await api.sessionsView.getChildren(demo)).length, 2);
  });

  it("the clawdcode fixture's compact boundary is a compaction row, its summary a summary row", async () => {
    const panel = await open(CLAWD.copy("boundary"));
    const rows = await allRows(panel);
    assert.equal(rows.find((r) => r.id === CLAWD_ID(11))?.kind, "boundary");
    assert.equal(rows.find((r) => r.id === CLAWD_ID(11))?.typeLabel, "Compaction");
    assert.equal(rows.find((r) => r.id === CLAWD_ID(11))?.typeName, "compact_boundary");
    assert.equal(rows.find((r) => r.id === CLAWD_ID(12))?.kind, "summary");
    assert.equal(rows.find((r) => r.id === CLAWD_ID(5))?.kind, "info", "an informational system line");
  });

  it("seed-000 compaction and labels, and clawdcode labels, are refused with a clear message; nothing is written", async () => {
    const seed = SEED.copy("writes");
    const clawd = CLAWD.copy("writes");
    const seedBefore = readFileSync(seed);
    const clawdBefore = readFileSync(clawd);
    const requests = fake.requests.length;
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand("agentSessions.compactSession", vscode.Uri.file(seed), { strategy: "summarize" })),
      /Compaction is not offered for Seed 000 sessions: seed-000 sessions are never compacted in the file/,
    );
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand("agentSessions.compactSession", vscode.Uri.file(seed), { dryRun: true })),
      /Compaction is not offered for Seed 000 sessions/,
    );
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand("agentSessions.labelEntry", vscode.Uri.file(seed), "u1", "start")), /Label is not offered for Seed 000 sessions/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand("agentSessions.labelEntry", vscode.Uri.file(clawd), CLAWD_ID(1), "start")), /Label is not offered for ClawdCode sessions: clawdcode lines have no labels/);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand("agentSessions.continueFromEntry", vscode.Uri.file(clawd), CLAWD_ID(4), { summarize: false })), /Continue From Entry is not offered for ClawdCode sessions/);
    assert.ok(readFileSync(seed).equals(seedBefore), "the seed-000 file changed");
    assert.ok(readFileSync(clawd).equals(clawdBefore), "the clawdcode file changed");
    assert.equal(fake.requests.length, requests, "a refused action asked the API");
  });
});
