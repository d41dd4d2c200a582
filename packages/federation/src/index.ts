export * from "./registration.ts";
export * from "./remote-registry.ts";
export * from "./schema-compat.ts";
