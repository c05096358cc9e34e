import { FileTally } from "../../session/file-tally";
import type { FileActivity } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";

/** Claude Code's file tools and what each does to the file it names (doc section 6). */
const FILE_TOOLS: Readonly<Record<string, { kind: "read" | "written" | "edited"; arg: string }>> = {
  Read: { kind: "read", arg: "file_path" },
  Write: { kind: "written", arg: "file_path" },
  Edit: { kind: "edited", arg: "file_path" },
  MultiEdit: { kind: "edited", arg: "file_path" },
  NotebookEdit: { kind: "edited", arg: "notebook_path" },
};

/**
 * Files read, written and edited by the tool calls of the assistant lines at these
 * positions, in the order first touched. Bash commands are not read for paths: a
 * command's paths are not certain (globs, variables, cd), so none is claimed.
 */
export function claudeCodeFiles(session: SessionReader, positions: readonly number[]): FileActivity[] {
  const tally = new FileTally();
  for (const i of positions) {
    if (!session.table.toolCalls[i]) continue;
    const line = session.entryAt(i) as { uuid?: unknown; message?: { content?: unknown } };
    const blocks = Array.isArray(line.message?.content) ? (line.message?.content as Array<Record<string, unknown>>) : [];
    for (const b of blocks) {
      if (b?.type !== "tool_use") continue;
      const tool = FILE_TOOLS[String(b.name)];
      const input = b.input as Record<string, unknown> | undefined;
      const path = tool && input ? input[tool.arg] : undefined;
      if (tool && typeof path === "string" && path) tally.touch(path, String(line.uuid ?? session.metas[i].id))[tool.kind]++;
    }
  }
  return tally.list();
}
