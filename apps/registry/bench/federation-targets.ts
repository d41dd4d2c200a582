/**
 * Issue 10's targets from one run of bench:federation, and the ratios shown beside them: each a
 * p50 of one variant over another measured in turn with it.
 */
import { percentile, type Measured } from "./federation-measure.ts";
import type { Lag } from "./federation-lag.ts";
import type { PagingRow } from "./federation-paging.ts";
import type { Target } from "./federation-report.ts";

export function issueTargets(run: {
  /** In the order of the first-page rows: root INDEX, root LIVE, leaf, the two without totalCount, floor. */
  pageResults: (Measured | undefined)[];
  /** In the order of the look-up rows: root stream(), root _entities, root INDEX, leaf. */
  lookupResults: (Measured | undefined)[];
  paging: PagingRow[];
  lag: Lag | undefined;
  burst: number;
}): Target[] {
  const p50 = (m: Measured | undefined) => (m ? percentile(m.sequential, 50) : NaN);
  const pagingP50 = (what: string) => run.paging.find((p) => p.what === what)?.["page p50 ms"] ?? NaN;
  const [pageIndex, pageLive, pageLeaf, pageIndexUncounted, pageLeafUncounted, pageRaw] = run.pageResults;
  const [lookupRoot, entities, lookupIndex, lookupLeaf] = run.lookupResults;
  return [
    [
      "first page: root INDEX p50 / leaf direct p50",
      p50(pageIndex) / p50(pageLeaf),
      "<= 1.5",
      (v) => v <= 1.5,
    ],
    [
      "paging: root INDEX page p50 / leaf direct page p50",
      pagingP50("root, INDEX") / pagingP50("leaf direct"),
      "<= 1.5",
      (v) => v <= 1.5,
    ],
    [
      "look-up: root stream() p50 / leaf direct p50",
      p50(lookupRoot) / p50(lookupLeaf),
      "<= 2",
      (v) => v <= 2,
    ],
    [`index lag after ${run.burst} creates (s)`, run.lag?.seconds ?? NaN, "< 2", (v) => v < 2],
    ["look-up: root _entities p50 / leaf direct p50", p50(entities) / p50(lookupLeaf), ""],
    ["look-up: root INDEX streams(filter) p50 / leaf direct p50", p50(lookupIndex) / p50(lookupLeaf), ""],
    ["first page: root LIVE p50 / leaf direct p50", p50(pageLive) / p50(pageLeaf), ""],
    [
      "first page without totalCount: root INDEX p50 / leaf direct p50",
      p50(pageIndexUncounted) / p50(pageLeafUncounted),
      "",
    ],
    ["first page: root INDEX p50 / raw floor p50", p50(pageIndex) / p50(pageRaw), ""],
  ];
}
