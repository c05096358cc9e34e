import { linkSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The listing bench's store in `root`: `count` sessions in ten pi project folders, hard links
 * to three sources (every 100th the third, every 10th the second, the rest the first), so
 * 1,000 real files of several GB cost no disk. Returns their total size in bytes.
 */
export function linkBenchStore(root: string, sources: readonly string[], count: number): number {
  let total = 0;
  for (let k = 0; k < count; k++) {
    const dir = join(root, `--bench-project-${k % 10}--`);
    mkdirSync(dir, { recursive: true });
    const src = k % 100 === 0 ? sources[2] : k % 10 === 0 ? sources[1] : sources[0];
    linkSync(src, join(dir, `2026-01-01T00-00-00-000Z_${String(k).padStart(8, "0")}.jsonl`));
    total += statSync(src).size;
  }
  return total;
}
