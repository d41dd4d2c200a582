import type { ConnectorFlowFacts, FlowJudgement, GroupHealth } from "@stream-registry/core";
import type { ConsumerGroupFlow, PartitionOffsets, StreamFlow } from "@stream-registry/provider-api";

/** A consumer group reading a binding, with its health over the poller's window. */
export interface GroupFlowView extends ConsumerGroupFlow {
  health: GroupHealth;
}

/**
 * What the poller last read of a binding (GraphQL's BindingFlow). When `error` is set (the last
 * poll could not read it), the other fields are the last good reading's, or empty if there was none.
 */
export interface BindingFlowView {
  /** When the reading was taken. */
  observedAt: Date;
  partitions: PartitionOffsets[];
  records: number;
  producedPerSecond: number | null;
  groups: GroupFlowView[];
  error: string | null;
}

/** A reading of a binding's stream, judged, as GraphQL shows it. */
export function bindingFlowView(at: Date, flow: StreamFlow, judged: FlowJudgement): BindingFlowView {
  return {
    observedAt: at,
    partitions: flow.partitions,
    records: flow.records,
    producedPerSecond: judged.producedPerSecond,
    groups: flow.groups.map((group) => ({ ...group, health: judged.health.get(group.group) ?? "OK" })),
    error: null,
  };
}

/** The last view kept with why the latest poll failed; an empty one at `at` when there is none. */
export function failedView(last: BindingFlowView | undefined, at: Date, error: string): BindingFlowView {
  if (last) return { ...last, error };
  return { observedAt: at, partitions: [], records: 0, producedPerSecond: null, groups: [], error };
}

/** The view as GraphQL's BindingFlow: protocols as its enum's values. */
export function bindingFlowModel(view: BindingFlowView) {
  return {
    ...view,
    groups: view.groups.map((group) => ({
      ...group,
      protocol: group.protocol.toUpperCase() as Uppercase<GroupFlowView["protocol"]>,
    })),
  };
}

/** What GraphQL's ConnectorFlow shows of a source or sink (docs/flow.md says how each is counted). */
export interface ConnectorFlowView extends ConnectorFlowFacts {
  observedAt: Date;
  /** Why the last poll could not read its binding, or the connector's own last failure. */
  lastError: string | null;
}
