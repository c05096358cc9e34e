import { strict as assert } from "node:assert";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { clawdcodeRoot, listClawdcodeSessions } from "../../../src/core/formats/clawdcode/discover";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { jsonl, user } from "./lines";

const STORE = resolve("test/fixtures/clawdcode/store");
const S1 = "c1a00001-0000-4000-8000-000000000001";
const S2 = "c1a00002-0000-4000-8000-000000000002";

describe("clawdcode: discovery", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "ase-clawd-disc-"));
    cpSync(STORE, join(tmp, "store"), { recursive: true });
    // Git does not keep mtimes: set them, so the order is the test's.
    utimesSync(join(tmp, "store/projects/-home-ana-my-app", `${S1}.jsonl`), 1000, 1000);
    utimesSync(join(tmp, "store/projects/-srv-api", `${S2}.jsonl`), 2000, 2000);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it("root: explicit dir, else $CLAWDCODE_DIR, else ~/.clawdcode (the format's discovery says the same)", () => {
    assert.equal(clawdcodeRoot("/a", { CLAWDCODE_DIR: "/b" }, "/h"), "/a");
    assert.equal(clawdcodeRoot(undefined, { CLAWDCODE_DIR: "/b" }, "/h"), "/b");
    assert.equal(clawdcodeRoot(undefined, {}, "/h"), "/h/.clawdcode");
    assert.equal(clawdcodeFormat.discovery!.root(undefined, { CLAWDCODE_DIR: "/b" }), "/b");
  });

  it("lists projects/*/*.jsonl under $CLAWDCODE_DIR: id, cwd from the lines, created, first message, entry count; newest first", async () => {
    const out = await listAllSessions({ env: { CLAWDCODE_DIR: join(tmp, "store"), PI_CODING_AGENT_DIR: join(tmp, "no-pi") }, only: ["clawdcode"] });
    const sessions = out.projects.flatMap((p) => p.sessions);
    assert.deepEqual(
      sessions.map(({ size: _s, mtimeMs: _m, path, ...rest }) => ({ file: path.slice(tmp.length), ...rest })),
      [
        { file: `/store/projects/-srv-api/${S2}.jsonl`, agent: "clawdcode", id: S2, cwd: "/srv/api", created: "2026-03-03T09:00:00.000Z", firstMessage: "Add a health check", entryCount: 3 },
        { file: `/store/projects/-home-ana-my-app/${S1}.jsonl`, agent: "clawdcode", id: S1, cwd: "/home/ana/my-app", created: "2026-03-02T09:00:00.000Z", firstMessage: "Rename the config loader", entryCount: 4 },
      ],
    );
    assert.deepEqual(out.roots, [{ agent: "clawdcode", root: join(tmp, "store"), sessions: 2 }]);
  });

  it("skips non-sessions with a reason that quotes none of their content; ignores other names", async () => {
    const out = await listClawdcodeSessions(join(tmp, "store"));
    const why = Object.fromEntries(out.skipped.map((s) => [s.path.slice(s.path.lastIndexOf("/") + 1), s.reason]));
    assert.deepEqual(Object.keys(why).sort(), ["empty.bad.jsonl", "notes.bad.jsonl", "pi-session.bad.jsonl"]);
    assert.equal(why["empty.bad.jsonl"], "not a clawdcode session: the file is empty");
    assert.equal(why["notes.bad.jsonl"], "not a clawdcode session: no JSON object at its start");
    assert.match(why["pi-session.bad.jsonl"], /^not a clawdcode session: its first JSON line has no uuid/);
    assert.ok(!JSON.stringify(out.skipped).includes("not json at all"));
    assert.equal(out.projects.flatMap((p) => p.sessions).length, 2);
  });

  it("a torn last line is not counted as an entry", async () => {
    appendFileSync(join(tmp, "store/projects/-srv-api", `${S2}.jsonl`), '{"uuid":"torn');
    const out = await listClawdcodeSessions(join(tmp, "store"));
    const s = out.projects.flatMap((p) => p.sessions).find((x) => x.id === S2);
    assert.equal(s?.entryCount, 3);
  });

  it("a missing root lists nothing", async () => {
    const out = await listClawdcodeSessions(join(tmp, "none"));
    assert.deepEqual(out.projects, []);
    assert.deepEqual(out.skipped, []);
  });

  it("the first message is the first user line that is not a compact summary, even past a long first line", async () => {
    const root = join(tmp, "big");
    const dir = join(root, "projects/-x");
    mkdirSync(dir, { recursive: true });
    const recs = [{ ...user("p1", null, "x"), type: "system", message: { role: "system", content: "p".repeat(100_000) } }, user("p2", "p1", "é".repeat(2000))];
    writeFileSync(join(dir, "s.jsonl"), jsonl(recs));
    const out = await listClawdcodeSessions(root);
    const [s] = out.projects.flatMap((p) => p.sessions);
    assert.equal(s.firstMessage, `${"é".repeat(97)}...`);
    assert.equal(s.entryCount, 2);
  });
});
