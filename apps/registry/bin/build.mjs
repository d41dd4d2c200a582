// The registry built for `npm start`: its TypeScript, its workspace packages and most npm packages
// bundled by esbuild into one file in apps/registry/dist, which a start loads without a TypeScript
// loader; under tsx a start spent about 2 s of CPU loading modules (docs/benchmarks.md).
// Made by `npm install` (postinstall) and again by the first start after a source file changed:
// a build records the size and mtime of every file it read, and a start that finds one changed
// builds again (about 0.4 s) before it runs, so what runs is always what the sources say.
//
// `node apps/registry/bin/build.mjs apps/registry/src/main.ts` builds now.
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(appDir, "../..");
const distDir = path.join(appDir, "dist");
const currentFile = path.join(distDir, "current.json");
/** Bumped when what a build makes changes without any of its inputs changing. */
const FORMAT = 2;
/** Older builds are removed once a newer one is current and they are this old (a start may be reading one). */
const KEEP_OLD_MS = 10 * 60 * 1000;

/**
 * npm packages that stay imports from node_modules: they read files beside their own modules
 * (PGlite's wasm, Prisma's query compiler, pino's transports) or require optional ones (pg).
 * Every other one is bundled: Node loading graphql, Apollo and the rest file by file was about
 * 0.4 s of a start.
 */
const IMPORTED = /^(@electric-sql\/pglite|@prisma|pglite-prisma-adapter|pg|pino|tsx)(\/|$)/;
/** The global through which provider modules get the registry's own copy of a workspace package. */
const PACKAGES_GLOBAL = "stream-registry.built-packages";

/**
 * The workspace packages the registry imports. The build puts them on a global (PACKAGES_GLOBAL)
 * where bin/provider-hooks.mjs gives them to provider modules that import them: a provider and
 * the registry share one copy (its error classes, e.g. `instanceof ProviderUnavailable` holds).
 */
function workspacePackages() {
  const { dependencies } = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8"));
  return Object.keys(dependencies).filter((name) => name.startsWith("@stream-registry/"));
}

/**
 * The build of `entry` (a TypeScript file) if it is current: every file it was made from is as it
 * was then. Synchronous and stat-only: a few milliseconds at each start.
 */
export function currentBuild(entry) {
  let current;
  try {
    current = JSON.parse(readFileSync(currentFile, "utf8"));
  } catch {
    return undefined;
  }
  if (current.format !== FORMAT || current.entry !== path.relative(repoRoot, entry)) return undefined;
  for (const [file, [mtimeMs, size]] of Object.entries(current.inputs)) {
    const now = statSync(path.join(repoRoot, file), { throwIfNoEntry: false });
    if (!now || now.mtimeMs !== mtimeMs || now.size !== size) return undefined;
  }
  const main = path.join(distDir, current.dir, "main.js");
  return statSync(main, { throwIfNoEntry: false }) ? { main, packagesGlobal: PACKAGES_GLOBAL } : undefined;
}

/** Builds `entry` into a directory of its own under dist/, then makes it the current build. */
export async function build(entry) {
  const { build: esbuild } = await import("esbuild");
  const startedAt = Date.now();
  const name = `${startedAt.toString(36)}-${process.pid}`;
  const outfile = path.join(distDir, name, "main.js");
  const packages = workspacePackages();
  await mkdir(distDir, { recursive: true });
  // The packages first, on the global; then the entry, which starts the registry.
  const contents = [
    ...packages.map((pkg, i) => `import * as p${i} from ${JSON.stringify(pkg)};`),
    `globalThis[Symbol.for(${JSON.stringify(PACKAGES_GLOBAL)})] = {`,
    ...packages.map((pkg, i) => `  ${JSON.stringify(pkg)}: p${i},`),
    "};",
    `await import(${JSON.stringify(`./${path.relative(appDir, entry).split(path.sep).join("/")}`)});`,
  ].join("\n");
  const result = await esbuild({
    absWorkingDir: repoRoot,
    stdin: { contents, resolveDir: appDir, sourcefile: "<built entry>", loader: "js" },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The CommonJS packages bundled require Node's own modules.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    // Stack traces name the TypeScript files (the launcher turns source maps on).
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: "error",
    plugins: [someNpmPackagesStayImports, metaUrlOfTheSource(path.dirname(outfile))],
  });
  // This builder and the installed packages are inputs too.
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((file) => !file.includes("<built entry>")),
    "apps/registry/bin/build.mjs",
    "package-lock.json",
  ];
  const stamps = {};
  for (const file of inputs) {
    const { mtimeMs, size } = await stat(path.join(repoRoot, file));
    // Changed while the build read it: the next start builds again.
    stamps[file] = mtimeMs >= startedAt ? [-1, size] : [mtimeMs, size];
  }
  const current = { format: FORMAT, entry: path.relative(repoRoot, entry), dir: name, inputs: stamps };
  // Renamed into place: a start running at the same time reads one whole file or the other.
  const making = `${currentFile}.${process.pid}.tmp`;
  await writeFile(making, JSON.stringify(current));
  await rename(making, currentFile);
  await removeOldBuilds(name);
  return { main: outfile, packagesGlobal: PACKAGES_GLOBAL };
}

/** A build is one file, loaded whole at start; an old one may go once no start can be reading it. */
async function removeOldBuilds(keep) {
  for (const entry of await readdir(distDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const old = path.join(distDir, entry.name);
    const { mtimeMs } = await stat(old);
    if (Date.now() - mtimeMs > KEEP_OLD_MS) await rm(old, { recursive: true, force: true });
  }
}

const someNpmPackagesStayImports = {
  name: "some-npm-packages-stay-imports",
  setup(build) {
    build.onResolve({ filter: IMPORTED }, () => ({ external: true }));
  },
};

/**
 * `import.meta.url` in a source file means that file (e.g. schema.graphql found relative to it):
 * in the build it is the source file's URL, relative to the output, so the checkout may move.
 */
function metaUrlOfTheSource(outdir) {
  return {
    name: "meta-url-of-the-source",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = readFileSync(args.path, "utf8");
        if (/import\.meta\.(dirname|filename)/.test(contents)) {
          return {
            errors: [{ text: "import.meta.dirname/filename: use import.meta.url in the registry's sources" }],
          };
        }
        const relative = path.relative(outdir, args.path).split(path.sep).join("/");
        contents = contents.replaceAll(
          "import.meta.url",
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        );
        return { contents, loader: "ts" };
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const entry = path.resolve(process.argv[2] ?? path.join(appDir, "src/main.ts"));
  const { main } = await build(entry);
  // eslint-disable-next-line no-console -- what `npm install` shows
  console.log(`registry built: ${path.relative(process.cwd(), main)}`);
}
