import {
  FlowHistory,
  forEachBounded,
  sinkFlow,
  sourceFlow,
  withDeadline,
  type ConnectorRole,
} from "@stream-registry/core";
import { findOnlineBindings, type WatchedBinding } from "@stream-registry/store";
import type { FlowConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { Periodic } from "../periodic.ts";
import { clusterTarget } from "../providers/cluster-target.ts";
import type { ServiceDeps } from "../services/deps.ts";
import { bindingFlowView, failedView, type BindingFlowView, type ConnectorFlowView } from "./binding-flow.ts";

/** What a round did: for logs, tests and `npm run bench:flow`. */
export interface FlowRound {
  clusters: number;
  bindings: number;
  /** Clusters whose reading failed (out of reach, timed out). */
  failed: number;
}

/**
 * Data in flight, read in the background (never per request: lag computed on each page view is
 * what makes Kafka UIs slow): every `pollMs`, one provider call per cluster for all its ONLINE
 * bindings, `concurrency` clusters at a time, each within `timeoutMs` (a slow cluster delays only its
 * own slot, and is abandoned at its deadline). Each binding's readings go through a sliding window
 * (core's FlowHistory) for the produce rate and each group's health; the last view is kept in
 * memory, with its time, and GraphQL answers from it. Memory follows the bindings: a binding no
 * longer ONLINE is forgotten at the next round.
 */
export class FlowPoller {
  private readonly periodic: Periodic;
  private readonly history: FlowHistory;
  private readonly latest = new Map<string, BindingFlowView>();
  /** Each binding's good reading before its latest one: what a source's or sink's progress is measured against. */
  private readonly previous = new Map<string, BindingFlowView>();
  /** Binding ids by "<cluster id>/<stream name>": how a source or sink finds its binding. */
  private readonly byStream = new Map<string, string>();

  constructor(
    private readonly deps: Pick<ServiceDeps, "db" | "providers" | "keyring" | "namespace">,
    private readonly config: FlowConfig,
    private readonly logger: Logger,
  ) {
    this.history = new FlowHistory({ windowSize: config.window });
    this.periodic = new Periodic(
      config.pollMs,
      (signal) => this.round(signal).then(() => undefined),
      (error) => this.logger.error({ err: error }, "data-in-flight round failed"),
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(timeoutMs: number): Promise<void> {
    return this.periodic.stop(timeoutMs);
  }

  /** The binding's last reading; null before the first poll that reached it. */
  of(bindingId: string): BindingFlowView | null {
    return this.latest.get(bindingId) ?? null;
  }

  /**
   * What a source or sink of the stream `name` on the cluster is doing, from its binding's last two
   * readings (core's sinkFlow / sourceFlow); null before the binding's first reading, and for a
   * sink whose provider does not name its consumer group. `connectorError` is the connector's own
   * last failure (its observation), shown when the binding was read fine.
   */
  connector(
    role: ConnectorRole,
    cluster: { id: string; provider: string },
    name: string,
    connectorError: string | null,
  ): ConnectorFlowView | null {
    const id = this.byStream.get(`${cluster.id}/${name}`);
    const now = id === undefined ? undefined : this.latest.get(id);
    if (!now) return null;
    const before = this.previous.get(id!);
    let facts;
    if (role === "source") facts = sourceFlow(now, before);
    else {
      const group = this.deps.providers.get(cluster.provider)?.flow?.sinkGroup?.(name);
      if (group === undefined) return null;
      facts = sinkFlow(group, now, before);
    }
    return { ...facts, observedAt: now.observedAt, lastError: now.error ?? connectorError };
  }

  /** One round over every cluster with ONLINE bindings. */
  async round(signal: AbortSignal): Promise<FlowRound> {
    const bindings = await findOnlineBindings(this.deps.db.prisma);
    const byCluster = new Map<string, WatchedBinding[]>();
    for (const binding of bindings) {
      const list = byCluster.get(binding.cluster.id);
      if (list) list.push(binding);
      else byCluster.set(binding.cluster.id, [binding]);
    }
    const clusters = [...byCluster.values()].filter(
      (list) => this.deps.providers.get(list[0]!.cluster.provider)?.flow,
    );
    let failed = 0;
    await forEachBounded(clusters, this.config.concurrency, async (list) => {
      if (signal.aborted) return;
      if (!(await this.readCluster(list, signal))) failed += 1;
    });
    const live = new Set(bindings.map((binding) => binding.id));
    this.history.retain(live);
    for (const kept of [this.latest, this.previous]) {
      for (const id of kept.keys()) if (!live.has(id)) kept.delete(id);
    }
    this.byStream.clear();
    for (const { id, cluster, streamName } of bindings) this.byStream.set(`${cluster.id}/${streamName}`, id);
    return { clusters: clusters.length, bindings: bindings.length, failed };
  }

  /** Reads one cluster's bindings; false when the cluster could not be read. */
  private async readCluster(bindings: readonly WatchedBinding[], signal: AbortSignal): Promise<boolean> {
    const { cluster } = bindings[0]!;
    const provider = this.deps.providers.get(cluster.provider)!;
    const attempted = new Date();
    try {
      const target = await clusterTarget(this.deps, cluster);
      // Settles at the deadline even if the provider ignores its signal: the round never waits longer.
      const reading = await withDeadline(
        (deadline) =>
          provider.flow!.observeFlow(
            target,
            bindings.map((binding) => binding.streamName),
            { signal: deadline },
          ),
        { signal, timeoutMs: this.config.timeoutMs },
      );
      const at = new Date(reading.observedAt);
      reading.streams.forEach((flow, index) => {
        const { id } = bindings[index]!;
        if (flow.error !== undefined) {
          this.latest.set(id, failedView(this.latest.get(id), at, flow.error));
          return;
        }
        const last = this.latest.get(id);
        if (last && last.error === null) this.previous.set(id, last);
        this.latest.set(id, bindingFlowView(at, flow, this.history.record(id, at.getTime(), flow)));
      });
      return true;
    } catch (error) {
      if (signal.aborted) return true;
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ cluster: cluster.name, err: error }, "data in flight could not be read");
      for (const { id } of bindings) this.latest.set(id, failedView(this.latest.get(id), attempted, message));
      return false;
    }
  }
}
