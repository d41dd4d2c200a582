/**
 * Filling the tree of bench:federation: streams with a binding each on a registry-only cluster,
 * created straight at the leaves, and the waits until they are ONLINE and the root's index holds
 * them.
 */
import { call, forEachConcurrently, post, sleep } from "./federation-measure.ts";

export const CLUSTER = "bench-cluster";
const STREAM_CONFIG = {
  "acme.kafka": { owner: "bench@acme.com", team: "bench" },
  "apache.kafka": { partitions: 6 },
};

/** The i-th stream's name, fixed width, so that a name is no other's prefix. */
export const streamName = (i: number, prefix = "bench") => `${prefix}_${String(i).padStart(6, "0")}`;

/** One request creating `names`, each with a binding on CLUSTER if `withBinding`. */
function createBody(names: string[], withBinding: boolean): string {
  const declarations: string[] = [];
  const fields: string[] = [];
  const variables: Record<string, unknown> = {};
  names.forEach((name, i) => {
    declarations.push(`$s${i}: CreateStreamInput!`);
    fields.push(`s${i}: createStream(input: $s${i}) { userErrors { code message } }`);
    variables[`s${i}`] = { name, config: STREAM_CONFIG };
    if (!withBinding) return;
    declarations.push(`$b${i}: CreateBindingInput!`);
    fields.push(`b${i}: createBinding(input: $b${i}) { userErrors { code message } }`);
    variables[`b${i}`] = { stream: name, cluster: CLUSTER };
  });
  return JSON.stringify({ query: `mutation(${declarations.join(", ")}) { ${fields.join(" ")} }`, variables });
}

/** Creates `names` at the registry at `url`; fails on any userError. */
export async function create(url: string, names: string[], withBinding: boolean): Promise<void> {
  const { text, retried } = await post(url, createBody(names, withBinding));
  // Sent again after a reset, what the first attempt made already exists.
  const refused = [...text.matchAll(/"code":"(\w+)"/g)].filter(
    ([, code]) => !(retried && code === "ALREADY_EXISTS"),
  );
  if (refused.length) throw new Error(`creating at ${url} failed: ${text.slice(0, 2_000)}`);
}

/**
 * Declares CLUSTER at each leaf, then creates `perLeaf` streams with a binding each at every leaf:
 * `batch` streams a request, `concurrency` requests in flight, the leaves taken in turn so that
 * all are busy. Logs progress every 15 s.
 */
export async function populate(
  leaves: string[],
  perLeaf: number,
  options: { batch: number; concurrency: number; log: (message: string) => void },
): Promise<void> {
  await Promise.all(
    leaves.map((url) =>
      call(
        url,
        `mutation { declareCluster(input: { name: "${CLUSTER}", provider: "registry-only" }) { userErrors { message } } }`,
      ),
    ),
  );
  const total = perLeaf * leaves.length;
  const started = performance.now();
  let created = 0;
  const progress = setInterval(() => {
    const rate = created / ((performance.now() - started) / 1000);
    options.log(`created ${created} of ${total} streams (${rate.toFixed(1)}/s)`);
  }, 15_000);
  try {
    const batches = Math.ceil(perLeaf / options.batch) * leaves.length;
    await forEachConcurrently(batches, options.concurrency, async (job) => {
      const url = leaves[job % leaves.length]!;
      const first = Math.floor(job / leaves.length) * options.batch;
      const count = Math.min(options.batch, perLeaf - first);
      const names = Array.from({ length: count }, (_, i) => streamName(first + i));
      await create(url, names, true);
      created += names.length;
    });
  } finally {
    clearInterval(progress);
  }
}

/** Waits until every leaf has `perLeaf` ONLINE bindings. */
export async function waitOnline(leaves: string[], perLeaf: number): Promise<void> {
  const online = async (url: string) =>
    (
      await call<{ bindings: { totalCount: number } }>(
        url,
        `{ bindings(filter: { phase: ONLINE }, first: 0) { totalCount } }`,
      )
    ).bindings.totalCount;
  while (!(await Promise.all(leaves.map(online))).every((count) => count >= perLeaf)) await sleep(250);
}

/**
 * Waits until the root's index holds `total` streams and as many ONLINE bindings, with no child's
 * feed behind; gives up after `timeoutMs`. Returns undefined when it caught up, else what it held.
 */
export async function waitIndexed(
  rootUrl: string,
  total: number,
  timeoutMs: number,
): Promise<string | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const data = await call<{
      s: { totalCount: number; lag: { entriesBehind: number }[] };
      b: { totalCount: number };
    }>(
      rootUrl,
      `{ s: streams(first: 0, consistency: INDEX) { totalCount lag { namespace entriesBehind secondsBehind } }
         b: bindings(filter: { phase: ONLINE }, first: 0, consistency: INDEX) { totalCount } }`,
    );
    const behind = data.s.lag.reduce((sum, lag) => sum + lag.entriesBehind, 0);
    if (data.s.totalCount === total && data.b.totalCount === total && behind === 0) return undefined;
    if (performance.now() > deadline) {
      return `the root's index holds ${data.s.totalCount} streams and ${data.b.totalCount} ONLINE bindings, ${behind} entries behind`;
    }
    await sleep(250);
  }
}
