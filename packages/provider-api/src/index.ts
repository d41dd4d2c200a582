export * from "./confluent-error-codes.ts";
export * from "./connect-policy.ts";
export * from "./connectors.ts";
export * from "./errors.ts";
export * from "./infrastructure.ts";
export * from "./provider.ts";
export * from "./replication.ts";
export * from "./schema.ts";
