/** ASE_E2E_WAIT_SCALE: the one setting that stretches every e2e wait (scripts/e2e/waits.mjs). */
export const WAIT_SCALE = Number(process.env.ASE_E2E_WAIT_SCALE) > 0 ? Number(process.env.ASE_E2E_WAIT_SCALE) : 1;

/** Polls until `fn` gives a value (no fixed sleeps); fails naming what it waited for. */
export async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, baseMs = 10_000): Promise<T> {
  const ms = Math.round(baseMs * WAIT_SCALE);
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
