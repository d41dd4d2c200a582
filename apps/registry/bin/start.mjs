// What `npm start` runs: `node apps/registry/bin/start.mjs apps/registry/src/main.ts`. Runs the
// registry's build (bin/build.mjs), building it first if a source changed since, with source maps
// on so that stack traces name the TypeScript files. No TypeScript loader is loaded for it: tsx
// resolving every import of every npm package cost a start about a second of CPU.
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, currentBuild } from "./build.mjs";

const entry = path.resolve(process.argv[2] ?? "apps/registry/src/main.ts");
const built = currentBuild(entry) ?? (await build(entry));
process.setSourceMapsEnabled(true);

let prepared;
/**
 * Called by the registry before it imports provider modules (REGISTRY_PROVIDERS): a module in
 * TypeScript loads through tsx as before, and one that imports a workspace package gets the
 * registry's own copy (bin/provider-hooks.mjs). Only then: module hooks slow every import after.
 */
globalThis[Symbol.for("stream-registry.before-provider-modules")] = () =>
  (prepared ??= (async () => {
    const { register: registerTsx } = await import("tsx/esm/api");
    registerTsx();
    const packages = globalThis[Symbol.for(built.packagesGlobal)];
    const exports = Object.fromEntries(
      Object.entries(packages).map(([name, module]) => [name, Object.keys(module)]),
    );
    register("./provider-hooks.mjs", import.meta.url, { data: { global: built.packagesGlobal, exports } });
  })());

await import(pathToFileURL(built.main).href);
