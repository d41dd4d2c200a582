import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import type { Column } from "../output/table.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { describePhase } from "./parent-registry.ts";

interface NamespaceTree {
  path: string;
  parent: { url: string; namespace: string | null; status: { phase: string; message: string | null } } | null;
  children: {
    path: string;
    name: string;
    url: string;
    registryId: string;
    version: string;
    health: { status: string; checkedAt: string | null; latencyMs: number | null; lastError: string | null };
    registeredAt: string;
  }[];
}

const COLUMNS: Column[] = [
  { key: "namespace", header: "namespace" },
  { key: "url", header: "url" },
  { key: "health", header: "health" },
  { key: "checked", header: "checked" },
];

/**
 * SHOW NAMESPACES: this registry's namespace, then one row per child registry with what the last
 * probe found. The parent link is a line above the table: it is one fact about this registry, not
 * a namespace this registry serves.
 */
export async function showNamespaces(
  _s: StatementOf<"showNamespaces">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<NamespaceTree>(context, {
    statement: "SHOW NAMESPACES",
    root: "Query",
    field: "namespace",
    query: `query SrctlShowNamespaces { namespace { path
      parent { url namespace status { phase message } }
      children { path name url registryId version
        health { status checkedAt latencyMs lastError } registeredAt } } }`,
  });
  const { path, parent, children } = answer.value;
  const self = { namespace: path, url: context.client.url, health: "(this registry)", checked: null };
  const rows = children.map((child) => ({
    namespace: child.path,
    url: child.url,
    // Why a child is DOWN is what the person looking at it needs next.
    health:
      child.health.status === "DOWN" && child.health.lastError
        ? `DOWN: ${child.health.lastError}`
        : child.health.status,
    checked: child.health.checkedAt,
    registryId: child.registryId,
    version: child.version,
    latencyMs: child.health.latencyMs,
    registeredAt: child.registeredAt,
  }));
  return outcome(
    {
      type: "table",
      caption: parent
        ? `parent: ${parentText(parent)}`
        : "parent: none (this registry is the root of its tree)",
      data: {
        parent: parent && {
          url: parent.url,
          namespace: parent.namespace,
          phase: parent.status.phase,
          message: parent.status.message,
        },
      },
      columns: COLUMNS,
      rows: [self, ...rows],
    },
    answer.warnings,
  );
}

function parentText(parent: NonNullable<NamespaceTree["parent"]>): string {
  const where = parent.namespace ? `${parent.namespace} at ${parent.url}` : parent.url;
  return `${where} (${describePhase(parent.status)})`;
}
