import { FORMATS } from "../core/formats/registry";
import { CliError } from "./cli-error";

/** The agents with a session store (the ones `--agent` and `--dir AGENT=D` name). */
export const listed = () => FORMATS.filter((f) => f.discovery);

/** An `--agent` value: a format id with a store, else an error naming those. */
export function agentId(name: string): string {
  const f = listed().find((x) => x.id === name);
  if (!f) throw new CliError(`unknown agent "${name}" (agents with a session store: ${listed().map((x) => x.id).join(", ")})`);
  return f.id;
}

/**
 * `--dir D` is pi's sessions dir, `--dir AGENT=D` another agent's root; once a folder is
 * given, only the agents given one are read (a script names what it reads).
 */
export function parseDirs(specs: string[]): Record<string, string> {
  const dirs: Record<string, string> = {};
  for (const spec of specs) {
    const m = /^([a-z0-9-]+)=(.+)$/.exec(spec);
    const [agent, dir] = m && listed().some((f) => f.id === m[1]) ? [m[1], m[2]] : ["pi", spec];
    if (dirs[agent] !== undefined) throw new CliError(`--dir given twice for ${agent}`);
    dirs[agent] = dir;
  }
  return dirs;
}

/** The agents to read: those named by --agent, else those given a --dir, else all. */
export function onlyAgents(agents: string[] | undefined, dirs: Record<string, string>): string[] | undefined {
  const named = agents?.map(agentId);
  return named ?? (Object.keys(dirs).length ? Object.keys(dirs) : undefined);
}
