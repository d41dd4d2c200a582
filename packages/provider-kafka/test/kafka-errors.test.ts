import { createRequire } from "node:module";
import { InfrastructureError } from "@stream-registry/provider-api";
import { describe, expect, it } from "vitest";
import { isConnectionError, kafkaErrorType, toInfrastructureError } from "../src/errors/kafka-errors.ts";

// kafkajs' error classes and its broker-code table, as kafkajs itself builds them (the typed API
// exposes only some of them, with narrower constructors than the runtime's).
const load = createRequire(import.meta.url);
type ErrorClass = new (...args: unknown[]) => Error;
const errors = load("kafkajs/src/errors") as Record<string, ErrorClass>;
const { createErrorFromCode } = load("kafkajs/src/protocol/error") as {
  createErrorFromCode(code: number): Error;
};
const errorClass = (name: string): ErrorClass => {
  const found = errors[name];
  if (!found) throw new Error(`kafkajs has no ${name}`);
  return found;
};
const KafkaJSProtocolError = errorClass("KafkaJSProtocolError");
const KafkaJSCreateTopicError = errorClass("KafkaJSCreateTopicError");
const KafkaJSAggregateError = errorClass("KafkaJSAggregateError");
const KafkaJSNumberOfRetriesExceeded = errorClass("KafkaJSNumberOfRetriesExceeded");
const KafkaJSNonRetriableError = errorClass("KafkaJSNonRetriableError");
const KafkaJSConnectionError = errorClass("KafkaJSConnectionError");
const KafkaJSRequestTimeoutError = errorClass("KafkaJSRequestTimeoutError");
const KafkaJSSASLAuthenticationError = errorClass("KafkaJSSASLAuthenticationError");

const context = {
  action: 'create topic "widgets_v0"',
  cluster: "/cluster001",
  brokers: ["k1:9092", "k2:9092"],
};
const protocolError = (code: number) => new KafkaJSProtocolError(createErrorFromCode(code));
const map = (error: unknown) => toInfrastructureError(error, context);

