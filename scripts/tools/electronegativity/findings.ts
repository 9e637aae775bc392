// Electronegativity's findings as a CSV in its own format (header, quoting, N/A), written in one step:
// the tool's own CSV writer races (header and body are two concurrent async writes, so the header
// can overwrite the first finding), so scripts/electronegativity.ts writes it from the runner's result.

export interface Finding {
  check: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
  description: string;
}

const CSV_HEADER = 'issue, severity, confidence, filename, location, sample, description, url';
const csvField = (value: string): string => (value === 'N/A' ? value : `"${value.replace(/"/g, '""')}"`);

export function toCsv(findings: readonly Finding[]): string {
  const lines = findings.map((f) =>
    [f.check, ...[f.severity, f.confidence, f.file, f.location, f.sample, f.description].map(csvField), `https://github.com/doyensec/electronegativity/wiki/${f.check}`].join(','),
  );
  return [CSV_HEADER, ...lines].join('\n') + '\n';
}

/** Electronegativity's CSV: one finding per line, fields quoted with "" as the escape, or N/A.
 *  A quoted field may hold a line break (a CSP written over several lines), so quotes are tracked
 *  across lines. */
export function parseFindings(csv: string): Finding[] {
  const [header, ...rows] = splitCsv(csv);
  if (header === undefined || header[0] !== 'issue') throw new Error('not an Electronegativity CSV');
  return rows.map((fields) => {
    if (fields.length < 7) throw new Error(`unexpected CSV row: ${fields.join(',')}`);
    const [check = '', severity = '', confidence = '', file = '', location = '', sample = '', description = ''] = fields;
    return { check, severity, confidence, file, location, sample, description };
  });
}

/** RFC 4180 rows: quoted fields may hold commas, "" and line breaks; blank lines are skipped. */
function splitCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = (): void => {
    row.push(field);
    if (row.length > 1 || row[0]?.trim() !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i];
    if (quoted) {
      if (char === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') endRow();
    else if (char !== '\r') field += char;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}
