// Redaction of the structured values an exported page carries (the explorer's messages:
// rows, details, bars, timelines): every string through the Redactor, naming the entry it
// belongs to, and entry ids through one memo, so an id is redacted the same wherever it is
// named and stays unique (links between entries hold).

import type { RedactionPlace, Redactor } from "./redactor";
import { redactCutTail } from "./redact/cut-tail";

/** Fields whose strings are entry ids: redacted through the id memo, so links between entries hold. */
const ID_FIELDS = new Set(["id", "entryId", "leafId", "firstKeptEntryId", "inlineEntryId", "callId", "defaultLeafId"]);

/** Redacts every string of a value (a deep copy), naming the entry it belongs to. */
export class Scrubber {
  private readonly ids = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(private readonly redactor: Redactor) {}

  text(s: string, place: RedactionPlace): string {
    return this.redactor.redact(s, place);
  }

  /** A text cut for display: redacted, and a secret cut short at its end replaced too. */
  cutText(s: string, place: RedactionPlace): string {
    return redactCutTail(this.redactor.redact(s, place));
  }

  /** An entry id as the page names it: redacted once, and kept distinct from every other id. */
  id(raw: string): string {
    let out = this.ids.get(raw);
    if (out !== undefined) return out;
    out = this.redactor.redact(raw, { entryId: raw, field: "id" });
    if (out !== raw || this.used.has(out)) {
      const base = out;
      for (let n = 2; this.used.has(out); n++) out = `${base}~${n}`;
    }
    this.ids.set(raw, out);
    this.used.add(out);
    return out;
  }

  deep<T>(value: T, entryId: string | undefined, field = "value"): T {
    if (typeof value === "string") {
      if (ID_FIELDS.has(field)) return this.id(value) as T;
      // Titles are one-line summaries cut at a width (a tool call's command or input), and
      // a text ending in an ellipsis was cut: either may end inside a secret.
      return (field === "title" || /(\.\.\.|…)$/.test(value) ? this.cutText(value, { entryId, field }) : this.text(value, { entryId, field })) as T;
    }
    if (Array.isArray(value)) return value.map((v) => this.deep(v, entryId, field)) as T;
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      // A block shown cut (its text shorter than its fullLength) may end inside a secret.
      const cut = typeof (value as { fullLength?: unknown }).fullLength === "number";
      for (const [k, v] of Object.entries(value)) out[k] = cut && k === "text" && typeof v === "string" ? this.cutText(v, { entryId, field: k }) : this.deep(v, entryId, k);
      return out as T;
    }
    return value;
  }
}
