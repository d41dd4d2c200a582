import { probeRegistry } from "@stream-registry/federation";
import { childrenDueForProbe, recordChildHealth, type ChildRegistry } from "@stream-registry/store";
import type { ServiceDeps } from "../services/deps.ts";
import type { HealthSubject } from "./health-monitor.ts";

/**
 * Child registries: UP when the child answers as the registry that registered. Each probe carries
 * a token this registry signs for that child (`authorization`).
 */
export function childProbes(
  deps: Pick<ServiceDeps, "db">,
  authorization: (registryId: string) => Record<string, string>,
): HealthSubject<ChildRegistry> {
  return {
    kind: "child registry",
    due: (before) => childrenDueForProbe(deps.db.prisma, before),
    async probe(child, timeoutMs, signal) {
      const started = performance.now();
      try {
        const headers = authorization(child.registryId);
        const info = await probeRegistry(child.url, { timeoutMs, signal, headers });
        if (info.id === child.registryId)
          return { ok: true, probe: { latencyMs: performance.now() - started } };
        return {
          ok: false,
          error: `${child.url} answers as registry ${info.id} (${info.namespace}), not as the child that registered`,
        };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    },
    record: (child, outcome) => recordChildHealth(deps.db.prisma, child.id, outcome),
    lastStatus: (child) => child.health?.status ?? null,
    describe: (child) => ({ child: child.name, url: child.url }),
  };
}
