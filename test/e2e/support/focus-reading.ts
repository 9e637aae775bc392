// What the keyboard focus is on, read in the page (scripts as text: the e2e files compile without the
// DOM's types): whether a selector's element has it and shows it, its ring and the theme's primary
// colour, and where the focused element is drawn (for Tab order checks).
import type { Page } from '@playwright/test';

export interface Ring {
  readonly width: string;
  readonly style: string;
  readonly color: string;
  /** The theme's --ant-color-primary where the element stands, as rgb(). */
  readonly primary: string;
}

export interface FocusStop {
  /** data-testid, else aria-label, else "button:<its text>", else tag and class. */
  readonly id: string;
  readonly top: number;
  readonly left: number;
  /** Inside the element `within` names. */
  readonly inside: boolean;
  /** Focus left the page (past its last stop the browser's own controls take it). */
  readonly outsidePage: boolean;
}

/** True when the element `selector` finds has the focus and shows it (:focus-visible). */
export function hasVisibleFocus(page: Page, selector: string): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    return element !== null && element === document.activeElement && element.matches(':focus-visible');
  })()`);
}

export function hasFocus(page: Page, selector: string): Promise<boolean> {
  return page.evaluate<boolean>(`document.activeElement !== null && document.activeElement === document.querySelector(${JSON.stringify(selector)})`);
}

export function ringOf(page: Page, selector: string): Promise<Ring> {
  return page.evaluate<Ring>(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)});
    const style = getComputedStyle(element);
    const probe = document.createElement('span');
    probe.style.color = 'var(--ant-color-primary)';
    element.appendChild(probe);
    const primary = getComputedStyle(probe).color;
    probe.remove();
    return { width: style.outlineWidth, style: style.outlineStyle, color: style.outlineColor, primary };
  })()`);
}

export function focusStop(page: Page, within: string): Promise<FocusStop> {
  return page.evaluate<FocusStop>(`(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return { id: 'outside the page', top: -1, left: -1, inside: false, outsidePage: true };
    const rect = element.getBoundingClientRect();
    const text = element.tagName === 'BUTTON' ? (element.textContent || '').replace(/\\s+/g, '') : '';
    const id = element.dataset.testid || element.getAttribute('aria-label') || (text === '' ? element.tagName + '.' + element.className : 'button:' + text);
    return { id, top: Math.round(rect.top), left: Math.round(rect.left), inside: element.closest(${JSON.stringify(within)}) !== null, outsidePage: false };
  })()`);
}
