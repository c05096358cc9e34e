/**
 * The SDK talks on its own: `messages.create` prints model deprecation notices with a
 * bare console.warn, and its logger writes parse failures to the console. In the CLI
 * that breaks the one-line error rule, in the extension host it goes nowhere useful.
 * Both are caught here and handed to the caller as notes.
 */

type Sink = (text: string) => void;

/** A logger for the SDK's `logger` option: warnings become notes; errors are dropped (the thrown error says it). */
export function sdkLogger(sink: Sink) {
  const ignore = () => {};
  return { warn: (...args: unknown[]) => sink(args.map(String).join(" ")), error: ignore, info: ignore, debug: ignore };
}

/**
 * Runs `fn` with console.warn sent to `sink`, and puts it back before returning. Only
 * for synchronous calls: the SDK warns synchronously inside `messages.create()` and
 * `messages.stream()`, so nothing else runs while the swap is in place and no other
 * caller's warning is swallowed (parallel requests each swap around their own call).
 */
export function captureConsoleWarn<T>(sink: Sink, fn: () => T): T {
  const original = console.warn;
  console.warn = (...args: unknown[]) => sink(args.map(String).join(" "));
  try {
    return fn();
  } finally {
    console.warn = original;
  }
}

/** A note as one line: the first non-empty line, trimmed and capped. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 300);
}
