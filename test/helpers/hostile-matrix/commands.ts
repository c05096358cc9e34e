import type { CaseIds } from "./formats";

/** What a command runs on: the case's file, its store, its ids; `copy` is a file of its own for the commands that write. */
export interface Target {
  file: string;
  dirArg: string;
  ids: CaseIds;
  copy: string;
}

export interface Command {
  name: string;
  args(t: Target): string[];
  /** Runs on `copy` (fork writes a new file beside it, branch appends to it). */
  writes?: boolean;
  /** What its output must never say, given the decoy's folder (a file outside the project it would read). */
  forbids?(decoyDir: string): { pattern: RegExp; why: string };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A figure no reader can use (case 11: usage and cost of 1e308, -5, NaN-like values). */
const BAD_FIGURE = () => ({ pattern: /(?<![\w"])(?:NaN|-?Infinity)(?![\w"])|\$ ?-\d|(?<![\w.])\d+(?:\.\d+)?e[+-]\d+/, why: "a figure printed as NaN, Infinity, 1e+N or negative dollars" });

const CONTEXT_FORMATS = ["native", "pi", "anthropic", "xml", "chain"];

/** Every command of the CLI over one file (the matrix's columns). */
export const COMMANDS: readonly Command[] = [
  { name: "tree", args: (t) => ["tree", t.file] },
  { name: "tree --all --json", args: (t) => ["tree", t.file, "--all", "--json"] },
  ...CONTEXT_FORMATS.map((f): Command => ({ name: `context --format ${f}`, args: (t) => ["context", t.file, "--format", f] })),
  { name: "files", args: (t) => ["files", t.file] },
  { name: "tokens", args: (t) => ["tokens", t.file], forbids: BAD_FIGURE },
  { name: "tokens --timeline", args: (t) => ["tokens", t.file, "--timeline"], forbids: BAD_FIGURE },
  { name: "cost", args: (t) => ["cost", t.file], forbids: BAD_FIGURE },
  { name: "cost --by model", args: (t) => ["cost", t.file, "--by", "model"], forbids: BAD_FIGURE },
  { name: "cost --json", args: (t) => ["cost", t.file, "--json"] },
  { name: "fork --at", args: (t) => ["fork", t.copy, "--at", t.ids.at], writes: true },
  { name: "diff --a --b", args: (t) => ["diff", t.file, "--a", t.ids.a, "--b", t.ids.b] },
  { name: "export", args: (t) => ["export", t.file] },
  { name: "export --all --format json", args: (t) => ["export", t.file, "--all", "--format", "json"] },
  {
    name: "compact --dry-run",
    args: (t) => ["compact", t.file, "--dry-run"],
    // clawdcode's plan lists the files its summary prompt would include (case 2: cwd "/").
    forbids: (d) => ({ pattern: new RegExp(`files for the summary[^\\n]*${escaped(d)}`), why: "the plan would read a file outside the project (the decoy) into the summary" }),
  },
  { name: "branch --to", args: (t) => ["branch", t.copy, "--to", t.ids.to], writes: true },
  { name: "search --file", args: (t) => ["search", "answer", "--file", t.file] },
  { name: "search --regex --file", args: (t) => ["search", "ex?port[s ]", "--regex", "--file", t.file] },
  { name: "list --dir", args: (t) => ["list", "--dir", t.dirArg, "--json"] },
  { name: "cost --total --dir", args: (t) => ["cost", "--total", "--dir", t.dirArg], forbids: BAD_FIGURE },
  { name: "search --dir", args: (t) => ["search", "question", "--dir", t.dirArg] },
  // The history of the session file itself: the index reads every session of the store.
  { name: "history --dir", args: (t) => ["history", t.file, "--dir", t.dirArg] },
];

/** Files the hostile arguments need, made once by the matrix. */
export interface ArgumentFiles {
  fifo: string;
  protoPrices: string;
}

/** The audit's hostile arguments (defects 1, 7, 13, 14, 15), each run over a few files: the matrix's second block. */
export function hostileArguments(files: ArgumentFiles): Command[] {
  const regex = (name: string, pattern: string): Command => ({ name, args: (t) => ["search", pattern, "--regex", "--file", t.file] });
  return [
    regex("search /(a+)+$/", "(a+)+$"),
    regex("search /(\\w+\\s?)+$/", "(\\w+\\s?)+$"),
    regex("search /^(a|aa)+$/", "^(a|aa)+$"),
    regex("search /(.*a){20}/", "(.*a){20}"),
    { name: "search 40 KB text", args: (t) => ["search", "a".repeat(40 * 1024), "--file", t.file] },
    regex("search 40 KB regex", "[ab]".repeat(10 * 1024)),
    regex("search /\\p{Lu}/", "\\p{Lu}"),
    regex("search /😀./", "😀."),
    { name: "cost --prices FIFO", args: (t) => ["cost", t.file, "--prices", files.fifo] },
    { name: "cost --prices /dev/zero", args: (t) => ["cost", t.file, "--prices", "/dev/zero"] },
    { name: "cost --prices __proto__+100k keys", args: (t) => ["cost", t.file, "--prices", files.protoPrices] },
  ];
}

/** A price table with "__proto__", "constructor" and 100,000 models. */
export function protoPriceTable(): string {
  const price = { input: 1, output: 2, cacheWrite: 1, cacheRead: 0.1 };
  const keys = [`"__proto__":${JSON.stringify(price)}`, `"constructor":${JSON.stringify(price)}`];
  for (let i = 0; i < 100_000; i++) keys.push(`"model-${i}":${JSON.stringify(price)}`);
  return `{${keys.join(",")}}`;
}
