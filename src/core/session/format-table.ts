import type { SessionFormat } from "./session-format";

/**
 * The formats by id, filled by the registry when it loads. A loaded session finds its
 * format here once (its `format`), so the readers need not import the registry, which
 * imports every format (and so every format's reader: an import cycle).
 */
const BY_ID = new Map<string, SessionFormat>();

/** The registry's list; a later list replaces nothing already known by its id. */
export function registerFormats(formats: readonly SessionFormat[]): void {
  for (const f of formats) if (!BY_ID.has(f.id)) BY_ID.set(f.id, f);
}

export function formatById(id: string): SessionFormat {
  const f = BY_ID.get(id);
  if (!f) throw new Error(`no session format "${id}" (formats: ${[...BY_ID.keys()].join(", ") || "none registered: src/core/formats/registry.ts was not loaded"})`);
  return f;
}
