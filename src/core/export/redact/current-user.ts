import { homedir, userInfo } from "node:os";

/** The home folder and user name an export replaces (by default); either may be unknown. */
export function currentUser(env: NodeJS.ProcessEnv): { home?: string; user?: string } {
  let user = env.USER ?? env.USERNAME;
  try {
    user ??= userInfo().username;
  } catch {
    // No passwd entry (a container): the name is not replaced.
  }
  return { home: env.HOME ?? homedir(), user };
}
