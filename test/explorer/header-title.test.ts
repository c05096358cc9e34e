import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { ExplorerController } from "../../src/explorer/controller";
import { meta as codexMeta, msg, tempHome, THREAD, writeRollout } from "../formats/codex/helpers";
import { geminiMsg, lines, meta as geminiMeta, store, userMsg } from "../formats/gemini-cli/helpers";
import { tempDir } from "../helpers/session-builder";

/** The name the explorer's header shows (the webview falls back to the file name when there is none). */
async function headerName(file: string, titleOf?: (path: string) => string | undefined): Promise<string | undefined> {
  const c = new ExplorerController(await openSession(file), { trusted: () => true, ...(titleOf ? { titleOf } : {}) });
  return c.init().session.name;
}

describe("the explorer's header names a session as the Sessions view does, not by its file name", () => {
  it("a Codex rollout: the title the Sessions view lists it under (session_index.jsonl's thread name), else its first prompt", async () => {
    const { day } = tempHome();
    const file = writeRollout(day, THREAD, [codexMeta(), msg(1, "user", "Fix the flaky build please"), msg(2, "assistant", "On it")]);
    assert.equal(await headerName(file), "Fix the flaky build please");
    assert.equal(await headerName(file, (p) => (p === file ? "Flaky build" : undefined)), "Flaky build");
  });

  it("a Gemini CLI session without a summary: its first prompt", async () => {
    const root = tempDir();
    const chats = store(tempDir(), root);
    const file = join(chats, "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(file, lines([geminiMeta(root), userMsg("u1", "Explain the parser"), geminiMsg("g1", "It reads lines")]));
    assert.equal(await headerName(file), "Explain the parser");
  });
});
