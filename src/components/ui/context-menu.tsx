'use client';

import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cn } from './cn';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  /** Keys of the same action's shortcut, shown on the right. */
  shortcut?: string;
  disabled?: boolean;
  /** Red: the item deletes something. */
  danger?: boolean;
  /** A line above the item, starting a group. */
  separated?: boolean;
}

const MARGIN = 8;

/**
 * A context menu at a screen point: role "menu", focus on its first item, arrow keys, Home/End move, Enter or
 * Space picks, Escape, Tab, a click outside, scrolling or resizing close it. Kept inside the viewport.
 */
export function ContextMenu({ x, y, label, items, onClose }: { x: number; y: number; label: string; items: MenuItem[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState({ left: x, top: y, shown: false });
  const close = useRef(onClose);
  close.current = onClose;

  // inside the viewport: flipped to the left of / above the point when it would overflow
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect();
    if (!box) return;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let left = x + box.width + MARGIN > vw ? x - box.width : x;
    let top = y + box.height + MARGIN > vh ? y - box.height : y;
    left = Math.max(MARGIN, Math.min(left, vw - box.width - MARGIN));
    top = Math.max(MARGIN, Math.min(top, vh - box.height - MARGIN));
    setAt({ left, top, shown: true });
  }, [x, y]);

  // the first item takes the focus once the right-click that opened the menu is over (its mousedown and
  // mouseup would otherwise move the focus back to what was clicked)
  useEffect(() => {
    const focusFirst = () => {
      if (ref.current && !ref.current.contains(document.activeElement)) ref.current.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus();
    };
    const frame = window.requestAnimationFrame(focusFirst);
    const afterUp = () => window.setTimeout(focusFirst, 0);
    document.addEventListener('mouseup', afterUp, { once: true });
    return () => {
      window.cancelAnimationFrame(frame);
      document.removeEventListener('mouseup', afterUp);
    };
  }, []);

  // focus goes back where it was when the menu closes (unless a picked item moved it elsewhere)
  const [before] = useState(() => document.activeElement);
  useEffect(() => {
    const menu = ref.current;
    return () => {
      const now = document.activeElement;
      if (before instanceof HTMLElement && (now === document.body || !now || menu?.contains(now))) before.focus({ preventScroll: true });
    };
  }, [before]);

  useEffect(() => {
    const outside = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) close.current();
    };
    const dismiss = () => close.current();
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('wheel', dismiss, { capture: true, passive: true });
    window.addEventListener('resize', dismiss);
    window.addEventListener('blur', dismiss);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('wheel', dismiss, true);
      window.removeEventListener('resize', dismiss);
      window.removeEventListener('blur', dismiss);
    };
  }, []);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const all = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? []);
    const i = all.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (e.key === 'ArrowDown') next = all[(i + 1) % all.length];
    else if (e.key === 'ArrowUp') next = all[(i - 1 + all.length) % all.length];
    else if (e.key === 'Home') next = all[0];
    else if (e.key === 'End') next = all.at(-1);
    else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      onClose();
    }
    // the editor's own shortcuts must not act while the menu has the keyboard
    e.stopPropagation();
    e.nativeEvent.stopImmediatePropagation();
    if (next) {
      e.preventDefault();
      next.focus();
    }
  }

  return createPortal(
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      style={{ left: at.left, top: at.top, visibility: at.shown ? 'visible' : 'hidden' }}
      className="fixed z-50 min-w-56 rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {items.map((item) => (
        <div key={item.label}>
          {item.separated ? <div className="my-1 h-px bg-slate-100" role="separator" /> : null}
          <button
            type="button"
            role="menuitem"
            disabled={item.disabled}
            onClick={() => {
              onClose();
              item.onSelect();
            }}
            className={cn(
              [
                'flex w-full items-center gap-2.5 px-3 py-1.5 text-left text-slate-700 outline-none hover:bg-slate-100',
                'focus:bg-slate-100 disabled:cursor-default disabled:text-slate-400 disabled:hover:bg-transparent',
              ].join(' '),
              item.danger && 'text-red-700 hover:bg-red-50 focus:bg-red-50',
            )}
          >
            <span className="flex size-4 shrink-0 items-center justify-center text-slate-500 [&_svg]:size-4" aria-hidden>
              {item.icon}
            </span>
            <span className="flex-1">{item.label}</span>
            {item.shortcut ? <kbd className="ml-4 font-sans text-xs text-slate-400">{item.shortcut}</kbd> : null}
          </button>
        </div>
      ))}
    </div>,
    document.body,
  );
}
