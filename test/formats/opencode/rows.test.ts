import { strict as assert } from "node:assert";
import { join } from "node:path";
import { openSession } from "../../../src/core/formats/registry";

const DB = (scenario: string) => join(process.cwd(), "test", "fixtures", "opencode", scenario, "data", "opencode", "opencode.db");

/** The rows' text of a recorded session, in order. */
async function previews(scenario: string, id: string): Promise<string[]> {
  const s = await openSession(`${DB(scenario)}#${id}`);
  return s.metas.map((m) => m.preview);
}

describe("OpenCode rows say what a tool call does (recorded with opencode 1.18.33)", () => {
  it("read, bash, write and edit calls through the neutral summarizer, OpenCode's own keys (filePath, oldString) included; never JSON", async () => {
    const rows = await previews("tools", "ses_de8d83ea0ffejLxkuU3pROhsdj");
    for (const want of ["Read notes.txt", "Read missing.txt", "$ echo hi", "Write out.txt (+1)", "Edit notes.txt (-1 +1)"]) assert.ok(rows.includes(want), `a row "${want}" in ${JSON.stringify(rows)}`);
    assert.ok(!rows.some((r) => r.includes('{"')), `no row is JSON: ${JSON.stringify(rows)}`);
  });

  it("a task call names its sub-agent and what it was asked", async () => {
    const rows = await previews("subagent", "ses_de8d5a191ffexGseB0CxskbT0t");
    assert.ok(rows.includes("Agent (general): Survey the notes"), JSON.stringify(rows));
  });
});
