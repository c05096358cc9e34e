/**
 * How long a summary may take. A hung API once held `ase compact` for 487 s (4 x 120 s)
 * and a server trickling a little text every minute never timed out: each budget
 * closes one of those doors.
 */
export interface SummaryBudgets {
  /** Longest silence inside a streamed answer (no bytes), the wait for the first byte included. */
  idleMs: number;
  /** One attempt from request to complete answer, even while bytes keep trickling in. */
  attemptMs: number;
  /** The whole summary: every attempt and every wait between them. */
  totalMs: number;
}

export const DEFAULT_BUDGETS: SummaryBudgets = { idleMs: 60_000, attemptMs: 180_000, totalMs: 300_000 };

/** Which budget ran out, for the message and for tests. */
export type BudgetName = "idle" | "attempt" | "total";

export function withBudgetDefaults(partial: Partial<SummaryBudgets> | undefined): SummaryBudgets {
  const b = { ...DEFAULT_BUDGETS };
  for (const k of Object.keys(b) as (keyof SummaryBudgets)[]) {
    const v = partial?.[k];
    if (v === undefined) continue;
    if (!(typeof v === "number" && Number.isFinite(v) && v > 0)) throw new Error(`summary budget ${k} must be a positive number of ms, got ${v}`);
    b[k] = v;
  }
  return b;
}

/** "300 s", "12 s", "0.4 s": whole seconds from 10 s up, tenths below. */
export function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s >= 10) return `${Math.round(s)} s`;
  const t = Math.round(s * 10) / 10;
  return `${t} s`;
}
