import { testProviderModule } from "./workspace.ts";

/**
 * The admin token of every registry the testkit starts (its REGISTRY_ADMIN_TOKEN), which the
 * testkit's clients send: tests run with authentication on as users do, without a token each.
 */
export const TEST_ADMIN_TOKEN = "srt_stream-registry-testkit-admin-token-0001";

/** The Authorization header of TEST_ADMIN_TOKEN. */
export const TEST_AUTHORIZATION = `Bearer ${TEST_ADMIN_TOKEN}`;

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
  REGISTRY_FLOW_POLL_MS: "0",
  RECONCILER_RESYNC_MS: "0",
  REGISTRY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
};
