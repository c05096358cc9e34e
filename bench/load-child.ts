import { Session } from "../src/core/store/session";
import { scanLines } from "../src/core/store/line-scanner";

/**
 * Runs one load in a fresh process so its peak RSS is its own:
 *   node load-child.js index|parse FILE
 * Prints one JSON line: {ms, maxRssBytes, entries}.
 */
export async function loadChild(mode: string, file: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  let entries = 0;
  if (mode === "index") {
    const s = await Session.load(file);
    entries = s.metas.length;
  } else {
    // The limit to compare with: stream the same lines and JSON.parse each, keep nothing.
    await scanLines(file, (l) => {
      JSON.parse(l.buf.toString("utf8", l.start, l.end));
      entries++;
    });
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, entries })}\n`);
}

if (require.main === module) {
  loadChild(process.argv[2], process.argv[3]).catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = 1;
  });
}