describe("kafka error mapping", () => {
  it.each([
    [37, "INVALID_PARTITIONS"],
    [40, "INVALID_CONFIG"],
    [44, "POLICY_VIOLATION"],
    [29, "TOPIC_AUTHORIZATION_FAILED"],
  ])("code %i (%s) is permanent and named with the topic and cluster", (code, type) => {
    const mapped = map(protocolError(code));
    expect(mapped).toBeInstanceOf(InfrastructureError);
    expect(mapped.retriable).toBe(false);
    expect(mapped.message).toMatch(
      new RegExp(
        `^create topic "widgets_v0" on Kafka cluster "/cluster001" \\(k1:9092,k2:9092\\) failed: ${type}: `,
      ),
    );
  });

  it.each([
    [41, "NOT_CONTROLLER"],
    [5, "LEADER_NOT_AVAILABLE"],
    [7, "REQUEST_TIMED_OUT"],
    // KRaft answers it while a broker restarts (fewer alive than the factor): a rolling restart.
    [38, "INVALID_REPLICATION_FACTOR"],
  ])("code %i (%s) is retriable", (code, type) => {
    const mapped = map(protocolError(code));
    expect(mapped.retriable).toBe(true);
    expect(mapped.message).toContain(`failed: ${type}: `);
  });

  it("finds the broker's answer inside kafkajs' retry and aggregate wrappers", () => {
    const createError = new KafkaJSCreateTopicError(createErrorFromCode(38), "widgets_v0");
    const aggregate = new KafkaJSAggregateError("Topic creation errors", [createError]);
    expect(kafkaErrorType(aggregate)).toBe("INVALID_REPLICATION_FACTOR");
    expect(map(aggregate).retriable).toBe(true);
    const refused = new KafkaJSAggregateError("Topic creation errors", [
      new KafkaJSCreateTopicError(createErrorFromCode(37), "widgets_v0"),
    ]);
    expect(kafkaErrorType(refused)).toBe("INVALID_PARTITIONS");
    expect(map(refused).retriable).toBe(false);

    const exhausted = new KafkaJSNumberOfRetriesExceeded(protocolError(41), {
      retryCount: 3,
      retryTime: 1000,
    });
    expect(map(exhausted).retriable).toBe(true);
    expect(map(exhausted).message).toContain("NOT_CONTROLLER");

    const bailed = new KafkaJSNonRetriableError(protocolError(40), { cause: protocolError(40) });
    expect(map(bailed).retriable).toBe(false);
  });

  it("treats connection trouble as retriable and marks it as such", () => {
    const refused = new KafkaJSConnectionError("Connection error: connect ECONNREFUSED 127.0.0.1:1", {
      broker: "127.0.0.1:1",
      code: "ECONNREFUSED",
    });
    const wrapped = new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 3, retryTime: 1000 });
    expect(isConnectionError(wrapped)).toBe(true);
    expect(map(wrapped)).toMatchObject({ retriable: true });
    expect(map(wrapped).message).toContain(
      "cannot reach the cluster: Connection error: connect ECONNREFUSED",
    );
    expect(
      isConnectionError(new KafkaJSRequestTimeoutError("Request GetApiVersions(key: 18) timed out")),
    ).toBe(true);
    expect(isConnectionError(protocolError(40))).toBe(false);
  });

  it("treats refused credentials as permanent, saying the credentials were rejected", () => {
    const refused = new KafkaJSSASLAuthenticationError("SASL PLAIN authentication failed: Invalid username");
    const mapped = map(new KafkaJSNonRetriableError(refused, { cause: refused }));
    expect(mapped.retriable).toBe(false);
    expect(mapped.message).toBe(
      'create topic "widgets_v0" on Kafka cluster "/cluster001" (k1:9092,k2:9092) failed: SASL authentication ' +
        'refused: the credentials were rejected (check "sasl.mechanism", "sasl.username" and "sasl.password"): ' +
        "SASL PLAIN authentication failed: Invalid username",
    );
    expect(isConnectionError(mapped.cause)).toBe(false);
  });

  it("treats a SASL mechanism the broker does not offer as permanent, naming the key", () => {
    // 33: UNSUPPORTED_SASL_MECHANISM, the broker's answer to the handshake.
    const mapped = map(protocolError(33));
    expect(mapped.retriable).toBe(false);
    expect(mapped.message).toContain(
      'SASL authentication refused: the cluster does not offer this "sasl.mechanism": UNSUPPORTED_SASL_MECHANISM: ',
    );
  });

  it.each(["SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"])(
    "treats a refused broker certificate (%s) as permanent, not as an unreachable cluster",
    (code) => {
      const refused = new KafkaJSConnectionError("Connection error: unable to verify the first certificate", {
        broker: "k1:9092",
        code,
      });
      expect(isConnectionError(refused)).toBe(false);
      const mapped = map(new KafkaJSNumberOfRetriesExceeded(refused, { retryCount: 3, retryTime: 1000 }));
      expect(mapped.retriable).toBe(false);
      expect(mapped.message).toContain(
        'failed: the broker\'s TLS certificate was refused (check "ssl.truststore.certificates" and ' +
          '"ssl.endpoint.identification.algorithm"): Connection error: unable to verify the first certificate',
      );
    },
  );

  it("keeps a provider's own errors and retries unknown ones", () => {
    const own = new InfrastructureError("refused", { retriable: false });
    expect(map(own)).toBe(own);
    expect(map(new Error("surprise"))).toMatchObject({
      retriable: true,
      message: expect.stringContaining("surprise"),
    });
  });

  it("names a programming error as itself, never as an unreachable cluster, even inside kafkajs' wrappers", () => {
    const bug = new TypeError(
      "Cannot destructure property 'partitions' of 'low.pop(...)' as it is undefined.",
    );
    // kafkajs' retrier wraps what it does not know as non-retriable, keeping it as the cause.
    const wrapped = new KafkaJSNonRetriableError(bug, { cause: bug });
    for (const error of [bug, wrapped]) {
      expect(isConnectionError(error)).toBe(false);
      expect(kafkaErrorType(error)).toBeUndefined();
      const mapped = map(error);
      expect(mapped.message).toBe(
        'create topic "widgets_v0" on Kafka cluster "/cluster001" (k1:9092,k2:9092) failed: unexpected ' +
          "TypeError: Cannot destructure property 'partitions' of 'low.pop(...)' as it is undefined.",
      );
      expect(mapped.message).not.toContain("cannot reach");
    }
    // A client's own cache missing a topic is not an outage either, though its class extends one.
    const notLoaded = new (errorClass("KafkaJSTopicMetadataNotLoaded"))("Topic metadata not loaded", {
      topic: "widgets_v0",
    });
    expect(isConnectionError(notLoaded)).toBe(false);
    expect(map(notLoaded).message).toContain(
      "failed: KafkaJSTopicMetadataNotLoaded: Topic metadata not loaded",
    );
    // A socket error of Node's own is one.
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" });
    expect(isConnectionError(reset)).toBe(true);
    // An object merely carrying such a code is not.
    expect(isConnectionError({ code: "ECONNRESET" })).toBe(false);
  });
});
