import type { ContextMessage } from "../session/session-format";
import { messageTokens } from "../usage/format-tokens";
import { TOKEN_KINDS, type TokenKind } from "../tokens/token-vocabulary";

/**
 * What a context held at one step, by kind: "system" (what the agent sends that its file
 * does not hold) plus the messages by kind. Estimated: the parts are chars/4 shares of the
 * step's size, which stays the recorded figure where the agent recorded one.
 */
export type StepComposition = Partial<Record<TokenKind, number>>;

/** Block types that are a response's thinking or its tool calls, in the shapes the formats' messages use. */
const THINKING = new Set(["thinking", "redacted_thinking", "reasoning"]);
const TOOL_CALL = new Set(["toolCall", "tool_use", "function_call", "functionCall"]);

const KIND_AT = new Map<TokenKind, number>(TOKEN_KINDS.map((k, n) => [k, n]));
const SYSTEM = KIND_AT.get("system") as number;

/**
 * One message's tokens (messageTokens, the figure every estimate uses) split by kind: an
 * assistant message's thinking and tool-call blocks count as "thinking" and "toolCall"
 * (the message kind alone would put them under "assistant"), in proportion to their
 * chars; any other message counts wholly as its kind.
 */
export function messageKindTokens(m: ContextMessage): { total: number; parts: Array<[TokenKind, number]> } {
  const total = messageTokens(m.message);
  return { total, parts: splitAssistant(m, total) };
}

function splitAssistant(m: ContextMessage, total: number): Array<[TokenKind, number]> {
  const content = (m.message as { content?: unknown } | null)?.content;
  if (m.kind !== "assistant" || !Array.isArray(content) || content.length < 2 || total <= 0) return [[m.kind, total]];
  const chars = new Map<TokenKind, number>();
  let all = 0;
  for (const b of content) {
    const type = (b as { type?: unknown } | null)?.type;
    const kind: TokenKind = typeof type === "string" && THINKING.has(type) ? "thinking" : typeof type === "string" && TOOL_CALL.has(type) ? "toolCall" : "assistant";
    const n = (JSON.stringify(b) ?? "").length;
    chars.set(kind, (chars.get(kind) ?? 0) + n);
    all += n;
  }
  if (chars.size < 2 || all <= 0) return [[[...chars.keys()][0] ?? m.kind, total]];
  return [...chars].map(([k, n]) => [k, (n / all) * total]);
}

/** The estimated message tokens by kind of a context as it grows and is compacted. */
export class KindTally {
  private readonly sums = new Float64Array(TOKEN_KINDS.length);

  add(parts: ReadonlyArray<[TokenKind, number]>): void {
    for (const [k, n] of parts) this.sums[KIND_AT.get(k) ?? 0] += n;
  }

  /** A compaction starts the context again from what it left. */
  reset(): void {
    this.sums.fill(0);
  }

  /**
   * The composition of a step of `total` tokens: the messages' estimates, with "system"
   * the rest of the total (the overhead, carried by an estimated step because its size
   * grew from a recorded one). Messages estimated above the total are drawn as shares of
   * it, as the bars do. Whole tokens that add up to `total` exactly.
   */
  composition(total: number): StepComposition {
    const parts = Float64Array.from(this.sums);
    let messages = 0;
    for (const n of parts) messages += n;
    if (messages > total && messages > 0) for (let k = 0; k < parts.length; k++) parts[k] *= total / messages;
    else parts[SYSTEM] += total - messages;
    return wholeParts(parts, total);
  }
}

/** Rounds parts down and gives what rounding lost to the largest ones, so they add up to `total`. */
function wholeParts(parts: Float64Array, total: number): StepComposition {
  const whole = Array.from(parts, (n) => Math.max(0, Math.floor(n)));
  let left = Math.max(0, Math.round(total)) - whole.reduce((a, b) => a + b, 0);
  const order = Array.from(parts, (n, k) => [n - Math.floor(n), k]).sort((a, b) => b[0] - a[0]);
  for (let j = 0; left > 0 && order.length; j = (j + 1) % order.length, left--) whole[order[j][1]]++;
  const out: StepComposition = {};
  TOKEN_KINDS.forEach((k, n) => {
    if (whole[n] > 0) out[k] = whole[n];
  });
  return out;
}
