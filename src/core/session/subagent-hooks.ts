// Declared with the format in session-format.ts (the format names it, and it names the session).
export type { SubagentHooks } from "./session-format";
