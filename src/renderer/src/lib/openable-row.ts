// A row that opens something (a product, an order, a case, a variant's prices): the one home of how it
// answers the keyboard and how it is announced. It takes focus with Tab, opens once on Enter or Space
// pressed on the row itself (not a key held down, not a key typed in a button or box inside it, not a
// shortcut, not an IME's Enter), shows the theme's focus ring (.openable-row in styles.css) and has a name.

/** What the handler reads of a key press: React's KeyboardEvent has all of it. */
export interface RowKeyEvent {
  readonly key: string;
  readonly repeat: boolean;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly target: unknown;
  readonly currentTarget: unknown;
  readonly nativeEvent: { readonly isComposing: boolean };
  preventDefault(): void;
}

export interface OpenableRowOptions {
  /** The accessible name: what the row opens, in the buyer's words (a11y.* messages). */
  readonly label: string;
  /**
   * `button`: a row standing alone (the catalog list), announced as a button.
   * `row`: a table row, which keeps its row role so the table stays a table for a screen reader.
   */
  readonly kind: 'button' | 'row';
  /** A button that opens a drawer or dialog says so (aria-haspopup). */
  readonly popup?: 'dialog';
}

export interface OpenableRowProps {
  readonly role?: 'button';
  readonly 'aria-haspopup'?: 'dialog';
  readonly 'aria-label': string;
  readonly tabIndex: 0;
  readonly className: 'openable-row';
  readonly onClick: () => void;
  readonly onKeyDown: (event: RowKeyEvent) => void;
}

/** Enter or Space, pressed once on the row itself with no modifier: the row opens. */
export function opensRow(event: RowKeyEvent): boolean {
  if (event.key !== 'Enter' && event.key !== ' ') return false;
  if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || event.nativeEvent.isComposing) return false;
  return event.target === event.currentTarget;
}

/** The props that make an element a row that opens (spread on a div, or returned from antd's onRow). */
export function openableRow(open: () => void, { label, kind, popup }: OpenableRowOptions): OpenableRowProps {
  return {
    ...(kind === 'button' ? { role: 'button' as const } : {}),
    ...(kind === 'button' && popup !== undefined ? { 'aria-haspopup': popup } : {}),
    'aria-label': label,
    tabIndex: 0,
    className: 'openable-row',
    onClick: open,
    onKeyDown: (event) => {
      if (!opensRow(event)) return;
      // Space would scroll the list, Enter submit a form around it.
      event.preventDefault();
      open();
    },
  };
}
