// Module hooks for provider modules loaded by the built registry (bin/start.mjs): an import of a
// workspace package the registry is built with (e.g. @stream-registry/provider-api) gets the
// registry's own copy of it, which the build put on a global, not a second copy from its sources:
// a provider and the registry share its error classes and constants.

const SCHEME = "stream-registry-built:";
/** Global name, and each package's export names. */
let built = { global: "", exports: {} };

export function initialize(data) {
  built = data;
}

export function resolve(specifier, context, nextResolve) {
  return Object.hasOwn(built.exports, specifier)
    ? { url: `${SCHEME}${specifier}`, shortCircuit: true }
    : nextResolve(specifier, context);
}

export function load(url, context, nextLoad) {
  if (!url.startsWith(SCHEME)) return nextLoad(url, context);
  const name = url.slice(SCHEME.length);
  const source = [
    `const module = globalThis[Symbol.for(${JSON.stringify(built.global)})][${JSON.stringify(name)}];`,
    `export const { ${built.exports[name].join(", ")} } = module;`,
  ].join("\n");
  return { format: "module", source, shortCircuit: true };
}
