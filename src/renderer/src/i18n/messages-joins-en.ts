// How English puts shown values together: a label and its value, a text and its note, a list, clauses.
// Each language has its own marks (Chinese writes ：（）、；), so code never joins with a mark of its own.
// messages-joins-zh-cn.ts has the same keys (checked by its type).
export const joinsEn = {
  'join.labelValue': '{label}: {value}',
  'join.note': '{text} ({note})',
  'join.list': ', ',
  'join.clauses': '; ',
};

export type JoinsMessageKey = keyof typeof joinsEn;
