export { loadConfig, type RegistryConfig } from "./config.ts";
export { startRegistry, type RunningRegistry } from "./registry.ts";
