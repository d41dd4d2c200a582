#!/usr/bin/env node
// srctl runs from TypeScript source: tsx compiles it on load.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
