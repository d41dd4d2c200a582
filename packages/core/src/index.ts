export * from "./errors.ts";
export * from "./names.ts";
export * from "./config-maps.ts";
export * from "./phase.ts";
export * from "./backoff.ts";
export * from "./cursor.ts";
export * from "./pagination.ts";
