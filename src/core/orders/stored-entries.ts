// How an intent's entries are kept, plain (purchase_entries_json, until the outcome is final) or sealed
// (recharged_entries_sealed, once accepted): the groups as sent, with the labels of the options picked in
// them beside (contract §7.11), in one JSON so a label lives and dies with its value. Rows written before
// labels were kept hold the bare array of groups: read as groups with no labels.
import { z } from 'zod';
import type { OptionLabels } from '../../shared/purchase-option-labels';

type Groups = Record<string, string>[];

export interface StoredEntries {
  /** What the merchant is sent (the options' codes). */
  readonly groups: Groups;
  /** One record per group, fieldRef → the picked option's label; null for rows kept before labels were. */
  readonly optionLabels: OptionLabels[] | null;
}

/** The JSON kept for these groups and labels; null when there are no groups (nothing is kept). */
export function storedEntriesJson(groups: readonly Readonly<Record<string, string>>[], optionLabels: readonly OptionLabels[]): string | null {
  if (groups.length === 0) return null;
  return JSON.stringify({ groups, optionLabels });
}

// Tolerant on read: a value that is not text is dropped rather than failing the whole order's view.
const group = z.record(z.string(), z.unknown()).transform((record) => Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string')));
const legacyShape = z.array(group);
const labelledShape = z.looseObject({ groups: z.array(group), optionLabels: z.array(group).nullable().optional() });

/** Reads either shape: `{ groups, optionLabels }`, or the bare array of groups kept before labels (labels null). */
export function readStoredEntries(json: string): StoredEntries {
  const parsed: unknown = JSON.parse(json);
  const legacy = legacyShape.safeParse(parsed);
  if (legacy.success) return { groups: legacy.data, optionLabels: null };
  const labelled = labelledShape.safeParse(parsed);
  if (!labelled.success) return { groups: [], optionLabels: null };
  return { groups: labelled.data.groups, optionLabels: labelled.data.optionLabels ?? null };
}
