import { join } from "node:path";
import { repoRoot } from "../kafka/paths.ts";

export { repoRoot };

// Paths, never imports: the testkit starts the registry as users do (`npm start` runs this file),
// and a package must not depend on an app.

/** The registry's entry point. */
export const registryMain = join(repoRoot, "apps", "registry", "src", "main.ts");

/**
 * The registry's test provider plugin ("test", steered by the "test.provider" config map), loaded
 * through REGISTRY_PROVIDERS like any user's plugin. It stays beside the registry's tests, whose
 * in-process registries also reach the platform it realizes on.
 */
export const testProviderModule = join(repoRoot, "apps", "registry", "test", "fixtures", "test-provider.ts");
