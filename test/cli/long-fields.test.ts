import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { clipField } from "../../src/core/util/visible-text";
import { assistant, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { XDG_CACHE_HOME: tempDir() }, cwd: "/" });
  return { code, out: out.join(""), err: err.join("") };
}

const LONG = 100_000;
const KB = 1024;
/** A field as long as the audit's: 100,000 characters. */
const long = (c: string) => c.repeat(LONG);

/** No line of human output longer than a few hundred characters; the clipped field says how much was left out. */
function assertClipped(out: string, what: string): void {
  const widest = Math.max(...out.split("\n").map((l) => l.length));
  assert.ok(widest < 2 * KB, `${what}: a line of ${widest.toLocaleString("en-US")} characters`);
  assert.match(out, /…\(\+99,\d{3} chars\)/, what);
}

describe("long fields in human outputs are clipped with their length shown; JSON stays exact", () => {
  it("clipField: short text as is; long text cut with the count of what was left out", () => {
    assert.equal(clipField("abc", 10), "abc");
    assert.equal(clipField("abcdefghij", 10), "abcdefghij");
    assert.equal(clipField("a".repeat(100_000), 5), "aaaa…(+99,996 chars)");
    // A surrogate pair is never split.
    assert.equal(clipField(`abc${"😀".repeat(10)}`, 5), "abc…(+20 chars)");
  });

  it("ase cost --by model: a 100,000-character model name pads no row (output a few KB, not megabytes)", async () => {
    const model = long("m");
    const steps = [header(), user("80000001", null, "q")];
    for (let k = 0; k < 50; k++) {
      const id = `8000${String(k + 2).padStart(4, "0")}`;
      steps.push(assistant(id, k ? `8000${String(k + 1).padStart(4, "0")}` : "80000001", "a", { model: k % 2 ? model : `${model}-${k}`, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0.01 } } }));
    }
    const file = writeSession(steps);
    const r = await run(["cost", file, "--by", "model"]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.length < 64 * KB, `${r.out.length.toLocaleString("en-US")} characters out`);
    assertClipped(r.out, "cost --by model");
    const json = JSON.parse((await run(["cost", file, "--json"])).out);
    assert.ok(json.byModel.some((m: { model: string }) => m.model === model), "the JSON keeps the name whole");
  });

  it("ase files: a 100,000-character path is clipped", async () => {
    const path = `/src/${long("p")}.ts`;
    const file = writeSession([
      header(),
      user("90000001", null, "read it"),
      assistant("90000002", "90000001", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path } }] }),
      toolResult("90000003", "90000002", "c1", "read", "contents"),
    ]);
    const r = await run(["files", file]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.length < 4 * KB, `${r.out.length.toLocaleString("en-US")} characters out`);
    assertClipped(r.out, "files");
    const json = JSON.parse((await run(["files", file, "--json"])).out);
    assert.equal(json.files[0].path, path);
  });

  it("ase list: a 100,000-character sub-agent type (and description) is clipped", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-srv-app");
    mkdirSync(join(proj, "s1", "subagents"), { recursive: true });
    const line = (n: number, type: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ parentUuid: n > 1 ? `u-${n - 1}` : null, isSidechain: false, cwd: "/srv/app", sessionId: "s1", version: "2.1.90", type, message, uuid: `u-${n}`, timestamp: `2026-03-01T10:00:0${n}.000Z`, ...extra });
    writeFileSync(join(proj, "s1.jsonl"), `${[line(1, "user", { role: "user", content: "hi" }), line(2, "assistant", { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }] })].join("\n")}\n`);
    writeFileSync(join(proj, "s1", "subagents", "agent-a1.jsonl"), `${line(1, "user", { role: "user", content: "search" }, { isSidechain: true })}\n`);
    writeFileSync(join(proj, "s1", "subagents", "agent-a1.meta.json"), JSON.stringify({ agentType: long("t"), description: "Compare" }));
    const r = await run(["list", "--dir", `claude-code=${root}`, "--no-cache"]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.includes("↳ sub-agent Compare (ttt"), r.out.slice(0, 500));
    assert.ok(r.out.length < 4 * KB, `${r.out.length.toLocaleString("en-US")} characters out`);
    assertClipped(r.out, "list");
  });

  it("ase cost --total: a long model and project are clipped", async () => {
    const root = tempDir();
    const cwd = `/home/${long("d")}`;
    const dir = join(root, projectDirName("/home/x"));
    mkdirSync(dir);
    writeSession([header({ cwd }), user("a0000001", null, "q"), assistant("a0000002", "a0000001", "a", { model: long("m"), usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0.01 } } })], { dir, name: "s.jsonl" });
    const r = await run(["cost", "--total", "--dir", root]);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.length < 8 * KB, `${r.out.length.toLocaleString("en-US")} characters out`);
    assertClipped(r.out, "cost --total");
  });
});
