import { testProviderModule } from "./workspace.ts";

/**
 * The settings of a registry under test: the test provider loaded, a quick reconciler, and no
 * periodic probes or resyncs adding queries at random moments (tests that need them set them).
 */
export const testRegistryEnv: Readonly<Record<string, string>> = {
  REGISTRY_PROVIDERS: testProviderModule,
  RECONCILER_POLL_MS: "200",
  RECONCILER_RETRY_BASE_MS: "50",
  RECONCILER_RETRY_MAX_MS: "500",
  SHUTDOWN_TIMEOUT_MS: "2000",
  REGISTRY_HEALTH_INTERVAL_MS: "0",
  RECONCILER_RESYNC_MS: "0",
};
