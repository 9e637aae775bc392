// The label of a value picked from a purchase template's options (contract §5: `options: [{ value, label }]`,
// today the `select` fields). The value (the merchant's code, e.g. `android-qq`) is what is sent; the label
// (安卓QQ区) is what the buyer picked and reads on every screen (contract §7.11). One home for finding it:
// core keeps it with the entries when an intent is written, the review shows it before that.

/** A field as far as its options go (the template's field, the form's field). */
export interface OptionField {
  readonly fieldRef: string;
  readonly options: readonly { readonly value: string; readonly label: string }[] | null;
}

/** One entry group's picked options: fieldRef → the option's label. Fields without options are absent. */
export type OptionLabels = Record<string, string>;

/** True for a field whose value is picked from a list (the template lists options for it). */
export function isOptionField(field: OptionField | undefined): boolean {
  return field?.options !== undefined && field.options !== null && field.options.length > 0;
}

/** The label of `value` among the field's options; null when the field has none or does not list it. */
export function optionLabelOf(field: OptionField | undefined, value: string): string | null {
  return field?.options?.find((option) => option.value === value)?.label ?? null;
}

/** The labels of the options picked in each group, one record per group (empty for a group with none). */
export function optionLabelsOf(fields: readonly OptionField[], groups: readonly Readonly<Record<string, string>>[]): OptionLabels[] {
  const byRef = new Map(fields.map((field) => [field.fieldRef, field]));
  return groups.map((group) => {
    const labels: OptionLabels = {};
    for (const [fieldRef, value] of Object.entries(group)) {
      const label = optionLabelOf(byRef.get(fieldRef), value);
      if (label !== null) labels[fieldRef] = label;
    }
    return labels;
  });
}
