import { absolutePath } from "./indexed-objects.ts";
import { accessOf } from "./authorize.ts";
import type { GraphQLContext } from "./context.ts";
import type { DescendantRegistry, HealthStatus } from "../generated/resolvers-types.ts";

/**
 * Namespace.descendants of this registry's own namespace: its children as it probes them, then
 * what each child reported of the registries below it (discovery index), those the principal may
 * know of, in tree order (a registry before those below it).
 */
export async function descendantsOf(context: GraphQLContext): Promise<DescendantRegistry[]> {
  const access = await accessOf(context);
  const known = (below: string) => access.knowsOf(below);
  const children = (await context.services.children.list())
    .filter((child) => known(child.name))
    .map((child) => ({
      path: context.services.children.pathOf(child.name),
      url: child.url,
      health: child.health ?? { status: "UNKNOWN" },
    }));
  const reported = (await context.services.index.descendantHealth(known)).map(
    ({ below, url, status, checkedAt, latencyMs, lastError }) => ({
      path: absolutePath(context.namespace, below),
      url,
      health: {
        status: status as HealthStatus,
        checkedAt: checkedAt === null ? null : new Date(checkedAt),
        latencyMs,
        lastError,
      },
    }),
  );
  return [...children, ...reported].sort((a, b) => treeOrder(a.path, b.path));
}

/** Code-point order of the path's segments: "/aws", "/aws/us", "/aws-2". */
function treeOrder(a: string, b: string): number {
  const [x, y] = [a.split("/"), b.split("/")];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}
