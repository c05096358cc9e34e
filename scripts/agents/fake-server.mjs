// The plumbing every fake model server of our recorders shares (scripts/codex, scripts/gemini,
// scripts/opencode): listen on 127.0.0.1 only, parse and log every request body as one JSON
// line, tell listeners, and answer with JSON or an SSE stream that may break or hang on purpose.
// What to answer is the caller's `handle`; this file knows no agent's wire format.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";

/**
 * A reply `handle` returns:
 *   { json, status? }                        a JSON body
 *   { events, end?, eol? }                   an SSE stream: each event is { data } or { event, data }
 *                                            (data an object or a string such as "[DONE]");
 *                                            end "break" drops the connection after the events,
 *                                            "hang" keeps it open until close(); eol defaults to "\n"
 *   { hang: true }                           no answer at all until close()
 * and may carry `note`, fields written into the log line next to the body.
 */
function send(res, reply, open) {
  if (reply.hang) return void open.add(res);
  if (reply.events) {
    const eol = reply.eol ?? "\n";
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const e of reply.events) {
      const data = typeof e.data === "string" ? e.data : JSON.stringify(e.data);
      res.write(`${e.event ? `event: ${e.event}${eol}` : ""}data: ${data}${eol}${eol}`);
    }
    if (reply.end === "break") return void res.destroy();
    if (reply.end === "hang") return void open.add(res);
    return void res.end();
  }
  res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
  res.end(JSON.stringify(reply.json ?? {}));
}

/**
 * Starts a server; `handle({ method, url, body })` returns the reply (see above), or a promise
 * of it. Resolves to { port, onRequest(listener(body, url)), close() }.
 */
export function startFakeServer({ log, handle }) {
  const open = new Set();
  const listeners = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { unparsed: raw.length };
      }
      let reply;
      try {
        reply = await handle({ method: req.method, url: req.url ?? "", body });
      } catch (err) {
        reply = { status: 500, json: { error: { message: `fake server: ${err.message}` } } };
      }
      appendFileSync(log, JSON.stringify({ method: req.method, url: req.url, ...(reply.note ?? {}), body }) + "\n");
      for (const l of listeners) l(body, req.url);
      send(res, reply, open);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        port: server.address().port,
        onRequest: (f) => listeners.push(f),
        close: () => {
          for (const r of open) r.destroy();
          server.closeAllConnections();
          return new Promise((ok) => server.close(() => ok()));
        },
      });
    });
  });
}
