import { charsToTokens } from "../tokens/estimate";

/** One tagged chunk of the context. */
export interface XmlItem {
  id: string;
  tag: string;
  role: "user" | "assistant";
  text: string;
  tokens: number;
}

export interface XmlRendering {
  system?: string;
  messages: Array<{ role: "user" | "assistant"; content: string }>;
  items: Array<Omit<XmlItem, "text">>;
  included: string[];
  excluded: string[];
  tokens: number;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => ` ${k}="${escapeXml(String(v)).replace(/"/g, "&quot;")}"`)
    .join("");
}

export function tag(name: string, a: Record<string, string | number | undefined>, body?: string): string {
  return body === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${escapeXml(body)}</${name}>`;
}

export function mk(id: string, tagName: string, role: "user" | "assistant", text: string, chars = text.length): XmlItem {
  return { id, tag: tagName, role, text, tokens: charsToTokens(chars) };
}

/** Tagged items of any format as messages (see renderXml). */
export function renderXmlItems(items: XmlItem[], opts: { system?: string; maxTokens?: number } = {}): XmlRendering {
  const systemTokens = opts.system ? charsToTokens(opts.system.length) : 0;
  let total = systemTokens + items.reduce((s, it) => s + it.tokens, 0);
  let drop = 0;
  if (opts.maxTokens !== undefined) {
    while (drop < items.length && total > opts.maxTokens) total -= items[drop++].tokens;
  }
  const kept = items.slice(drop);
  const messages: XmlRendering["messages"] = [];
  for (const it of kept) {
    const last = messages[messages.length - 1];
    if (last && last.role === it.role) last.content += `\n${it.text}`;
    else messages.push({ role: it.role, content: it.text });
  }
  const out: XmlRendering = {
    messages,
    items: items.map(({ text: _t, ...rest }) => rest),
    included: kept.map((it) => it.id),
    excluded: items.slice(0, drop).map((it) => it.id),
    tokens: total,
  };
  if (opts.system) out.system = opts.system;
  return out;
}
