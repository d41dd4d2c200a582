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
 * TypeScript loads through tsx as before, and one that imports a workspace package gets this
 * build's copy (bin/provider-hooks.mjs). Only then: the hooks slow every import that follows.
 */
globalThis[Symbol.for("stream-registry.before-provider-modules")] = () =>
  (prepared ??= (async () => {
    const { register: registerTsx } = await import("tsx/esm/api");
    registerTsx();
    const packages = Object.fromEntries(
      Object.entries(built.packages).map(([name, file]) => [
        name,
        pathToFileURL(path.join(built.dir, file)).href,
      ]),
    );
    register("./provider-hooks.mjs", import.meta.url, { data: { packages } });
  })());

await import(pathToFileURL(path.join(built.dir, "main.js")).href);
