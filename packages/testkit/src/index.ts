export * from "./databases.ts";
