import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { Session } from "../../src/core/formats/pi/pi-session";
import { contextTokens, usageTotal } from "../../src/core/formats/pi/tokens/context-tokens";
import { tempDir } from "../helpers/session-builder";
import { FIRST_SEED, keepForLater, piOpen, SEEDS, seeds, writeTemp } from "./oracle-files";
import { loadPi, type Pi, type PiEntry, type PiSessionManager } from "./pi";
import { randomSession } from "./random-session";
import { damaged, type Variant, version1, version2 } from "./variants";

/**
 * Our context builder (what `ase context` prints) against pi's own
 * convertToLlm(buildSessionContext(...).messages), for every entry of the file as the
 * leaf: every message and every field, the message list before conversion, thinking
 * level, model, and pi's context size (estimateContextTokens).
 */
async function compareFile(pi: Pi, file: string, what: string, byPosition = false): Promise<number> {
  const { sm, entries, byId } = piOpen(pi, file);
  const session = await Session.load(file);
  const where = () => `${what} (kept at ${keepForLater(file, what)})`;
  assert.equal(session.metas.length, entries.length, `${what}: entry count`);
  const leaves: Array<[string, string | null]> = entries.map((e: PiEntry, k) => [byPosition ? session.metas[k].id : e.id, e.id]);
  leaves.push([session.metas[session.metas.length - 1]?.id ?? "", null]);
  let n = 0;
  for (const [ours, theirs] of leaves) {
    if (!byPosition && theirs !== null && ours !== theirs) assert.fail(`${where()}: entry ${n} is ${ours} for us, ${theirs} for pi`);
    // theirs === null: the default leaf (the last entry), as pi continues a session.
    const piCtx = theirs === null ? sm.buildSessionContext() : pi.buildSessionContext(entries, theirs, byId);
    const ctx = buildContext(session, theirs === null ? undefined : ours);
    try {
      assert.deepStrictEqual(ctx.parts.map((p) => p.llm), pi.convertToLlm(piCtx.messages), "messages sent (after convertToLlm)");
      assert.deepStrictEqual(ctx.agent.map((p) => p.agent), piCtx.messages, "message list before convertToLlm");
      assert.equal(ctx.thinkingLevel, piCtx.thinkingLevel, "thinking level");
      assert.deepStrictEqual(ctx.model, piCtx.model, "model");
      assert.equal(contextTokens(ctx).tokens, pi.estimateContextTokens(piCtx.messages).tokens, "context tokens");
    } catch (err) {
      const e = err as assert.AssertionError;
      throw new assert.AssertionError({ message: `${where()}, leaf ${ours}${theirs === null ? " (default)" : ""}: ${e.message}`, actual: e.actual, expected: e.expected, operator: e.operator });
    }
    n++;
  }
  // Recorded usage: pi's calculateContextTokens, totalTokens or the sum of the parts.
  for (const e of entries) {
    const m = (e as { message?: { role?: string; usage?: object } }).message;
    if (e.type === "message" && m?.role === "assistant" && m.usage) assert.equal(usageTotal(m.usage as never), pi.calculateContextTokens(m.usage));
  }
  return n;
}

/** What a generated session holds, so the test cannot quietly stop covering a kind. */
function kinds(sm: PiSessionManager, entries: PiEntry[]): Set<string> {
  const out = new Set<string>();
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const e of entries) {
    const o = e as Record<string, any>;
    if (e.type === "message") {
      const role = o.message.role as string;
      out.add(role === "bashExecution" ? (o.message.excludeFromContext ? "bash !!" : "bash !") : role);
      if (JSON.stringify(o.message.content ?? "").includes('"image"')) out.add(`image in ${role}`);
    } else if (e.type === "label") out.add(o.label ? "label set" : "label cleared");
    else if (e.type === "branch_summary") {
      out.add(o.summary ? "branch summary" : "empty branch summary");
      if (e.parentId === null) out.add("branch summary at the root");
    } else if (e.type === "compaction") {
      const onPath = sm.getBranch(e.id).some((p) => p.id === o.firstKeptEntryId);
      out.add(onPath ? "compaction, first kept on the path" : "compaction, first kept off the path");
    } else out.add(e.type);
    if (e.parentId === null && e !== entries[0]) out.add("another root");
    if (e.parentId !== null && !byId.has(e.parentId)) out.add("missing parent");
  }
  return out;
}

