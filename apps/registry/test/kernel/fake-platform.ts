import {
  configRejected,
  InfrastructureError,
  ResourceConflictError,
  settle,
} from "@stream-registry/provider-api";

/**
 * What the next call of one operation on one resource does instead of its work: fail retriably,
 * fail for good, hang until `release()`, or do its work and then fail retriably (a timeout after the
 * platform applied it: its outcome is lost).
 */
export type Fault = "transient" | "permanent" | "hang" | "lose";
type Operation = "realize" | "remove";

/**
 * An in-memory platform the kernel test steers: resources by name with the spec they were made
 * from, the calls made, and faults queued per operation and name. A create that finds a resource
 * with another spec is refused with a ResourceConflictError, as Kafka's provider refuses a topic
 * with other settings; one that finds the same spec adopts it.
 */
export class FakePlatform {
  readonly resources = new Map<string, unknown>();
  readonly calls: { op: "create" | "update" | "remove"; name: string; at: number }[] = [];
  /** The names each batched create was asked for, one entry per call. */
  readonly batches: string[][] = [];
  /** The names each batched remove was asked for, one entry per call. */
  readonly removeBatches: string[][] = [];
  private readonly faults = new Map<string, Fault[]>();
  private readonly hanging: (() => void)[] = [];

  /** Queues `faults` for the next calls of `op` on `name`, one each. */
  fail(op: Operation, name: string, ...faults: Fault[]): void {
    this.faults.set(`${op}:${name}`, [...(this.faults.get(`${op}:${name}`) ?? []), ...faults]);
  }

  /** Lets every hanging call go on with its work. */
  release(): void {
    for (const go of this.hanging.splice(0)) go();
  }

  /** How many calls of `op` were made on `name`. */
  count(op: "create" | "update" | "remove", name: string): number {
    return this.calls.filter((call) => call.op === op && call.name === name).length;
  }

  async create(name: string, spec: unknown, signal: AbortSignal): Promise<{ message: string }> {
    return this.run("realize", "create", name, signal, () => {
      const existing = this.resources.get(name);
      if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(spec)) {
        throw new ResourceConflictError(`"${name}" exists as ${JSON.stringify(existing)}`);
      }
      this.resources.set(name, spec);
      return { message: `made as ${JSON.stringify(spec)}` };
    });
  }

  /** Many creates in one call: each item's outcome is what its own create would have given. */
  async createMany(items: readonly { name: string; spec: unknown }[], signal: AbortSignal) {
    signal.throwIfAborted();
    this.batches.push(items.map((item) => item.name));
    return Promise.all(items.map(({ name, spec }) => settle(this.create(name, spec, signal))));
  }

  async update(name: string, spec: unknown, signal: AbortSignal): Promise<{ message: string }> {
    return this.run("realize", "update", name, signal, () => {
      if (!this.resources.has(name))
        throw new InfrastructureError(`"${name}" is missing`, { retriable: true });
      this.resources.set(name, spec);
      return { message: `now ${JSON.stringify(spec)}` };
    });
  }

  async observe(name: string, signal: AbortSignal) {
    signal.throwIfAborted();
    const spec = this.resources.get(name);
    return spec === undefined ? null : { message: "seen", details: { spec: JSON.stringify(spec) } };
  }

  async remove(name: string, signal: AbortSignal): Promise<void> {
    await this.run("remove", "remove", name, signal, () => void this.resources.delete(name));
  }

  /** Many removes in one call: each name's outcome is what its own remove would have given. */
  async removeMany(names: readonly string[], signal: AbortSignal) {
    signal.throwIfAborted();
    this.removeBatches.push([...names]);
    return Promise.all(names.map((name) => settle(this.remove(name, signal))));
  }

  private async run<T>(
    op: Operation,
    call: "create" | "update" | "remove",
    name: string,
    signal: AbortSignal,
    work: () => T,
  ): Promise<T> {
    signal.throwIfAborted();
    this.calls.push({ op: call, name, at: Date.now() });
    const fault = this.faults.get(`${op}:${name}`)?.shift();
    if (fault === "transient") throw new InfrastructureError(`${call} failed for now`, { retriable: true });
    if (fault === "permanent") throw configRejected(`${call} refused for good`);
    if (fault === "hang") await new Promise<void>((resolve) => this.hanging.push(resolve));
    const result = work();
    if (fault === "lose")
      throw new InfrastructureError(`${call} timed out (its outcome was lost)`, { retriable: true });
    return result;
  }
}
