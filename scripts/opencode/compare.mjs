// Compares two OpenCode recordings (record.mjs's output folders): the goldens message by
// message and the manifest's facts, with ids (ses_/msg_/prt_) and times normalized. Used by
// record.mjs (what a re-record changes) and check-goldens.mjs (a fresh recording vs the committed one).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A normalizer for one scenario: ids renamed by first appearance, times blanked. */
function normalizer() {
  const seen = new Map();
  const counts = {};
  return (value) =>
    JSON.stringify(value)
      .replace(/\b(ses|msg|prt)_[0-9A-Za-z]{20,}/g, (id, kind) => {
        if (!seen.has(id)) seen.set(id, `${kind}_#${(counts[kind] = (counts[kind] ?? 0) + 1)}`);
        return seen.get(id);
      })
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
      .replace(/\b1[7-9]\d{11}\b/g, "<ms>");
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** Where the two messages arrays first differ, in a line or two. */
function firstDifference(a, b, norm) {
  const n = Math.max(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a[k] === undefined ? "(none)" : norm(a[k]);
    const y = b[k] === undefined ? "(none)" : norm(b[k]);
    if (x !== y) return `message ${k}: was ${x.slice(0, 300)}\n      now ${y.slice(0, 300)}`;
  }
  return "same messages, different ids";
}

/**
 * The differences between a committed recording and a fresh one, as lines. Sessions are
 * paired by their position in the manifest (roots first, then children, in creation order).
 */
export function compareRecordings(committedDir, freshDir, only) {
  const before = readJson(join(committedDir, "manifest.json"));
  const after = readJson(join(freshDir, "manifest.json"));
  const changes = [];
  const names = new Set([...Object.keys(before.scenarios), ...Object.keys(after.scenarios)].filter((n) => !only || only.split(",").includes(n)));
  for (const name of names) {
    const was = before.scenarios[name];
    const now = after.scenarios[name];
    if (!was || !now) {
      changes.push(`${name}: ${was ? "no longer recorded" : "new scenario"}`);
      continue;
    }
    if (was.handMade || now.handMade) continue;
    const normWas = normalizer();
    const normNow = normalizer();
    if (was.sessions.length !== now.sessions.length) changes.push(`${name}: ${was.sessions.length} sessions before, ${now.sessions.length} now`);
    was.sessions.forEach((ws, k) => {
      const ns = now.sessions[k];
      if (!ns) return;
      const { goldenMessages: _a, ...wf } = ws;
      const { goldenMessages: _b, ...nf } = ns;
      if (normWas(wf) !== normNow(nf)) changes.push(`${name} session ${k + 1}: facts changed\n      was ${normWas(wf)}\n      now ${normNow(nf)}`);
      const wg = join(committedDir, name, "goldens", `${ws.id}.native.json`);
      const ng = join(freshDir, name, "goldens", `${ns.id}.native.json`);
      if (!existsSync(wg) || !existsSync(ng)) {
        changes.push(`${name} session ${k + 1}: golden missing ${existsSync(wg) ? "in the fresh recording" : "in the committed fixtures"}`);
        return;
      }
      const a = readJson(wg).messages;
      const b = readJson(ng).messages;
      if (normWas(a) !== normNow(b)) changes.push(`${name} session ${k + 1} golden (${a.length} -> ${b.length} messages): ${firstDifference(a, b, (v) => JSON.stringify(v))}`);
    });
  }
  return changes;
}