const EVERY_KIND = [
  "user", "assistant", "toolResult", "bash !", "bash !!", "image in user", "image in toolResult", "custom_message", "custom", "session_info",
  "model_change", "thinking_level_change", "label set", "label cleared", "branch summary", "empty branch summary", "branch summary at the root",
  "compaction, first kept on the path", "compaction, first kept off the path", "another root",
];

/** `ase context` itself (the built CLI), as JSON: what a user of the CLI gets. */
function aseContext(file: string, leafId: string): { leafId: string; thinkingLevel: string; model: unknown; messages: unknown[] } {
  const r = spawnSync(process.execPath, [resolve("dist/cli.js"), "context", file, "--leaf", leafId], { encoding: "utf8", maxBuffer: 64 * 2 ** 20, env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe("pi as the oracle: the context of every leaf", function () {
  this.timeout(60_000 + SEEDS * 10_000);
  let pi: Pi;
  before(async () => {
    pi = await loadPi();
  });

  it("the oracle is pi 0.73.1, as pinned in package.json", () => {
    assert.equal(pi.VERSION, "0.73.1");
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    assert.equal(pkg.devDependencies["@mariozechner/pi-coding-agent"], "0.73.1");
    assert.equal(pkg.dependencies["@mariozechner/pi-coding-agent"], undefined, "never a runtime dependency");
    // The test bundles are built with the others: the shipped ones never reach for pi.
    for (const bundle of ["dist/cli.js", "dist/extension.js", "dist/webview/main.js"]) {
      if (existsSync(bundle)) assert.ok(!readFileSync(bundle, "utf8").includes("@mariozechner/"), `${bundle} refers to pi`);
    }
  });

  it(`seeded sessions written by pi's SessionManager, plus damaged, v1 and v2 copies: every entry as the leaf gives pi's context, field for field`, async () => {
    const t0 = Date.now();
    let leaves = 0;
    let files = 0;
    const seen = new Set<string>();
    for (const seed of seeds()) {
      const s = randomSession(pi, tempDir(), seed, 60 + (seed % 5) * 30);
      const text = readFileSync(s.file, "utf8");
      const variants: Variant[] = [{ name: "as written", text }, ...damaged(text, seed), version2(text)];
      // Version 1 had no tree: the path of the default leaf, and of one other leaf.
      const { sm, entries } = piOpen(pi, s.file);
      const header = sm.getHeader() as Record<string, unknown>;
      for (const k of kinds(sm, entries)) seen.add(k);
      variants.push(version1(header, sm.getBranch(), seed));
      variants.push(version1(header, sm.getBranch(entries[Math.floor(entries.length / 2)].id), seed + 1));
      for (const v of variants) {
        leaves += await compareFile(pi, writeTemp(`seed-${seed}.jsonl`, v.text), `seed ${seed}, ${v.name}`, v.byPosition);
        files++;
      }
    }
    console.log(`      ${leaves} leaves in ${files} files (${seeds().length} seeds) agree with pi in ${Date.now() - t0} ms`);
    assert.ok(leaves > 1000, `only ${leaves} leaves compared`);
    assert.deepEqual(EVERY_KIND.filter((k) => !seen.has(k)), [], "kinds of entry the generated sessions never held");
  });

  it("ase context (the built CLI) prints pi's context as JSON for sampled leaves", async () => {
    const s = randomSession(pi, tempDir(), FIRST_SEED, 90);
    const { entries, byId } = piOpen(pi, s.file);
    const step = Math.max(1, Math.floor(entries.length / 12));
    let n = 0;
    for (let k = step - 1; k < entries.length; k += step) {
      const id = entries[k].id;
      const piCtx = pi.buildSessionContext(entries, id, byId);
      const printed = aseContext(s.file, id);
      // Through JSON, as pi's own messages would go over the wire (undefined fields vanish).
      const want = JSON.parse(JSON.stringify({ leafId: id, thinkingLevel: piCtx.thinkingLevel, model: piCtx.model, messages: pi.convertToLlm(piCtx.messages) }));
      assert.deepStrictEqual(printed, want, `seed ${FIRST_SEED}, leaf ${id}`);
      n++;
    }
    assert.ok(n >= 10);
  });
});
