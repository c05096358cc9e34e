import type { SessionFormat } from "./session-format";

export type WriteAction = "fork" | "label" | "compact" | "continue";

/** Whether a format offers an action at all (an old file of it may still refuse: FormatWriter.refuses). */
export function offers(format: SessionFormat, action: WriteAction): boolean {
  return !!format.writer?.capabilities[action];
}

/** Why a format does not offer an action, in its own words when it has them. */
export function whyNotOffered(format: SessionFormat, action: WriteAction): string {
  const caps = format.writer?.capabilities;
  return caps?.reasons?.[action] ?? caps?.why ?? `${format.agent} sessions are read-only here`;
}
