import { baseTurns, type CaseIds, type FormatId, idOf, type Raw, readCall, sessionLines, type SessionFacts, type Turn } from "./formats";
import { expand, HOLE, type Line } from "./write-lines";

/** What a twist writes: the lines of one session file, or a writer of its own (big files). */
export interface TwistOutput {
  lines: Line[];
  torn?: boolean;
  ids?: CaseIds;
}

export interface TwistContext {
  format: FormatId;
  facts: SessionFacts;
  /** A file outside the temp dir whose text must never reach any output. */
  decoyFile: string;
}

export interface Twist {
  name: string;
  /** What it attacks, for the report (numbers are the audit's defects). */
  about: string;
  /** The session stays valid (only odd): `tree` must open it (exit 0), not refuse it. */
  opens?: boolean;
  /** The formats it applies to (all when absent). */
  only?: readonly FormatId[];
  make(ctx: TwistContext): TwistOutput;
}

const ESC = "\u001b[31mRED\u001b[0m\u001b]0;pwned\u0007";
const RLO = "\u202E";
const CHARS_100K = 100_000;
const lines = (ctx: TwistContext, turns: Turn[]): Raw[] => sessionLines(ctx.format, turns, ctx.facts);

/** A conversation line after the header (pi's line 0 is its header). */
const firstTurnLine = (f: FormatId) => (f.startsWith("pi") ? 1 : 0);

/** A straight chain of `n` turns (user/assistant alternating) and a side leaf that repeats the chain's last message. */
function deepChain(format: FormatId, n: number): { turns: Turn[]; ids: CaseIds } {
  const turns: Turn[] = [];
  for (let i = 1; i <= n; i++) turns.push({ n: i, parent: i === 1 ? null : i - 1, role: i % 2 ? "user" : "assistant", text: i === n ? "the shared message" : `step ${i}`, usage: i % 2 ? undefined : { input: 100 + i, output: 5 } });
  // The diff finds "the shared message" only after ~n messages of the other side.
  const side = format === "pi-v1" ? n : 1;
  turns.push({ n: n + 1, parent: side, role: n % 2 ? "assistant" : "user", text: "the shared message" });
  return { turns, ids: { at: idOf(format, Math.floor(n / 2)), a: idOf(format, n), b: idOf(format, n + 1), to: idOf(format, 2) } };
}

/** Tens of thousands of tool results, each on a side branch of the same call. */
function sideResults(format: FormatId, count: number): Turn[] {
  const turns = baseTurns(format);
  const linear = format === "pi-v1";
  for (let i = 0; i < count; i++) turns.push({ n: 100 + i, parent: linear ? 99 + i : 2, role: "result", text: `side result ${i}`, answers: { id: "call_1", name: readCall(format, "", "").name } });
  return turns;
}

