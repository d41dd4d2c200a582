/** How bench:federation prints what it measured. */
import type { RegistryNode } from "@stream-registry/testkit";
import { percentile, type Measured, type Variant } from "./federation-measure.ts";
import { INNER, LEAVES } from "./federation-tree.ts";

/** A variant as measured and printed. */
export interface Row extends Variant {
  what: string;
  where: string;
}
type Printed = Record<string, string | number>;

export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** A table of rows measured in turn; `concurrency`: the clients of the throughput column. */
export function printMeasured(
  title: string,
  rows: (Row | undefined)[],
  results: (Measured | undefined)[],
  concurrency: number,
): void {
  console.log(title);
  console.table(
    rows.map((row, r): Printed => {
      const m = results[r];
      if (!row || !m) return { what: "(no index)" };
      const sum = (paths: readonly string[]) => paths.reduce((s, p) => s + (m.cpuPerRequest.get(p) ?? 0), 0);
      return {
        what: row.what,
        where: row.where,
        "p50 ms": fixed(percentile(m.sequential, 50)),
        "p99 ms": fixed(percentile(m.sequential, 99)),
        [`req/s, ${concurrency} clients`]: fixed(m.rps),
        [`p50 ms, ${concurrency} clients`]: fixed(m.concurrentP50),
        bytes: m.bytes,
        "each hop's own p50 ms": m.serverP50.map((ms) => fixed(ms, 0)).join(" > ") || "-",
        "CPU ms/req root": fixed(m.cpuPerRequest.get("/") ?? NaN),
        inner: fixed(sum(INNER)),
        leaves: fixed(sum(LEAVES)),
        client: fixed(m.cpuPerRequest.get("client") ?? NaN),
        failed: m.failures.count,
      };
    }),
  );
  // What failed (a partial answer, say), once a row.
  rows.forEach((row, r) => {
    const first = results[r]?.failures.first;
    if (row && first) console.log(`  ${row.what}: ${results[r]!.failures.count} failed, the first: ${first}`);
  });
}

/** A target's name, this run's value, the target as printed, and whether the value meets it. */
export type Target = [string, number, string, ((value: number) => boolean)?];

export function printTargets(targets: Target[]): void {
  console.log("Targets, from this run");
  console.table(
    targets.map(([what, value, target, met]) => ({
      what,
      value: fixed(value, 2),
      target,
      met: !met ? "" : Number.isFinite(value) ? (met(value) ? "yes" : "NO") : "n/a",
    })),
  );
}

/** A registry that died, or failed a request, says why in its log. */
export function printWhyFailed(nodes: RegistryNode[]): void {
  for (const node of nodes) {
    const lines = node.logs();
    if (lines.length && !node.running())
      console.error(`registry ${node.path} exited; its last lines:\n${lines.slice(-15).join("\n")}`);
    const failed = lines.filter((line) => line.includes('"level":50')).slice(-3);
    if (failed.length) console.error(`registry ${node.path} logged errors:\n${failed.join("\n")}`);
  }
}
