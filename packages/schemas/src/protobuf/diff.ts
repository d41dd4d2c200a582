import { DifferenceContext, newPairMemo, type Difference } from "../difference-context.ts";
import { COMPATIBLE } from "./differences.ts";
import { compareFields } from "./diff-field.ts";
import type { ProtoEnum, ProtoField, ProtoFileModel, ProtoMessage } from "./model.ts";

/**
 * The Protobuf comparison's context. A message type a field uses is compared where it is defined
 * (`#/Money/1`), as Confluent reports it: those differences go to one list of the whole comparison,
 * each once, whatever the path the comparison took to them.
 */
export class ProtoDiffContext extends DifferenceContext {
  static root(): ProtoDiffContext {
    return new ProtoDiffContext(COMPATIBLE, newPairMemo());
  }

  /** A context of the same comparison at the place a message is defined. */
  atDefinition(localName: string): ProtoDiffContext {
    return this.rootedAt(localName.split("."));
  }

  /** Differences found at their definition, kept aside from the path being walked. */
  reportAtDefinition(differences: readonly Difference[]): void {
    let sink = definitionSinks.get(this.memo);
    if (!sink) definitionSinks.set(this.memo, (sink = new Map()));
    for (const difference of differences) sink.set(`${difference.type} ${difference.path}`, difference);
  }

  reportedAtDefinitions(): Difference[] {
    return [...(definitionSinks.get(this.memo)?.values() ?? [])];
  }
}

const definitionSinks = new WeakMap<object, Map<string, Difference>>();

/** Every difference from `original` (the writer's file) to `update` (the reader's), as Confluent finds them. */
export function protobufDifferences(original: ProtoFileModel, update: ProtoFileModel): Difference[] {
  const ctx = ProtoDiffContext.root();
  if (original.packageName !== update.packageName) ctx.add("PACKAGE_CHANGED");
  compareTypes(ctx, original, update);
  return [...ctx.differences, ...ctx.reportedAtDefinitions()];
}

interface TypeList {
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
}

/** Messages and enums of one scope, matched by name. */
function compareTypes(ctx: ProtoDiffContext, original: TypeList, update: TypeList): void {
  const indexed = (messages: readonly ProtoMessage[]) =>
    new Map(messages.map((message, index) => [message.name, { message, index }]));
  ctx.eachKey(indexed(original.messages), indexed(update.messages), (o, u) => {
    if (!u) return ctx.add("MESSAGE_REMOVED");
    if (!o) return ctx.add("MESSAGE_ADDED");
    compareMessages(ctx, o.message, u.message);
    // Serialized message indexes are relative to the schema of their id: moving is allowed.
    if (o.index !== u.index) ctx.add("MESSAGE_MOVED");
  });
  const named = (enums: readonly ProtoEnum[]) => new Map(enums.map((e) => [e.name, e]));
  ctx.eachKey(named(original.enums), named(update.enums), (o, u) => {
    if (!u) return ctx.add("ENUM_REMOVED");
    if (!o) return ctx.add("ENUM_ADDED");
    compareEnums(ctx, o, u);
  });
}

function compareEnums(ctx: ProtoDiffContext, original: ProtoEnum, update: ProtoEnum): void {
  for (const number of new Set([...original.values.keys(), ...update.values.keys()])) {
    const before = original.values.get(number);
    const after = update.values.get(number);
    if (after === undefined) ctx.add("ENUM_CONST_REMOVED", String(number));
    else if (before === undefined) ctx.add("ENUM_CONST_ADDED", String(number));
    else if (before !== after) ctx.add("ENUM_CONST_CHANGED", String(number));
  }
}

