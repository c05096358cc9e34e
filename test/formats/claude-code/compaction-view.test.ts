import { strict as assert } from "node:assert";
import { join, resolve } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import { openSession } from "../../../src/core/formats/registry";
import { entryDetails } from "../../../src/explorer/entry-details";
import { sharedFolderGuard } from "../../helpers/fixtures";
import { boundary, compactSummary, fragment, type Raw, text, toolResult, toolUse, user } from "./lines";

const DIR = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code", DIR, "ASE_CLAUDE_CODE_FIXTURES");
const REAL = "real/agentlogs-compact.jsonl";
const session = (records: Raw[]) => new MemorySession("claude-code", claudeCodeIndexHooks, records);
const detailsOf = (s: MemorySession, id: string) => f.details?.(s, s.requireIndex(id));

describe("claude-code: what a compaction boundary shows", () => {
  const before = [
    user("u1", null, "read and fix it"),
    fragment("a1", "u1", "msg_1", toolUse("t1", "Read", { file_path: "/p/a.ts" })),
    toolResult("r1", "a1", "t1", "contents"),
    fragment("a2", "r1", "msg_2", toolUse("t2", "Edit", { file_path: "/p/b.ts", old_string: "x", new_string: "y" })),
    toolResult("r2", "a2", "t2", "ok"),
    fragment("a3", "r2", "msg_3", text("done")),
  ];

  it("manual or auto, tokens before and after, the summary under it, the messages it summarized and their files", () => {
    const s = session([...before, boundary("b", "a3", { trigger: "auto", preTokens: 160500, postTokens: 2100 }), compactSummary("s", "b", "Summary: fixed b.ts."), user("n", "s", "next")]);
    const c = detailsOf(s, "b")?.compaction;
    assert.ok(c, "a boundary has a compaction view");
    assert.equal(c.trigger, "auto");
    assert.equal(c.tokensBefore, 160500);
    assert.equal(c.tokensAfter, 2100);
    assert.match(c.summary, /Summary: fixed b\.ts\.$/);
    assert.equal(c.summarizedEntries, 6);
    assert.deepEqual(c.readFiles, ["/p/a.ts"]);
    assert.deepEqual(c.modifiedFiles, ["/p/b.ts"]);
    assert.equal(c.missingParent, undefined);
    assert.equal(c.firstKeptEntryId, undefined);
    // The explorer carries it to the webview.
    assert.deepEqual(entryDetails(s, s.requireIndex("b")).compaction, c);
    assert.equal(detailsOf(s, "n")?.compaction, undefined);
  });

  it("a partial compaction names the first message it kept and does not count the kept ones as summarized", () => {
    const recs = [...before, boundary("b", "a3", { preservedSegment: { headUuid: "a2", anchorUuid: "s", tailUuid: "a3" } }), compactSummary("s", "b", "Kept the tail.")];
    const c = detailsOf(session(recs), "b")?.compaction;
    assert.equal(c?.firstKeptEntryId, "a2");
    assert.equal(c?.summarizedEntries, 3);
    assert.deepEqual(c?.modifiedFiles, []);
    assert.equal(c?.trigger, "manual");
    assert.equal(c?.tokensAfter, undefined);
  });

  it("a logical parent not in the file is named, with nothing claimed as summarized", () => {
    const c = detailsOf(session([boundary("b", "gone"), compactSummary("s", "b", "S.")]), "b")?.compaction;
    assert.equal(c?.missingParent, "gone");
    assert.equal(c?.summarizedEntries, 0);
    assert.equal(c?.summary.endsWith("S."), true);
  });

  it("the real compaction fixture: manual, 15,808 tokens before, its summary and what came before it", async function () {
    need(this, REAL);
    const s = await openSession(join(DIR, REAL));
    const b = s.metas.findIndex((m) => m.type === "system/compact_boundary");
    const c = f.details?.(s, b).compaction;
    assert.equal(c?.trigger, "manual");
    assert.equal(c?.tokensBefore, 15808);
    assert.match(c?.summary ?? "", /^This session is being continued from a previous conversation/);
    assert.ok((c?.summarizedEntries ?? 0) > 0);
  });
});
