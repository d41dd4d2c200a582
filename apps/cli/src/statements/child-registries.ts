import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { outcome, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";

interface Child {
  path: string;
  url: string;
  registryId: string;
  version: string;
  health: { status: string; lastError: string | null };
  registeredAt: string;
  suspendedAt: string | null;
  suspendedBy: string | null;
}

const CHILD = "path url registryId version health { status lastError } registeredAt suspendedAt suspendedBy";

/** What a child is to its parent now: SUSPENDED (since, by whom), or its health. */
function stateOf(child: Child): string {
  if (child.suspendedAt) return `SUSPENDED since ${child.suspendedAt} by ${child.suspendedBy ?? "?"}`;
  return child.health.status === "DOWN" && child.health.lastError
    ? `DOWN: ${child.health.lastError}`
    : child.health.status;
}

/** SHOW CHILD REGISTRIES: every child of this registry, suspended ones too (for admins). */
export async function showChildRegistries(
  _s: StatementOf<"showChildRegistries">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await execute<Child[]>(context, {
    statement: "SHOW CHILD REGISTRIES",
    root: "Query",
    field: "childRegistries",
    query: `query SrctlShowChildRegistries { childRegistries { ${CHILD} } }`,
  });
  const rows = answer.value.map((child) => ({
    namespace: child.path,
    url: child.url,
    state: stateOf(child),
    registeredAt: child.registeredAt,
    registryId: child.registryId,
    version: child.version,
    suspendedAt: child.suspendedAt,
    suspendedBy: child.suspendedBy,
  }));
  return outcome(
    {
      type: "table",
      columns: [
        { key: "namespace", header: "namespace" },
        { key: "url", header: "url" },
        { key: "state", header: "state" },
        { key: "registeredAt", header: "registered" },
      ],
      rows,
    },
    answer.warnings,
  );
}

const ACTIONS = {
  suspendChildRegistry: {
    statement: "SUSPEND CHILD REGISTRY",
    done: "suspended: it is not called, and its tokens are refused",
  },
  resumeChildRegistry: { statement: "RESUME CHILD REGISTRY", done: "resumed: it is called again" },
  dropChildRegistry: {
    statement: "DROP CHILD REGISTRY",
    done: "dropped: its registration, keys and index rows are gone",
  },
} as const;

type ChildAction = keyof typeof ACTIONS;

async function administer(kind: ChildAction, path: string, context: StatementContext): Promise<Outcome> {
  const { statement, done } = ACTIONS[kind];
  const answer = await runMutation<{ child: Child }>(
    context,
    statement,
    kind,
    { path },
    `child { ${CHILD} }`,
  );
  const { child } = answer.value;
  return outcome(
    {
      type: "mutation",
      message: `child registry ${child.path}: ${done}`,
      object: { kind: "childRegistry", ...child },
    },
    answer.warnings,
  );
}

export const suspendChildRegistry = (s: StatementOf<"suspendChildRegistry">, context: StatementContext) =>
  administer("suspendChildRegistry", s.path, context);
export const resumeChildRegistry = (s: StatementOf<"resumeChildRegistry">, context: StatementContext) =>
  administer("resumeChildRegistry", s.path, context);
export const dropChildRegistry = (s: StatementOf<"dropChildRegistry">, context: StatementContext) =>
  administer("dropChildRegistry", s.path, context);