/** Once per pair of messages in a check: a recursive message meets itself as compatible. */
export function compareMessages(outer: ProtoDiffContext, original: ProtoMessage, update: ProtoMessage): void {
  outer.memoized(
    original,
    update,
    (ctx) => {
      const topBefore = byNumber(original.fields.filter((field) => field.oneof === undefined));
      const topAfter = byNumber(update.fields.filter((field) => field.oneof === undefined));
      const inOneofBefore = byNumber(original.fields.filter((field) => field.oneof !== undefined));
      checkMovesIntoOneofs(ctx, update, topBefore, inOneofBefore);
      compareOneofs(ctx, original, update);
      ctx.eachKey(topBefore, topAfter, (o, u) => {
        if (o && u) return compareFields(ctx, o, u);
        if (o) return ctx.add(o.required ? "REQUIRED_FIELD_REMOVED" : "FIELD_REMOVED");
        if (u) ctx.add(u.required ? "REQUIRED_FIELD_ADDED" : "FIELD_ADDED");
      });
      compareAcrossOneofs(ctx, original, update);
      compareNumbersByName(ctx, original, update);
      compareTypes(ctx, original, update);
      // Message types used by fields are summed up where used (diff-field.ts), never repeated in full.
    },
    false,
  );
}

/** A oneof may take over at most one field that existed outside any oneof, and only as a new oneof. */
function checkMovesIntoOneofs(
  ctx: ProtoDiffContext,
  update: ProtoMessage,
  topBefore: Map<number, ProtoField>,
  inOneofBefore: Map<number, ProtoField>,
): void {
  for (const oneof of update.oneofs) {
    const moved = oneof.fields.filter((field) => topBefore.has(field.number)).length;
    const existing = oneof.fields.filter((field) => inOneofBefore.has(field.number)).length;
    for (const field of oneof.fields) topBefore.delete(field.number);
    if (moved > 1) ctx.add("MULTIPLE_FIELDS_MOVED_TO_ONEOF", oneof.name);
    else if (moved === 1 && existing > 0) ctx.add("FIELD_MOVED_TO_EXISTING_ONEOF", oneof.name);
  }
}

function compareOneofs(ctx: ProtoDiffContext, original: ProtoMessage, update: ProtoMessage): void {
  const named = (message: ProtoMessage) => new Map(message.oneofs.map((oneof) => [oneof.name, oneof]));
  const updateNumbers = new Set(update.fields.map((field) => field.number));
  ctx.eachKey(named(original), named(update), (o, u) => {
    if (!u) return ctx.add("ONEOF_REMOVED");
    if (!o) return ctx.add("ONEOF_ADDED");
    ctx.eachKey(byNumber(o.fields), byNumber(u.fields), (fo, fu, number) => {
      // A field that left the oneof but lives on elsewhere in the message was moved, not removed.
      if (!fu && !updateNumbers.has(number)) ctx.add("ONEOF_FIELD_REMOVED");
      else if (!fo && fu) ctx.add("ONEOF_FIELD_ADDED");
      else if (fo && fu) compareFields(ctx, fo, fu);
    });
  });
}

/** Fields whose oneof membership changed are compared by number like the others. */
function compareAcrossOneofs(ctx: ProtoDiffContext, original: ProtoMessage, update: ProtoMessage): void {
  const after = byNumber(update.fields);
  for (const field of [...original.fields].sort((a, b) => a.number - b.number)) {
    const other = after.get(field.number);
    if (!other || field.oneof === other.oneof) continue;
    ctx.within(String(field.number), () => compareFields(ctx, field, other));
  }
}

/** A field that keeps its name under another number: data written under the old number is lost. */
function compareNumbersByName(ctx: ProtoDiffContext, original: ProtoMessage, update: ProtoMessage): void {
  const after = new Map(update.fields.map((field) => [field.name, field]));
  for (const field of original.fields) {
    const renumbered = after.get(field.name);
    if (renumbered && renumbered.number !== field.number) ctx.add("FIELD_NUMBER_CHANGED", field.name);
  }
}

function byNumber(fields: readonly ProtoField[]): Map<number, ProtoField> {
  return new Map(fields.map((field) => [field.number, field]));
}
