import type { RedactionPlace, RedactionReport, RedactionRuleCount, Redactor } from "../redactor";
import { RULES } from "./rules";
import { scanText } from "./scan";

export interface RedactOptions {
  /** The home folder, replaced by `~` wherever it starts a path. */
  home?: string;
  /** The user name, replaced by `<user>` as a path segment or before `@host` (names shorter than 3 characters are left: too many false hits). */
  user?: string;
  /** Images are dropped (their data redacted to nothing) instead of kept. */
  dropImages?: boolean;
}

const EXTRA_DESCRIPTIONS: Record<string, string> = {
  "home-folder": "Home folder (replaced by ~)",
  "user-name": "User name (replaced by <user>)",
  "image-dropped": "Image dropped",
};

function describe(rule: string): string {
  return RULES.find((r) => r.id === rule)?.description ?? EXTRA_DESCRIPTIONS[rule] ?? rule;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces every match of re by `by`, returning the new text and how many were replaced. */
function replaceCounting(text: string, re: RegExp, by: string): [string, number] {
  let n = 0;
  const out = text.replace(re, () => {
    n++;
    return by;
  });
  return [out, n];
}

/**
 * The redactor every export uses unless told not to: the secret scan (./rules.ts) over
 * each string, the home folder and user name replaced when given, images kept or
 * dropped. Image data (field "image") is not scanned: it is base64 of pixels, and
 * megabytes of it would only slow the scan.
 */
export function createRedactor(opts: RedactOptions = {}): Redactor {
  const counts = new Map<string, RedactionRuleCount>();
  // Entries already named per rule: a set, as a large export names thousands.
  const seen = new Map<string, Set<string>>();
  const home = opts.home && opts.home.length > 1 ? new RegExp(`${escapeRegExp(opts.home.replace(/[/\\]+$/, ""))}(?![A-Za-z0-9_.-])`, "g") : undefined;
  // Only where the name names the user: a path segment (/Users/ana/, C:\\Users\\ana) or user@host.
  // As a word of prose it is left: "root" or "dev" is a user name and an everyday word.
  const user = opts.user && opts.user.length >= 3 ? new RegExp(`(?<=[/\\\\])${escapeRegExp(opts.user)}(?=[/\\\\]|$|[^A-Za-z0-9_.-])|(?<![A-Za-z0-9_.-])${escapeRegExp(opts.user)}(?=@)`, "g") : undefined;

  function count(rule: string, n: number, place: RedactionPlace): void {
    if (!n) return;
    let c = counts.get(rule);
    let ids = seen.get(rule);
    if (!c || !ids) {
      counts.set(rule, (c = { rule, description: describe(rule), count: 0, entryIds: [] }));
      seen.set(rule, (ids = new Set()));
    }
    c.count += n;
    if (place.entryId !== undefined && !ids.has(place.entryId)) {
      ids.add(place.entryId);
      c.entryIds.push(place.entryId);
    }
  }

  return {
    redact(text, place) {
      if (place.field === "image") {
        if (!opts.dropImages) return text;
        count("image-dropped", 1, place);
        return "";
      }
      const scanned = scanText(text);
      for (const [rule, n] of scanned.hits) count(rule, n, place);
      let out = scanned.text;
      // The home folder first: it holds the user name, and `~/x` says more than `/home/<user>/x`.
      for (const [rule, re, by] of [["home-folder", home, "~"], ["user-name", user, "<user>"]] as const) {
        if (!re) continue;
        let n: number;
        [out, n] = replaceCounting(out, re, by);
        count(rule, n, place);
      }
      return out;
    },
    report(): RedactionReport {
      const rules = [...counts.values()].map((c) => ({ ...c, entryIds: [...c.entryIds] }));
      return { total: rules.reduce((s, r) => s + r.count, 0), rules };
    },
  };
}
