/**
 * Security's cost in bench:federation (issue 11): the whole tree restarted, alternately, with
 * authentication on (NODE_ENV=production; each hop a token the registry above signs) and off
 * (NODE_ENV=development, REGISTRY_AUTH=none, which production refuses; the request path's only
 * production-only behaviour is security's), `rounds` times each; the same rows measured after each
 * start, once the tree is back to its idle CPU.
 */
import type { RegistryNode } from "@stream-registry/testkit";
import {
  forEachConcurrently,
  idleRates,
  measureInterleaved,
  percentile,
  ProcessWatch,
  type MeasureOptions,
} from "./federation-measure.ts";
import { fixed, type Row } from "./federation-report.ts";
import { PATHS, registryPid } from "./federation-tree.ts";

const MODES = {
  on: { NODE_ENV: "production" },
  off: { NODE_ENV: "development", REGISTRY_AUTH: "none" },
} as const;

/** Each mode's p50s: one array a round, one p50 a row. */
export type SecurityP50s = Record<keyof typeof MODES, number[][]>;

export async function measureSecurity(
  at: (path: string) => RegistryNode,
  rows: Row[],
  rounds: number,
  options: MeasureOptions,
  log: (message: string) => void,
): Promise<SecurityP50s> {
  const p50s: SecurityP50s = { on: [], off: [] };
  for (let round = 0; round < rounds; round++) {
    for (const mode of ["off", "on"] as const) {
      log(`security ${mode}, round ${round + 1} of ${rounds}: restarting the tree`);
      await forEachConcurrently(PATHS.length, PATHS.length, (i) => at(PATHS[i]!).stop());
      await forEachConcurrently(PATHS.length, 3, (i) => at(PATHS[i]!).start(MODES[mode]));
      const restarted = new ProcessWatch();
      for (const path of PATHS) restarted.add(path, registryPid(at(path)));
      await settle(restarted, options.idle);
      const results = await measureInterleaved(rows, { ...options, watch: restarted });
      p50s[mode].push(results.map((m) => percentile(m.sequential, 50)));
    }
  }
  return p50s;
}

/** Until the restarted tree spends no more CPU than it did idle before (start-up done), 90 s at most. */
async function settle(watch: ProcessWatch, idle: Map<string, number>): Promise<void> {
  const sum = (rates: Map<string, number>) =>
    PATHS.reduce((total, path) => total + (rates.get(path) ?? 0), 0);
  const deadline = performance.now() + 90_000;
  while (performance.now() < deadline && sum(await idleRates(watch, 2_000)) > sum(idle) * 1.5 + 0.2);
}

export function printSecurity(rows: Row[], p50s: SecurityP50s, rounds: number): void {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const of = (mode: "on" | "off", r: number) => median(p50s[mode].map((round) => round[r]!));
  console.log(
    `Security on (NODE_ENV=production, tokens) beside off (NODE_ENV=development, REGISTRY_AUTH=none): ` +
      `p50 ms, the median of ${rounds} restarts of the tree in each mode, in turn`,
  );
  console.table(
    rows.map((row, r) => ({
      what: row.what,
      where: row.where,
      "on p50 ms": fixed(of("on", r)),
      "off p50 ms": fixed(of("off", r)),
      "on / off": fixed(of("on", r) / of("off", r), 2),
      "target <= 1.2": of("on", r) / of("off", r) <= 1.2 ? "yes" : "NO",
      "rounds, on | off": `${p50s.on.map((p) => fixed(p[r]!)).join(" ")} | ${p50s.off.map((p) => fixed(p[r]!)).join(" ")}`,
    })),
  );
}
