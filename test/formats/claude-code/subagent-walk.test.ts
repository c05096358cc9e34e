import { strict as assert } from "node:assert";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { claudeCodeScanner } from "../../../src/core/formats/claude-code/discover";
import { subagentFile } from "../../../src/core/formats/claude-code/subagent-link";
import { listWith } from "../../../src/core/store/discover";
import { costTargets } from "../../../src/core/usage/cost-scan";
import { tempDir } from "../../helpers/session-builder";
import { SESSION, jsonl, user } from "./lines";

/** Fails instead of hanging: a walk that follows a link loop does not settle for minutes. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

const OTHER = "cc222222-0000-4000-8000-000000000000";

describe("Claude Code sub-agent folders with hostile links and ids", function () {
  this.timeout(120_000);

  it("a link loop (l1 -> .) and a link out of the store (subagents -> /usr): the listing finishes fast, each agent once, nothing from outside", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-home-dev-demo");
    const sub = join(proj, SESSION, "subagents");
    mkdirSync(join(sub, "deep"), { recursive: true });
    writeFileSync(join(proj, `${SESSION}.jsonl`), jsonl([user("u1", null, "loop")]));
    writeFileSync(join(sub, "agent-a1.jsonl"), jsonl([user("s1", null, "sub", { isSidechain: true, agentId: "a1" })]));
    writeFileSync(join(sub, "deep", "agent-a2.jsonl"), jsonl([user("s2", null, "sub", { isSidechain: true, agentId: "a2" })]));
    symlinkSync(".", join(sub, "l1"));
    symlinkSync("..", join(sub, "deep", "up"));
    // The other session's sub-agent folder is /usr.
    writeFileSync(join(proj, `${OTHER}.jsonl`), jsonl([user("u1", null, "usr", { sessionId: OTHER })]));
    mkdirSync(join(proj, OTHER));
    symlinkSync("/usr", join(proj, OTHER, "subagents"));
    const started = Date.now();
    const res = await within(30_000, listWith(claudeCodeScanner, root), "listing");
    const byId = new Map(res.projects.flatMap((p) => p.sessions).map((s) => [s.id, s]));
    assert.deepEqual(byId.get(SESSION)?.subagents?.map((a) => relative(sub, a.path)), ["agent-a1.jsonl", "deep/agent-a2.jsonl"]);
    assert.equal(byId.get(OTHER)?.subagents, undefined, "nothing under /usr");
    assert.ok(res.notes.some((s) => s.path === join(proj, OTHER, "subagents") && /outside/.test(s.reason)), `the link out is noted: ${JSON.stringify(res.notes)}`);
    assert.ok(Date.now() - started < 30_000);
  });

  it("the sub-agent link (detail pane) finds an agent once through a loop and never looks under /usr", () => {
    const dir = tempDir();
    const sub = join(dir, SESSION, "subagents");
    mkdirSync(join(sub, "w", "x"), { recursive: true });
    symlinkSync(".", join(sub, "l1"));
    symlinkSync("../..", join(sub, "w", "x", "back"));
    writeFileSync(join(sub, "w", "x", "agent-deep.jsonl"), "");
    const session = join(dir, `${SESSION}.jsonl`);
    const started = Date.now();
    assert.equal(subagentFile(session, "deep"), join(sub, "w", "x", "agent-deep.jsonl"));
    assert.equal(subagentFile(session, "missing"), undefined);
    const usr = tempDir();
    mkdirSync(join(usr, OTHER));
    symlinkSync("/usr", join(usr, OTHER, "subagents"));
    assert.equal(subagentFile(join(usr, `${OTHER}.jsonl`), "zzz-not-there"), undefined);
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });

  it("a sessionId that is a path (../../x) is never followed: no sub-agents from outside, a note, and cost --total does not read them", async () => {
    const outside = tempDir();
    mkdirSync(join(outside, "x", "subagents"), { recursive: true });
    writeFileSync(join(outside, "x", "subagents", "agent-evil.jsonl"), jsonl([user("e1", null, "evil", { isSidechain: true })]));
    const root = tempDir();
    const proj = join(root, "projects", "-home-dev-demo");
    mkdirSync(proj, { recursive: true });
    const hostile = join(relative(proj, outside), "x");
    assert.ok(hostile.startsWith(".."));
    const file = join(proj, "hostile.jsonl");
    writeFileSync(file, jsonl([user("u1", null, "hi", { sessionId: hostile })]));
    const res = await listWith(claudeCodeScanner, root);
    const [s] = res.projects.flatMap((p) => p.sessions);
    assert.equal(s.path, file, "the session itself is listed");
    assert.equal(s.subagents, undefined, "nothing attached from outside the store");
    assert.ok(res.notes.some((k) => k.path === file && /sessionId/.test(k.reason)), `the bad id is noted: ${JSON.stringify(res.notes)}`);
    assert.deepEqual(costTargets(res.projects).map((t) => t.path), [file]);
  });
});
