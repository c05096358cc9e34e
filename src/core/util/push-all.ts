/**
 * Appends items to target one by one. `target.push(...items)` passes every item as an
 * argument on the stack and throws "Maximum call stack size exceeded" past ~120,000 of
 * them (Node 20 and 24): never spread an array whose length the session decides.
 */
export function pushAll<T>(target: T[], items: ArrayLike<T>, from = 0): T[] {
  for (let i = from; i < items.length; i++) target.push(items[i]);
  return target;
}
