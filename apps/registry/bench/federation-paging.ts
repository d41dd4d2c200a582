/**
 * (b) of bench:federation: paging through every stream, the passes in lockstep (a page of each in
 * turn), so that all see the same moments of a noisy machine. A pass marked `repeat` (the leaf's,
 * a ninth of the others) starts over until the others end.
 */
import {
  Failures,
  logMarks,
  percentile,
  post,
  serverTimes,
  type Hop,
  type MeasureOptions,
} from "./federation-measure.ts";
import { json } from "./federation-queries.ts";

/** One pass to measure. */
export interface PassSpec {
  what: string;
  /** Where it is asked, as printed ("/", a leaf's path, "floor"). */
  where: string;
  url: string;
  query: string;
  /** The streams a whole pass must see. */
  expected: number;
  hops: Hop[];
  /** Its pages are kept by `after` in `captured` (the floor answers with them). */
  capture?: boolean;
  repeat?: boolean;
}

interface Pass extends PassSpec {
  after: string | null;
  seen: number;
  sum: number;
  done: boolean;
  latencies: number[];
  passSums: number[];
  failures: Failures;
}

export interface PagingRow {
  what: string;
  where: string;
  streams: number;
  "pages a pass": number;
  "page p50 ms": number;
  "page p99 ms": number;
  "s a pass (sum of its pages)": number;
  "each hop's own p50 ms": number[];
  passes: number;
  "failed pages (asked again)": number;
  failure: string | undefined;
}

export async function pageInLockstep(
  specs: PassSpec[],
  pageSize: number,
  options: MeasureOptions,
  captured: Map<string, Buffer>,
): Promise<PagingRow[]> {
  const passes: Pass[] = specs.map((spec) => ({
    ...spec,
    after: null,
    seen: 0,
    sum: 0,
    done: false,
    latencies: [],
    passSums: [],
    failures: new Failures(),
  }));
  const marks = logMarks(
    passes.map((p) => ({ url: p.url, body: () => "", hops: p.hops })),
    options,
  );
  while (passes.some((p) => !p.done && !p.repeat)) {
    for (const p of passes) {
      if (p.done) continue;
      // A page that fails (a partial answer) is counted and asked again, its time left out.
      let answer: Awaited<ReturnType<typeof post>> | undefined;
      for (let attempt = 0; !answer; attempt++) {
        try {
          answer = await post(p.url, json(p.query, { first: pageSize, after: p.after }));
        } catch (error) {
          if (attempt >= 3) throw error;
          p.failures.add(error);
        }
      }
      if (p.capture) captured.set(String(p.after), Buffer.from(answer.text));
      const page = (
        JSON.parse(answer.text) as {
          data: { streams: { pageInfo: { hasNextPage: boolean; endCursor: string }; edges: unknown[] } };
        }
      ).data.streams;
      p.latencies.push(answer.ms);
      p.sum += answer.ms;
      p.seen += page.edges.length;
      p.after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      if (p.after !== null) continue;
      if (p.seen !== p.expected)
        throw new Error(`${p.what}: paged ${p.seen} streams, expected ${p.expected}`);
      p.passSums.push(p.sum);
      Object.assign(p, { seen: 0, sum: 0, done: !p.repeat });
    }
  }
  return passes.map((p) => {
    const latencies = p.latencies.sort((a, b) => a - b);
    return {
      what: p.what,
      where: p.where,
      streams: p.expected,
      "pages a pass": Math.ceil(p.expected / pageSize),
      "page p50 ms": percentile(latencies, 50),
      "page p99 ms": percentile(latencies, 99),
      "s a pass (sum of its pages)": p.passSums.reduce((a, b) => a + b, 0) / p.passSums.length / 1000,
      "each hop's own p50 ms": serverTimes(p.hops, marks, options),
      passes: p.passSums.length,
      "failed pages (asked again)": p.failures.count,
      failure: p.failures.first,
    };
  });
}
