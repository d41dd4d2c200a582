import type { Column } from "../output/table.ts";
import type { StatementContext } from "./context.ts";

/** What was flowing through a binding's topic at the registry's last poll (Binding.flow). */
export interface BindingFlowData {
  observedAt: string;
  records: number;
  producedPerSecond: number | null;
  error: string | null;
  groups: {
    group: string;
    state: string;
    protocol: string;
    members: number | null;
    lag: number;
    health: string;
  }[];
}

export const BINDING_FLOW =
  "flow { observedAt records producedPerSecond error groups { group state protocol members lag health } }";

/** Whether the registry has Binding.flow (or introspection is off, and it is asked for anyway). */
export async function hasBindingFlow(context: StatementContext): Promise<boolean> {
  return (await context.capabilities.has("Binding", "flow")) !== false;
}

interface FlowingBinding {
  stream: { name: string };
  cluster: { name: string };
  flow?: BindingFlowData | null;
}

/**
 * Data in flight under DESCRIBE BINDINGS' table: records and produce rate per binding, then each
 * consumer group with its lag and health. None when no binding was polled (a registry-only
 * cluster's), so the seed's table prints alone.
 */
export function flowTables(
  bindings: FlowingBinding[],
): { columns: Column[]; rows: Record<string, unknown>[] }[] {
  const polled = bindings.flatMap((b) =>
    b.flow ? [{ stream: b.stream.name, cluster: b.cluster.name, flow: b.flow }] : [],
  );
  if (polled.length === 0) return [];
  const where = [
    { key: "stream", header: "stream" },
    { key: "cluster", header: "cluster" },
  ];
  const offsets = {
    columns: [
      ...where,
      { key: "records", header: "records", align: "right" as const },
      { key: "producedPerSecond", header: "produced/s", align: "right" as const },
      { key: "observedAt", header: "as of" },
      { key: "error", header: "error" },
    ],
    rows: polled.map(({ stream, cluster, flow }) => ({
      stream,
      cluster,
      records: flow.records,
      producedPerSecond: flow.producedPerSecond === null ? null : Number(flow.producedPerSecond.toFixed(1)),
      observedAt: flow.observedAt,
      error: flow.error,
    })),
  };
  const groups = {
    columns: [
      ...where,
      { key: "group", header: "consumer group" },
      { key: "protocol", header: "protocol" },
      { key: "state", header: "state" },
      { key: "members", header: "members", align: "right" as const },
      { key: "lag", header: "lag", align: "right" as const },
      { key: "health", header: "health" },
    ],
    rows: polled.flatMap(({ stream, cluster, flow }) => flow.groups.map((g) => ({ stream, cluster, ...g }))),
  };
  return groups.rows.length > 0 ? [offsets, groups] : [offsets];
}
