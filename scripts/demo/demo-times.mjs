// The recorded stores of the demo (Codex, Gemini CLI) are copies made at start-up, so their
// files look newer than the pi demo sessions the README's picture and the first look are
// about; the Sessions view lists projects newest first. Their times are set a few hours back.
import fs from 'node:fs';
import path from 'node:path';

/** Sets every file under `dir` to `hoursAgo` hours before now (access and modification times). */
export function ageFiles(dir, hoursAgo = 3) {
  const t = new Date(Date.now() - hoursAgo * 3600_000);
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const p = path.join(dir, String(name));
    if (fs.statSync(p).isFile()) fs.utimesSync(p, t, t);
  }
}
