/**
 * When the extension's module code began to run. extension.ts imports this module first,
 * so the activation time it logs also covers the top-level work of every other module
 * (a table built at load would show there, not only what activate() does).
 */
export const moduleCodeStarted = performance.now();
