export type * from "./ast.ts";
export { DdlSyntaxError } from "./errors.ts";
export { parse } from "./parser.ts";
export type { ParseOptions } from "./parser.ts";
export { print, printScript } from "./printer.ts";
