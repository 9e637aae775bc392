// A secret the app keeps but never shows again (the API key, the ngrok authtoken): typed into a
// password box and handed over with one button; the box is emptied once main has stored it.
import { Button, Input, Space } from 'antd';
import { useState } from 'react';

export interface WriteOnlySecretFieldProps {
  readonly testId: string;
  readonly placeholder?: string;
  readonly buttonLabel: string;
  readonly primary?: boolean;
  readonly saving: boolean;
  /** Stores the trimmed value; calls `done` once it is stored, which empties the box. */
  readonly onSave: (value: string, done: () => void) => void;
}

export function WriteOnlySecretField({ testId, placeholder, buttonLabel, primary = false, saving, onSave }: WriteOnlySecretFieldProps) {
  const [value, setValue] = useState('');
  return (
    <Space.Compact style={{ width: '100%', maxWidth: 560 }}>
      <Input.Password data-testid={testId} placeholder={placeholder} autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} />
      <Button type={primary ? 'primary' : 'default'} data-testid={`${testId}-save`} disabled={value.trim() === ''} loading={saving} onClick={() => onSave(value.trim(), () => setValue(''))}>
        {buttonLabel}
      </Button>
    </Space.Compact>
  );
}
