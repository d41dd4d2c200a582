export { defineProviderConformanceSuite } from "./suite.ts";
export type { ConformanceFactory, ConformanceTarget, InvalidStream, ResourceSample } from "./target.ts";
