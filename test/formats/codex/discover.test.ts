import { strict as assert } from "node:assert";
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { codexRoot } from "../../../src/core/formats/codex/discover";
import { tempDir } from "../../helpers/session-builder";
import { recorded } from "./helpers";

const FIX = join(process.cwd(), "test", "fixtures", "codex");
const { dir: DAY, compact, main } = recorded();
const ZST = join(FIX, "zst-home", "sessions", "2026", "11", "26");

describe("Codex discovery: $CODEX_HOME, sessions/YYYY/MM/DD and archived_sessions, .zst, titles", () => {
  it("the home is the explicit folder, else $CODEX_HOME, else ~/.codex", () => {
    assert.equal(codexRoot("/x", { CODEX_HOME: "/y" }), "/x");
    assert.equal(codexRoot(undefined, { CODEX_HOME: "/y" }), "/y");
    assert.equal(codexRoot(undefined, { HOME: "/h" }), "/h/.codex");
  });

  it("lists plain and .zst rollouts (a plain file wins over its .zst twin) and archived ones, grouped by session_meta.cwd, titled from session_index.jsonl", async () => {
    const home = tempDir();
    const day = join(home, "sessions", "2026", "11", "26");
    mkdirSync(day, { recursive: true });
    const names = readdirSync(DAY);
    for (const n of names) copyFileSync(join(DAY, n), join(day, n));
    // The main rollout also as .zst beside it (ignored), and a .zst-only copy in archived_sessions of another id.
    const zst = readdirSync(ZST)[0];
    copyFileSync(join(ZST, zst), join(day, zst));
    const archived = join(home, "archived_sessions");
    mkdirSync(archived);
    copyFileSync(join(ZST, zst), join(archived, zst.replace(/[0-9a-f]{8}(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl\.zst)$/, "aaaaaaaa$1")));
    // Not transcripts: never listed.
    writeFileSync(join(home, "history.jsonl"), '{"session_id":"x","text":"hi"}\n');
    const compactId = compact.match(/([0-9a-f-]{36})\.jsonl$/)?.[1];
    assert.ok(zst.startsWith(main.split("/").pop() as string), "the .zst fixture is the main rollout's");
    writeFileSync(join(home, "session_index.jsonl"), `${JSON.stringify({ id: compactId, thread_name: "old name" })}\n${JSON.stringify({ id: compactId, thread_name: "Compaction demo" })}\n{torn`);
    const res = await listAllSessions({ dirs: { codex: home }, only: ["codex"], env: {} });
    assert.deepEqual(res.skipped, []);
    const all = res.projects.flatMap((p) => p.sessions);
    assert.equal(res.projects.length, 1);
    assert.match(res.projects[0].cwd, /\/project$/);
    assert.equal(all.length, 4, all.map((s) => s.path).join("\n"));
    assert.ok(!all.some((s) => s.path.endsWith(".zst") && s.path.startsWith(day)), "the plain file wins over its .zst");
    const fromZst = all.find((s) => s.path.startsWith(archived));
    assert.ok(fromZst);
    assert.equal(fromZst.firstMessage, "Say hello");
    assert.equal(fromZst.entryCount, 67);
    assert.equal(all.find((s) => s.id === compactId)?.name, "Compaction demo");
    const fork = all.find((s) => s.parentSession);
    assert.equal(fork?.firstMessage, "A question asked on the fork");
  });
});
