import { strict as assert } from "node:assert";
import { clawdcodeFormat as f } from "../../../src/core/formats/clawdcode/format";
import { RowView } from "../../../src/explorer/row-view";
import { boundary, CWD, memory, summary, toolResult, toolUse, user } from "./lines";

describe("clawdcode rows: what each tool call did, titles for a person", () => {
  const s = memory([
    user("u1", null, "fix the build"),
    toolUse("c1", "u1", "call_1", "bash", { command: "npm run build" }),
    toolResult("r1", "c1", "call_1", "ok"),
    toolUse("c2", "r1", "call_2", "write", { path: `${CWD}/src/config.ts`, content: "export {}\n" }),
    toolResult("r2", "c2", "call_2", "written"),
    toolUse("c3", "r2", "call_3", "read", { path: "/etc/hosts" }),
    toolUse("c4", "c3", "call_4", "deploy", { target: "prod", dryRun: true }),
    boundary("b1", "c4", 5000),
    summary("s1", "b1", "We fixed it."),
  ]);
  const d = (id: string) => f.describe(s, s.requireIndex(id));
  const rows = new RowView(s);
  const text = (id: string) => rows.page(0, 100).find((r) => r.id === id)?.preview;

  it("one line per call, paths inside the cwd relative, unknown tools as key=value", () => {
    assert.equal(text("c1"), "$ npm run build");
    assert.equal(text("c2"), "Write src/config.ts (+1)");
    assert.equal(text("c3"), "Read /etc/hosts");
    assert.equal(text("c4"), "deploy target=prod, dryRun=true");
  });

  it("labels for a person, clawdcode's names second", () => {
    assert.deepEqual([d("c1").label, d("c1").typeName], ["Tool call", "tool_use"]);
    assert.deepEqual([d("r1").label, d("r1").typeName], ["Tool result", "tool_result"]);
    assert.deepEqual([d("b1").label, d("b1").typeName], ["Compaction", "compact_boundary"]);
    assert.deepEqual([d("s1").label, d("s1").typeName], ["Compaction summary", "compact summary"]);
  });
});
