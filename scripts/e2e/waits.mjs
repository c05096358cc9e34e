// One setting for every wait of the end-to-end layers: ASE_E2E_WAIT_SCALE (default 1)
// multiplies each budget, so a busy or slow machine (a shared CI runner, a laptop on
// battery) is given more time everywhere at once instead of failing one check at random.
// Every wait is on a condition; the budget only says when to give up.

const raw = process.env.ASE_E2E_WAIT_SCALE;
const parsed = raw === undefined || raw === '' ? 1 : Number(raw);
if (!(parsed > 0) || !Number.isFinite(parsed)) {
  throw new Error(`ASE_E2E_WAIT_SCALE must be a positive number (it multiplies every e2e wait), got ${JSON.stringify(raw)}`);
}

/** The factor every e2e budget is multiplied by. */
export const WAIT_SCALE = parsed;

/** A budget in milliseconds, scaled. */
export const budget = (ms) => Math.round(ms * WAIT_SCALE);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns something truthy (returned) or the scaled budget runs
 * out (throws "<what> not seen within Ns", plus what `describe()` says was seen last).
 */
export async function until(what, probe, { ms, everyMs = 200, describe } = {}) {
  const limit = budget(ms);
  const end = Date.now() + limit;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) {
      const seen = describe ? `; ${await describe()}` : '';
      throw new Error(`${what} not seen within ${(limit / 1000).toFixed(0)}s${seen}`);
    }
    await sleep(everyMs);
  }
}
