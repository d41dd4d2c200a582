import type { StatementOf } from "@stream-registry/ddl";
import { waitForBinding } from "./binding-status.ts";
import { runMutation } from "./mutation.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import {
  namespaceFilter,
  namespaceInput,
  OWN_NAMESPACE,
  ownNamespace,
  withNamespaceColumn,
} from "./namespaced.ts";
import { fetchAll, LIST_ARGUMENTS, LIST_PAGE, LIST_VARIABLES, subtreeList } from "./pages.ts";

interface ClusterData {
  namespace: string;
  name: string;
  provider: string;
  generation: number;
  bindings: { stream: { name: string }; status: { phase: string } }[];
}

export async function declareCluster(
  s: StatementOf<"declareCluster">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<{ created: boolean; cluster: ClusterData }>(
    context,
    "DECLARE CLUSTER",
    "declareCluster",
    { ...namespaceInput(context), name: s.cluster, provider: s.provider, config: s.config },
    `created cluster { namespace name provider generation bindings { stream { name } status { phase } } }`,
  );
  const { created, cluster } = answer.value;
  // A changed cluster config re-realizes the bindings on it (they turn PENDING); an unchanged one does not.
  for (const binding of cluster.bindings.filter((b) => b.status.phase === "PENDING")) {
    await waitForBinding(context, binding.stream.name, cluster.name);
  }
  return outcome({
    type: "mutation",
    message: `cluster ${cluster.name} (${cluster.provider}): ${created ? "created" : "updated"}`,
    object: {
      kind: "cluster",
      namespace: cluster.namespace,
      name: cluster.name,
      provider: cluster.provider,
      created,
      generation: cluster.generation,
    },
  });
}

export async function showClusters(
  _s: StatementOf<"showClusters">,
  context: StatementContext,
): Promise<Outcome> {
  const { nodes, warnings, data } = await fetchAll<ClusterData>(context, {
    statement: "SHOW CLUSTERS",
    root: "Query",
    field: "clusters",
    query: `query SrctlShowClusters($filter: ClusterFilter, ${LIST_VARIABLES}) { ${OWN_NAMESPACE}
      clusters(filter: $filter, ${LIST_ARGUMENTS}) {
        nodes { namespace name provider bindings { stream { name } status { phase } } } ${LIST_PAGE} } }`,
    variables: { filter: namespaceFilter(context), ...subtreeList(context) },
  });
  const rows = nodes.map((c) => ({
    namespace: c.namespace,
    cluster: c.name,
    provider: c.provider,
    bindings: c.bindings.length,
  }));
  const columns = [
    { key: "cluster", header: "cluster" },
    { key: "provider", header: "provider" },
    { key: "bindings", header: "bindings", align: "right" as const },
  ];
  return outcome(
    { type: "table", columns: withNamespaceColumn(columns, rows, ownNamespace(data)), rows },
    warnings,
  );
}
