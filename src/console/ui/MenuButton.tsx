/**
 * A button opening a menu of actions (the WAI-ARIA menu button pattern), used by the lists' 'Export'
 * menu and a row's 'More actions': Enter, Space or Down opens it on the first item (Up on the last),
 * the arrows, Home and End move, Enter or Space chooses, Escape closes it and gives the focus back to
 * the button, Tab or a click elsewhere closes it. Choosing an item gives the focus back to the button
 * first, so a dialog the item opens returns the focus there when it closes. Items are unavailable
 * (aria-disabled, still reachable) while `disabled`.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from './primitives';

export interface MenuItem {
  id: string;
  label: string;
  /** Drawn in the danger colour (an action that cannot be undone). */
  danger?: boolean;
  run: () => void;
}

export function MenuButton({
  label,
  ariaLabel,
  groups,
  disabled = false,
  variant = 'secondary',
  className,
}: {
  label: ReactNode;
  /** The button's name when its label is only a sign. */
  ariaLabel?: string;
  /** The items, in groups parted by a line. */
  groups: readonly (readonly MenuItem[])[];
  disabled?: boolean;
  variant?: 'secondary' | 'ghost';
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const trigger = useRef<HTMLButtonElement | null>(null);
  const menu = useRef<HTMLDivElement | null>(null);
  const [focusAt, setFocusAt] = useState<number | 'last' | null>(null);
  const shown = groups.filter((g) => g.length > 0);

  const itemButtons = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open || focusAt === null) return;
    const buttons = itemButtons();
    (focusAt === 'last' ? buttons[buttons.length - 1] : buttons[focusAt])?.focus();
    setFocusAt(null);
  }, [open, focusAt]);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !trigger.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  }

  function onTriggerKey(e: KeyboardEvent<HTMLButtonElement>) {
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(true);
      setFocusAt(e.key === 'ArrowUp' ? 'last' : 0);
    }
  }

  function onMenuKey(e: KeyboardEvent<HTMLDivElement>) {
    const buttons = itemButtons();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      e.preventDefault();
      e.stopPropagation();
      buttons[(to + buttons.length) % buttons.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(buttons.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') setOpen(false);
    else if (e.key === 'Enter' || e.key === ' ') e.stopPropagation();
  }

  function choose(item: MenuItem) {
    if (disabled) return;
    close(true);
    item.run();
  }

  return (
    <span className="relative inline-flex">
      <Button
        ref={trigger}
        id={`${id}-button`}
        variant={variant}
        className={className}
        aria-label={ariaLabel}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => {
          setOpen((o) => !o);
          if (!open) setFocusAt(0);
        }}
        onKeyDown={onTriggerKey}
      >
        {label}
      </Button>
      {open && (
        <div
          ref={menu}
          id={`${id}-menu`}
          role="menu"
          aria-labelledby={`${id}-button`}
          onKeyDown={onMenuKey}
          className="absolute right-0 top-full z-30 mt-1 flex min-w-max flex-col rounded-md border border-line bg-surface py-1 text-sm shadow-lg"
        >
          {shown.map((g, gi) => (
            <div key={gi} role="group" className={gi > 0 ? 'mt-1 border-t border-line pt-1' : undefined}>
              {g.map((item) => (
                <button
                  key={item.id}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  aria-disabled={disabled || undefined}
                  data-tone={item.danger ? 'danger' : undefined}
                  className={`block w-full whitespace-nowrap px-3 py-1.5 text-left hover:bg-muted focus:bg-muted focus:outline-none aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${item.danger ? 'text-red-700 dark:text-red-400' : ''}`}
                  onClick={() => choose(item)}
                >
                  {item.label}
                </button>
              ))}
            </div>
          ))}
        </div>
      )}
    </span>
  );
}
