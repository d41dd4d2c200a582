// The registry app's own test support: a real registry on a free port, in-memory PGlite, the test
// provider loaded (REGISTRY_PROVIDERS), its log printed when a test fails.
export { useTestRegistry, eventually } from "../../../registry/test/support/test-registry.ts";
