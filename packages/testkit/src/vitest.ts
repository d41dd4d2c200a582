// Vitest hooks (they import vitest, so they are not in the package's main entry).
export * from "./kafka/vitest.ts";
export * from "./registry/use-registry-process.ts";
export * from "./kafka/connect-vitest.ts";
export * from "./postgres/vitest.ts";
