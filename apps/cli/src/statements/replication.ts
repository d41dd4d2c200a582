import type { StatementOf } from "@stream-registry/ddl";
import { NotFoundError } from "../errors.ts";
import { execute } from "../client/execute.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { fetchAll, PAGE_INFO } from "./pages.ts";
import { runMutation } from "./mutation.ts";

// Replication and relocation (planned); tables as the seed prints them.

interface ReplicationData {
  cluster: { name: string };
  topic: string;
  status: { phase: string };
}

export async function replicateBinding(
  s: StatementOf<"replicateBinding">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ replication: ReplicationData }>(
    context,
    "REPLICATE BINDING",
    "replicateBinding",
    { stream: s.stream, sourceCluster: s.sourceCluster, namespace: s.namespace, cluster: s.cluster },
    "replication { cluster { name } topic status { phase } }",
  );
  const { replication } = answer.value;
  return outcome({
    type: "mutation",
    message: `replication ${replication.topic} to ${replication.cluster.name}: ${replication.status.phase}`,
    object: {
      kind: "replication",
      cluster: replication.cluster.name,
      topic: replication.topic,
      ...replication.status,
    },
  });
}

export async function showReplications(
  s: StatementOf<"showReplications">,
  context: StatementContext,
): Promise<Outcome> {
  const { nodes, warnings } = await fetchAll<ReplicationData>(context, {
    statement: "SHOW REPLICATIONS",
    root: "Query",
    field: "replications",
    query: `query SrctlShowReplications($cluster: String, $first: Int, $after: String) {
      replications(cluster: $cluster, first: $first, after: $after) {
        nodes { cluster { name } topic status { phase } } ${PAGE_INFO} } }`,
    variables: { cluster: s.cluster ?? null },
  });
  return outcome(
    {
      type: "table",
      style: { boxed: true },
      columns: [
        { key: "cluster", header: "CLUSTER" },
        { key: "topic", header: "TOPIC" },
        { key: "status", header: "STATUS" },
      ],
      rows: nodes.map((r) => ({ cluster: r.cluster.name, topic: r.topic, status: r.status.phase })),
    },
    warnings,
  );
}

interface RelocationData {
  stream: string;
  fromCluster: string;
  toCluster: string;
  status: string;
}

const RELOCATION_FIELDS = "stream fromCluster toCluster status";

function relocationTable(relocation: RelocationData) {
  return {
    type: "table" as const,
    style: { boxed: true },
    columns: [
      { key: "stream", header: "STREAM" },
      { key: "fromCluster", header: "FROM" },
      { key: "toCluster", header: "TO" },
      { key: "status", header: "STATUS" },
    ],
    rows: [{ ...relocation }],
  };
}

export async function createStreamRelocation(
  s: StatementOf<"createStreamRelocation">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ relocation: RelocationData }>(
    context,
    "CREATE STREAM RELOCATION",
    "createStreamRelocation",
    { stream: s.stream, fromCluster: s.fromCluster, toCluster: s.toCluster },
    `relocation { ${RELOCATION_FIELDS} }`,
  );
  const r = answer.value.relocation;
  return outcome({
    type: "mutation",
    message: `relocation of ${r.stream} from ${r.fromCluster} to ${r.toCluster}: ${r.status}`,
    object: { kind: "relocation", ...r },
  });
}

export async function describeStreamRelocation(
  s: StatementOf<"describeStreamRelocation">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<RelocationData | null>(context, {
    statement: "DESCRIBE STREAM RELOCATION",
    root: "Query",
    field: "relocation",
    query: `query SrctlDescribeRelocation($stream: String!, $fromCluster: String!) {
      relocation(stream: $stream, fromCluster: $fromCluster) { ${RELOCATION_FIELDS} } }`,
    variables: { stream: s.stream, fromCluster: s.fromCluster },
  });
  if (!answer.value)
    throw new NotFoundError(`no relocation of "${s.stream}" from cluster "${s.fromCluster}"`);
  return outcome(relocationTable(answer.value), answer.warnings);
}

export async function deleteStreamRelocation(
  s: StatementOf<"deleteStreamRelocation">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ relocation: RelocationData }>(
    context,
    "DELETE STREAM RELOCATION",
    "deleteStreamRelocation",
    { stream: s.stream, fromCluster: s.fromCluster },
    `relocation { ${RELOCATION_FIELDS} }`,
  );
  const r = answer.value.relocation;
  return outcome({
    type: "mutation",
    message: `relocation of ${r.stream} from ${r.fromCluster}: deleted`,
    object: { kind: "relocation", ...r, deleted: true },
  });
}
