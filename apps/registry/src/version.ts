import { readFileSync } from "node:fs";

/** This registry's version: its package's, which it tells its parent and children. */
export const version: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
