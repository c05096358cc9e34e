import { writeFileSync } from "node:fs";

/** A seed-000 line (15.1). */
function seedLine(id: string, parentId: string | null, type: string, content: string, t: number, metadata?: Record<string, unknown>): Record<string, unknown> {
  return { id, parentId, timestamp: 1767268800000 + t * 1000, type, content, ...(metadata ? { metadata } : {}) };
}

/**
 * A seed-000 session past both strategy gates: 72 messages (> 50 kept) and about 250k
 * estimated tokens (> the 180k limit), made of short user/assistant turns, a tool call
 * and result every fifth turn, and four very long answers (smart keeps those).
 */
export function longSeed000(path: string): { ids: string[] } {
  const lines: Array<Record<string, unknown>> = [];
  let parent: string | null = null;
  const add = (type: string, content: string, metadata?: Record<string, unknown>) => {
    const id = `s${String(lines.length + 1).padStart(3, "0")}`;
    lines.push(seedLine(id, parent, type, content, lines.length, metadata));
    parent = id;
  };
  const long = "the lexer reads one character at a time and emits tokens; ".repeat(4300);
  for (let t = 0; t < 30; t++) {
    add("user", `question ${t}`, t === 0 ? { cwd: "/work/long-demo" } : undefined);
    if (t % 5 === 0) {
      add("tool_call", JSON.stringify({ name: "read_file", input: { path: `src/part${t}.ts` } }));
      add("tool_result", `export const part${t} = ${t};`);
    }
    add("assistant", t % 8 === 3 ? `answer ${t}: ${long}` : `answer ${t}`, { model: "claude-sonnet-4-5" });
  }
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return { ids: lines.map((l) => l.id as string) };
}
