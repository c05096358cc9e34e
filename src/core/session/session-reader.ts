// A loaded session: declared with the format in session-format.ts (each names the other).
export type { FileStamp, SessionInfo, SessionReader } from "./session-format";
