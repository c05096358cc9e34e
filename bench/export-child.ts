import { createWriteStream } from "node:fs";
import { writeSessionJson } from "../src/core/export/json";
import { writeSessionMarkdown } from "../src/core/export/markdown";
import { openSession } from "../src/core/formats/registry";
import { HeapTrim } from "../src/core/util/heap-trim";
import { writeHtmlExport } from "../src/explorer/html-export";
import { passThroughRedactor } from "../src/core/export/redactor";
import { peakRssBytes } from "./peak-rss";

/**
 * One export in a fresh process, so its peak RSS is its own:
 *   node export-child.js SESSION OUT [html|md|json]
 * Prints one JSON line: {ms, maxRssBytes, bytes, entries}. Each format is
 * streamed to OUT as `ase export` writes it, the whole tree.
 */

async function main(file: string, out: string, format: string): Promise<void> {
  const t0 = process.hrtime.bigint();
  const session = await openSession(file);
  const stream = createWriteStream(out);
  let bytes = 0;
  const sink = (chunk: string): Promise<void> | undefined => {
    bytes += Buffer.byteLength(chunk);
    if (stream.write(chunk)) return undefined;
    return new Promise<void>((resolve) => stream.once("drain", resolve));
  };
  const redactor = passThroughRedactor();
  // As `ase export` makes it: a process of its own, its heap trimmed as it goes.
  if (format === "html") await writeHtmlExport(session, { redactor, heapTrim: new HeapTrim() }, sink);
  else if (format === "json") await writeSessionJson(session, redactor, { all: true, redacted: false }, sink);
  else if (format === "md") await writeSessionMarkdown(session, redactor, { all: true, heapTrim: new HeapTrim() }, sink);
  else throw new Error(`unknown format ${format}`);
  await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: peakRssBytes(), bytes, entries: session.metas.length })}\n`);
}

main(process.argv[2], process.argv[3], process.argv[4] ?? "html").catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exitCode = 1;
});
