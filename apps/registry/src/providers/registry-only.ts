import type { StreamProvider } from "@stream-registry/provider-api";

/**
 * The built-in provider for clusters that name none: it records metadata only. Nothing is created
 * anywhere, so its bindings become ONLINE as soon as the reconciler sees them.
 */
export const registryOnlyProvider = {
  kind: "registry-only",
  description: "Records metadata only; realizes nothing. Bindings become ONLINE at once.",
  configMaps: [],
  infrastructure: {
    async validateCluster() {},
    async probeCluster() {
      return { latencyMs: 0 };
    },
    async observeStreamBinding() {
      return { message: "registry-only provider: metadata only, nothing to observe" };
    },
    async validateStream() {},
    async createStreamBinding() {
      return { message: "recorded (registry-only provider: nothing to realize)" };
    },
    async updateStreamBinding() {
      return { message: "recorded (registry-only provider: nothing to realize)" };
    },
    async deleteStreamBinding() {},
  },
} satisfies StreamProvider;
