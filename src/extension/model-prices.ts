import type { PriceOverrides } from "../core/tokens/prices";
import { validatePriceOverrides } from "../core/tokens/price-overrides";

/**
 * The agentSessions.modelPrices setting as the cost computations use it: validated when
 * first asked for after a change, the same object until the next change (so caches can
 * tell by identity), and each bad entry warned about in the log once while it stays.
 * No `vscode` import: the extension passes how to read the setting.
 */
export class ModelPrices {
  private value: PriceOverrides | undefined;
  /** Problems already logged for the setting's present value. */
  private warned = new Set<string>();

  constructor(
    private readonly read: () => unknown,
    private readonly log: { warn(msg: string): void },
  ) {}

  get(): PriceOverrides {
    if (this.value) return this.value;
    const v = validatePriceOverrides(this.read());
    // A problem fixed and made again is warned about again; one that stays is not repeated.
    const now = new Set(v.problems);
    for (const p of v.problems) if (!this.warned.has(p)) this.log.warn(p);
    this.warned = now;
    this.value = Object.freeze(v.prices);
    return this.value;
  }

  /** The setting changed: read it again when next asked. */
  reset(): void {
    this.value = undefined;
  }
}
