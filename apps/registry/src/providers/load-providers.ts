import { pathToFileURL } from "node:url";
import path from "node:path";
import { INFRASTRUCTURE_METHODS, type StreamProvider } from "@stream-registry/provider-api";
import { BUILT_IN_MODULES, builtInProviders } from "./built-in.ts";

/** Why a provider module could not be used; the message names the module and the fix. */
export class ProviderLoadError extends Error {
  constructor(
    readonly reason: "missing-module" | "wrong-shape" | "duplicate-kind",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderLoadError";
  }
}

/**
 * Loads the built-in providers (registry-only, kafka) plus one provider module per specifier (an
 * npm package name, or a file path relative to `cwd`). A module may export several providers;
 * every named export that looks like a StreamProvider is taken.
 */
export async function loadProviders(
  specifiers: readonly string[],
  cwd: string = process.cwd(),
  builtIns: readonly StreamProvider[] = builtInProviders(),
): Promise<Map<string, StreamProvider>> {
  const providers = new Map<string, StreamProvider>(builtIns.map((p) => [p.kind, p]));
  for (const specifier of specifiers) {
    if (BUILT_IN_MODULES.has(specifier)) continue;
    for (const provider of await importProviders(specifier, cwd)) {
      const existing = providers.get(provider.kind);
      if (existing && existing !== provider) {
        throw new ProviderLoadError(
          "duplicate-kind",
          `provider module "${specifier}" exports kind "${provider.kind}", which is already loaded`,
        );
      }
      providers.set(provider.kind, provider);
    }
  }
  return providers;
}

/**
 * Set by apps/registry/bin/start.mjs when the registry runs built (`npm start`): makes provider
 * modules load as under tsx (TypeScript; the workspace packages the registry runs with).
 */
const beforeProviderModules = (globalThis as Record<symbol, unknown>)[
  Symbol.for("stream-registry.before-provider-modules")
] as (() => Promise<void>) | undefined;

async function importProviders(specifier: string, cwd: string): Promise<StreamProvider[]> {
  const isPath = specifier.startsWith(".") || path.isAbsolute(specifier);
  const target = isPath ? pathToFileURL(path.resolve(cwd, specifier)).href : specifier;
  let module: Record<string, unknown>;
  try {
    await beforeProviderModules?.();
    module = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw new ProviderLoadError(
      "missing-module",
      `cannot load provider module "${specifier}": ${(error as Error).message}` +
        (isPath ? "" : ` (is the package installed? npm i ${specifier})`),
      { cause: error },
    );
  }
  const found = Object.values(module).filter(isStreamProvider);
  if (found.length === 0) {
    throw new ProviderLoadError(
      "wrong-shape",
      `provider module "${specifier}" exports no stream provider: expected a named export with ` +
        `"kind" (string), "configMaps" (array) and "infrastructure" (${INFRASTRUCTURE_METHODS.join(", ")})`,
    );
  }
  return found;
}

function isStreamProvider(value: unknown): value is StreamProvider {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<StreamProvider>;
  const infrastructure = candidate.infrastructure as unknown as Record<string, unknown> | undefined;
  return (
    typeof candidate.kind === "string" &&
    candidate.kind.length > 0 &&
    Array.isArray(candidate.configMaps) &&
    typeof infrastructure === "object" &&
    infrastructure !== null &&
    INFRASTRUCTURE_METHODS.every((method) => typeof infrastructure[method] === "function")
  );
}
