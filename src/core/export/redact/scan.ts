import { RULES, type SecretRule } from "./rules";

/** The marker a secret is replaced by: it names the rule and nothing of the secret. */
export function marker(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/** What one pass over a text found: the text with its secrets replaced, and the hits per rule id. */
export interface ScanResult {
  text: string;
  hits: Map<string, number>;
}

/** Where a rule's secret sits in one match: its named group `s`, else the whole match. */
function secretSpan(m: RegExpExecArray): [number, number] | undefined {
  return m.indices?.groups?.s ?? m.indices?.[0];
}

/** The spans of one rule's accepted secrets, in order, not overlapping. */
function ruleSpans(rule: SecretRule, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const re = rule.regex;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const span = secretSpan(m);
    const accepted = span && span[1] > span[0] && (!rule.accept || rule.accept(text.slice(span[0], span[1]), m.groups ?? {}));
    if (!accepted || !span) {
      // A refused match may have swallowed the start of a real one (`a: password=...`): look again one on.
      re.lastIndex = m.index + 1;
      continue;
    }
    spans.push(span);
    if (re.lastIndex === m.index) re.lastIndex++;
  }
  return spans;
}

/**
 * Replaces every secret the rules find by its rule's marker. Rules run in table order on
 * the text the earlier ones left, so a provider's key is named by its own rule before a
 * generic rule (an assignment, a header) could claim it, and no marker is matched again.
 */
export function scanText(text: string, rules: readonly SecretRule[] = RULES): ScanResult {
  const hits = new Map<string, number>();
  // The keyword pre-filter reads the original text: later texts only lose characters.
  let lower: string | undefined;
  let out = text;
  for (const rule of rules) {
    lower ??= text.toLowerCase();
    if (!rule.keywords.some((k) => lower?.includes(k))) continue;
    const spans = ruleSpans(rule, out);
    if (!spans.length) continue;
    let next = "";
    let at = 0;
    for (const [from, to] of spans) {
      next += out.slice(at, from) + marker(rule.id);
      at = to;
    }
    out = next + out.slice(at);
    hits.set(rule.id, (hits.get(rule.id) ?? 0) + spans.length);
  }
  return { text: out, hits };
}
