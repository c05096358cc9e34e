/**
 * A request the webview made again before its answer came (another branch clicked while a
 * timeline was computed): the first is stopped with this, and its reply says so. It is
 * the ordinary course of clicking around, so it is logged as information, never counted
 * or logged as a failure.
 */
export class OvertakenError extends Error {}
