import { createWriteStream } from "node:fs";
import { openSession } from "../src/core/formats/registry";
import { writeHtmlPage } from "../src/core/export/html";
import { PageModel } from "../src/explorer/page-model";
import { passThroughRedactor } from "../src/core/export/redactor";
import { peakRssBytes } from "./peak-rss";

const mb = (n: number) => (n / 1048576).toFixed(0);
function stage(name: string): void {
  const m = process.memoryUsage();
  const before = `${mb(m.rss)}/${mb(m.heapUsed)}`;
  (globalThis as { gc?: () => void }).gc?.();
  const a = process.memoryUsage();
  process.stderr.write(`${name}: rss/heap ${before} -> after gc ${mb(a.rss)}/${mb(a.heapUsed)} ext ${mb(a.external)} ab ${mb(a.arrayBuffers)} peak ${mb(peakRssBytes())}\n`);
}
(globalThis as unknown as { __stage?: (n: string) => void }).__stage = stage;
async function main(file: string, out: string): Promise<void> {
  stage("start");
  const session = await openSession(file);
  stage("loaded");
  const model = new PageModel(session, { redactor: passThroughRedactor() });
  stage("model");
  const stream = createWriteStream(out);
  const idx = model.index.bind(model);
  model.index = async () => { const r = await idx(); stage("index built"); return r; };
  const dc = model.detailsChunk.bind(model);
  model.detailsChunk = async (c: number) => { if (c === 0) stage("before details"); if (c % 50 === 0) stage(`details ${c}`); return dc(c); };
  await writeHtmlPage(model, (chunk) => {
    if (stream.write(chunk)) return undefined;
    return new Promise<void>((resolve) => stream.once("drain", resolve));
  });
  stage("done");
}
main(process.argv[2], process.argv[3]).catch((e) => { console.error(e); process.exitCode = 1; });
