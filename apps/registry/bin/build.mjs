// The registry built for `npm start`: its TypeScript and its workspace packages' bundled by esbuild
// into apps/registry/dist (npm packages stay imports), so that a start loads a few files without a
// TypeScript loader; under tsx a start spent about 2 s of CPU loading modules (docs/benchmarks.md).
// Made by `npm install` (postinstall) and again by the first start after a source file changed:
// a build records the size and mtime of every file it read, and a start that finds one changed
// builds again (about 0.4 s) before it runs, so what runs is always what the sources say.
//
// `node apps/registry/bin/build.mjs apps/registry/src/main.ts` builds now.
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const appDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(appDir, "../..");
const distDir = path.join(appDir, "dist");
const currentFile = path.join(distDir, "current.json");
/** Bumped when what a build makes changes without any of its inputs changing. */
const FORMAT = 1;
/** Older builds are removed once a newer one is current and they are this old (a registry still starting may read its own). */
const KEEP_OLD_MS = 60 * 60 * 1000;

/**
 * The workspace packages the registry imports, each built as an entry of its own beside main.js
 * (sharing chunks with it): a provider module that imports one gets this build's copy, so its
 * classes are the registry's (an `instanceof ProviderUnavailable` holds) (bin/provider-hooks.mjs).
 */
function workspacePackages() {
  const { dependencies } = JSON.parse(readFileSync(path.join(appDir, "package.json"), "utf8"));
  const require = createRequire(path.join(appDir, "package.json"));
  return Object.keys(dependencies)
    .filter((name) => name.startsWith("@stream-registry/"))
    .map((name) => ({ name, entry: `pkg-${name.split("/")[1]}`, source: require.resolve(name) }));
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
  const dir = path.join(distDir, current.dir);
  if (!statSync(path.join(dir, "main.js"), { throwIfNoEntry: false })) return undefined;
  return { dir, packages: current.packages };
}

/** Builds `entry` into a directory of its own under dist/, then makes it the current build. */
export async function build(entry) {
  const { build: esbuild } = await import("esbuild");
  const startedAt = Date.now();
  const name = `${startedAt.toString(36)}-${process.pid}`;
  const dir = path.join(distDir, name);
  const packages = workspacePackages();
  await mkdir(distDir, { recursive: true });
  const result = await esbuild({
    absWorkingDir: repoRoot,
    entryPoints: { main: entry, ...Object.fromEntries(packages.map((p) => [p.entry, p.source])) },
    outdir: dir,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Stack traces name the TypeScript files (the launcher turns source maps on).
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: "error",
    plugins: [npmPackagesStayImports(dir), metaUrlOfTheSource(dir)],
  });
  // This builder and the installed packages are inputs too (a relative import into a nested
  // node_modules depends on the install).
  const inputs = [...Object.keys(result.metafile.inputs), "apps/registry/bin/build.mjs", "package-lock.json"];
  const stamps = {};
  for (const file of inputs) {
    const { mtimeMs, size } = await stat(path.join(repoRoot, file));
    // Changed while the build read it: the next start builds again.
    stamps[file] = mtimeMs >= startedAt ? [-1, size] : [mtimeMs, size];
  }
  const current = {
    format: FORMAT,
    entry: path.relative(repoRoot, entry),
    dir: name,
    packages: Object.fromEntries(packages.map((p) => [p.name, `${p.entry}.js`])),
    inputs: stamps,
  };
  // Renamed into place: a start running at the same time reads one whole file or the other.
  const making = `${currentFile}.${process.pid}.tmp`;
  await writeFile(making, JSON.stringify(current));
  await rename(making, currentFile);
  await removeOldBuilds(name);
  return { dir, packages: current.packages };
}

async function removeOldBuilds(keep) {
  for (const entry of await readdir(distDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const old = path.join(distDir, entry.name);
    const { mtimeMs } = await stat(old);
    if (Date.now() - mtimeMs > KEEP_OLD_MS) await rm(old, { recursive: true, force: true });
  }
}

/**
 * npm packages are imported from node_modules at run time, as under tsx. One installed in a
 * workspace package's own node_modules (another version than the root's) is imported by its path,
 * which the build directory would not find by name. JSON files are bundled.
 */
function npmPackagesStayImports(outdir) {
  return {
    name: "npm-packages-stay-imports",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith("@stream-registry/") || args.path.endsWith(".json")) return undefined;
        if (args.pluginData === "resolving") return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: "resolving",
        });
        const within = resolved.path.lastIndexOf(`${path.sep}node_modules${path.sep}`);
        if (resolved.errors.length > 0 || within < 0) return { external: true };
        const owner = resolved.path.slice(0, within);
        if (outdir.startsWith(`${owner}${path.sep}`)) return { external: true };
        return { path: path.relative(outdir, resolved.path).split(path.sep).join("/"), external: true };
      });
    },
  };
}

/**
 * `import.meta.url` in a source file means that file (e.g. schema.graphql found relative to it):
 * in the build it is the source file's URL, relative to the output, so the checkout may move.
 */
function metaUrlOfTheSource(outdir) {
  return {
    name: "meta-url-of-the-source",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
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
  const { dir } = await build(entry);
  // eslint-disable-next-line no-console -- what `npm install` shows
  console.log(`registry built: ${path.relative(process.cwd(), dir)}`);
}
