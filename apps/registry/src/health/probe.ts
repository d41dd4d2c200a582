import type { ClusterTarget, StreamProvider } from "@stream-registry/provider-api";
import { withDeadline } from "@stream-registry/core";
import type { ProbeOutcome } from "./cluster-health.ts";

/**
 * Probes one cluster through its provider, bounded by `timeoutMs` (a provider that ignores its
 * signal cannot stall the health loop). Any failure is DOWN, with the provider's message.
 */
export async function probeCluster(
  provider: StreamProvider,
  cluster: ClusterTarget,
  timeoutMs: number,
  parent: AbortSignal,
): Promise<ProbeOutcome> {
  try {
    const probe = await withDeadline((signal) => provider.infrastructure.probeCluster(cluster, { signal }), {
      timeoutMs,
      signal: parent,
    });
    return { ok: true, probe };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
