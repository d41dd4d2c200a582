export * from "./child-calls.ts";
export * from "./forwarded-operation.ts";
export * from "./index-feed.ts";
export * from "./registration.ts";
export * from "./remote-objects.ts";
export * from "./remote-registry.ts";
export * from "./schema-compat.ts";
export * from "./subtree-cursor.ts";
