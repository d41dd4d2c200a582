import { pathToFileURL } from "node:url";
import { registryBuilder, registryMain } from "./workspace.ts";

interface Builder {
  currentBuild(entry: string): unknown;
  build(entry: string): Promise<unknown>;
}

/**
 * Vitest globalSetup of the projects that start registry processes: builds the registry once
 * before their test files run if a source changed since the last build. Every registry process
 * runs the build (bin/start.mjs, as `npm start` does), and a start that finds it stale builds it
 * itself; without this, the first registries of a run would each build it side by side. A build
 * that fails here is left to the starts to report, each in its registry's log: test files that
 * start no registry still run.
 */
export async function setup(): Promise<void> {
  const { currentBuild, build } = (await import(pathToFileURL(registryBuilder).href)) as Builder;
  if (currentBuild(registryMain)) return;
  try {
    await build(registryMain);
  } catch (error) {
    // eslint-disable-next-line no-console -- why every registry start will fail
    console.error(`the registry's build failed; its starts will say why:\n${(error as Error).message}`);
  }
}
