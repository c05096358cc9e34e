import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { main } from "../../../src/cli/main";
import { sharedFolderGuard } from "../../helpers/fixtures";

const OURS = join(process.cwd(), "test", "fixtures", "claude-code");
const SHARED = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code CLI", SHARED, "ASE_CLAUDE_CODE_FIXTURES");
const v = (n: number) => `cc200000-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function ase(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: process.cwd() });
  return { code, out, err };
}

describe("ase context on Claude Code transcripts", () => {
  it("--format chain prints [{uuid, type}] of the chain Claude Code resumes, root first; --leaf picks another leaf", async () => {
    const file = join(OURS, "compaction-side-results.jsonl");
    const r = await ase(["context", file, "--format", "chain"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    assert.deepEqual(JSON.parse(r.out), [
      { uuid: v(9), type: "system/compact_boundary" },
      { uuid: v(10), type: "user" },
      { uuid: v(7), type: "user" },
      { uuid: v(8), type: "assistant" },
      { uuid: v(11), type: "user" },
      { uuid: v(12), type: "attachment/hook_success" },
      { uuid: v(13), type: "assistant" },
    ]);
    const other = await ase(["context", file, "--format", "chain", "--leaf", v(6)]);
    assert.deepEqual((JSON.parse(other.out) as Array<{ uuid: string }>).map((c) => c.uuid), [1, 2, 3, 4, 5, 6].map(v));
  });

  it("--format chain refuses the flags of other formats, in one line", async () => {
    const r = await ase(["context", join(OURS, "compaction-side-results.jsonl"), "--format", "chain", "--max-tokens", "10"]);
    assert.equal(r.code, 2);
    assert.equal(r.out, "");
    assert.match(r.err, /--format chain takes --leaf only/);
  });

  it("--format anthropic and xml render the same messages as native", async () => {
    const file = join(OURS, "rewind-split-sidechain.jsonl");
    const native = JSON.parse((await ase(["context", file])).out) as { messages: unknown[] };
    const anthropic = JSON.parse((await ase(["context", file, "--format", "anthropic"])).out) as { messages: unknown[] };
    assert.deepEqual(anthropic.messages, native.messages);
    const xml = JSON.parse((await ase(["context", file, "--format", "xml"])).out) as { messages: Array<{ role: string }> };
    assert.deepEqual(xml.messages.map((m) => m.role), (native.messages as Array<{ role: string }>).map((m) => m.role));
  });

  for (const name of ["handmade/rewind-split", "handmade/compact-preserved-segment", "real/ccl-subagents-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1"]) {
    it(`${name}: --format chain prints the golden's chain${name.startsWith("handmade/") ? ", native its messages" : ""}`, async function () {
      need(this, `${name}.jsonl`, `${name}.chain.json`);
      const file = join(SHARED, `${name}.jsonl`);
      const r = await ase(["context", file, "--format", "chain"]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(JSON.parse(r.out), (JSON.parse(readFileSync(join(SHARED, `${name}.chain.json`), "utf8")) as { chain: unknown }).chain);
      if (!name.startsWith("handmade/")) return;
      const n = await ase(["context", file]);
      assert.deepEqual(JSON.parse(n.out), { messages: (JSON.parse(readFileSync(join(SHARED, `${name}.messages.json`), "utf8")) as { messages: unknown }).messages });
    });
  }
});
