import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { formatFolderNames, sourceFiles } from "../helpers/source-files";

/**
 * A format lives in its own folder under src/core/formats/<id>/ and everything else works
 * through the seam (SessionFormat, SessionReader): no file outside a format's folder
 * imports from it, but the registry and the worker's hooks list, and none tests whether
 * a session is an instance of a format's class. A new import or `instanceof` fails here,
 * with its file and line.
 */
const ROOT = process.cwd();
const FORMATS_DIR = join("src", "core", "formats");

/** The two files that list every format: the registry and the worker's line hooks. */
const MAY_IMPORT_FORMATS = new Set([join(FORMATS_DIR, "registry.ts"), join(FORMATS_DIR, "hooks-by-id.ts")]);

/** Files allowed to reach into a format's folder for now: none since issue 26 (kept so the test can say so). */
const PENDING = new Set<string>();

const sources = (dir: string) => sourceFiles(ROOT, dir);

/** Format folders: every folder directly under src/core/formats/. */
function formatFolders(): string[] {
  return formatFolderNames(ROOT).map((name) => join(FORMATS_DIR, name) + sep);
}

const IMPORT = /(?:^|[\s;])(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

/** The relative module specifiers a source imports or re-exports from, each with its line. */
export function importsOf(text: string): Array<{ spec: string; line: number }> {
  const out: Array<{ spec: string; line: number }> = [];
  // Imports span lines (`import {\n a,\n} from "x"`): match on the whole text, count the line.
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const at = m.index + m[0].length - m[0].trimStart().length;
    if (spec.startsWith(".")) out.push({ spec, line: text.slice(0, at).split("\n").length });
  }
  return out;
}

/** The folder of the format a file is in, if any. */
function folderOf(file: string, folders: readonly string[]): string | undefined {
  return folders.find((d) => file.startsWith(d));
}

/** Classes a format's folder defines (export class X, or class X re-exported). */
function formatClasses(folders: readonly string[], files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) {
    const d = folderOf(f, folders);
    if (!d) continue;
    for (const m of readFileSync(join(ROOT, f), "utf8").matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)) out.set(m[1], d);
  }
  return out;
}

/** `instanceof X` where X is a format's class or a name imported from a format's folder. */
export function foreignInstanceofs(text: string, classes: ReadonlySet<string>): Array<{ name: string; line: number }> {
  const out: Array<{ name: string; line: number }> = [];
  text.split("\n").forEach((line, k) => {
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*(\*|\/\*\*)/.test(line)) return;
    for (const m of code.matchAll(/\binstanceof\s+([A-Za-z_$][\w$]*)/g)) if (classes.has(m[1])) out.push({ name: m[1], line: k + 1 });
  });
  return out;
}

/** Local names bound by imports from a format's folder (`{ Session as PiSession }` binds PiSession). */
function namesFrom(text: string, file: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    if (!folderOf(join(dirname(file), m[2]) + sep, folders)) continue;
    for (const part of m[1].split(",")) {
      const name = part.replace(/^\s*type\s+/, "").split(/\s+as\s+/).pop()?.trim();
      if (name) out.push(name);
    }
  }
  return out;
}

describe("format seam: nothing outside a format's folder reaches into it", () => {
  const files = [...sources("src"), ...sources("webview")];
  const folders = formatFolders();

  it("finds the sources and the format folders", () => {
    assert.ok(files.length > 50, `only ${files.length} source files found from ${ROOT}`);
    assert.ok(folders.some((d) => d.endsWith(`${sep}pi${sep}`)) && folders.length >= 4, `format folders: ${folders.join(", ")}`);
  });

  it("no file imports from a format's folder but its own files, the registry and the worker's hooks list", () => {
    const found: string[] = [];
    for (const f of files) {
      if (MAY_IMPORT_FORMATS.has(f) || PENDING.has(f)) continue;
      const own = folderOf(f, folders);
      for (const { spec, line } of importsOf(readFileSync(join(ROOT, f), "utf8"))) {
        const target = join(dirname(f), spec);
        const d = folderOf(target + sep, folders) ?? folderOf(target, folders);
        if (d && d !== own) found.push(`${f}:${line}: imports ${spec}`);
      }
    }
    assert.deepEqual(found, []);
  });

  it("no file but a format's own tests whether a session is an instance of that format's class", () => {
    const classes = formatClasses(folders, files);
    const found: string[] = [];
    for (const f of files) {
      if (PENDING.has(f)) continue;
      const own = folderOf(f, folders);
      const text = readFileSync(join(ROOT, f), "utf8");
      const foreign = new Set([...classes].filter(([, d]) => d !== own).map(([name]) => name));
      for (const n of namesFrom(text, f, folders)) if (!own) foreign.add(n);
      for (const { name, line } of foreignInstanceofs(text, foreign)) found.push(`${f}:${line}: instanceof ${name}`);
    }
    assert.deepEqual(found, []);
  });

  it("the files still pending elsewhere do still import a format's folder (the list only shrinks)", () => {
    const done: string[] = [];
    for (const f of PENDING) {
      let text: string;
      try {
        text = readFileSync(join(ROOT, f), "utf8");
      } catch {
        done.push(`${f}: gone`);
        continue;
      }
      const reaches = importsOf(text).some(({ spec }) => folderOf(join(dirname(f), spec) + sep, folders) ?? folderOf(join(dirname(f), spec), folders));
      if (!reaches) done.push(`${f}: imports no format any more; take it off PENDING`);
    }
    assert.deepEqual(done, []);
  });

  it("the checks themselves see an import, a re-export, a dynamic import and an instanceof", () => {
    const specs = importsOf(`import type {\n  A,\n} from "../x/pi/a";\nexport { b } from "./b";\nconst c = await import("../c");\nimport "./side";`).map((i) => `${i.spec}@${i.line}`);
    assert.deepEqual(specs, ["../x/pi/a@1", "./b@4", "../c@5", "./side@6"]);
    assert.deepEqual(foreignInstanceofs("if (s instanceof Session) x();\n// s instanceof Session\nif (e instanceof Error) y();", new Set(["Session"])), [{ name: "Session", line: 1 }]);
  });
});
