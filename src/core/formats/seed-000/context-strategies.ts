import type { ContextStrategies, ContextStrategyPlan } from "../../session/session-format";
import type { Seed000Message } from "./messages";
import { applyStrategy, planStrategy, SEED000_STRATEGIES, type Seed000Strategy, type StrategyPlan } from "./strategies";
import { summarizeMessages } from "./summarize";

function strategyNamed(name: string): Seed000Strategy {
  const s = SEED000_STRATEGIES.find((x) => x === name);
  if (!s) throw new Error(`no seed-000 strategy "${name}" (strategies: ${SEED000_STRATEGIES.join(", ")})`);
  return s;
}

/** seed-000's strategies behind the format seam; the messages are the format's own. */
export const seed000Strategies: ContextStrategies = {
  names: SEED000_STRATEGIES,
  plan: (strategy, messages, opts) => planStrategy(strategyNamed(strategy), messages as readonly Seed000Message[], opts),
  summarize: (messages, llm, opts) => summarizeMessages(messages as readonly Seed000Message[], llm, opts),
  apply: (plan: ContextStrategyPlan, messages, summary) =>
    applyStrategy({ ...plan, strategy: strategyNamed(plan.strategy) } as StrategyPlan, messages as readonly Seed000Message[], summary),
};
