import type { FileActivity } from "../../session/session-format";
import { FileTally } from "../../session/file-tally";
import type { SessionReader } from "../../session/session-reader";
import type { ClawdcodeLine } from "./lines";
import { toolKind, toolPaths } from "./tool-files";

/**
 * Files read, written and edited by the lines at these positions, in the order first
 * touched: tool_use lines by their tool's name, and the files a compaction read for its
 * summary (compactMetadata.filesIncluded) as read "from summary". Only those lines are read.
 */
export function clawdcodeFiles(session: SessionReader, positions: readonly number[]): FileActivity[] {
  const tally = new FileTally();
  for (const i of positions) {
    const type = session.table.typeAt(i);
    if (type === "tool_use") {
      const line = session.entryAt(i) as unknown as ClawdcodeLine;
      const kind = toolKind(line.tool?.name);
      if (!kind) continue;
      for (const p of toolPaths(line.tool?.input)) tally.touch(p, line.uuid)[kind]++;
    } else if (type === "system" && session.table.rare.get(i)?.tokensBefore !== undefined) {
      const line = session.entryAt(i) as unknown as ClawdcodeLine;
      const files = line.compactMetadata?.filesIncluded;
      if (!Array.isArray(files)) continue;
      for (const f of files) {
        if (typeof f === "string" && f) tally.fromSummary(f, line.uuid, "read");
      }
    }
  }
  return tally.list();
}