export const TWISTS: readonly Twist[] = [
  { name: "plain", opens: true, about: "a valid session (control)", make: (c) => ({ lines: lines(c, baseTurns(c.format)) }) },
  {
    name: "truncated",
    about: "a last line torn mid-JSON",
    make(c) {
      const ls: Line[] = lines(c, baseTurns(c.format));
      const last = JSON.stringify(ls[ls.length - 1]);
      ls[ls.length - 1] = last.slice(0, Math.floor(last.length / 2));
      return { lines: ls, torn: true };
    },
  },
  {
    name: "escapes",
    opens: true,
    about: "NUL, lone surrogates, ESC and RLO in texts, names and paths",
    make(c) {
      const odd = `a\u0000b lone\ud800x \udc00 ${ESC} ${RLO}gnp.js`;
      const turns = baseTurns(c.format, { text: odd, path: `src/${odd}` });
      turns[3].model = `model${ESC}${RLO}\u0000`;
      return { lines: lines(c, turns) };
    },
  },
  {
    name: "raw-bytes",
    about: "a line of raw NUL and invalid UTF-8 bytes in the middle",
    make(c) {
      const ls: Line[] = lines(c, baseTurns(c.format));
      ls.splice(3, 0, Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x00, 0xed, 0xa0, 0x80, 0x7d]));
      return { lines: ls };
    },
  },
  {
    name: "cycle",
    about: "a parent cycle (1 -> 4 -> 3 -> 2 -> 1) and a self-parent",
    only: ["pi-v3", "pi-v2", "claude-code", "clawdcode", "seed-000"],
    make(c) {
      const turns = baseTurns(c.format);
      turns[0].parent = 4;
      turns[5].parent = 6;
      return { lines: lines(c, turns) };
    },
  },
  {
    name: "dup-ids",
    about: "duplicate ids (a later entry reuses an earlier id)",
    only: ["pi-v3", "pi-v2", "claude-code", "clawdcode", "seed-000"],
    make(c) {
      const turns = baseTurns(c.format);
      turns.push({ ...turns[1], n: 2, parent: 4, text: "dup of 2" }, { ...turns[3], n: 4, parent: 2, text: "dup of 4" });
      return { lines: lines(c, turns) };
    },
  },
  {
    name: "deep-chain",
    opens: true,
    about: "a 130,000-deep chain; a diff whose shared message comes after 130,000 others (8)",
    only: ["pi-v3", "claude-code", "clawdcode", "seed-000"],
    make(c) {
      const { turns, ids } = deepChain(c.format, 130_000);
      return { lines: lines(c, turns), ids };
    },
  },
  {
    name: "side-results",
    opens: true,
    about: "20,000 tool results on side branches of one call (9)",
    only: ["pi-v3", "claude-code", "clawdcode", "seed-000"],
    make: (c) => ({ lines: lines(c, sideResults(c.format, 20_000)) }),
  },
  {
    name: "big-first-line",
    opens: true,
    about: "a first line over 64 KiB (5)",
    make(c) {
      const ls = lines(c, baseTurns(c.format, { text: `long prompt ${"p".repeat(70 * 1024)}` }));
      // pi's first line is its header: pad that too.
      if (c.format.startsWith("pi")) ls[0] = { ...ls[0], note: "h".repeat(70 * 1024) };
      return { lines: ls };
    },
  },
  {
    name: "nested",
    opens: true,
    about: "one line with 5,000 nested arrays (6)",
    make(c) {
      const ls: Line[] = lines(c, baseTurns(c.format, { path: HOLE }));
      const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
      // The read call's path is the nest; the seed's call is a JSON string, so the nest goes in it and beside it.
      const i = ls.findIndex((l) => JSON.stringify(l).includes("HOLE"));
      let o = ls[i] as Raw;
      if (c.format === "seed-000") o = { ...o, content: `{"name":"read","input":{"path":${deep}}}`, nest: HOLE };
      ls[i] = expand(o, deep);
      return { lines: ls };
    },
  },
  {
    name: "huge-numbers",
    opens: true,
    about: "usage and cost of 1e308, Infinity, -5, NaN-like strings (11)",
    make(c) {
      const turns = baseTurns(c.format);
      turns[3].usage = { input: 1e308, output: 1e308, cost: 1e308 };
      turns[5].usage = { input: -5, output: "NaN", cost: -5 };
      turns[1].usage = { input: "1e999", output: Number.MAX_SAFE_INTEGER * 4, cost: "NaN" };
      const ls: Line[] = lines(c, turns);
      // 1e999 is valid JSON text that parses to Infinity; JSON.stringify cannot write it.
      const i = firstTurnLine(c.format) + 1;
      ls[i] = JSON.stringify(ls[i]).replace('"1e999"', "1e999");
      return { lines: ls };
    },
  },
  {
    name: "long-names",
    opens: true,
    about: "100,000-character model names, tool names, paths and sub-agent types (12)",
    make(c) {
      const long = (s: string) => `${s}${ESC}${RLO}\n◉ forged row `.padEnd(CHARS_100K, s[0]);
      const turns = baseTurns(c.format, { path: `/home/ana/${long("p")}.ts` });
      turns[3].model = long("m");
      if (turns[1].call) turns[1].call.name = c.format === "claude-code" ? "Read" : turns[1].call.name;
      turns.push(
        { n: 7, parent: 4, role: "assistant", text: "delegating", model: long("n"), call: { id: "call_t", name: c.format === "claude-code" ? "Task" : long("t"), input: { description: long("d"), prompt: "go", subagent_type: long("s") } } },
        { n: 8, parent: 7, role: "result", text: "report", answers: { id: "call_t", name: "Task" } },
      );
      return { lines: lines(c, turns) };
    },
  },
  {
    name: "redos-text",
    opens: true,
    about: "50,000 a's then a '!' (the text the catastrophic regexes of (1) meet)",
    make: (c) => ({ lines: lines(c, baseTurns(c.format, { text: `${"a".repeat(50_000)}!` })) }),
  },
  {
    name: "cwd-root",
    opens: true,
    about: 'cwd "/" and tool calls naming files outside any project (2)',
    make(c) {
      const turns = baseTurns(c.format, { path: c.decoyFile });
      turns.push({ n: 7, parent: 4, role: "assistant", text: "editing", call: { id: "call_e", name: c.format === "claude-code" ? "Edit" : "edit", input: { path: "etc/hostname", file_path: "../../../../etc/hostname", old_string: "a", new_string: "b", oldText: "a", newText: "b" } } });
      return { lines: sessionLines(c.format, turns, { ...c.facts, cwd: "/" }) };
    },
  },
  {
    name: "header-only",
    about: "a session with no conversation (pi: the header alone; Claude Code: one metadata line)",
    only: ["pi-v3", "claude-code"],
    make: (c) => ({ lines: c.format === "claude-code" ? [{ type: "summary", summary: "nothing", leafUuid: idOf("claude-code", 1) }] : lines(c, []) }),
  },
];

