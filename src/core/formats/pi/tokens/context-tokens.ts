import type { SessionContext } from "../context/build-context";
import type { AssistantMessage, Usage } from "../model/messages";
import { figuresReadable } from "../../../tokens/usage-figures";
import { estimateMessageTokens } from "./pi-estimate";

/** pi's calculateContextTokens: the provider's total, else the sum of the parts. */
export function usageTotal(u: Usage): number {
  return u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
}

/**
 * Usage of an assistant message that pi trusts (not aborted, not an error), and that we
 * can believe: a figure of -5 or 1e308 leaves it out, as the index does (usage-figures.ts).
 */
export function trustedUsage(m: { role: string }): Usage | undefined {
  if (m.role !== "assistant") return undefined;
  const a = m as AssistantMessage;
  if (a.stopReason === "aborted" || a.stopReason === "error" || !a.usage) return undefined;
  const u = a.usage as unknown as Record<string, unknown>;
  const cost = u.cost && typeof u.cost === "object" ? (u.cost as Record<string, unknown>).total : undefined;
  if (!figuresReadable(u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens, cost)) return undefined;
  return a.usage;
}

export interface ContextTokens {
  /** pi's figure: last trusted usage on the context + estimate of what follows it. */
  tokens: number;
  /** Part that comes from recorded usage (0 when none). */
  recorded: number;
  /** Part that is estimated (chars/4). */
  estimated: number;
  /** Index into ctx.agent of the message whose usage was used, or -1. */
  usageAt: number;
}

/** The context size pi computes for auto-compaction (estimateContextTokens). */
export function contextTokens(ctx: SessionContext): ContextTokens {
  const parts = ctx.agent;
  let at = -1;
  let recorded = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const u = trustedUsage(parts[i].agent);
    if (u) {
      at = i;
      recorded = usageTotal(u);
      break;
    }
  }
  let estimated = 0;
  for (let i = at + 1; i < parts.length; i++) estimated += estimateMessageTokens(parts[i].agent);
  return { tokens: recorded + estimated, recorded, estimated, usageAt: at };
}
