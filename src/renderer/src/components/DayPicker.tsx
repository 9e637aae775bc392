// A calendar day, picked in the app's language: antd's DatePicker on dayjs with its zh-CN locale (month
// and week names, Monday first), not the browser's native <input type="date">, whose look and order
// ("11/28/2026") follow the browser. The value is "YYYY-MM-DD" as core counts days; typing it works too.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';

/** The day as the app writes it (shared/date-time.ts): the same in both languages, and what a buyer types. */
const DAY_FORMAT = 'YYYY-MM-DD';

interface DayPickerProps {
  /** "YYYY-MM-DD", or '' for no day. */
  readonly value: string;
  readonly onChange: (day: string) => void;
  readonly label: string;
  readonly testId: string;
  readonly width?: number;
  /** The last day that may be picked ("YYYY-MM-DD"), e.g. today where a day not yet begun means nothing. */
  readonly latest?: string;
}

const toDayjs = (value: string): Dayjs | null => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = dayjs(value, DAY_FORMAT);
  return day.isValid() ? day : null;
};

export function DayPicker({ value, onChange, label, testId, width = 150, latest }: DayPickerProps) {
  return (
    <DatePicker
      value={toDayjs(value)}
      format={DAY_FORMAT}
      // Disabled days cannot be clicked, and antd does not take them typed either.
      disabledDate={latest === undefined ? undefined : (day: Dayjs) => day.format(DAY_FORMAT) > latest}
      onChange={(day: Dayjs | null) => onChange(day === null ? '' : day.format(DAY_FORMAT))}
      aria-label={label}
      data-testid={testId}
      style={{ width }}
    />
  );
}
