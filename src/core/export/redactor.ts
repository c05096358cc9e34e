// The seam between what an export writes (HTML, Markdown, JSON) and the secret scan that
// every string passes on its way out. The exporters take a Redactor; the scan behind it
// (rules, markers, the report) lives in ./redact/. Keeping the two apart lets each
// exporter be tested with a redactor that only records what it was given.

/** Where a string came from, so the report can say which entries a rule hit. */
export interface RedactionPlace {
  /** The entry the text belongs to, when it belongs to one. */
  entryId?: string;
  /** What the text is: "message", "tool input", "tool output", "path", "label", "summary", ... */
  field: string;
}

/** One rule's hits over a whole export. */
export interface RedactionRuleCount {
  rule: string;
  /** A short human description of the rule ("AWS access key id"). */
  description: string;
  count: number;
  /** The entries the rule hit, in the order first seen (ids). */
  entryIds: string[];
}

export interface RedactionReport {
  /** Total replacements made. */
  total: number;
  rules: RedactionRuleCount[];
}

export interface Redactor {
  /** The text with every secret replaced by a marker naming its rule, e.g. `[REDACTED:aws-access-key-id]`. */
  redact(text: string, place: RedactionPlace): string;
  /** What was replaced so far. */
  report(): RedactionReport;
}

/** A redactor that changes nothing (`--no-redact`) and still reports, empty. */
export function passThroughRedactor(): Redactor {
  return {
    redact: (text) => text,
    report: () => ({ total: 0, rules: [] }),
  };
}
