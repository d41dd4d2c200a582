import type { ClusterTarget, StreamProvider } from "@stream-registry/provider-api";
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
  const signal = AbortSignal.any([parent, AbortSignal.timeout(timeoutMs)]);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`probe did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const probe = await Promise.race([provider.infrastructure.probeCluster(cluster, { signal }), timeout]);
    return { ok: true, probe };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
