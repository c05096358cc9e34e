import { readFileSync } from "node:fs";
import { stringScan } from "../src/core/store/json-string-scan";
import { isValidJson } from "../src/core/store/json-valid";
import { MAX_JSON_DEPTH } from "../src/core/util/json-depth";

type Report = (name: string, value: string, target: string, ok: boolean) => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** User+sys CPU milliseconds of one pass of isValidJson over every line (as a skim checks one). */
function pass(buf: Buffer, simd: boolean): { ms: number; valid: number } {
  const t0 = process.cpuUsage();
  let valid = 0;
  for (let start = 0; start < buf.length; ) {
    let end = buf.indexOf(0x0a, start);
    if (end < 0) end = buf.length;
    if (end > start && isValidJson(buf, start, end, MAX_JSON_DEPTH, { ownKeysOnce: true, simd })) valid++;
    start = end + 1;
  }
  const d = process.cpuUsage(t0);
  return { ms: (d.user + d.system) / 1000, valid };
}

/**
 * Issues 31 and 27: the check a history read and a Codex load make of each line they do
 * not parse (json-valid.ts), on its JavaScript walk and with its strings scanned in
 * WebAssembly SIMD (json-string-scan.ts), interleaved in one process (the split of each
 * line included: it is the same for both).
 */
export function benchJsonValid(opts: { files: Array<{ label: string; file: string; target: number }>; runs: number; report: Report; log: (line: string) => void }): void {
  if (!stringScan()) {
    opts.report("JSON check of long lines in WebAssembly SIMD", "no WebAssembly SIMD in this Node", "SIMD there", false);
    return;
  }
  for (const { label, file, target } of opts.files) {
    const buf = readFileSync(file);
    const js: number[] = [];
    const simd: number[] = [];
    // A first pass of each, untimed: both compiled before either is measured.
    const a = pass(buf, false);
    const b = pass(buf, true);
    if (a.valid !== b.valid) throw new Error(`${label}: the JavaScript walk finds ${a.valid} valid lines, the SIMD scan ${b.valid}`);
    for (let r = 0; r < opts.runs; r++) {
      js.push(pass(buf, false).ms);
      simd.push(pass(buf, true).ms);
    }
    const ratio = median(simd) / median(js);
    opts.log(`  ${label}, ${(buf.length / 2 ** 20).toFixed(0)} MB: JavaScript ${js.map((m) => m.toFixed(0)).join(", ")} ms; SIMD ${simd.map((m) => m.toFixed(0)).join(", ")} ms (user+sys, interleaved)`);
    opts.report(`JSON check of every line, ${label}, SIMD against JavaScript`, `${median(simd).toFixed(0)} ms vs ${median(js).toFixed(0)} ms, ${ratio.toFixed(2)}x`, `<= ${target}x`, ratio <= target);
  }
}
