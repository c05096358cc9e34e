import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatOf, openSession } from "../../../src/core/formats/registry";
import { needSeed002, SEED_002_DIR } from "./lines";

/**
 * Every leaf of every clawdcode file we have (our fixtures, and the seed's when
 * ../shared is there) against a second, independent reading of section 15.2's rules
 * written here in a few lines: the path to the root, the part after the last compact
 * boundary, each line's message, and tool results whose call is not earlier dropped.
 */
type Raw = Record<string, unknown> & { uuid: string; parentUuid: string | null; type: string };

function reference(lines: Raw[], leaf: string): unknown[] {
  const byUuid = new Map<string, Raw>();
  for (const l of lines) if (!byUuid.has(l.uuid)) byUuid.set(l.uuid, l);
  const path: Raw[] = [];
  for (let cur = byUuid.get(leaf); cur; cur = cur.parentUuid ? byUuid.get(cur.parentUuid) : undefined) path.unshift(cur);
  let start = 0;
  path.forEach((l, k) => {
    if (l.type === "system" && l.subtype === "compact_boundary") start = k + 1;
  });
  const calls = new Set<string>();
  const out: unknown[] = [];
  for (const l of path.slice(start)) {
    const m = (l.message ?? {}) as { role?: string; content?: unknown };
    if (l.type === "user" || l.type === "assistant") out.push({ role: m.role, content: m.content });
    else if (l.type === "tool_use") {
      const t = l.tool as { id: string; name: string; input: unknown };
      calls.add(t.id);
      out.push({ role: "assistant", content: [{ type: "tool_use", id: t.id, name: t.name, input: t.input }] });
    } else if (l.type === "tool_result") {
      const r = l.toolResult as { id: string; output: unknown; error?: unknown };
      if (!calls.has(r.id)) continue;
      out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: r.id, content: r.output, ...(r.error ? { is_error: true } : {}) }] });
    }
  }
  return out;
}

function clawdcodeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".jsonl") && !e.name.includes(".bad.")) out.push(join(e.parentPath, e.name));
  }
  return out.sort();
}

const OURS = clawdcodeFiles(join(process.cwd(), "test", "fixtures", "clawdcode"));
const SEED = clawdcodeFiles(SEED_002_DIR);

describe("clawdcode: the context of every leaf, against an independent reading of the rules", () => {
  it("our fixtures are there", () => assert.ok(OURS.length >= 3, `found ${OURS.length}`));
  it("the seed's files are there (../shared)", function () {
    needSeed002(this);
    assert.equal(SEED.length, 2, SEED.join(", "));
  });
  for (const file of [...OURS, ...SEED]) {
    it(`${file.split("/").slice(-2).join("/")}: every line as the leaf`, async () => {
      const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Raw);
      const s = await openSession(file);
      const f = formatOf(s);
      assert.equal(f.id, "clawdcode");
      for (let i = 0; i < s.metas.length; i++) {
        const got = f.context(s, i).messages.map((m) => m.message);
        assert.deepEqual(got, reference(lines, s.metas[i].id), `leaf ${s.metas[i].id}`);
      }
    });
  }
});
