export * from "./types.ts";
export { SchemaParseError } from "./errors.ts";
export { parseSchema } from "./parse.ts";
export { checkCompatibility, type PreviousVersion } from "./compatibility.ts";
