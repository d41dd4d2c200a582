import { describe, expect, it } from "vitest";
import { ErrorCode, RegistryError } from "../src/errors.ts";
import { Phase, nextPhase } from "../src/phase.ts";
import type { PhaseEvent } from "../src/phase.ts";

const { PENDING, ONLINE, FAILED, DELETING } = Phase;

describe("Phase", () => {
  it("has exactly the four phases, valued by name", () => {
    expect(Object.entries(Phase)).toEqual([
      ["PENDING", "PENDING"],
      ["ONLINE", "ONLINE"],
      ["FAILED", "FAILED"],
      ["DELETING", "DELETING"],
    ]);
  });
});

describe("nextPhase", () => {
  // Every phase crossed with every event except the one refusal, which is tested below.
  it.each<[Phase, PhaseEvent, Phase]>([
    [PENDING, "desired-changed", PENDING],
    [ONLINE, "desired-changed", PENDING],
    [FAILED, "desired-changed", PENDING],
    [PENDING, "realized", ONLINE],
    [ONLINE, "realized", ONLINE],
    [FAILED, "realized", ONLINE],
    [DELETING, "realized", DELETING],
    [PENDING, "failed", FAILED],
    [ONLINE, "failed", FAILED],
    [FAILED, "failed", FAILED],
    [DELETING, "failed", DELETING],
    [PENDING, "vanished", PENDING],
    [ONLINE, "vanished", PENDING],
    [FAILED, "vanished", PENDING],
    [DELETING, "vanished", DELETING],
    [PENDING, "delete-requested", DELETING],
    [ONLINE, "delete-requested", DELETING],
    [FAILED, "delete-requested", DELETING],
    [DELETING, "delete-requested", DELETING],
  ])("%s --%s--> %s", (current, event, next) => {
    expect(nextPhase(current, event)).toBe(next);
  });

  it("refuses to change the desired state of an object being deleted", () => {
    let thrown: unknown;
    try {
      nextPhase(DELETING, "desired-changed");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegistryError);
    expect((thrown as RegistryError).code).toBe(ErrorCode.BEING_DELETED);
    expect((thrown as RegistryError).message).toContain("is being deleted");
  });

  it("never leaves DELETING, whatever the provider reports afterwards", () => {
    const events: PhaseEvent[] = ["realized", "failed", "vanished", "delete-requested", "realized"];
    expect(events.reduce(nextPhase, nextPhase(ONLINE, "delete-requested"))).toBe(DELETING);
  });
});
