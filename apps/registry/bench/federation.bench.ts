/**
 * npm run bench:federation [-- --streams 5000 --requests 200 --concurrency 8 --page 50 --burst 1000
 *   --create-concurrency 18 --batch 10 --populate-linked --security-rounds 3 --database pglite|postgres]
 *
 * Discovery across a tree of registries (issue 10). Starts 13 real registry processes in
 * production mode (NODE_ENV=production, request logging on), each with its own database: a root
 * "/", three inner registries (/aws, /azure, /gcp) and three leaves under each (/aws/us-reg1, ...),
 * linked into a tree with the testkit. Fills each leaf with --streams streams, each with one
 * binding on a registry-only cluster, created straight at the leaves before they register with
 * their parents (--populate-linked: after); waits until every binding is ONLINE, registers the
 * leaves, and, when the registry has the aggregated index, waits until the root's index holds all.
 *
 * Then measures, against the root's aggregated index (consistency: INDEX), the root's live fan-out
 * (consistency: LIVE), the same query sent straight to one leaf, and a raw node:http server
 * answering with the root's captured bytes (the floor):
 *   (a) the first page of streams with their bindings and statuses (also without totalCount, to
 *       show what counting costs);
 *   (c) a look-up by key at the root of a stream two hops down (stream(name, namespace), _entities,
 *       and a one-item page of the index), and `{ __typename }` at the leaf: a request's fixed cost;
 *   (b) paging through every stream (every leaf's, at the root).
 * Sequential samples are taken in turn across the variants of a measurement, so that all see the
 * same moments of a noisy machine; then --requests more from --concurrency clients, a variant at a
 * time, give requests/s and the CPU each registry spent per request (above its idle rate). The
 * registries' request logs give each hop's own time. Then the index lag: a burst of --burst
 * creates at one leaf, and the time from the last one's answer until the root's index counts them
 * all (polled every 20 ms). Then security's cost (issue 11): the whole tree restarted, alternately,
 * with authentication on (NODE_ENV=production; each hop a token the registry above signs) and off
 * (NODE_ENV=development, REGISTRY_AUTH=none, which production refuses; the request path's only
 * production-only behaviour is security's), --security-rounds times each, the same first pages and
 * look-ups measured after each start. Prints the figures and the targets' ratios from this run.
 * A benchmark, not a test: it asserts nothing about speed, and exits 0 unless something broke.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { RegistryNode } from "@stream-registry/testkit";
import {
  call,
  idleRates,
  measureInterleaved,
  percentile,
  post,
  ProcessWatch,
  rawFloor,
  resets,
  type Hop,
  type Measured,
  type MeasureOptions,
} from "./federation-measure.ts";
import { measureLag, printLag, type Lag } from "./federation-lag.ts";
import { pageInLockstep } from "./federation-paging.ts";
import { populate, streamName, waitIndexed, waitOnline } from "./federation-population.ts";
import { discovery, ENTITIES, INDEX_LOOKUP, json, lookup, type Consistency } from "./federation-queries.ts";
import { fixed, printMeasured, printTargets, printWhyFailed, type Row } from "./federation-report.ts";
import { measureSecurity, printSecurity } from "./federation-security.ts";
import { issueTargets } from "./federation-targets.ts";
import { INNER, LEAVES, linkLeaves, PATHS, registryPid, startTree } from "./federation-tree.ts";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "5000" },
    requests: { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
    page: { type: "string", default: "50" },
    burst: { type: "string", default: "1000" },
    "create-concurrency": { type: "string", default: "18" },
    batch: { type: "string", default: "10" },
    database: { type: "string", default: "pglite" },
    "populate-linked": { type: "boolean", default: false },
    "security-rounds": { type: "string", default: "3" },
  },
});
const streamsPerLeaf = Number(values.streams);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const pageSize = Number(values.page);
const burst = Number(values.burst);
const createConcurrency = Number(values["create-concurrency"]);
const batch = Math.max(1, Math.min(15, Number(values.batch))); // two aliases a stream, at most 30
const kind = values.database === "postgres" ? "postgres" : "pglite";
const populateLinked = values["populate-linked"];
const securityRounds = Number(values["security-rounds"]);
const total = streamsPerLeaf * LEAVES.length;
const LEAF = "/aws/us-reg1"; // the leaf of the direct rows, the look-ups and the lag burst
const INNER_OF_LEAF = "/aws";

// Everything started is stopped and disposed of: at the end, on an error, and on SIGINT/SIGTERM.
const started: RegistryNode[] = [];
const floors: { close(): Promise<void> }[] = [];
let cleaning: Promise<void> | undefined;
const stopping = new AbortController();
const cleanup = () =>
  (cleaning ??= (async () => {
    stopping.abort();
    await Promise.allSettled(floors.map((floor) => floor.close()));
    await Promise.allSettled(started.map((node) => node.dispose()));
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the registries and dropping their databases`);
    void cleanup().finally(() => process.exit(130));
  });
}

// The machine's load average, every 5 s: other work on it shows in every figure.
const loads: number[] = [];
const loadSampler = setInterval(() => loads.push(loadavg()[0]!), 5_000);
loadSampler.unref();

const seconds = (since: number) => (performance.now() - since) / 1000;
const log = (message: string) =>
  console.error(`[bench:federation ${new Date().toISOString().slice(11, 19)}] ${message}`);

try {
  let since = performance.now();
  log(`starting ${PATHS.length} registries (${kind})`);
  const nodes = await startTree(
    kind,
    // Production mode, request logging on, the reconciler's production poll (the testkit's is 200 ms).
    { NODE_ENV: "production", LOG_LEVEL: "info", RECONCILER_POLL_MS: "1000" },
    (node) => started.push(node),
    log,
    stopping.signal,
  );
  const at = (path: string) => nodes.get(path)!;
  const root = at("/");
  const leaf = at(LEAF);
  const treeSeconds = seconds(since);
  log(`tree up in ${fixed(treeSeconds)} s`);
  const watch = new ProcessWatch();
  for (const path of PATHS) watch.add(path, registryPid(at(path)));
  watch.add("client", process.pid);

  // Whether the registry has the aggregated index (consistency, lag); without it the INDEX rows and
  // the lag are left out and the live rows send no consistency argument. Introspection is off in
  // production; the federation SDL says it as well.
  const { sdl } = (await call<{ _service: { sdl: string } }>(root.url, `{ _service { sdl } }`))._service;
  const hasIndex = /\benum Consistency\b/.test(sdl) && /\blag\s*:\s*\[IndexLag!\]!/.test(sdl);
  if (!hasIndex) log("the registry has no aggregated index: INDEX rows and the lag are left out");
  const LIVE: Consistency = hasIndex ? "LIVE" : undefined;
  const INDEX: Consistency = hasIndex ? "INDEX" : undefined;

  // Population, straight at the leaves. By default before the leaves join the tree: the creates do
  // not share the two cores with the index following them, and the index then reads the leaves'
  // feeds in full pages, which is the "index build" figure (--populate-linked: leaves linked first).
  let linkSeconds = NaN;
  if (populateLinked) {
    const linking = performance.now();
    await linkLeaves(nodes);
    linkSeconds = seconds(linking);
  }
  since = performance.now();
  const cpuBefore = await watch.sample();
  const leafUrls = LEAVES.map((path) => at(path).url);
  await populate(leafUrls, streamsPerLeaf, { batch, concurrency: createConcurrency, log });
  const createSeconds = seconds(since);
  log(`created ${total} streams and bindings in ${fixed(createSeconds)} s; waiting until ONLINE`);
  await waitOnline(leafUrls, streamsPerLeaf);
  const onlineSeconds = seconds(since);
  log(`all ${total} bindings ONLINE after ${fixed(onlineSeconds)} s`);
  const cpuOnline = await watch.sample();
  const indexSince = performance.now();
  if (!populateLinked) {
    await linkLeaves(nodes);
    linkSeconds = seconds(indexSince);
    log(`leaves linked in ${fixed(linkSeconds)} s`);
  }
  let indexedSeconds = NaN;
  let indexNote = "n/a (no index)";
  if (hasIndex) {
    indexNote = (await waitIndexed(root.url, total, 900_000)) ?? "yes";
    indexedSeconds = seconds(indexSince);
    log(`root index: ${indexNote} after ${fixed(indexedSeconds)} s`);
  }
  const cpuIndexed = await watch.sample();

  // What the tree costs when nobody asks it anything (the index followers poll their children).
  const idle = await idleRates(watch, 10_000);
  const options: MeasureOptions = {
    requests,
    concurrency,
    warmup: Math.min(20, requests),
    watch,
    idle,
    logs: (path) => at(path).logs(),
  };
  const below = (operation: string): Hop[] => [
    { path: INNER_OF_LEAF, operation },
    { path: LEAF, operation },
  ];

  /** Measures the rows present (undefined: not measured, no index), in turn. */
  async function measured(rows: (Row | undefined)[]): Promise<(Measured | undefined)[]> {
    const present = rows.filter((row): row is Row => row !== undefined);
    const results = await measureInterleaved(present, options);
    return rows.map((row) => (row ? results[present.indexOf(row)] : undefined));
  }

  // (a) The first page of discovery.
  log("(a) first page of streams");
  const firstPage =
    (name: string, c: Consistency, count = true) =>
    () =>
      json(discovery(name, c, count), { first: pageSize });
  const pageBytes = Buffer.from((await post(root.url, firstPage("Capture", hasIndex ? INDEX : LIVE)())).text);
  const pageFloor = await rawFloor(() => pageBytes);
  floors.push(pageFloor);
  const pageRows: (Row | undefined)[] = [
    hasIndex
      ? {
          what: "root, INDEX",
          where: "/",
          url: root.url,
          body: firstPage("RootIndexPage", INDEX),
          hops: [{ path: "/", operation: "RootIndexPage" }],
        }
      : undefined,
    {
      what: hasIndex ? "root, LIVE" : "root, live (no argument)",
      where: "/",
      url: root.url,
      body: firstPage("RootLivePage", LIVE),
      hops: [{ path: "/", operation: "RootLivePage" }, ...below("Subtree_streams")],
    },
    {
      what: "leaf direct, same query",
      where: LEAF,
      url: leaf.url,
      body: firstPage("LeafPage", INDEX),
      hops: [{ path: LEAF, operation: "LeafPage" }],
    },
    // The same pages without totalCount: what counting costs at each.
    hasIndex
      ? {
          what: "root, INDEX, no totalCount",
          where: "/",
          url: root.url,
          body: firstPage("RootIndexPageUncounted", INDEX, false),
          hops: [{ path: "/", operation: "RootIndexPageUncounted" }],
        }
      : undefined,
    {
      what: "leaf direct, no totalCount",
      where: LEAF,
      url: leaf.url,
      body: firstPage("LeafPageUncounted", INDEX, false),
      hops: [{ path: LEAF, operation: "LeafPageUncounted" }],
    },
    {
      what: "raw node:http, root's bytes",
      where: "floor",
      url: pageFloor.url,
      body: firstPage("FloorPage", INDEX),
      hops: [],
    },
  ];
  const pageResults = await measured(pageRows);

  // (c) A look-up by key at the root of a stream at a leaf, two hops down; keys spread over the leaf.
  log("(c) look-ups by key");
  const key = (i: number) => streamName((i * 7_919) % streamsPerLeaf);
  const lookupBody = (name: string) => (i: number) => json(lookup(name), { name: key(i), namespace: LEAF });
  const lookupBytes = Buffer.from((await post(root.url, lookupBody("Capture")(0))).text);
  const lookupFloor = await rawFloor(() => lookupBytes);
  floors.push(lookupFloor);
  const lookupRows: (Row | undefined)[] = [
    {
      what: "root stream(name, namespace)",
      where: "/",
      url: root.url,
      body: lookupBody("RootLookup"),
      // Passed through (graphql/pass-through.ts): each registry logs the client's operation name.
      hops: [{ path: "/", operation: "RootLookup" }, ...below("RootLookup")],
    },
    {
      what: "root _entities",
      where: "/",
      url: root.url,
      body: (i) =>
        json(ENTITIES, { representations: [{ __typename: "Stream", namespace: LEAF, name: key(i) }] }),
      hops: [{ path: "/", operation: "RootEntities" }, ...below("Forwarded_entities")],
    },
    hasIndex
      ? {
          what: "root streams(filter, first: 1), INDEX",
          where: "/",
          url: root.url,
          body: (i) => json(INDEX_LOOKUP, { namespace: LEAF, name: key(i) }),
          hops: [{ path: "/", operation: "RootIndexLookup" }],
        }
      : undefined,
    {
      what: "leaf direct stream(name, namespace)",
      where: LEAF,
      url: leaf.url,
      body: lookupBody("LeafLookup"),
      hops: [{ path: LEAF, operation: "LeafLookup" }],
    },
    {
      what: "leaf direct { __typename }: a request's fixed cost",
      where: LEAF,
      url: leaf.url,
      body: () => json("query LeafTypename { __typename }", {}),
      hops: [{ path: LEAF, operation: "LeafTypename" }],
    },
    {
      what: "raw node:http, root's bytes",
      where: "floor",
      url: lookupFloor.url,
      body: lookupBody("FloorLookup"),
      hops: [],
    },
  ];
  const lookupResults = await measured(lookupRows);

  // (b) Paging through everything, the passes in lockstep (a page of each in turn); the leaf's pass,
  // a ninth of the others, starts over until they end.
  log(`(b) paging through all ${total} streams, ${pageSize} a page`);
  const captured = new Map<string, Buffer>(); // the root's INDEX pages by `after`, for the floor
  const pagingFloor = await rawFloor((body) => {
    const after = (JSON.parse(body) as { variables: { after: string | null } }).variables.after;
    return captured.get(String(after)) ?? Buffer.from("{}");
  });
  floors.push(pagingFloor);
  const paging = await pageInLockstep(
    [
      ...(hasIndex
        ? [
            {
              what: "root, INDEX",
              where: "/",
              url: root.url,
              query: discovery("RootIndexPaging", INDEX),
              expected: total,
              hops: [{ path: "/", operation: "RootIndexPaging" }],
              capture: true,
            },
          ]
        : []),
      {
        what: "root, LIVE",
        where: "/",
        url: root.url,
        query: discovery("RootLivePaging", LIVE),
        expected: total,
        hops: [{ path: "/", operation: "RootLivePaging" }, ...below("Subtree_streams")],
        capture: !hasIndex,
      },
      {
        what: "leaf direct",
        where: LEAF,
        url: leaf.url,
        query: discovery("LeafPaging", INDEX),
        expected: streamsPerLeaf,
        hops: [{ path: LEAF, operation: "LeafPaging" }],
        repeat: true,
      },
      {
        what: "raw node:http, root's pages",
        where: "floor",
        url: pagingFloor.url,
        query: discovery("FloorPaging", INDEX),
        expected: total,
        hops: [],
      },
    ],
    pageSize,
    options,
    captured,
  );

  // Index lag: a burst of creates at one leaf, then the root's index polled every 20 ms.
  let lag: Lag | undefined;
  if (hasIndex) {
    log(`index lag: ${burst} creates at ${LEAF}`);
    lag = await measureLag(
      root.url,
      { url: leaf.url, path: LEAF, streams: streamsPerLeaf },
      burst,
      concurrency,
    );
  }

  // Security on beside off: the tree restarted in each mode, in turn; the same rows after each start.
  const securityRows = [pageRows[0], pageRows[1], pageRows[2], lookupRows[0], lookupRows[3]].filter(
    (row): row is Row => row !== undefined,
  );
  const securityP50s = await measureSecurity(at, securityRows, securityRounds, options, log);

  // The report.
  console.log(
    `\nbench:federation: ${PATHS.length} registries (${kind}), ${streamsPerLeaf} streams with a binding at each of ` +
      `${LEAVES.length} leaves (${total}); ${requests} sequential requests a row (in turn with the other rows), ` +
      `then ${requests} from ${concurrency} clients\n`,
  );
  console.log("Population");
  console.table({
    [`registries started, inner ones linked (s)`]: fixed(treeSeconds),
    [`streams + bindings created at the leaves (s; ${createConcurrency} requests in flight, ${batch} streams a request)`]:
      fixed(createSeconds),
    "streams created/s": fixed(total / createSeconds),
    "all bindings ONLINE (s from the first create)": fixed(onlineSeconds),
    [`leaves linked ${populateLinked ? "before the creates" : "after all were ONLINE"} (s)`]:
      fixed(linkSeconds),
    [`root's index holds all (s from ${populateLinked ? "all ONLINE" : "the linking's start"})`]:
      fixed(indexedSeconds),
    "root's index caught up": indexNote,
    "connections reset and sent again": resets.count,
    "machine load average (1 min), min / median / max": (() => {
      const sorted = [...loads].sort((a, b) => a - b);
      return [0, 50, 100].map((p) => fixed(percentile(sorted, p))).join(" / ");
    })(),
    "root peak RSS MiB": fixed(await watch.peakRssMiB("/"), 0),
    [`leaf ${LEAF} peak RSS MiB`]: fixed(await watch.peakRssMiB(LEAF), 0),
  });
  const cpu = (from: Map<string, number>, to: Map<string, number>) => (paths: readonly string[]) =>
    fixed(paths.reduce((sum, p) => sum + (to.get(p) ?? 0) - (from.get(p) ?? 0), 0) / 1000);
  const cpuRow = (share: (paths: readonly string[]) => string) => ({
    root: share(["/"]),
    "inner (3)": share(INNER),
    "leaves (9)": share(LEAVES),
    "bench client": share(["client"]),
  });
  console.log("CPU (s, or % of one core)");
  console.table({
    "creating until all ONLINE (s)": cpuRow(cpu(cpuBefore, cpuOnline)),
    [`${populateLinked ? "after that" : "linking"} until the index held all (s)`]: cpuRow(
      cpu(cpuOnline, cpuIndexed),
    ),
    "idle afterwards (% of a core)": cpuRow(
      (paths) => `${fixed(paths.reduce((sum, p) => sum + (idle.get(p) ?? 0), 0) * 100, 0)}%`,
    ),
  });
  printMeasured(
    `(a) first page: streams(first: ${pageSize}) with bindings and statuses; hops: / > ${INNER_OF_LEAF} > ${LEAF}`,
    pageRows,
    pageResults,
    concurrency,
  );
  printMeasured(
    `(c) look-up by key of a stream at ${LEAF}; hops: / > ${INNER_OF_LEAF} > ${LEAF}`,
    lookupRows,
    lookupResults,
    concurrency,
  );
  console.log(`(b) paging through everything, ${pageSize} a page, the passes in lockstep`);
  console.table(
    paging.map(({ failure: _failure, ...p }) => ({
      ...p,
      "page p50 ms": fixed(p["page p50 ms"]),
      "page p99 ms": fixed(p["page p99 ms"]),
      "s a pass (sum of its pages)": fixed(p["s a pass (sum of its pages)"]),
      "each hop's own p50 ms": p["each hop's own p50 ms"].map((ms) => fixed(ms, 0)).join(" > ") || "-",
    })),
  );
  for (const p of paging) if (p.failure) console.log(`  ${p.what}: the first failed page: ${p.failure}`);

  if (securityRounds > 0) printSecurity(securityRows, securityP50s, securityRounds);
  printTargets(issueTargets({ pageResults, lookupResults, paging, lag, burst }));
  if (lag) printLag(lag, burst, LEAF, concurrency);
} catch (error) {
  printWhyFailed(started);
  throw error;
} finally {
  log("stopping the registries");
  await cleanup();
}
