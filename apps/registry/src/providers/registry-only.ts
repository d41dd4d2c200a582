import type { StreamProvider } from "@stream-registry/provider-api";

const RECORDED = { message: "recorded (registry-only provider: nothing to realize)" };

/**
 * The built-in provider for clusters that name none: it records metadata only. Nothing is created
 * anywhere, so its bindings become ONLINE as soon as the reconciler sees them, and its clusters
 * are always up. Like every provider, it honours an aborted signal.
 */
export const registryOnlyProvider = {
  kind: "registry-only",
  description: "Records metadata only; realizes nothing. Bindings become ONLINE at once.",
  configMaps: [],
  infrastructure: {
    // It connects nowhere: its clusters pass any REGISTRY_CONNECT_ALLOW.
    clusterEndpoints: () => [],
    async validateCluster(_name, _config, { signal }) {
      signal.throwIfAborted();
      return { latencyMs: 0 };
    },
    async probeCluster(_cluster, { signal }) {
      signal.throwIfAborted();
      return { latencyMs: 0 };
    },
    async observeStreamBinding(_stream, _cluster, { signal }) {
      signal.throwIfAborted();
      return { message: "registry-only provider: metadata only, nothing to observe" };
    },
    async validateStream(_name, _config, { signal }) {
      signal.throwIfAborted();
    },
    async createStreamBinding(_request, { signal }) {
      signal.throwIfAborted();
      return RECORDED;
    },
    async updateStreamBinding(_request, { signal }) {
      signal.throwIfAborted();
      return RECORDED;
    },
    async deleteStreamBinding(_stream, _cluster, { signal }) {
      signal.throwIfAborted();
    },
  },
} satisfies StreamProvider;
