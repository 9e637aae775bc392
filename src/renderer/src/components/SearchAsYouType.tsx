// The search box that searches as the buyer types (the catalog's and the compare screen's): every
// committed character is passed on at once, but nothing while an IME composition is open (pinyin
// letters on their way to becoming 汉字 are not what the buyer is looking for); the composed text is
// passed on when the composition ends. `onText` hears what the box shows, composing or not.
import { SearchOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import { useEffect, useRef, useState } from 'react';

export interface SearchAsYouTypeProps {
  readonly testId: string;
  readonly placeholder: string;
  /** The committed text from outside (the store); the box follows it when it changes. */
  readonly value: string;
  readonly onSearch: (text: string) => void;
  readonly onText?: (text: string) => void;
  readonly maxLength?: number;
}

export function SearchAsYouType({ testId, placeholder, value, onSearch, onText, maxLength }: SearchAsYouTypeProps) {
  const [text, setText] = useState(value);
  const composing = useRef(false);
  useEffect(() => setText(value), [value]);
  const typed = (next: string): void => {
    setText(next);
    onText?.(next);
    if (!composing.current) onSearch(next);
  };
  return (
    <Input
      data-testid={testId}
      allowClear
      size="large"
      prefix={<SearchOutlined />}
      placeholder={placeholder}
      value={text}
      {...(maxLength === undefined ? {} : { maxLength })}
      onChange={(event) => typed(event.target.value)}
      onCompositionStart={() => {
        composing.current = true;
      }}
      onCompositionEnd={(event) => {
        composing.current = false;
        typed(event.currentTarget.value);
      }}
    />
  );
}
