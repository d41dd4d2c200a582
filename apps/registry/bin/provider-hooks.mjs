// Module hooks for provider modules loaded by the built registry (bin/start.mjs): an import of a
// workspace package the registry is built with (e.g. @stream-registry/provider-api) resolves to
// that package's entry in the build, not to its sources, so that a provider and the registry share
// one copy of it (its error classes, its constants).

let packages = {};

export function initialize(data) {
  packages = data.packages;
}

export function resolve(specifier, context, nextResolve) {
  const url = packages[specifier];
  return url ? { url, shortCircuit: true } : nextResolve(specifier, context);
}
