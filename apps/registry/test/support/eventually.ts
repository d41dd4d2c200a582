export { eventually } from "@stream-registry/testkit";
