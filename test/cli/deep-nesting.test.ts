import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { assistant, header, type Raw, user, writeSession, tempDir } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

/** Deeper than any walk (ours or V8's JSON.stringify, ~4,000 levels) can recurse: ~10 KB. */
const DEPTH = 5000;
const DEEP = "[".repeat(DEPTH) + "]".repeat(DEPTH);
/** Stands for the deep value in a line built as an object, replaced in its JSON text. */
const HOLE = "__DEEP__";

function withDeep(o: Raw): string {
  return JSON.stringify(o).replace(JSON.stringify(HOLE), DEEP);
}

function ase(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * One session per format: a chain of four messages ("alpha" .. "delta"), a side entry
 * whose tool input nests DEPTH arrays deep, and a line that is nothing but DEPTH nested
 * arrays. The two deep lines are `deepLines` (1-based line numbers).
 */
interface DeepCase {
  name: string;
  file: string;
  deepLines: number[];
}

function piCase(): DeepCase {
  const lines = [
    header(),
    user("00000001", null, "hello alpha"),
    assistant("00000002", "00000001", "reply beta"),
    withDeep(assistant("0000000d", "00000002", "deep side", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.ts", deep: HOLE } }] })),
    DEEP,
    user("00000003", "00000002", "question gamma"),
    assistant("00000004", "00000003", "answer delta"),
  ];
  return { name: "pi", file: writeSession(lines), deepLines: [4, 5] };
}

function seedCase(): DeepCase {
  const t = 1770714001000;
  const line = (id: string, parentId: string | null, type: string, content: string) => ({ id, parentId, timestamp: t, type, content, metadata: { cwd: "/home/dev/demo" } });
  const lines = [
    line("m1", null, "user", "hello alpha"),
    line("m2", "m1", "assistant", "reply beta"),
    // seed-000 tool calls are JSON in a string: the deep value is parsed only when read.
    line("md", "m2", "tool_call", `{"name":"read_file","input":{"path":"a.ts","deep":${DEEP}}}`),
    DEEP,
    line("m3", "m2", "user", "question gamma"),
    line("m4", "m3", "assistant", "answer delta"),
  ];
  return { name: "seed-000", file: writeSession(lines), deepLines: [3, 4] };
}

function clawdcodeCase(): DeepCase {
  const sessionId = "5e5a0002-aaaa-4aaa-8aaa-00000000000d";
  const uuid = (n: number) => `aaaa0002-0000-4000-8000-00000000000${n}`;
  const line = (n: number, parent: number | null, type: string, role: string, content: string, extra: Raw = {}) => ({
    uuid: uuid(n),
    parentUuid: parent === null ? null : uuid(parent),
    sessionId,
    timestamp: `2026-02-11T14:00:0${n}.000Z`,
    cwd: "/home/dev/demo",
    version: "0.4.2",
    type,
    message: { role, content },
    ...extra,
  });
  const lines = [
    line(1, null, "user", "user", "hello alpha"),
    line(2, 1, "assistant", "assistant", "reply beta"),
    withDeep(line(9, 2, "tool_use", "assistant", "", { tool: { id: "call_1", name: "grep", input: { pattern: "x", deep: HOLE } } })),
    DEEP,
    line(3, 2, "user", "user", "question gamma"),
    line(4, 3, "assistant", "assistant", "answer delta"),
  ];
  const dir = join(tempDir(), "-home-dev-demo");
  mkdirSync(dir);
  return { name: "clawdcode", file: writeSession(lines, { dir, name: `${sessionId}.jsonl` }), deepLines: [3, 4] };
}

function claudeCodeCase(): DeepCase {
  const sessionId = "bbbbbbbb-2222-4222-8222-33333333333d";
  const uuid = (n: number) => `b2100000-0000-4000-8000-00000000000${n}`;
  const line = (n: number, parent: number | null, type: string, content: unknown) => ({
    parentUuid: parent === null ? null : uuid(parent),
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/demo",
    sessionId,
    version: "2.1.90",
    type,
    message: type === "assistant" ? { model: "claude-sonnet-4-5", id: `msg_${n}`, type: "message", role: "assistant", content, usage: { input_tokens: 4, output_tokens: 5 } } : { role: "user", content },
    uuid: uuid(n),
    timestamp: `2026-03-01T10:00:0${n}.000Z`,
  });
  const lines = [
    line(1, null, "user", "hello alpha"),
    line(2, 1, "assistant", [{ type: "text", text: "reply beta" }]),
    withDeep(line(9, 2, "assistant", [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/home/dev/demo/a.txt", deep: HOLE } }])),
    DEEP,
    line(3, 2, "user", "question gamma"),
    line(4, 3, "assistant", [{ type: "text", text: "answer delta" }]),
  ];
  return { name: "claude-code", file: writeSession(lines, { name: `${sessionId}.jsonl` }), deepLines: [3, 4] };
}

describe(`a line nested ${DEPTH} levels deep: reported as that line's problem, the rest of the session read`, function () {
  this.timeout(300_000);

  for (const make of [piCase, seedCase, clawdcodeCase, claudeCodeCase]) {
    describe(make.name, () => {
      let c: DeepCase;
      before(() => {
        c = make();
      });

      for (const command of ["tree", "context", "tokens", "files", "cost"]) {
        it(`ase ${command}: exit 0, the deep lines named, the other messages shown`, () => {
          const r = ase([command, c.file]);
          assert.equal(r.code, 0, `exit code; stderr: ${r.err}`);
          assert.doesNotMatch(r.err, /call stack/i);
          for (const n of c.deepLines) assert.match(r.err, new RegExp(`line ${n}: (.*: )?[a-z_ ]*nesting too deep`), `line ${n} reported`);
          if (command === "tree" || command === "context") {
            for (const word of ["alpha", "beta", "gamma", "delta"]) assert.ok(r.out.includes(word), `"${word}" in the ${command} output`);
          }
        });
      }

      it("ase search: finds the other lines' words, no stack overflow", () => {
        const r = ase(["search", "gamma", "--file", c.file]);
        assert.equal(r.code, 0, `exit code; stderr: ${r.err}`);
        assert.doesNotMatch(r.err, /call stack/i);
        assert.ok(r.out.includes("gamma"), r.out);
      });

      it("ase tree --json: the deep entries are not entries, the others are", () => {
        const r = ase(["tree", c.file, "--json"]);
        assert.equal(r.code, 0, r.err);
        assert.ok(!r.out.includes("[[[["), "no deep value in the output");
        assert.ok(r.out.includes("delta"));
      });
    });
  }
});
