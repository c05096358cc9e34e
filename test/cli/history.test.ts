import { strict as assert } from "node:assert";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import type { FileTouch } from "../../src/core/history/file-touch";
import { buildHistoryWorld, type HistoryWorld } from "../helpers/history-world";

/** Runs `ase` in this process with its own HOME and cache (no store of the machine's own is read). */
async function ase(w: HistoryWorld, args: string[], cwd = w.main): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const env = { HOME: join(w.base, "home"), XDG_CACHE_HOME: join(w.base, "xdg-cache") };
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd });
  return { code, out, err };
}

function dirArgs(w: HistoryWorld): string[] {
  return ["--dir", w.dirs.pi, "--dir", `claude-code=${w.dirs["claude-code"]}`, "--dir", `codex=${w.dirs.codex}`];
}

describe("ase history", () => {
  let w: HistoryWorld;
  before(() => {
    w = buildHistoryWorld();
  });

  it("text: newest first, time, agent, operation, session title, the prompt, the entry and an other checkout said", async () => {
    const r = await ase(w, ["history", "src/app.ts", ...dirArgs(w)]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    const lines = r.out.trimEnd().split("\n");
    assert.equal(lines[0], `${join(w.main, "src", "app.ts")}: 4 entries in 3 session(s), newest first`);
    assert.equal(lines[1], "2026-06-01 08:00  codex        edit   Bump n to one");
    assert.equal(lines[2], "    prompt: Bump n to one");
    assert.match(lines[3], new RegExp(`^    ${w.codexFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}  entry \\S+$`));
    assert.deepEqual(lines.slice(4, 7), ["2026-05-01 10:00  pi           edit   Greet in English please", "    prompt: Greet in English please", `    ${w.piFile}  entry p4`]);
    assert.equal(lines[7], "2026-05-01 10:00  pi           read   Greet in English please");
    assert.equal(lines[10], "2026-04-01 09:00  claude-code  write  Start the app file over");
    assert.equal(lines[12], `    ${w.ccFile}  entry a1  (other checkout: ${w.other})`);
    assert.equal(lines.length, 13);
  });

  it("--json: the FileTouch list, exact", async () => {
    const r = await ase(w, ["history", join(w.main, "src", "app.ts"), ...dirArgs(w), "--json"]);
    assert.equal(r.code, 0, r.err);
    const list = JSON.parse(r.out) as FileTouch[];
    assert.deepEqual(
      list.map((t) => [t.agent, t.operation, t.newText ?? null]),
      [
        ["codex", "edit", "export const n = 1;\n"],
        ["pi", "edit", "'hello'"],
        ["pi", "read", null],
        ["claude-code", "write", "export const n = 1;\n"],
      ],
    );
    assert.deepEqual(Object.keys(list[1]).sort(), ["absolutePath", "agent", "entryId", "newText", "oldText", "operation", "prompt", "sessionPath", "sessionTitle", "timestamp"]);
  });

  it("a file no agent touched: said, exit 0", async () => {
    const r = await ase(w, ["history", ".git/config", ...dirArgs(w)]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^no agent read, wrote or edited .*\.git\/config \(3 session file\(s\) indexed\)\n$/);
  });

  it("bad input: one clear line on stderr, nothing on stdout, exit 2", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["history"], /^ase history: missing file \(usage: ase history PATH/],
      [["history", "src"], /^ase history: src is a folder; give a file/],
      [["history", "src/nope.ts"], /^ase history: src\/nope\.ts: no such file$/],
      [["history", "src/app.ts", "src/other.ts"], /^ase history: expected one file, got 2/],
      [["history", "src/app.ts", "--agent", "frob"], /^ase history: unknown agent "frob"/],
      [["history", "src/app.ts", "--frob"], /^ase history: Unknown option '--frob'/],
    ];
    for (const [args, re] of cases) {
      const r = await ase(w, args);
      assert.equal(r.code, 2, `${args.join(" ")}: exit code (${r.err})`);
      assert.equal(r.out, "", `${args.join(" ")}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${args.join(" ")}: one line: ${r.err}`);
      assert.match(r.err.trimEnd(), re);
    }
  });
});
