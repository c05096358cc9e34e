import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { piAgentDir, projectContextFiles, reconstructSystemPrompt } from "../../src/core/formats/pi/context/system-prompt";
import { systemPromptFile } from "../../src/core/session/system-prompt";
import { main } from "../../src/cli/main";
import { header, tempDir, user, writeSession } from "../helpers/session-builder";

function put(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

describe("system prompt reconstruction (pi's files)", () => {
  it("loads the agent dir's file first, then root..cwd, AGENTS.md before CLAUDE.md", () => {
    const root = tempDir();
    const agent = join(root, "agent");
    const cwd = join(root, "work", "proj");
    put(join(agent, "CLAUDE.md"), "global");
    put(join(root, "work", "AGENTS.md"), "parent");
    put(join(root, "work", "CLAUDE.md"), "ignored: AGENTS.md wins in the same dir");
    put(join(cwd, "CLAUDE.md"), "project");
    const files = projectContextFiles(cwd, agent);
    assert.deepEqual(files.map((f) => f.content), ["global", "parent", "project"]);
    const sp = reconstructSystemPrompt({ cwd, agentDir: agent });
    assert.equal(sp.reconstructed, true);
    assert.ok(sp.text.indexOf("global") < sp.text.indexOf("parent") && sp.text.indexOf("parent") < sp.text.indexOf("project"));
    assert.ok(sp.notes.some((n) => /not reproduced/.test(n)));
  });

  it("SYSTEM.md replaces the base prompt (context files only via {{context}}); APPEND_SYSTEM.md is added", () => {
    const root = tempDir();
    const agent = join(root, "agent");
    const cwd = join(root, "proj");
    put(join(cwd, "AGENTS.md"), "project rules");
    put(join(agent, "SYSTEM.md"), "global system");
    put(join(cwd, ".pi", "SYSTEM.md"), "project system, no placeholder");
    put(join(agent, "APPEND_SYSTEM.md"), "appended");
    let sp = reconstructSystemPrompt({ cwd, agentDir: agent });
    assert.deepEqual(sp.parts.map((p) => p.source), ["system-file", "append-file"]);
    assert.ok(sp.text.startsWith("project system") && sp.text.includes("appended") && !sp.text.includes("project rules"));
    put(join(cwd, ".pi", "SYSTEM.md"), "before {{context}} after");
    sp = reconstructSystemPrompt({ cwd, agentDir: agent });
    assert.ok(sp.text.startsWith("before ") && sp.text.includes("project rules") && sp.text.includes(" after"));
  });

  it("agent dir from PI_CODING_AGENT_DIR; a named file is used as is; a missing one is a one-line error", () => {
    assert.equal(piAgentDir({ PI_CODING_AGENT_DIR: "/x/y" }), "/x/y");
    assert.ok(piAgentDir({}).endsWith(join(".pi", "agent")));
    const f = join(tempDir(), "sys.txt");
    writeFileSync(f, "mine");
    assert.deepEqual([systemPromptFile(f).text, systemPromptFile(f).reconstructed], ["mine", false]);
    assert.throws(() => systemPromptFile("/no/such/file"), /^Error: --system \/no\/such\/file: cannot read: no such file$/);
  });

  it("ase context --system auto puts the reconstructed prompt in the output and says so on stderr", async () => {
    const root = tempDir();
    const cwd = join(root, "proj");
    put(join(cwd, "AGENTS.md"), "PROJECT-RULES");
    const file = writeSession([header({ cwd }), user("20000001", null, "hi")]);
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["context", file, "--system", "auto"], { out: (t) => out.push(t), err: (t) => err.push(t), env: { PI_CODING_AGENT_DIR: join(root, "agent") }, cwd: root });
    assert.equal(code, 0);
    assert.ok((JSON.parse(out.join("")) as { systemPrompt: string }).systemPrompt.includes("PROJECT-RULES"));
    assert.match(err.join(""), /RECONSTRUCTED/);
  });

  it("--system auto on a format with no rebuilt prompt of its own is refused by name (not pi's prompt, labelled pi's); a file still works", async () => {
    const root = tempDir();
    // The project holds what pi's rule would read: nothing of it may show up for another agent.
    put(join(root, "AGENTS.md"), "PROJECT-RULES");
    const file = join(root, "s.jsonl");
    writeFileSync(file, `${JSON.stringify({ id: "m1", parentId: null, timestamp: 1770714001200, type: "user", content: "hi", metadata: { cwd: root } })}\n`);
    const run = async (system: string) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(["context", file, "--system", system], { out: (t) => out.push(t), err: (t) => err.push(t), env: { PI_CODING_AGENT_DIR: join(root, "agent") }, cwd: root });
      return { code, out: out.join(""), err: err.join("") };
    };
    const auto = await run("auto");
    assert.equal(auto.code, 2, auto.err);
    assert.equal(auto.out, "");
    assert.match(auto.err, /--system auto: Seed 000 sessions have no rebuilt system prompt; give a file \(--system FILE\)\n$/);
    assert.doesNotMatch(auto.err, /PROJECT-RULES|RECONSTRUCTED/);
    put(join(root, "sys.txt"), "MINE");
    const named = await run(join(root, "sys.txt"));
    assert.equal(named.code, 0, named.err);
  });
});
