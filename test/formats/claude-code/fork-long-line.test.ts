import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../helpers/session-builder";
import { fragment, jsonl, SESSION, text, user } from "./lines";

const CLI = resolve("dist/cli.js");
const MB = 1024 * 1024;

/** A Claude Code session whose file-history snapshot (a metadata line, not on any chain) is `mb` MB long. */
function withLongLine(mb: number): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, `${SESSION}.jsonl`);
  const snapshot = { type: "file-history-snapshot", messageId: "u1", snapshot: { messageId: "u1", trackedFileBackups: { big: "x".repeat(mb * MB) }, timestamp: "2026-03-01T10:00:00.000Z" }, isSnapshotUpdate: false };
  const title = { type: "custom-title", customTitle: "long one", sessionId: SESSION };
  writeFileSync(file, jsonl([user("u1", null, "hello"), snapshot, fragment("a1", "u1", "msg_1", text("hi")), title]));
  return { dir, file };
}

/** `ase fork` in a child that writes its own peak RSS (process.resourceUsage) when it exits. */
function forkMeasured(file: string, at: string): { ms: number; maxRssMb: number; out: string } {
  const hook = join(tempDir(), "rss-hook.js");
  const rssFile = join(tempDir(), "rss.txt");
  writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--require", hook, CLI, "fork", file, "--at", at], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.equal(r.status, 0, r.stderr);
  return { ms, maxRssMb: Number(readFileSync(rssFile, "utf8")) / 1024, out: r.stdout };
}

describe("ase fork of a Claude Code session with a long line: linear in the line, memory about its size", function () {
  this.timeout(600_000);

  it("50 MB and 100 MB lines: the branch written, peak RSS a few times the line (its speed: npm run bench)", () => {
    const runs = [50, 100].map((mb) => {
      const { dir, file } = withLongLine(mb);
      const m = forkMeasured(file, "a1");
      const written = readdirSync(dir).filter((f) => f !== `${SESSION}.jsonl`);
      assert.equal(written.length, 1, "one new file beside the source");
      const lines = readFileSync(join(dir, written[0]), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines.map((l) => l.uuid ?? l.type), ["u1", "a1", "custom-title"]);
      assert.equal(lines[2].customTitle, "long one (Branch)", "the title read past the long line");
      return { mb, ...m };
    });
    const [small, big] = runs;
    const detail = runs.map((r) => `${r.mb} MB: ${r.ms.toFixed(0)} ms, ${r.maxRssMb.toFixed(0)} MB RSS`).join("; ");
    // Memory that grows with the line, not faster: twice the line, less than three times the peak.
    assert.ok(big.maxRssMb < 3 * small.maxRssMb, `peak RSS does not stay in proportion (${detail})`);
    // Loading the session reads and parses the line once (about 3x its size); the fork adds little.
    assert.ok(big.maxRssMb < 4 * big.mb + 150, `peak RSS ${big.maxRssMb.toFixed(0)} MB for a ${big.mb} MB line (${detail})`);
  });
});
