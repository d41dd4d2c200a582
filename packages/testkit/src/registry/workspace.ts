import { join } from "node:path";
import { repoRoot } from "../kafka/paths.ts";

export { repoRoot };

// Paths, never imports: the testkit starts the registry as users do (`npm start` runs this file),
// and a package must not depend on an app.

/** The registry's entry point. */
export const registryMain = join(repoRoot, "apps", "registry", "src", "main.ts");

/**
 * What `npm start` runs (`node apps/registry/bin/start.mjs apps/registry/src/main.ts`): the
 * registry's esbuild build, built again first when a source changed since.
 */
export const registryStart = join(repoRoot, "apps", "registry", "bin", "start.mjs");

/** The registry's builder: `currentBuild(entry)` and `build(entry)` (apps/registry/bin/build.mjs). */
export const registryBuilder = join(repoRoot, "apps", "registry", "bin", "build.mjs");

/**
 * The test provider plugin ("test", steered by the "test.provider" config map: provider/), loaded
 * through REGISTRY_PROVIDERS like any user's plugin; in-process registries reach the platform it
 * realizes on through `testPlatform()`.
 */
export const testProviderModule = join(repoRoot, "packages/testkit/src/provider/test-provider.ts");
