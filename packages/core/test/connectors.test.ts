import { describe, expect, it } from "vitest";
import {
  autoRestartDue,
  autoRestartsSettled,
  connectorStatus,
  DEFAULT_AUTO_RESTART,
  parseRestartDelays,
  Phase,
} from "../src/index.ts";

const MINUTE = 60_000;
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * MINUTE);

describe("a source's or sink's STATUS", () => {
  it("is the kernel's phase until realized, then the platform's state", () => {
    expect(connectorStatus(Phase.PENDING, "RUNNING")).toBe("PENDING");
    expect(connectorStatus(Phase.FAILED, undefined)).toBe("FAILED");
    expect(connectorStatus(Phase.DELETING, "RUNNING")).toBe("DELETING");
    expect(connectorStatus(Phase.ONLINE, undefined)).toBe("PENDING");
    expect(connectorStatus(Phase.ONLINE, "RUNNING")).toBe("ONLINE");
    expect(connectorStatus(Phase.ONLINE, "UNASSIGNED")).toBe("PENDING");
    expect(connectorStatus(Phase.ONLINE, "RESTARTING")).toBe("PENDING");
    expect(connectorStatus(Phase.ONLINE, "DEGRADED")).toBe("DEGRADED");
    expect(connectorStatus(Phase.ONLINE, "PAUSED")).toBe("PAUSED");
    expect(connectorStatus(Phase.ONLINE, "FAILED")).toBe("FAILED");
  });
});

describe("automatic restarts (Strimzi's autoRestart)", () => {
  it("waits 0, 2, 6, 12, ... minutes after the restart before, and stops at the maximum", () => {
    const policy = DEFAULT_AUTO_RESTART;
    expect(autoRestartDue({ autoRestarts: 0, lastRestartAt: null }, at(0), policy)).toBe(true);
    expect(autoRestartDue({ autoRestarts: 1, lastRestartAt: at(0) }, at(1), policy)).toBe(false);
    expect(autoRestartDue({ autoRestarts: 1, lastRestartAt: at(0) }, at(2), policy)).toBe(true);
    expect(autoRestartDue({ autoRestarts: 2, lastRestartAt: at(2) }, at(7), policy)).toBe(false);
    expect(autoRestartDue({ autoRestarts: 2, lastRestartAt: at(2) }, at(8), policy)).toBe(true);
    expect(autoRestartDue({ autoRestarts: policy.max, lastRestartAt: at(0) }, at(10_000), policy)).toBe(
      false,
    );
  });

  it("repeats the last delay, and counts anew once healthy for longer than the next delay", () => {
    const policy = { delaysMs: [0, 1_000], max: 10 };
    expect(autoRestartDue({ autoRestarts: 5, lastRestartAt: new Date(0) }, new Date(999), policy)).toBe(
      false,
    );
    expect(autoRestartDue({ autoRestarts: 5, lastRestartAt: new Date(0) }, new Date(1_000), policy)).toBe(
      true,
    );
    expect(
      autoRestartsSettled({ autoRestarts: 1, lastRestartAt: new Date(0) }, new Date(1_000), policy),
    ).toBe(false);
    expect(
      autoRestartsSettled({ autoRestarts: 1, lastRestartAt: new Date(0) }, new Date(1_001), policy),
    ).toBe(true);
    expect(autoRestartsSettled({ autoRestarts: 0, lastRestartAt: null }, new Date(5_000), policy)).toBe(
      false,
    );
  });

  it("reads REGISTRY_CONNECTOR_RESTART_DELAYS_MS, refusing what is not a list of delays", () => {
    expect(parseRestartDelays("0, 200,1000")).toEqual([0, 200, 1000]);
    for (const bad of ["", "1,,2", "-1", "1.5", "soon"]) expect(parseRestartDelays(bad)).toBeUndefined();
  });
});
