import { strict as assert } from "node:assert";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { tempDir } from "../../helpers/session-builder";

const FIX = join(process.cwd(), "test", "fixtures", "gemini-cli");

/** A copy of a recorded store, and its resumed session file (the largest). */
function copy(name: string): { home: string; file: string } {
  const home = tempDir();
  cpSync(join(FIX, name, ".gemini"), join(home, ".gemini"), { recursive: true });
  const chats = join(home, ".gemini", "tmp", "project", "chats");
  const files = readdirSync(chats).filter((n) => /^session-/.test(n)).map((n) => join(chats, n));
  files.sort((a, b) => GeminiSession.open(b).metas.length - GeminiSession.open(a).metas.length);
  return { home, file: files[0] };
}

const sent = (s: GeminiSession, leaf: number) => geminiFormat.context(s, leaf).messages.map((m) => m.message);

describe("Gemini CLI fork: a new session in Gemini's JSONL shape beside the source, the same history up to the entry", () => {
  for (const name of ["tools", "parallel-and-errors", "compression", "legacy-json"]) {
    it(`${name}: the fork at a middle entry sends what the source sends for that entry; listed under the same project; the source unchanged`, async () => {
      const { home, file } = copy(name);
      const before = readFileSync(file, "utf8");
      const src = GeminiSession.open(file);
      const leaf = geminiFormat.defaultLeaf(src);
      const path = src.tree.path(leaf);
      const at = path[Math.floor(path.length / 2)];
      const res = geminiFormat.writer!.fork(src, src.metas[at].id, { now: new Date(2030, 0, 2, 3, 4) });
      assert.match(res.path, /[\\/]chats[\\/]session-2030-01-02T03-04-[0-9a-f]{8}\.jsonl$/);
      const fork = GeminiSession.open(res.path);
      assert.deepEqual(fork.problems, []);
      assert.equal(fork.replayed.meta.sessionId, res.sessionId);
      assert.equal(fork.replayed.meta.projectHash, src.replayed.meta.projectHash);
      assert.equal(JSON.stringify(sent(fork, geminiFormat.defaultLeaf(fork))), JSON.stringify(sent(src, at)));
      assert.equal(readFileSync(file, "utf8"), before, "the source is only read");
      const listed = (await listAllSessions({ dirs: { "gemini-cli": home }, only: ["gemini-cli"], env: {} })).projects.flatMap((p) => p.sessions);
      assert.ok(listed.some((s) => s.path === res.path && s.id === res.sessionId), "listed as Gemini would offer it");
    });
  }

  it("a sub-agent's transcript forks into chats/ as a main session (gemini --resume offers only those), its folder untouched", () => {
    const { file } = copy("subagent");
    const chats = join(file, "..");
    const dir = join(chats, readdirSync(chats).find((n) => !n.startsWith("session-"))!);
    const sub = GeminiSession.open(join(dir, readdirSync(dir)[0]));
    const leaf = geminiFormat.defaultLeaf(sub);
    const res = geminiFormat.writer!.fork(sub, sub.metas[leaf].id);
    assert.equal(join(res.path, ".."), chats);
    const fork = GeminiSession.open(res.path);
    assert.equal(fork.replayed.meta.kind, "main");
    assert.equal(JSON.stringify(sent(fork, geminiFormat.defaultLeaf(fork))), JSON.stringify(sent(sub, leaf)));
    assert.equal(readdirSync(dir).length, 1);
  });

  it("a file without a session's metadata is refused, saying why; nothing is written", () => {
    const dir = tempDir();
    const file = join(dir, "session-x.jsonl");
    writeFileSync(file, '{"id":"u1","type":"user","content":"hi"}\n');
    const s = GeminiSession.open(file);
    assert.match(geminiFormat.writer!.refuses!(s) ?? "", /no metadata line with sessionId and projectHash/);
    assert.throws(() => geminiFormat.writer!.fork(s, "u1"), /no metadata line/);
    assert.deepEqual(readdirSync(dir), ["session-x.jsonl"]);
  });
});
