import { describe, expect, it } from "vitest";
import { checkCompatibility, parseSchema, SchemaParseError, type ResolvedReference } from "../src/index.ts";

const ref = (
  name: string,
  schemaType: ResolvedReference["schemaType"],
  schema: string,
  references: ResolvedReference[] = [],
) => ({
  name,
  schemaType,
  schema,
  references,
});

const ADDRESS =
  '{"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"street","type":"string"}]}';
const COUNTRY = '{"type":"enum","name":"Country","namespace":"com.acme","symbols":["FR","NO"]}';
const ADDRESS_WITH_COUNTRY =
  '{"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"country","type":"Country"}]}';

describe("references", () => {
  it("AVRO: named types of references are known, by full or namespace-relative name", () => {
    const text =
      '{"type":"record","name":"Customer","namespace":"com.acme","fields":[{"name":"home","type":"Address"}]}';
    const parsed = parseSchema("AVRO", text, [ref("com.acme.Address", "AVRO", ADDRESS)]);
    expect(parsed.canonical).toContain('"type":"com.acme.Address"');
    expect(() => parseSchema("AVRO", text)).toThrow('unknown type "com.acme.Address"');
  });

  it("AVRO: a reference's own references resolve, and are part of the fingerprint", () => {
    const text =
      '{"type":"record","name":"Customer","namespace":"com.acme","fields":[{"name":"home","type":"com.acme.Address"}]}';
    const country = ref("com.acme.Country", "AVRO", COUNTRY);
    const address = ref("com.acme.Address", "AVRO", ADDRESS_WITH_COUNTRY, [country]);
    const parsed = parseSchema("AVRO", text, [address]);
    const otherCountry = ref("com.acme.Country", "AVRO", COUNTRY.replace('"NO"', '"SE"'));
    const other = parseSchema("AVRO", text, [{ ...address, references: [otherCountry] }]);
    expect(other.canonical).toBe(parsed.canonical);
    expect(other.fingerprint).not.toBe(parsed.fingerprint);
    const spaced = parseSchema("AVRO", text, [{ ...address, schema: ` ${ADDRESS_WITH_COUNTRY} ` }]);
    expect(spaced.fingerprint).toBe(parsed.fingerprint);
  });

  it("JSON: a $ref to a reference's name resolves to it, with a fragment too", () => {
    const customer = ref("customer.json", "JSON", '{"type":"object","definitions":{"id":{"type":"string"}}}');
    const parsed = parseSchema("JSON", '{"properties":{"who":{"$ref":"customer.json#/definitions/id"}}}', [
      customer,
    ]);
    expect(parsed.references).toHaveLength(1);
  });

  it("JSON: a reference found by its $id, relative to the schema's own", () => {
    const address = ref(
      "https://acme.com/address.json",
      "JSON",
      '{"$id":"https://acme.com/address.json","type":"string"}',
    );
    const text = '{"$id":"https://acme.com/customer.json","properties":{"home":{"$ref":"address.json"}}}';
    const before = parseSchema("JSON", text, [address]);
    const narrowed = ref(
      address.name,
      "JSON",
      '{"$id":"https://acme.com/address.json","type":"string","maxLength":2}',
    );
    const after = parseSchema("JSON", text, [narrowed]);
    const result = checkCompatibility("BACKWARD", after, [{ version: 1, schema: before }]);
    expect(result.messages.join()).toContain("MAX_LENGTH_ADDED at #/properties/home/maxLength");
  });

  it("PROTOBUF: imports resolve to references' texts, transitively", () => {
    const money = ref(
      "acme/money.proto",
      "PROTOBUF",
      'syntax = "proto3"; package acme.money; import "acme/currency.proto"; message Money { int64 units = 1; acme.money.Currency currency = 2; }',
      [
        ref(
          "acme/currency.proto",
          "PROTOBUF",
          'syntax = "proto3"; package acme.money; enum Currency { EUR = 0; NOK = 1; }',
        ),
      ],
    );
    const text =
      'syntax = "proto3"; package acme; import "acme/money.proto"; message Order { acme.money.Money total = 1; }';
    expect(parseSchema("PROTOBUF", text, [money]).recordName).toBe("acme.Order");
  });

  it("a reference of another format is refused", () => {
    const text = '{"type":"record","name":"C","fields":[{"name":"a","type":"com.acme.Address"}]}';
    expect(() => parseSchema("AVRO", text, [ref("com.acme.Address", "JSON", "{}")])).toThrow(
      SchemaParseError,
    );
    expect(() => parseSchema("AVRO", text, [ref("com.acme.Address", "JSON", "{}")])).toThrow(
      "only reference AVRO",
    );
  });

  it("an invalid reference is named", () => {
    const text = '{"type":"record","name":"C","fields":[{"name":"a","type":"com.acme.Address"}]}';
    expect(() => parseSchema("AVRO", text, [ref("com.acme.Address", "AVRO", "{")])).toThrow(
      'invalid AVRO schema: reference "com.acme.Address": not JSON',
    );
  });
});
