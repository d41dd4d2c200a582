import type { ProtoDiffContext } from "./diff.ts";
import { compareMessages } from "./diff.ts";
import type { ProtoField, ProtoFieldType } from "./model.ts";

/** Scalars that share a wire encoding, so that one may be read as another (protobuf's updating rules). */
const SCALAR_GROUPS: Record<string, string> = {
  int32: "varint",
  int64: "varint",
  uint32: "varint",
  uint64: "varint",
  bool: "varint",
  sint32: "zigzag",
  sint64: "zigzag",
  string: "length-delimited",
  bytes: "length-delimited",
  fixed32: "fixed32",
  sfixed32: "fixed32",
  fixed64: "fixed64",
  sfixed64: "fixed64",
  float: "float",
  double: "double",
};

export function compareFields(ctx: ProtoDiffContext, original: ProtoField, update: ProtoField): void {
  if (original.name !== update.name) ctx.add("FIELD_NAME_CHANGED");
  compareTypes(ctx, original.type, update.type, labelChange(original, update));
}

function labelChange(original: ProtoField, update: ProtoField): boolean {
  return original.repeated !== update.repeated;
}

function compareTypes(
  ctx: ProtoDiffContext,
  original: ProtoFieldType,
  update: ProtoFieldType,
  repeatedChanged: boolean,
): void {
  const before = kindOf(original);
  const after = kindOf(update);
  if (before !== after) return ctx.add("FIELD_KIND_CHANGED");
  if (original.kind === "map" && update.kind === "map") {
    compareTypes(ctx, original.key, update.key, false);
    return compareTypes(ctx, original.value, update.value, false);
  }
  if (original.kind === "message" && update.kind === "message")
    return compareMessageTypes(ctx, original, update);
  const group = scalarGroup(original);
  if (group !== scalarGroup(update)) return ctx.add("FIELD_SCALAR_KIND_CHANGED");
  if (repeatedChanged) {
    ctx.add(
      group === "length-delimited" ? "FIELD_STRING_OR_BYTES_LABEL_CHANGED" : "FIELD_NUMERIC_LABEL_CHANGED",
    );
  }
}

/** Same message by its name without package, and a compatible definition. */
function compareMessageTypes(
  ctx: ProtoDiffContext,
  original: Extract<ProtoFieldType, { kind: "message" }>,
  update: Extract<ProtoFieldType, { kind: "message" }>,
): void {
  if (original.message.localName !== update.message.localName) return ctx.add("FIELD_NAMED_TYPE_CHANGED");
  const sub = ctx.atDefinition(original.message.localName);
  compareMessages(sub, original.message, update.message);
  if (sub.isCompatible()) return;
  ctx.reportAtDefinition(sub.differences);
  ctx.add("FIELD_NAMED_TYPE_CHANGED");
}

/** Enums are scalars here (varints), as Confluent groups them. */
function kindOf(type: ProtoFieldType): "scalar" | "message" | "map" {
  return type.kind === "enum" ? "scalar" : type.kind;
}

function scalarGroup(type: ProtoFieldType): string {
  if (type.kind === "enum") return "varint";
  return type.kind === "scalar" ? (SCALAR_GROUPS[type.name] ?? type.name) : type.kind;
}
