import { strict as assert } from "node:assert";
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { clawdcodeRoot, discoverClawdcodeSessions } from "../../../src/core/formats/clawdcode/discover";
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

  it("root: explicit dir, else $CLAWDCODE_DIR, else ~/.clawdcode", () => {
    assert.equal(clawdcodeRoot({ dir: "/a", env: { CLAWDCODE_DIR: "/b" }, home: "/h" }), "/a");
    assert.equal(clawdcodeRoot({ env: { CLAWDCODE_DIR: "/b" }, home: "/h" }), "/b");
    assert.equal(clawdcodeRoot({ env: {}, home: "/h" }), "/h/.clawdcode");
  });

  it("lists projects/*/*.jsonl through $CLAWDCODE_DIR: id, cwd from the lines, created, first message, entry count; newest first", async () => {
    const out = await discoverClawdcodeSessions({ env: { CLAWDCODE_DIR: join(tmp, "store") }, home: join(tmp, "nohome") });
    assert.deepEqual(
      out.sessions.map(({ size: _s, mtimeMs: _m, path, ...rest }) => ({ file: path.slice(tmp.length), ...rest })),
      [
        { file: `/store/projects/-srv-api/${S2}.jsonl`, id: S2, cwd: "/srv/api", created: "2026-03-03T09:00:00.000Z", firstMessage: "Add a health check", entryCount: 3 },
        { file: `/store/projects/-home-ana-my-app/${S1}.jsonl`, id: S1, cwd: "/home/ana/my-app", created: "2026-03-02T09:00:00.000Z", firstMessage: "Rename the config loader", entryCount: 4 },
      ],
    );
    assert.equal(out.sessions[1].mtimeMs, 1_000_000);
  });

  it("skips non-sessions with a reason that quotes none of their content; ignores other names and stray files", async () => {
    const out = await discoverClawdcodeSessions({ dir: join(tmp, "store"), env: { CLAWDCODE_DIR: "/nowhere" } });
    const why = Object.fromEntries(out.skipped.map((s) => [s.path.slice(s.path.lastIndexOf("/") + 1), s.reason]));
    assert.deepEqual(Object.keys(why).sort(), ["empty.jsonl", "notes.jsonl", "pi-session.jsonl"]);
    assert.equal(why["empty.jsonl"], "the file is empty");
    assert.match(why["notes.jsonl"], /^not a clawdcode session: no JSON line/);
    assert.match(why["pi-session.jsonl"], /^not a clawdcode session: its first JSON line has no uuid/);
    assert.ok(!JSON.stringify(out.skipped).includes("not json at all"));
    assert.equal(out.sessions.length, 2);
  });

  it("a missing root lists nothing", async () => {
    const out = await discoverClawdcodeSessions({ dir: join(tmp, "none") });
    assert.deepEqual(out, { root: join(tmp, "none"), sessions: [], skipped: [] });
  });

  it("reads past the first chunk for the first message; a character cut by a chunk edge survives", async () => {
    // Two pads of either parity: in one of them the 64 KiB edge falls inside a 2-byte "é".
    for (const padLength of [65_000, 65_001]) {
      const root = join(tmp, `big${padLength}`);
      const dir = join(root, "projects/-x");
      mkdirSync(dir, { recursive: true });
      const recs = [{ ...user("p1", null, "x"), type: "system", message: { role: "system", content: "p".repeat(padLength) } }, user("p2", "p1", "é".repeat(2000))];
      writeFileSync(join(dir, "s.jsonl"), jsonl(recs));
      const out = await discoverClawdcodeSessions({ dir: root });
      assert.equal(out.sessions[0].firstMessage, `${"é".repeat(97)}...`);
      assert.equal(out.sessions[0].entryCount, 2);
    }
  });
});
