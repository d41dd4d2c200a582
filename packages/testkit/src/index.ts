export * from "./databases.ts";
export * from "./kafka/index.ts";
export * from "./provider/index.ts";
export * from "./registry/index.ts";
export * from "./seed-examples.ts";
export { freePort } from "./kafka/ports.ts";
export { startRedirectTrap } from "./redirect-trap.ts";
export type { RedirectTrap } from "./redirect-trap.ts";
export { AsyncDisposableStack } from "./disposable-stack.ts";
