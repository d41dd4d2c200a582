/**
 * The workload of `npm run bench:schemas`, the same for the REST API and for the in-process floor:
 * registrations of distinct schemas under many subjects, then look-ups of schemas by id. Each
 * subject's versions are registered in order by one client (version k adds a field with a default:
 * BACKWARD-compatible with k-1, so each registration is checked as Confluent's would be).
 */

/** What the workload calls: one registration, one look-up by id. */
export interface SchemaCalls {
  register(subject: string, schema: string): Promise<number>;
  lookup(id: number): Promise<void>;
}

/** Throughput and each call's milliseconds. */
export interface Measured {
  perSecond: number;
  latencies: number[];
}

/** Version `version` (0-based) of `subject`'s record: fields f0..f<version>, all but f0 with a default. */
export function schemaOf(subject: number, version: number): string {
  const fields = Array.from({ length: version + 1 }, (_, k) => ({
    name: `f${k}`,
    type: k % 2 === 0 ? "string" : "long",
    ...(k > 0 && { default: k % 2 === 0 ? "" : 0 }),
  }));
  return JSON.stringify({ type: "record", name: `Bench${subject}`, namespace: "bench", fields });
}

/** Registers `count` distinct schemas over `subjects` subjects from `clients` clients; returns their ids too. */
export async function registerAll(
  calls: SchemaCalls,
  options: { count: number; subjects: number; clients: number },
): Promise<Measured & { ids: number[] }> {
  const { count, subjects, clients } = options;
  const ids: number[] = [];
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      // Client c registers every registration whose subject is c modulo the clients, in order.
      for (let i = 0; i < count; i++) {
        const subject = i % subjects;
        if (subject % clients !== client) continue;
        const t = performance.now();
        ids.push(await calls.register(`bench-${subject}-value`, schemaOf(subject, Math.floor(i / subjects))));
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { perSecond: count / ((performance.now() - started) / 1000), latencies, ids };
}

/** Looks up `count` schemas by id, picked round-robin from `ids`, from `clients` clients. */
export async function lookupAll(
  calls: SchemaCalls,
  options: { count: number; ids: number[]; clients: number },
): Promise<Measured> {
  const { count, ids, clients } = options;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        await calls.lookup(ids[(i * 7919) % ids.length]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { perSecond: count / ((performance.now() - started) / 1000), latencies };
}

export const median = (values: number[]) => percentile(values, 50);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((p / 100) * (sorted.length - 1))] ?? Number.NaN;
}
