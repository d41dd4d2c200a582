export * from "./databases.ts";
export * from "./kafka/index.ts";
