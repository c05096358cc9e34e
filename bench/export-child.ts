import { createWriteStream } from "node:fs";
import { openSession } from "../src/core/formats/registry";
import { writeHtmlExport } from "../src/explorer/html-export";
import { passThroughRedactor } from "../src/core/export/redactor";
import { peakRssBytes } from "./peak-rss";

/**
 * One HTML export in a fresh process, so its peak RSS is its own:
 *   node export-child.js SESSION OUT
 * Prints one JSON line: {ms, maxRssBytes, bytes, entries}. The page is streamed to OUT as
 * `ase export` and Export Session write a large one.
 */

async function main(file: string, out: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  const session = await openSession(file);
  const stream = createWriteStream(out);
  let bytes = 0;
  await writeHtmlExport(session, { redactor: passThroughRedactor() }, (chunk) => {
    bytes += Buffer.byteLength(chunk);
    if (stream.write(chunk)) return undefined;
    return new Promise<void>((resolve) => stream.once("drain", resolve));
  });
  await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: peakRssBytes(), bytes, entries: session.metas.length })}\n`);
}

main(process.argv[2], process.argv[3]).catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exitCode = 1;
});
