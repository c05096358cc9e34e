import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/session-builder";

const SCRIPT = pathToFileURL(resolve("scripts/ensure-deps.mjs")).href;

/** Calls one export of scripts/ensure-deps.mjs in a child Node (it is an ES module script). */
function call(fn: string, root: string): { value: unknown; err: string; code: number | null } {
  const code = `import(${JSON.stringify(SCRIPT)}).then((m) => { try { const v = m.${fn}(...JSON.parse(process.argv[1])); process.stdout.write(JSON.stringify({ v: v ?? null })); } catch (e) { process.stderr.write(e.message); process.exit(3); } });`;
  const args = fn === "ensureDeps" ? [{ root, say: undefined }] : [root];
  const r = spawnSync(process.execPath, ["-e", code, JSON.stringify(args)], { encoding: "utf8" });
  return { value: r.status === 0 ? JSON.parse(r.stdout).v : undefined, err: r.stderr, code: r.status };
}

function project(): string {
  const root = tempDir();
  writeFileSync(join(root, "package-lock.json"), JSON.stringify({ name: "x", lockfileVersion: 3, packages: {} }));
  return root;
}

describe("set-up shared by npm start, npm test, npm run package (scripts/ensure-deps.mjs)", () => {
  it("a fresh clone (no node_modules) is installed", () => {
    assert.equal(call("staleReason", project()).value, "node_modules is missing");
  });

  it("node_modules from a plain `npm ci` is up to date, and the lock's hash is kept for next time", () => {
    const root = project();
    mkdirSync(join(root, "node_modules"));
    writeFileSync(join(root, "node_modules", ".package-lock.json"), "{}");
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, "package-lock.json"), old, old);
    assert.equal(call("staleReason", root).value, null);
    assert.ok(existsSync(join(root, "node_modules", ".ase-deps-lock.sha256")));
  });

  it("a lock file touched by a checkout but unchanged is not a reason to reinstall; a changed one is", () => {
    const root = project();
    mkdirSync(join(root, "node_modules"));
    writeFileSync(join(root, "node_modules", ".package-lock.json"), "{}");
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(root, "package-lock.json"), old, old);
    assert.equal(call("staleReason", root).value, null);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "package-lock.json"), later, later);
    assert.ok(statSync(join(root, "package-lock.json")).mtimeMs > statSync(join(root, "node_modules", ".package-lock.json")).mtimeMs + 5000);
    assert.equal(call("staleReason", root).value, null, "same content, newer mtime");
    writeFileSync(join(root, "package-lock.json"), JSON.stringify({ name: "x", lockfileVersion: 3, packages: { "node_modules/a": {} } }));
    assert.equal(call("staleReason", root).value, "package-lock.json changed since the last install");
  });

  it("a failing install stops with its own error, named as the dependency step", () => {
    const root = project();
    writeFileSync(join(root, "package.json"), "{ not json");
    const r = call("ensureDeps", root);
    assert.equal(r.code, 3);
    assert.match(r.err, /npm error .*EJSONPARSE[\s\S]*\ndependencies: `npm ci` exited with \d+ \(its error is above\)$/);
    assert.ok(!existsSync(join(root, "node_modules", ".ase-deps-lock.sha256")));
  });

  it("no script or npm script reaches for a bare npx (a fresh clone has no tsc, and npx fetches an unrelated package)", () => {
    const files = ["package.json", ".ci/run", ...readdirSync("scripts", { recursive: true }).map((f) => join("scripts", String(f)))];
    const offenders = files.filter((f) => /\.(mjs|js|json|sh)$|run$/.test(f) && statSync(f).isFile() && /(^|["'\s])npx["'\s]/.test(readFileSync(f, "utf8")));
    assert.deepEqual(offenders, []);
  });
});
