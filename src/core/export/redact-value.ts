import type { RedactionPlace, Redactor } from "./redactor";

/**
 * Any JSON value with every string in it redacted. The value is redacted as one JSON
 * text, so a rule sees a key beside its value (`"api_key": "..."`) as it would in the
 * file; the rules never replace a quote or end on a backslash, so the text parses back.
 * Should it not, each string is redacted on its own (a hit may then be counted twice).
 */
export function redactValue(value: unknown, redactor: Redactor, place: RedactionPlace): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  const red = redactor.redact(text, place);
  if (red === text) return JSON.parse(text) as unknown;
  try {
    return JSON.parse(red) as unknown;
  } catch {
    return redactLeaves(JSON.parse(text) as unknown, redactor, place);
  }
}

function redactLeaves(value: unknown, redactor: Redactor, place: RedactionPlace): unknown {
  if (typeof value === "string") return redactor.redact(value, place);
  if (Array.isArray(value)) return value.map((v) => redactLeaves(v, redactor, place));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactor.redact(k, place), redactLeaves(v, redactor, place)]));
  return value;
}
