import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { SummaryReporter } from "./tools/vitest-summary-reporter.ts";

const workspaceDirs = ["packages", "apps"]
  .filter((parent) => existsSync(join(import.meta.dirname, parent)))
  .flatMap((parent) =>
    readdirSync(join(import.meta.dirname, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name)),
  );

// Projects whose tests may use the Kafka clusters shared by a run (useSharedKafkaClusters in
// @stream-registry/testkit/vitest). Cheap for the others: brokers start when a test first asks.
const kafkaProjects = new Set(["testkit", "provider-kafka", "provider-acme", "registry"]);
const kafkaGlobalSetup = join(import.meta.dirname, "packages/testkit/src/kafka/global-setup.ts");
// Projects whose tests start registry processes: the registry's build is made current once, before
// their files run, rather than by the first registries they start, side by side.
const registryProjects = new Set(["testkit", "provider-kafka", "registry", "cli"]);
const registryBuildSetup = join(import.meta.dirname, "packages/testkit/src/registry/build-global-setup.ts");

export default defineConfig({
  resolve: {
    // Node (as users run the registry) loads graphql's CommonJS build, and so do Apollo and the other
    // packages Vitest leaves to Node; without this, source files would get its ES module build, and
    // graphql's classes from one build fail instanceof checks against the other's.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    // One project per workspace folder, named for it: `vitest run --project store`.
    projects: workspaceDirs.map((dir) => ({
      extends: true,
      test: {
        name: dir.split("/").at(-1),
        root: join(import.meta.dirname, dir),
        include: ["test/**/*.test.ts"],
        globalSetup: [
          ...(registryProjects.has(dir.split("/").at(-1) ?? "") ? [registryBuildSetup] : []),
          ...(kafkaProjects.has(dir.split("/").at(-1) ?? "") ? [kafkaGlobalSetup] : []),
        ],
      },
    })),
    pool: "forks",
    // Integration tests create their own databases, so test files may run side by side. They mostly
    // wait on I/O, and Vitest's default (cores - 1) would run them one at a time on a 2-core machine.
    fileParallelism: true,
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", new SummaryReporter()],
  },
});
