import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lineFacts } from "../../../src/core/formats/claude-code/chain-facts";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { asLine } from "../../../src/core/formats/claude-code/lines";
import { boundary, compactSummary, fragment, jsonl, type Raw, text, toolResult, toolUse, user } from "./lines";

describe("claude-code: a file indexed on two threads", () => {
  it("gives the index of one thread (the worker finds the hooks by format id), its chain and its messages", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ase-cc-threads-"));
    try {
      const file = join(dir, "s.jsonl");
      const recs: Raw[] = [];
      let parent: string | null = null;
      const add = (r: Raw) => {
        recs.push(r);
        parent = r.uuid as string;
      };
      for (let k = 0; k < 800; k++) {
        add(user(`u${k}`, parent, `question ${k}`));
        add(fragment(`t${k}`, parent, `msg_${k}`, text(`thinking about ${k}`)));
        add(fragment(`c${k}`, parent, `msg_${k}`, toolUse(`toolu_${k}`, "Read", { file_path: `f${k}.ts` })));
        add(toolResult(`r${k}`, parent as unknown as string, `toolu_${k}`, `out ${k}`));
        if (k === 400) {
          const before = parent;
          add(boundary(`b${k}`, before));
          add(compactSummary(`s${k}`, `b${k}`, "Summary."));
        }
      }
      writeFileSync(file, jsonl(recs));
      const one = await f.load(file, { secondThread: false });
      const two = await f.load(file, { secondThread: true });
      assert.equal((two as unknown as { threads: number }).threads, 2, (two as unknown as { workerFailure?: string }).workerFailure);
      const row = (m: (typeof one.metas)[number]) => [m.id, m.parentId, m.type, m.role, m.preview, m.estimate, m.toolCalls, m.line, JSON.stringify(m.usage), m.model];
      assert.deepEqual(two.metas.map(row), one.metas.map(row));
      assert.equal(two.problemCount, 0);
      // The chain facts each thread read off the lines while indexing them are the lines' own.
      for (const s of [one, two]) {
        for (let i = 0; i < s.metas.length; i++) assert.deepEqual(s.table.rare.get(i)?.lineFacts, lineFacts(asLine(s.entryAt(i))), `${s === one ? "one" : "two"} thread(s), line ${s.metas[i].line}`);
      }
      assert.deepEqual(f.chain?.(two, f.defaultLeaf(two)), f.chain?.(one, f.defaultLeaf(one)));
      // From the boundary: the summary merged with prompt 401, then per round an assistant
      // message and a user message (its result merged with the next prompt).
      assert.equal(f.context(two, f.defaultLeaf(two)).messages.length, 1 + 399 * 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
