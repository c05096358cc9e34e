// Import cycles, for anyone to run: `npm run cycles` (exit 1 when there is one).
// Two checks over src/ and webview/ (relative imports, `import type` included: a type-only
// cycle still ties two folders together):
//  - files: strongly connected groups of files that import each other, directly or around a loop;
//  - folders: pairs of parts each importing from the other (docs/architecture.md: the contract
//    sits below its users, so dependencies between parts point one way). A part is a folder of
//    src/core (core/store, core/tokens ...), one format (src/core/formats/<id>, sub-folders
//    included: a format is one unit), src/cli, src/explorer, src/extension, webview, or src itself.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// ASE_CYCLES_ROOT: another tree to check (the test gives it one with a cycle).
const ROOT = process.env.ASE_CYCLES_ROOT ? resolve(process.env.ASE_CYCLES_ROOT) : resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOP = ["src", "webview"];
const SPEC = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*["']([^"']+)["']|(?:^|[\s;(])import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function listTs(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listTs(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The import graph: file -> the files it imports. */
export function importGraph(root = ROOT) {
  const files = TOP.filter((t) => existsSync(join(root, t))).flatMap((t) => listTs(join(root, t)));
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const targets = new Set();
    for (const m of text.matchAll(SPEC)) {
      const target = resolveImport(file, m[1] ?? m[2] ?? m[3]);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components, iterative (deep graphs must not overflow the stack). */
export function cycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  for (const start of graph.keys()) {
    if (idx.has(start)) continue;
    const work = [[start, 0]];
    idx.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1]++;
        const to = next[i];
        if (!graph.has(to)) continue;
        if (!idx.has(to)) {
          idx.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), idx.get(to)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === idx.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** The part of the code a file belongs to (see the header). */
export function partOf(file, root = ROOT) {
  const parts = relative(root, file).split(/[\\/]/);
  parts.pop();
  if (parts[0] === "src" && parts[1] === "core" && parts[2] === "formats" && parts.length > 3) return parts.slice(0, 4).join("/");
  if (parts[0] === "src" && parts[1] === "core") return parts.slice(0, 3).join("/");
  return parts.slice(0, 2).join("/");
}

/** Pairs of parts that import each other, with one file edge each way as evidence. */
export function folderPairs(graph) {
  const edges = new Map();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = partOf(from);
      const b = partOf(to);
      if (a === b) continue;
      const key = `${a}\n${b}`;
      if (!edges.has(key)) edges.set(key, [from, to]);
    }
  }
  const pairs = [];
  for (const [key, evidence] of edges) {
    const [a, b] = key.split("\n");
    if (a < b && edges.has(`${b}\n${a}`)) pairs.push({ a, b, ab: evidence, ba: edges.get(`${b}\n${a}`) });
  }
  return pairs;
}

function main() {
  const graph = importGraph();
  const rel = (p) => relative(ROOT, p);
  const fileCycles = cycles(graph);
  const pairs = folderPairs(graph);
  for (const group of fileCycles) console.log(`file cycle (${group.length} files): ${group.map(rel).join(" -> ")}`);
  for (const p of pairs) {
    console.log(`parts import each other: ${p.a} <-> ${p.b}`);
    console.log(`    ${rel(p.ab[0])} imports ${rel(p.ab[1])}`);
    console.log(`    ${rel(p.ba[0])} imports ${rel(p.ba[1])}`);
  }
  console.log(`import cycles: ${fileCycles.length} between files, ${pairs.length} between parts (${graph.size} files in ${TOP.join(", ")})`);
  process.exitCode = fileCycles.length || pairs.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
