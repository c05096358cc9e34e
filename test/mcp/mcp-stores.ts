import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { buildStores, type Stores } from "../helpers/search-stores";
import { assistant, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

/** The search tests' three stores (pi, Claude Code, ClawdCode) plus what the MCP tests page through and attack. */
export interface McpStores extends Stores {
  /** pi sessions of a second project, oldest first, for paging. */
  many: string[];
  /** A pi session whose context is far over one page. */
  big: string;
  /** A pi session outside every store. */
  outside: string;
  /** A link inside pi's store to `outside`. */
  link: string;
  /** XDG_CACHE_HOME and HOME of the server. */
  cacheHome: string;
  home: string;
}

export const MANY = 12;
export const BIG_CHARS = 150_000;

export function buildMcpStores(): McpStores {
  const s = buildStores();
  const proj = join(s.pi, "--home-bo-paging--");
  mkdirSync(proj, { recursive: true });
  const many: string[] = [];
  for (let i = 0; i < MANY; i++) {
    const id = `aaaaaaaa-0000-0000-0000-${String(i).padStart(12, "0")}`;
    const file = writeSession([header({ id, cwd: "/home/bo/paging" }), user(`u${i}`, null, `paging prompt number ${i}`), assistant(`a${i}`, `u${i}`, `answer ${i}`)], { dir: proj, name: `2026-02-01T00-00-${String(i).padStart(2, "0")}-000Z_${id}.jsonl` });
    const t = new Date(Date.UTC(2026, 1, 1 + i));
    utimesSync(file, t, t);
    many.push(file);
  }
  const bigId = "bbbbbbbb-0000-0000-0000-000000000000";
  mkdirSync(join(s.pi, "--home-bo-big--"));
  const big = writeSession(
    [
      header({ id: bigId, cwd: "/home/bo/big" }),
      user("b1", null, "read the big file"),
      assistant("b2", "b1", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "big.txt" } }] }),
      toolResult("b3", "b2", "c1", "read", `${"x".repeat(BIG_CHARS / 2)}"quoted"\n${"y".repeat(BIG_CHARS / 2)}`),
      assistant("b4", "b3", "It is big.", { usage: { input: 60_000, output: 500, cacheRead: 0, cacheWrite: 0, totalTokens: 60_500 } }),
    ],
    { dir: join(s.pi, "--home-bo-big--"), name: `2026-01-15T00-00-00-000Z_${bigId}.jsonl` },
  );
  utimesSync(big, new Date("2026-01-15T00:00:00Z"), new Date("2026-01-15T00:00:00Z"));
  const outsideDir = tempDir();
  const outside = writeSession([header({ id: "cccccccc-0000-0000-0000-000000000000", cwd: "/home/eve/secret" }), user("s1", null, "a secret outside the stores")], { dir: outsideDir, name: "secret.jsonl" });
  const link = join(s.pi, "--home-bo-paging--", "link.jsonl");
  symlinkSync(outside, link);
  return { ...s, many, big, outside, link, cacheHome: tempDir(), home: tempDir() };
}

/** Every file under a folder with its size, mtime and content hash: what "nothing was written" compares. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const st = statSync(p);
        out[p] = `${st.size}:${st.mtimeMs}:${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
      } else out[p] = "link";
    }
  };
  walk(dir);
  return out;
}
