// The hint under each file choice of the export dialog: the plain files share the risk sentence, the
// ZIPs their hint. A hint shared by several choices is said once (issue 26): under the chosen one of
// them, or, while none of them is chosen, under the first.

export const FILE_HINTS = {
  xlsx: 'export.format.xlsx.hint',
  zip: 'export.format.zip.hint',
  zipTxt: 'export.format.zip.hint',
  csv: 'export.format.csv.hint',
  txt: 'export.format.csv.hint',
} as const;
export type HintedChoice = keyof typeof FILE_HINTS;

const ORDER = Object.keys(FILE_HINTS) as HintedChoice[];

export function hintShown(value: HintedChoice, choice: HintedChoice): boolean {
  const sharing = ORDER.filter((other) => FILE_HINTS[other] === FILE_HINTS[value]);
  return sharing.includes(choice) ? value === choice : sharing[0] === value;
}
