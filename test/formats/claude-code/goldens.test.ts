import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { claudeCodeFormat } from "../../../src/core/formats/claude-code/format";
import { openSession } from "../../../src/core/formats/registry";
import { sharedFolderGuard } from "../../helpers/fixtures";

/** Claude Code's transcripts and goldens in ../shared (never copied into the project). */
const DIR = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code", DIR, "ASE_CLAUDE_CODE_FIXTURES");

/** Every main transcript with a `.chain.json`; the hand-made ones also have `.messages.json`. */
const CHAINS = [
  "handmade/branch-of-rewind-split",
  "handmade/compact-preserved-segment",
  "handmade/parallel-tools-side-branch",
  "handmade/parallel-tools",
  "handmade/rewind-split",
  "handmade/two-compactions-api-error",
  "real/agentlogs-compact",
  "real/agentlogs-images",
  "real/agentlogs-subagent-inline",
  "real/ccl-bash-mode-branch-v1.0.55",
  "real/ccl-progress-v2.1.42",
  "real/ccl-subagents-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1",
  "real/spotter-short",
  "real/spotter-tool-heavy",
  "synthetic/ccl-dag_fork",
  "synthetic/ccl-dag_resume",
  "synthetic/ccl-dag_simple",
  "synthetic/ccl-dag_within_fork",
];

interface ChainGolden {
  leafUuid: string;
  chain: Array<{ uuid: string; type: string }>;
}

const json = (rel: string) => JSON.parse(readFileSync(join(DIR, rel), "utf8")) as unknown;

describe("Claude Code goldens (../shared/fixtures/claude-code)", () => {
  for (const name of CHAINS) {
    it(`${name}: read as Claude Code without problems; the default leaf and its chain are the loader's`, async function () {
      need(this, `${name}.jsonl`, `${name}.chain.json`);
      const s = await openSession(join(DIR, `${name}.jsonl`));
      assert.equal(s.formatId, "claude-code");
      assert.deepEqual(s.problems.map((p) => p.message), []);
      const golden = json(`${name}.chain.json`) as ChainGolden;
      const leaf = claudeCodeFormat.defaultLeaf(s);
      assert.equal(s.metas[leaf].id, golden.leafUuid);
      const chain = claudeCodeFormat.chain?.(s, leaf) ?? [];
      assert.deepEqual(chain.map((i) => ({ uuid: s.metas[i].id, type: s.metas[i].type })), golden.chain);
    });

    if (name.startsWith("handmade/")) {
      it(`${name}: the API messages of the default leaf are the golden's`, async function () {
        need(this, `${name}.jsonl`, `${name}.messages.json`);
        const s = await openSession(join(DIR, `${name}.jsonl`));
        const golden = json(`${name}.messages.json`) as { messages: unknown[] };
        const ctx = claudeCodeFormat.context(s, claudeCodeFormat.defaultLeaf(s));
        assert.deepEqual(ctx.messages.map((m) => m.message), golden.messages);
      });
    }
  }
});
