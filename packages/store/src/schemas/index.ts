export * from "./schema-config.ts";
export * from "./schema-reads.ts";
export * from "./schema-writes.ts";
